"""A SimCord environment that closes the bots it ran (see tests/conftest.py: SimCord's shutdown never calls
``bot.close()``, which leaves the game service's SQLite connections and render processes open)."""

from __future__ import annotations

from typing import Any, NamedTuple

import discord
import simcord


class World(NamedTuple):
    """The tests' Discord: the guild "Rail Club", its #games channel and three members."""

    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any


def rail_club(env: simcord.Env) -> World:
    guild = env.create_guild("Rail Club")
    channel = guild.create_text_channel("games")
    alice, bob, carol = (guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol"))
    return World(guild, channel, alice, bob, carol)


class ClosingEnv(simcord.Env):
    """A SimCord environment that closes each bot it detaches (``bot.close()``: the service, its storage)."""

    async def restart_bot(self, bot: discord.Client | None = None) -> None:
        old = self.bot
        await super().restart_bot(bot)
        if bot is not None and bot is not old:
            await old.close()

    async def shutdown(self) -> None:
        try:
            await super().shutdown()
        finally:
            await self.bot.close()

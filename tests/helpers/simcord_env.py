"""A SimCord environment that closes the bots it ran (see tests/conftest.py: SimCord's shutdown never calls
``bot.close()``, which leaves the game service's SQLite connections and render processes open)."""

from __future__ import annotations

import discord
import simcord


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

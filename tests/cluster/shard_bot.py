"""One production bot running shard SHARD of 2 on a shared PostgreSQL database, in its own OS process (SimCord
allows one live environment per event loop, and two processes are what production runs): a server of its
shard plays a game to the end (``python tests/cluster/shard_bot.py URL SHARD``). Prints one JSON line."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_TESTS.parent), str(_TESTS)]  # this checkout's code and the tests' helpers

import simcord  # noqa: E402
from helpers.fast_pictures import FastPictures  # noqa: E402
from helpers.simcord_driver import Seen, is_final, open_game, play_until_over  # noqa: E402

from bot import Settings, create_bot  # noqa: E402
from bot.discord.app import ShardedTTRBot  # noqa: E402
from bot.wiring import Wiring  # noqa: E402


async def main(url: str, shard: int) -> None:
    settings = Settings(
        database_url=url, lobby_threads=False, render_workers=1, shard_count=2, shard_ids=(shard,)
    )
    bot = create_bot(settings, parts=Wiring(settings, ai_budget_ms=20, pictures=FastPictures()))
    assert isinstance(bot, ShardedTTRBot) and bot.shard_ids == [shard]
    env = simcord.Env(bot, shard_count=2, settle_timeout=60.0)
    await env.start()
    # SimCord's virtual time cannot tell a background task waiting on PostgreSQL's socket from a stuck one: the
    # timer dispatcher and the heartbeat (periodic PostgreSQL queries) stop here; the cluster's process tests
    # cover them. Every move of this game, the AI's included, runs inside the interactions.
    manager = bot.service.manager  # type: ignore[attr-defined]
    await manager.timers.stop()
    heartbeat = manager._heartbeat
    if heartbeat is not None:
        await heartbeat.stop()
        manager._heartbeat = None
    try:
        guild = env.create_guild(f"Shard {shard} club", shard_id=shard)
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        gid, _ = await open_game(channel, alice, board="italy", ais=("easy",))
        final = await play_until_over(channel, {alice.id: alice}, Seen())
        print(json.dumps({"game": gid, "guild": guild.id, "final": is_final(final)}), flush=True)
    finally:
        await env.shutdown()
        await bot.close()  # SimCord's shutdown does not close the bot: its service and database go here


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))

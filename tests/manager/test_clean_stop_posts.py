"""A clean stop (SIGTERM, a deploy) finishes the messages owed as rows that are in flight (posted, their row not
yet deleted or noted) and starts none: nothing is posted twice on a deploy. Before, the stop cancelled a post
Discord had already received; its row stayed, and the next process posted the message again."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

from helpers.manager_games import HUMANS, play_random, random_ai, started_game

from bot.manager import GameManager, ManualClock, NullNotifier

ANN = HUMANS[0][0]


@dataclass
class SlowDiscord(NullNotifier):
    """Discord takes `delay` s to acknowledge a post; the message is in the channel from the request on."""

    delay: float = 0.3
    sent: list[tuple[int, int]] = field(default_factory=list)
    in_flight: asyncio.Event = field(default_factory=asyncio.Event)

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.sent.append((seat, n))
        self.in_flight.set()
        await asyncio.sleep(self.delay)


async def _ann_to_play(manager: GameManager) -> str:
    gid, _ = await started_game(manager, humans=2, seed=4)
    await play_random(manager, gid, random.Random(4), moves=2)
    assert (await manager.status(gid)).to_act == (0,)
    return gid


async def test_a_clean_stop_during_a_slow_post_posts_it_once(tmp_path: Path) -> None:
    from bot.storage import open_repository

    url = f"sqlite:///{tmp_path / 'games.db'}"
    clock = ManualClock()
    discord = SlowDiscord()
    async with open_repository(url, clock=clock.now) as repo:
        first = GameManager(repo, clock=clock, ai=random_ai, notifier=discord)
        await first.start()
        gid = await _ann_to_play(first)
        clock.advance(hours=12, minutes=1)  # Ann's first reminder is due: the dispatcher posts it
        await asyncio.wait_for(discord.in_flight.wait(), 10)
        await first.close()  # SIGTERM while Discord has the post and has not answered yet
        assert discord.sent == [(0, 1)]
        assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]  # its row is gone with it
    async with open_repository(url, clock=clock.now) as repo:  # the next process (the deploy's new one)
        second = GameManager(repo, clock=clock, ai=random_ai, notifier=discord)
        await second.start(dispatcher=False)
        for _ in range(3):
            clock.advance(minutes=1)  # past every lease
            await second.run_due_timers()
        await second.close()
    assert discord.sent == [(0, 1)]  # once


async def test_a_message_not_begun_when_the_stop_begins_is_left_to_the_next_process(tmp_path: Path) -> None:
    from bot.storage import open_repository

    url = f"sqlite:///{tmp_path / 'games.db'}"
    clock = ManualClock()
    discord = SlowDiscord(delay=0.0)
    async with open_repository(url, clock=clock.now) as repo:
        first = GameManager(repo, clock=clock, ai=random_ai, notifier=discord)
        await first.start(dispatcher=False)
        await _ann_to_play(first)
        assert await first.finish_posts(1.0)  # the stop begins
        clock.advance(hours=12, minutes=1)
        await first.run_due_timers()  # the reminder is due: not begun by a stopping process
        await first.close()
        assert discord.sent == []
    async with open_repository(url, clock=clock.now) as repo:
        second = GameManager(repo, clock=clock, ai=random_ai, notifier=discord)
        await second.start(dispatcher=False)
        clock.advance(minutes=1)  # (past the lease: SQLite writes no heartbeat, so no claims are freed)
        await second.run_due_timers()
        await second.close()
    assert discord.sent == [(0, 1)]

"""Two processes on one PostgreSQL (issue 33, item 4): the daily digest is sent once a day, whichever process
looks and however often both look at once (the one that moves its due time on sends it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai, started_game
from helpers.pg_schema import fresh_pg_schema

from bot.manager import GameManager, ManualClock
from bot.storage import open_repository

ANN = HUMANS[0][0]


@dataclass
class Digested(RecordingNotifier):
    digests: list[int] = field(default_factory=list)

    async def on_digest(self, user_id: int) -> None:
        await asyncio.sleep(0)  # the other process runs meanwhile
        self.digests.append(user_id)


@pytest.fixture
async def two() -> AsyncIterator[tuple[GameManager, GameManager, Digested, Digested, ManualClock]]:
    clock = ManualClock()
    clock.advance(datetime(2026, 3, 27, 12, 0, tzinfo=UTC) - clock.now())
    async with (
        fresh_pg_schema() as (url, _schema),
        open_repository(url, clock=clock.now) as repo_a,
        open_repository(url, clock=clock.now) as repo_b,
    ):
        heard_a, heard_b = Digested(), Digested()
        a = GameManager(repo_a, clock=clock, notifier=heard_a, ai=random_ai, retry_delays=(0.01,))
        b = GameManager(repo_b, clock=clock, notifier=heard_b, ai=random_ai, retry_delays=(0.01,))
        heard_a.manager, heard_b.manager = a, b
        await a.start(dispatcher=False)
        await b.start(dispatcher=False)
        try:
            yield a, b, heard_a, heard_b, clock
        finally:
            await b.close()
            await a.close()


async def test_exactly_one_digest_a_day_across_two_processes(
    two: tuple[GameManager, GameManager, Digested, Digested, ManualClock],
) -> None:
    a, b, heard_a, heard_b, clock = two
    await started_game(a, humans=2)
    await a.set_player_time(ANN, time_zone="Europe/Paris", quiet_hours="23:00-07:00")
    await b.set_daily_digest(ANN, "08:00")
    for day in range(3):
        clock.advance(datetime(2026, 3, 28 + day, 9, 0, tzinfo=UTC) - clock.now())  # past 08:00 in Paris
        for _ in range(3):  # both dispatchers at once, and again
            await asyncio.gather(a.run_due_timers(), b.run_due_timers())
        assert len([*heard_a.digests, *heard_b.digests]) == day + 1
    assert {*heard_a.digests, *heard_b.digests} == {ANN}

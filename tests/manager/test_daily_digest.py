"""The daily digest by direct message (issue 33, item 4; bot.manager.digests), on a fake clock: sent at the
player's hour in their time zone (across a daylight-saving change), deferred past their quiet hours, once a day,
never when turned off or when they sit in no open game, and kept after a restart (a new manager, same database)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai, started_game

from bot.manager import GameManager, ManualClock, Refused
from bot.storage import GameRepository

ANN, ZED = HUMANS[0][0], 999  # Ann sits in a game; Zed in none


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@dataclass
class Digested(RecordingNotifier):
    digests: list[tuple[int, datetime]] = field(default_factory=list)
    clock: ManualClock | None = None

    async def on_digest(self, user_id: int) -> None:
        assert self.clock is not None
        self.digests.append((user_id, self.clock.now()))


@pytest.fixture
def notifier(clock: ManualClock) -> Digested:
    return Digested(clock=clock)


async def at(manager: GameManager, clock: ManualClock, moment: datetime) -> None:
    clock.advance(moment - clock.now())
    await manager.run_due_timers()


@pytest.fixture
async def seated(manager: GameManager, clock: ManualClock) -> AsyncIterator[str]:
    clock.advance(utc(2026, 3, 27, 12, 0) - clock.now())  # a Friday, 13:00 in Paris (CET)
    game_id, _ = await started_game(manager, humans=2)
    yield game_id


async def test_at_the_players_hour_in_their_zone_across_the_spring_forward(
    manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_player_time(ANN, time_zone="Europe/Paris")
    assert await manager.set_daily_digest(ANN, "08:00") == 8 * 60
    assert await manager.daily_digest(ANN) == 8 * 60
    await at(manager, clock, utc(2026, 3, 28, 6, 59))  # 07:59 CET
    assert notifier.digests == []
    await at(manager, clock, utc(2026, 3, 28, 7, 0))  # 08:00 CET
    assert notifier.digests == [(ANN, utc(2026, 3, 28, 7, 0))]
    for _ in range(3):  # looked at again that day: once a day
        await at(manager, clock, utc(2026, 3, 28, 20, 0))
    assert len(notifier.digests) == 1
    # the clocks spring forward that night: 08:00 CEST on Sunday is 06:00 UTC, not 07:00
    await at(manager, clock, utc(2026, 3, 29, 5, 59))
    assert len(notifier.digests) == 1
    await at(manager, clock, utc(2026, 3, 29, 6, 0))
    assert notifier.digests[-1] == (ANN, utc(2026, 3, 29, 6, 0))
    assert len(notifier.digests) == 2


async def test_deferred_past_quiet_hours(
    manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_player_time(ANN, time_zone="Asia/Tokyo", quiet_hours="22:00-09:30")
    await manager.set_daily_digest(ANN, "7")  # 07:00 Tokyo: in their quiet hours
    await at(manager, clock, utc(2026, 3, 28, 0, 29))  # 09:29 JST
    assert notifier.digests == []
    await at(manager, clock, utc(2026, 3, 28, 0, 30))  # 09:30 JST: the end of their quiet hours
    assert notifier.digests == [(ANN, utc(2026, 3, 28, 0, 30))]
    await at(manager, clock, utc(2026, 3, 28, 23, 0))  # 08:00 JST the next day: still quiet
    assert len(notifier.digests) == 1
    await at(manager, clock, utc(2026, 3, 29, 0, 30))
    assert len(notifier.digests) == 2


async def test_a_new_time_zone_moves_the_digest(
    manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_daily_digest(ANN, "on")  # 08:00 UTC by default
    await manager.set_player_time(ANN, time_zone="America/New_York")  # 08:00 EDT: 12:00 UTC
    await at(manager, clock, utc(2026, 3, 28, 8, 0))
    assert notifier.digests == []
    await at(manager, clock, utc(2026, 3, 28, 12, 0))
    assert notifier.digests == [(ANN, utc(2026, 3, 28, 12, 0))]


async def test_none_when_turned_off(
    manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_daily_digest(ANN, "08:00")
    assert await manager.set_daily_digest(ANN, "off") is None
    assert await manager.daily_digest(ANN) is None
    await at(manager, clock, utc(2026, 3, 30, 12, 0))
    assert notifier.digests == []


async def test_none_when_in_no_open_game(
    manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_daily_digest(ZED, "08:00")
    await manager.set_daily_digest(ANN, "08:00")
    await at(manager, clock, utc(2026, 3, 28, 8, 0))
    assert notifier.digests == [(ANN, utc(2026, 3, 28, 8, 0))]


async def test_a_value_that_cannot_be_read_is_refused(manager: GameManager) -> None:
    for bad in ("25:00", "soon", "8-9"):
        with pytest.raises(Refused) as refused:
            await manager.set_daily_digest(ANN, bad)
        assert refused.value.code == "bad_time_pref"


async def test_durable_across_a_restart(
    repo: GameRepository, manager: GameManager, clock: ManualClock, notifier: Digested, seated: str
) -> None:
    await manager.set_daily_digest(ANN, "08:00")
    again = Digested(clock=clock)
    other = GameManager(repo, clock=clock, notifier=again, ai=random_ai, retry_delays=(0.01,))
    await other.start(dispatcher=False)
    try:
        clock.advance(utc(2026, 3, 28, 8, 0) - clock.now())
        await other.run_due_timers()
        await manager.run_due_timers()
    finally:
        await other.close()
    assert [*again.digests, *notifier.digests] == [(ANN, utc(2026, 3, 28, 8, 0))]

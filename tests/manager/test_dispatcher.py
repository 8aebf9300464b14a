"""The one timer dispatcher, driven by a simulated clock: moving a ManualClock wakes it, nothing sleeps for real."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, play_random, random_ai, started_game

from bot.manager import GameManager, ManualClock
from bot.storage import GameRepository
from engine.state import MAIN

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


@pytest.fixture
async def running(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> AsyncIterator[GameManager]:
    """A manager whose dispatcher runs, as in production."""
    m = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai, retry_delays=(0.01,))
    await m.start()
    try:
        yield m
    finally:
        await m.close()


async def _settle(manager: GameManager) -> None:
    await asyncio.wait_for(manager.timers.settled(), 10)


async def test_moving_the_clock_fires_the_reminders_then_an_ai_plays_the_absent_turn(
    running: GameManager, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    started = time.monotonic()
    gid, _ = await started_game(running, humans=2, seed=4)
    await play_random(running, gid, random.Random(4), moves=2)
    info = await running.status(gid)
    assert info.phase == MAIN and info.to_act == (0,) and running.timers.running
    await _settle(running)
    clock.advance(hours=11, minutes=59)
    await _settle(running)
    assert notifier.reminders == []
    clock.advance(minutes=1)  # twelve hours after the last move: reminder 1, with no call but the clock's
    await _settle(running)
    assert notifier.reminders == [(gid, 0, ANN, 1)]
    clock.advance(hours=12)
    await _settle(running)
    assert notifier.reminders == [(gid, 0, ANN, 1), (gid, 0, ANN, 2)] and notifier.turns == []
    clock.advance(hours=24)  # the absent-player policy ("ai" by default) plays Ann's turn
    await _settle(running)
    assert notifier.absent == [(gid, 0, ANN, "ai")]
    ((turn_gid, outcome),) = notifier.turns
    assert turn_gid == gid and {e.by for e in outcome.events if e.seat == 0} == {"absent_ai"}
    assert outcome.to_act == (1,) and outcome.info.current == 1 and outcome.state is not None
    assert (await running.status(gid)).to_act == (1,)
    assert time.monotonic() - started < 30  # two simulated days, no real waiting


async def test_a_resume_row_left_by_a_crash_is_served_when_the_clock_reaches_it(
    running: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid, _ = await started_game(running, humans=2, seed=4)
    await play_random(running, gid, random.Random(4), moves=2)
    # a resume row, as left by a crash in the middle of AI moves: the dispatcher serves it when due
    await running.hand_to_ai(gid, ANN)
    assert (await running.status(gid)).seats[0].ai_level == "normal"
    await repo.add_timer(gid, "resume", clock.now(), {})
    running._store.evict(gid)  # the cached timer list does not know the row, as after a restart
    clock.advance(seconds=1)
    await _settle(running)
    # the AI's moves (made by hand_to_ai) owe a turn message nobody posted here (no "told_through" note): the
    # dispatcher serves it, once, after its grace time
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["tell", "turn"]
    assert notifier.turns == []
    clock.advance(seconds=31)
    await _settle(running)
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]
    ((turn_gid, outcome),) = notifier.turns
    assert turn_gid == gid and outcome.events == ()


async def test_start_and_stop(repo: GameRepository, clock: ManualClock) -> None:
    manager = GameManager(repo, clock=clock, ai=random_ai)
    await manager.start(dispatcher=False)
    assert not manager.timers.running
    with pytest.raises(RuntimeError):
        await manager.timers.settled()
    manager.timers.start()
    manager.timers.start()  # one dispatcher, however often it is started
    assert manager.timers.running
    await _settle(manager)
    await manager.close()
    assert not manager.timers.running

"""An owed message whose post raises (a bug in the bot, not Discord refusing it) keeps its row: it is tried
again each time its lease ends, and given up after MAX_POST_FAILURES tries in one process (the row deleted, an
error for the host), so a message that can never be built does not loop for ever."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, play_random, random_ai, started_game

from bot.manager import GameManager, ManualClock
from bot.manager.cluster import DEFAULT_LEASE
from bot.manager.leases import MAX_POST_FAILURES
from bot.storage import GameRepository

ANN = HUMANS[0][0]


@dataclass
class FailingNotifier(RecordingNotifier):
    """Its reminders raise for the first `failures` posts."""

    failures: int = 0
    tries: int = 0

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.tries += 1
        if self.tries <= self.failures:
            raise RuntimeError("the message could not be built")
        await super().on_reminder(game_id, seat, user_id, n)


async def _reminder_due(manager: GameManager, clock: ManualClock) -> str:
    """A game where Ann alone is to play, her first reminder now due."""
    gid, _ = await started_game(manager, humans=2, seed=4)
    await play_random(manager, gid, random.Random(4), moves=2)
    assert (await manager.status(gid)).to_act == (0,)
    clock.advance(hours=12)
    return gid


async def _serve_leases(manager: GameManager, clock: ManualClock, leases: int) -> None:
    for _ in range(leases):
        await manager.run_due_timers()
        clock.advance(seconds=DEFAULT_LEASE + 1)  # the failed row's lease ends: it is due again


@pytest.mark.parametrize("failures", [1, MAX_POST_FAILURES - 1])
async def test_a_reminder_whose_post_failed_is_sent_once_when_its_lease_ends(
    repo: GameRepository, clock: ManualClock, failures: int
) -> None:
    notifier = FailingNotifier(failures=failures)
    manager = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai)
    notifier.manager = manager
    gid = await _reminder_due(manager, clock)
    await _serve_leases(manager, clock, MAX_POST_FAILURES + 2)
    assert notifier.tries == failures + 1 and notifier.reminders == [(gid, 0, ANN, 1)]
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]  # the remind row went once sent
    await manager.close()


async def test_a_reminder_that_always_fails_is_given_up_after_the_last_try(
    repo: GameRepository, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = FailingNotifier(failures=10**6)
    manager = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai)
    notifier.manager = manager
    gid = await _reminder_due(manager, clock)
    with caplog.at_level(logging.ERROR, logger="bot.manager.timers"):
        await _serve_leases(manager, clock, MAX_POST_FAILURES + 5)
    assert notifier.tries == MAX_POST_FAILURES and notifier.reminders == []
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]  # given up; the game goes on
    given_up = [r for r in caplog.records if "given up" in r.getMessage()]
    assert len(given_up) == 1 and f"failed {MAX_POST_FAILURES} times" in given_up[0].getMessage()
    await manager.close()

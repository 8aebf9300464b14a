"""Storage trouble: a locked database, a write that "failed" but landed, another writer getting in first."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers.manager_games import HUMANS, play_random, random_ai, started_game, state_of
from helpers.stored_games import assert_stored_is_log_replayed

from bot.manager import GameManager, ManualClock, Refused
from bot.manager.positions import stored_state
from bot.storage import (
    ActionRecord,
    GameRepository,
    NewTimer,
    SeatResult,
    StorageUnavailable,
    TimerChange,
    open_repository,
)
from engine.actions import DrawBlind

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


async def _game_in_play(manager: GameManager) -> str:
    gid, _ = await started_game(manager, humans=2, seed=9)
    await play_random(manager, gid, random.Random(9), moves=2)
    return gid


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "locked.db"


async def test_locked_database_refuses_cleanly_then_the_same_move_succeeds(db_path: Path) -> None:
    async with open_repository(f"sqlite:///{db_path}?busy_timeout=30") as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01, 0.01))
        gid = await _game_in_play(manager)
        token = await manager.turn_token(gid, ANN)
        before = await repo.load_game(gid)
        blocker = sqlite3.connect(db_path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
        try:
            with pytest.raises(Refused) as err:
                await manager.act(gid, ANN, DrawBlind(), expected_turn=token)
            assert err.value.code == "storage"
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        after = await repo.load_game(gid)
        assert (after.version, after.action_count, after.snapshot) == (
            before.version,
            before.action_count,
            before.snapshot,
        )
        # the manager's memory was rolled back too: same token, same move, now accepted
        assert await manager.turn_token(gid, ANN) == token
        outcome = await manager.act(gid, ANN, DrawBlind(), expected_turn=token)
        assert outcome.seqs == (before.action_count + 1,)
        await assert_stored_is_log_replayed(repo, gid, await manager.export_record(gid))


async def test_lock_released_during_the_retries_applies_once(db_path: Path) -> None:
    async with open_repository(f"sqlite:///{db_path}?busy_timeout=20") as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.05, 0.1, 0.2, 0.4))
        gid = await _game_in_play(manager)
        count = (await repo.load_game(gid)).action_count
        blocker = sqlite3.connect(db_path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(0.1, blocker.execute, "ROLLBACK")
        try:
            outcome = await manager.act(gid, ANN, DrawBlind())
        finally:
            blocker.close()
        assert outcome.seqs == (count + 1,)
        assert len(await repo.load_actions(gid)) == count + 1


class LandsThenFails:
    """A repository whose next append_action commits and then reports StorageUnavailable (a lost reply)."""

    def __init__(self, inner: GameRepository) -> None:
        self._inner = inner
        self.lie_next = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def append_action(
        self,
        game_id: str,
        expected_version: int,
        seat: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any],
        status: Any = None,
        *,
        results: Sequence[SeatResult] | None = None,
        timers: TimerChange | None = None,
    ) -> ActionRecord:
        record = await self._inner.append_action(
            game_id, expected_version, seat, action, new_snapshot, status, results=results, timers=timers
        )
        if self.lie_next:
            self.lie_next = False
            raise StorageUnavailable("connection lost after commit")
        return record


async def test_a_write_that_landed_despite_an_error_is_not_applied_twice(repo: GameRepository) -> None:
    flaky = LandsThenFails(repo)
    manager = GameManager(flaky, clock=ManualClock(), ai=random_ai, retry_delays=(0.0,))  # type: ignore[arg-type]
    gid = await _game_in_play(manager)
    count = (await repo.load_game(gid)).action_count
    flaky.lie_next = True
    outcome = await manager.act(gid, ANN, DrawBlind())
    assert outcome.seqs == (count + 1,)
    rows = await repo.load_actions(gid)
    assert len(rows) == count + 1 and rows[-1].action == {"type": "draw_blind", "warehouse": None}
    assert (await state_of(manager, gid)).to_dict() == (await stored_state(repo, gid)).to_dict()  # type: ignore[union-attr]


async def test_another_writer_first_reloads_and_rechecks(db_url: str, repo: GameRepository) -> None:
    clock = ManualClock()
    first = GameManager(repo, clock=clock, ai=random_ai)
    gid = await _game_in_play(first)
    async with open_repository(db_url) as repo2:
        second = GameManager(repo2, clock=clock, ai=random_ai)
        stale_token = await second.turn_token(gid, ANN)  # second caches the game now
        await first.act(gid, ANN, DrawBlind())  # Ann's first card, through the other manager
        # second's cached state is one action behind: its write conflicts, it reloads and applies the
        # action to the real state (Ann's second card)
        outcome = await second.act(gid, ANN, DrawBlind())
        assert outcome.seqs == ((await repo.load_game(gid)).action_count,)
        assert (await second.status(gid)).to_act == (1,)
        # with a token from before, the reloaded game shows the click is stale
        with pytest.raises(Refused) as err:
            await first.act(gid, BOB, DrawBlind(), expected_turn=stale_token)
        assert err.value.code == "stale"
        await assert_stored_is_log_replayed(repo, gid, await second.export_record(gid))


async def test_a_database_that_cannot_take_writes_is_refused_clearly_with_one_error_line(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_repository(f"sqlite:///{db_path}") as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01, 0.01))
        gid = await _game_in_play(manager)
        before = await repo.load_game(gid)
        # the writer connection now gets what a read-only file gives: SQLITE_READONLY on every write
        await repo._writer.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        caplog.clear()
        with caplog.at_level(logging.INFO):
            for _ in range(3):  # every press is answered; the host reads one line for the outage
                with pytest.raises(Refused) as err:
                    await manager.act(gid, ANN, DrawBlind())
                assert err.value.code == "storage_unavailable"
                assert set(err.value.params) == set()
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and all(r.exc_info is None for r in errors)
        assert "writable" in errors[0].getMessage()  # what the host must do
        assert not [r for r in caplog.records if r.levelno == logging.WARNING]  # no pointless retries
        after = await repo.load_game(gid)
        assert (after.version, after.snapshot) == (before.version, before.snapshot)
        await repo._writer.execute("PRAGMA query_only = OFF")  # type: ignore[attr-defined]
        assert (await manager.act(gid, ANN, DrawBlind())).seqs == (before.action_count + 1,)
        (back,) = [r for r in caplog.records if r.levelno == logging.WARNING]  # the outage's end, once
        assert "works again" in back.getMessage()


async def test_a_timer_that_meets_a_broken_database_stays_to_be_served_later(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    async with open_repository(f"sqlite:///{db_path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai, retry_delays=(0.01,))
        gid, _ = await started_game(manager, humans=2, ais=1, seed=8)
        # a resume row due now (as left by an interrupted AI move); the database then refuses every write
        await repo.change_timers(gid, TimerChange(clear_all=True, add=(NewTimer("resume", clock.now()),)))
        manager._store.evict(gid)
        await repo._writer.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        with pytest.raises(StorageUnavailable):
            await manager.run_due_timers()
        await repo._writer.execute("PRAGMA query_only = OFF")  # type: ignore[attr-defined]
        assert [t.kind for t in await repo.timers_for_game(gid)] == ["resume"]

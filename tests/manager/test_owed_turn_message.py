"""The turn message owed after automatic moves is durable work: the change that makes it due (the AI's move)
writes a ``tell`` row in its own transaction, the dispatcher serves the row after a crash, and the turn message
writes the ``told_through`` note that clears the row in the same transaction, so it is posted exactly once.

The kill is injected as in test_no_stall: the repository dies instead of making its n-th call, for every n."""

from __future__ import annotations

import asyncio
import shutil
from datetime import datetime, timedelta
from pathlib import Path

from manager_helpers import RecordingNotifier, random_ai
from test_no_stall import _bob_plays_his_turn, _prepare, _run_killed

from bot.manager import GameManager, ManualClock
from bot.storage import open_repository

TOLD_THROUGH = "told_through"  # the note bot.play.thread writes when it tells a turn (RecordingNotifier too)


async def _restart(path: Path, now: datetime, gid: str) -> tuple[list[int], int, bool, list[str]]:
    """Restart on the file, let ten simulated minutes pass: (turn messages posted, log length, whether the AI
    seat made the last move, the timer kinds left)."""
    clock = ManualClock(now)
    notifier = RecordingNotifier()
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
        notifier.manager = manager
        await manager.start()
        try:
            for _ in range(10):
                await asyncio.wait_for(manager.timers.settled(), 10)
                clock.advance(minutes=1)
            await asyncio.wait_for(manager.timers.settled(), 10)
            game = await manager._store.get(gid)
            assert game.state is not None
            history = game.state.history
            by_ai = bool(history) and game.seats[history[-1][0]].ai_level is not None
            kinds = sorted(t.kind for t in await repo.timers_for_game(gid))
            told = [len(o.state.history) for _, o in notifier.turns if o.state is not None]
            return told, len(history), by_ai, kinds
        finally:
            await manager.close()


async def _told_so_far(path: Path, clock: ManualClock, gid: str) -> None:
    """The turn messages of the moves so far were posted (_prepare plays with no bot attached)."""
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        game = await manager._store.get(gid)
        assert game.state is not None
        await manager.swap_note(gid, TOLD_THROUGH, len(game.state.history))
        await manager.close()


async def test_a_kill_after_the_ai_move_posts_its_turn_message_exactly_once_after_the_restart(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    base = tmp_path / "before.db"
    gid = await _prepare(base, clock, started=True)
    await _told_so_far(base, clock, gid)
    now = clock.now() + timedelta(minutes=5)
    dry = tmp_path / "dry.db"
    shutil.copy(base, dry)
    calls = await _run_killed(dry, now, gid, _bob_plays_his_turn, None)
    wrong = []
    # the last point (no kill) is the process dying after the manager answered, before the post
    for at in [*range(1, calls + 1), None]:
        db = tmp_path / f"kill{at}.db"
        shutil.copy(base, db)
        await _run_killed(db, now, gid, _bob_plays_his_turn, at)
        turns, length, by_ai, kinds = await _restart(db, now, gid)
        expected = [length] if by_ai else []
        if turns != expected or "tell" in kinds:
            wrong.append(f"killed before call {at}: posted {turns}, expected {expected}, rows {kinds}")
    assert wrong == []


async def test_an_owed_turn_message_already_told_is_not_posted_again(tmp_path: Path) -> None:
    """A crash after the post but before the row goes: the note says the position is told, no second post."""
    clock = ManualClock()
    path = tmp_path / "game.db"
    gid = await _prepare(path, clock, started=True)
    await _told_so_far(path, clock, gid)
    now = clock.now() + timedelta(minutes=5)
    await _run_killed(path, now, gid, _bob_plays_his_turn, None)
    async with open_repository(f"sqlite:///{path}", clock=ManualClock(now).now) as repo:
        assert "tell" in [t.kind for t in await repo.timers_for_game(gid)]
        manager = GameManager(repo, clock=ManualClock(now), ai=random_ai)
        game = await manager._store.get(gid)
        told = len(game.state.history) if game.state is not None else 0
        await manager.swap_note(gid, TOLD_THROUGH, told)  # the note the post wrote; then the kill
        await manager.close()
        await repo.add_timer(gid, "tell", now, {})  # the row as if the note had not cleared it
    turns, length, by_ai, kinds = await _restart(path, now, gid)
    assert by_ai and length == told and turns == [] and "tell" not in kinds

"""A game never stalls after a crash: a kill between any two storage calls of a change leaves the work that moves
the game on, and the game moves on within a minute of the restart.

The kill is injected: the repository raises :class:`Killed` (a BaseException, which nothing in the manager
catches, as nothing survives kill -9) instead of making its n-th call, for every n. Nothing after it runs, and
what the database holds is what a kill -9 at that moment leaves (a write in flight is one transaction: it is all
there, or not). Then a fresh manager on the same file starts, the simulated clock moves a minute, and the game
must have moved on: no AI seat still to act, and a timer armed for any person who must act. Under the ``wait``
absent policy a game the AI should move would otherwise wait for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from helpers.kill_harness import KillAt, Killed
from helpers.manager_games import HUMANS, random_ai

from bot.manager import GameManager, ManualClock
from bot.storage import GameStatus, open_repository
from engine.actions import DrawBlind, KeepTickets
from engine.pending import TicketChoice

ANN, BOB = HUMANS[0][0], HUMANS[1][0]
WAIT = {"absent_policy": "wait"}


Operation = Callable[[GameManager, str], Awaitable[object]]


async def _bob_plays_his_turn(manager: GameManager, gid: str) -> None:
    """Bob's turn; play passes to the AI seat after it."""
    await manager.act(gid, BOB, DrawBlind())
    await manager.act(gid, BOB, DrawBlind())


async def _bob_hands_to_ai(manager: GameManager, gid: str) -> None:
    await manager.hand_to_ai(gid, BOB)


async def _ann_kicks_bob(manager: GameManager, gid: str) -> None:
    await manager.kick(gid, ANN, BOB)


async def _bob_leaves(manager: GameManager, gid: str) -> None:
    await manager.leave(gid, BOB)


async def _ann_starts(manager: GameManager, gid: str) -> None:
    await manager.start_game(gid, ANN, seed=5)


async def _keep_all_tickets(manager: GameManager, gid: str, user_id: int) -> None:
    game = await manager._store.get(gid)
    seat = game.seat_of(user_id)
    assert game.state is not None and seat is not None
    pending = game.state.pending[seat]
    assert isinstance(pending, TicketChoice)
    await manager.act(gid, user_id, KeepTickets(tuple(sorted(pending.offered))))


async def _prepare(path: Path, clock: ManualClock, *, started: bool) -> str:
    """Ann, Bob and an AI seat under the "wait" policy; started: in the main phase with Bob to play."""
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        info = await manager.create_game(
            guild_id=1, channel_id=1, host_id=ANN, host_name="Ann", settings=WAIT
        )
        gid = info.game_id
        await manager.join(gid, BOB, "Bob")
        await manager.add_ai(gid, ANN, "easy")
        if started:
            await manager.start_game(gid, ANN, seed=5)
            await _keep_all_tickets(manager, gid, ANN)
            await _keep_all_tickets(manager, gid, BOB)
            for _ in range(10):  # to Bob's turn
                status = await manager.status(gid)
                if status.to_act == (1,):
                    break
                user = ANN if status.to_act == (0,) else BOB
                await manager.act(gid, user, DrawBlind())
            assert (await manager.status(gid)).to_act == (1,)
        await manager.close()
    return gid


async def _run_killed(path: Path, now: datetime, gid: str, op: Operation, at: int | None) -> int:
    """Run `op` on a manager whose storage dies at its `at`-th call; returns the number of calls made."""
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        killer = KillAt(repo, at)
        manager = GameManager(killer, clock=clock, ai=random_ai, retry_delays=())  # type: ignore[arg-type]
        with contextlib.suppress(Killed):
            await op(manager, gid)
        return killer.calls


async def _moves_on_after_restart(path: Path, now: datetime, gid: str) -> str | None:
    """Restart on the file and move the clock one minute: None if the game moved on, else what is wrong."""
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start()
        try:
            await asyncio.wait_for(manager.timers.settled(), 10)
            clock.advance(minutes=1)
            await asyncio.wait_for(manager.timers.settled(), 10)
            game = await manager._store.get(gid)
            if game.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                return None
            humans, ai = game.waiting()
            if ai:
                return f"AI seats {game.ai_seats_to_act()} still to act a minute after the restart"
            rows = [t for t in await repo.timers_for_game(gid) if t.kind == "turn"]
            if humans and not rows:
                return f"seats {humans} must act and no timer will remind them"
            return None
        finally:
            await manager.close()


@pytest.mark.parametrize(
    ("op", "started"),
    [
        (_bob_plays_his_turn, True),
        (_bob_hands_to_ai, True),
        (_ann_kicks_bob, True),
        (_bob_leaves, True),
        (_ann_starts, False),
    ],
    ids=["move", "hand_to_ai", "kick", "leave", "start"],
)
async def test_a_kill_between_any_two_storage_calls_never_stalls_the_game(
    tmp_path: Path, op: Operation, started: bool
) -> None:
    clock = ManualClock()
    base = tmp_path / "before.db"
    gid = await _prepare(base, clock, started=started)
    now = clock.now() + timedelta(minutes=5)
    dry = tmp_path / "dry.db"
    shutil.copy(base, dry)
    calls = await _run_killed(dry, now, gid, op, None)
    assert calls >= 2
    stalls = []
    for at in range(1, calls + 2):
        db = tmp_path / f"kill{at}.db"
        shutil.copy(base, db)
        await _run_killed(db, now, gid, op, at)
        problem = await _moves_on_after_restart(db, now, gid)
        if problem is not None:
            stalls.append(f"killed before storage call {at}: {problem}")
    assert stalls == []


async def test_start_up_schedules_a_running_game_left_without_its_timers(tmp_path: Path) -> None:
    """A database written by a version that stored the timers after the change: the AI's move was due, no row
    says so. The restart finds it and the AI plays within a minute."""
    clock = ManualClock()
    path = tmp_path / "old.db"
    gid = await _prepare(path, clock, started=True)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        await manager.hand_to_ai(gid, BOB)  # the AI plays Bob's turn, and its own; Ann is to act
        await manager.close()
        await repo.delete_timers(gid)
        game = await repo.load_game(gid)
        assert game.status == GameStatus.ACTIVE
    assert await _moves_on_after_restart(path, clock.now(), gid) is None
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]

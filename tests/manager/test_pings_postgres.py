"""Two processes on one PostgreSQL (issue 33): a held turn ping is sent once, never twice for one turn, whichever
process serves its row and however many rows the two wrote; and never once the player moved, even when the move
is made by the other process between the look at the game and the send (the claim is under the game's version)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai, started_game
from helpers.pg_schema import fresh_pg_schema

from bot.manager import GameManager, ManualClock
from bot.manager.timer_rows import Ping, PingKind
from bot.storage import TimerChange, open_repository
from engine.state import SETUP


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_pg_schema() as (url, _schema):
        yield url


@dataclass
class Pinged(RecordingNotifier):
    pings: list[tuple[str, int, int, PingKind, int]] = field(default_factory=list)

    async def on_ping(self, game_id: str, seat: int, user_id: int, what: PingKind, n: int) -> None:
        self.pings.append((game_id, seat, user_id, what, n))


async def _main_phase(manager: GameManager) -> tuple[str, int, int]:
    """A two-player game past its ticket choice: (game, seat to play, its player)."""
    game_id, _ = await started_game(manager, humans=2, seed=5)
    while True:
        info = await manager.status(game_id)
        state = await manager.state_of(game_id)
        assert state is not None
        if state.phase != SETUP:
            break
        seat = info.to_act[0]
        user = info.seats[seat].user_id
        assert user is not None
        legal = await manager.legal_actions(game_id, user)
        await manager.act(game_id, user, legal[0], expected_turn=info.tokens[seat])
    (seat,) = info.to_act
    user = info.seats[seat].user_id
    assert user is not None
    return game_id, seat, user


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[GameManager, GameManager, Pinged, Pinged, ManualClock]]:
    clock = ManualClock()
    async with (
        open_repository(pg_url, clock=clock.now) as repo_a,
        open_repository(pg_url, clock=clock.now) as repo_b,
    ):
        heard_a, heard_b = Pinged(), Pinged()
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


async def test_never_two_pings_for_one_turn(
    two: tuple[GameManager, GameManager, Pinged, Pinged, ManualClock],
) -> None:
    a, b, heard_a, heard_b, clock = two
    game_id, seat, user = await _main_phase(a)
    await a.set_player_time(user, ping_delay=20)
    # both processes post the turn message (and hold the ping); a third row as if two writers raced
    assert await a.hold_turn_pings(game_id, frozenset({seat})) == {seat}
    assert await b.hold_turn_pings(game_id, frozenset({seat})) == {seat}
    key = (await a._store.get(game_id)).wait_key()
    extra = Ping(key, seat, user, PingKind.TURN).row(clock.now() + timedelta(minutes=20))
    await a._store.repo.change_timers(game_id, TimerChange(add=(extra, extra)))
    assert len(await a._store.repo.timers_for_game(game_id, "ping")) == 3
    clock.advance(minutes=21)
    for _ in range(3):  # both dispatchers at once, and again
        await asyncio.gather(a.run_due_timers(), b.run_due_timers())
    assert [*heard_a.pings, *heard_b.pings] == [(game_id, seat, user, "turn", 0)]
    assert await a._store.repo.timers_for_game(game_id, "ping") == []


async def test_never_a_ping_after_the_move_made_by_the_other_process(
    two: tuple[GameManager, GameManager, Pinged, Pinged, ManualClock],
) -> None:
    a, b, heard_a, heard_b, clock = two
    game_id, seat, user = await _main_phase(b)
    await a.set_player_time(user, ping_delay=20)
    await b.hold_turn_pings(game_id, frozenset({seat}))
    await a.status(game_id)  # A holds the game in its cache, as it was before the move
    repo = a._store.repo
    real_claim = repo.claim_ping
    moved: list[bool] = []

    async def move_first(*args: Any) -> bool:
        """B's move lands after A looked at the game and decided to ping, before A's claim."""
        if not moved:
            moved.append(True)
            info = await b.status(game_id)
            legal = await b.legal_actions(game_id, user)
            await b.act(game_id, user, legal[0], expected_turn=info.tokens[seat])
        return await real_claim(*args)

    repo.claim_ping = move_first  # type: ignore[method-assign]
    clock.advance(minutes=21)
    for _ in range(3):
        await a.run_due_timers()
    assert moved
    assert [p for p in [*heard_a.pings, *heard_b.pings] if p[3] == "turn"] == []
    assert await repo.timers_for_game(game_id, "ping") == []


_ = HUMANS

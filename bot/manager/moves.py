"""Playing one action on a game, and the moves nobody clicked (AI seats, the absent-player policy).

:meth:`Moves.commit` is the only place an action reaches the engine: apply on a COPY of the cached state, persist
(``append_action``: log row + snapshot + version in one transaction, the results too when the game ends), then
adopt the copy and describe what happened. A refusal or a storage failure leaves the cache untouched (or
evicted), so nothing is ever half-applied. Callers hold the game's lock.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

from bot.manager.ai import AIChooser, choose_ai_action, minimal_action
from bot.manager.clock import Clock
from bot.manager.events import (
    GameEvent,
    PrivateEvent,
    final_sheets,
    private_events,
    public_events,
)
from bot.manager.refusals import Illegal, Refused
from bot.manager.results import TimedLog, results_of
from bot.manager.store import GameStore, LiveGame
from bot.storage import GameStatus, NewTimer, SeatResult
from engine.actions import Action
from engine.errors import IllegalAction
from engine.rules import apply, to_act
from engine.scoring import FinalSheet
from engine.state import GameState

__all__ = ["Collector", "Moves"]

log = logging.getLogger(__name__)

_MAX_AUTOMATIC_STEPS = 5000


class Collector:
    """Gathers the events of the actions one request caused."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.events: list[GameEvent] = []
        self.private: list[PrivateEvent] = []
        self.seqs: list[int] = []
        self.results: tuple[SeatResult, ...] = ()


class Moves:
    """Applies actions to games held by `store`; AI seats choose with `ai` (default: engine.ai in a worker
    thread, with `ai_budget_ms`)."""

    def __init__(
        self, store: GameStore, clock: Clock, *, ai: AIChooser | None = None, ai_budget_ms: int | None = None
    ) -> None:
        self._store = store
        self._clock = clock
        self._ai: AIChooser = ai or self._default_ai
        self._ai_budget_ms = ai_budget_ms

    async def commit(
        self,
        game: LiveGame,
        seat: int,
        action: Action,
        out: Collector,
        by: str,
        also: Sequence[NewTimer] = (),
    ) -> None:
        """Apply on a copy, persist (with the rows `also`, in the same transaction), then adopt the copy and
        describe it. Raises Refused / VersionConflict with the cache untouched (or evicted)."""
        state = game.state
        assert state is not None
        work = state.copy()
        try:
            apply(work, seat, action)
        except IllegalAction as exc:
            # the engine's reason as data, worded illegal.<code> by bot.play (its English message is for the logs)
            raise Refused("illegal", reason=Illegal.of(exc)) from None
        action_json = action.to_json()
        status: GameStatus | None = None
        results: tuple[SeatResult, ...] | None = None
        sheets: tuple[FinalSheet, ...] | None = None
        if work.finished:
            sheets = final_sheets(work)
            log = [*await self._timed_log(game), (seat, self._clock.now())]  # (with this last action)
            results = results_of(sheets, game.user_ids(), work, log)
            status = GameStatus.FINISHED
        rec = await self._store.append(game, seat, action_json, work, status, results, by != "player", also)
        game.state, game.version, game.action_count = work, rec.version, rec.seq
        game.last_move_at = self._clock.now()
        if status is not None:
            game.status = status
            self._store.open_ids.discard(game.id)
            out.results = results or ()
        events = tuple(public_events(game.id, rec.seq, work, seat, action, by, sheets))
        self._store.remember(game, events)  # (the change notice carries the move's public events: live map)
        out.seqs.append(rec.seq)
        out.events.extend(events)
        out.private.extend(private_events(game.id, rec.seq, seat, game.seats[seat].user_id, work))

    async def _timed_log(self, game: LiveGame) -> TimedLog:
        """Who made each of `game`'s stored actions, and when (the statistics' turns and their time)."""
        repo = self._store.repo
        stored = await self._store.storage(lambda: repo.load_actions(game.id))
        return [(a.seat, a.created_at) for a in stored[: game.action_count]]

    # ------------------------------------------------------------------ moves nobody clicked

    async def _default_ai(self, state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return await choose_ai_action(state, seat, level, rng, budget_ms=self._ai_budget_ms)

    async def _choose(self, game: LiveGame, seat: int, level: str) -> Action:
        assert game.state is not None
        rng = random.Random(f"{game.id}:{len(game.state.history)}:{seat}")
        return await self._ai(game.state, seat, level, rng)

    async def run_ai(self, game: LiveGame, out: Collector) -> None:
        """AI-controlled seats play until a person must act or the game is over."""
        steps = 0
        while True:
            seats = game.ai_seats_to_act()
            if not seats:
                return
            seat = seats[0]
            action = await self._choose(game, seat, str(game.seats[seat].ai_level))
            await self.commit(game, seat, action, out, "ai")
            steps += 1
            if steps >= _MAX_AUTOMATIC_STEPS:
                log.error("game %s: AI seats made %d moves in a row; stopping", game.id, steps)
                return

    async def play_absent(
        self, game: LiveGame, seat: int, policy: str, out: Collector, announce: NewTimer | None = None
    ) -> None:
        """The absent-player policy (``ai`` or ``skip``) plays `seat`'s current turn (all its steps); the row
        `announce` (its announcement, bot.manager.tell) is written with the first move (none made: no row)."""
        also: tuple[NewTimer, ...] = () if announce is None else (announce,)
        state = game.state
        assert state is not None
        key = (state.phase, state.turn)
        level = game.settings.absent_ai_level
        for _ in range(100):
            state = game.state
            assert state is not None
            if (
                game.status != GameStatus.ACTIVE
                or state.finished
                or (state.phase, state.turn) != key
                or seat not in to_act(state)
                or game.seats[seat].ai_level is not None
            ):
                return
            if policy == "ai":
                action = await self._choose(game, seat, level)
            else:
                action = minimal_action(state, seat)
            await self.commit(game, seat, action, out, f"absent_{policy}", also)
            also = ()

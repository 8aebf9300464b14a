"""Choosing actions for seats the manager plays itself: AI seats, delegated seats, absent players.

The AI proper is ``engine.ai.choose_action``, imported like any module: a broken AI stops the bot at start-up
instead of being replaced by random moves. When it fails during a game or answers an illegal action, a uniformly
random legal action is played for that turn (logged), so one bad decision never stalls a game. AI decisions are
CPU work and run in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from engine.actions import (
    Action,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    Pass,
    TakeWarehouses,
)
from engine.ai import choose_action
from engine.pending import TicketChoice, TunnelPayment, WarehouseChoice
from engine.rules import legal_actions
from engine.state import GameState

__all__ = ["AIChooser", "choose_ai_action", "minimal_action", "random_action"]

log = logging.getLogger(__name__)

#: ``(state, seat, level, rng) -> Action`` awaited by the manager; the default is :func:`choose_ai_action`.
AIChooser = Callable[[GameState, int, str, random.Random], Awaitable[Action]]


def random_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action (the fallback AI). Raises LookupError when there is none."""
    legal = legal_actions(state, seat)
    if not legal:
        raise LookupError(f"seat {seat} has no legal action (phase {state.phase})")
    return legal[rng.randrange(len(legal))]


async def choose_ai_action(
    state: GameState, seat: int, level: str, rng: random.Random, *, budget_ms: int | None = None
) -> Action:
    """Ask ``engine.ai`` in a worker thread (on a copy of the state); a random legal action if it fails."""
    snapshot = state.copy()
    try:
        action = await asyncio.to_thread(choose_action, snapshot, seat, level, rng, budget_ms=budget_ms)
    except Exception:
        log.exception("engine.ai failed for seat %d (level %s); playing a random legal action", seat, level)
    else:
        if action in legal_actions(state, seat):
            return action
        # the action's kind only: its arguments may name the seat's kept tickets or cards
        log.error("engine.ai answered an illegal %s for seat %d; playing a random one", action.kind, seat)
    return random_action(state, seat, rng)


def minimal_action(state: GameState, seat: int, legal: list[Action] | None = None) -> Action:
    """The "skip" policy: the most harmless legal move, one that can never cost points.

    Pending decisions are closed at the least cost (keep the fewest, lowest-valued tickets; give up a tunnel;
    empty no warehouse); a turn is spent drawing cards, blind first (a card in hand never costs points);
    passing when nothing can be drawn; otherwise the first legal action.
    """
    legal = legal_actions(state, seat) if legal is None else legal
    if not legal:
        raise LookupError(f"seat {seat} has no legal action (phase {state.phase})")
    pending = state.pending.get(seat)
    if isinstance(pending, TicketChoice):
        cheapest = sorted(pending.offered, key=lambda t: (state.board.tickets[t].points, t))[
            : pending.keep_min
        ]
        wanted = KeepTickets(tuple(sorted(cheapest)))
        if wanted in legal:
            return wanted
    if isinstance(pending, TunnelPayment) and DeclineTunnel() in legal:
        return DeclineTunnel()
    if isinstance(pending, WarehouseChoice) and TakeWarehouses(()) in legal:
        return TakeWarehouses(())
    for kind in (DrawBlind, DrawFaceUp, Pass):
        for action in legal:
            if isinstance(action, kind):
                return action
    return legal[0]

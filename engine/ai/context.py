"""What an AI seat knows, digested once per decision (`Context`), and the knobs of each level's policy.

Shared by the policy (engine.ai.policy), the board modules' rules of thumb (engine.ai.modules) and the advice;
it reads only what the seat may know: public fields of the state, and the seat's own hand, tickets and pending
decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.actions import Action
from engine.ai import plan as planning
from engine.state import LAST_ROUND, GameState, PlayerState

Scored = list[tuple[float, Action]]

# Tuning knobs of the normal policy (benchmarks may change them for A/B runs).
PARAMS: dict[str, float] = {
    "safe_ratio": 0.72,  # tickets needing up to this share of the trains left are taken as sure
    "time_slack": 1.45,  # completion chance from turns: slack - turns needed / turns left
    "ticket_draw_trains": 0.3,  # draw tickets once done, with at least this share of the trains left
    "ticket_draw_outstanding": 2,  # ... and at most this many planned trains still to lay
    "ticket_draw_rounds": 6,  # ... and at least this many rounds left
    "close_bonus": 0.0,  # extra value of a card that brings a route closer to being claimed
    "spare_claim_length": 3,  # shortest unplanned route worth claiming with spare cards and trains
    "spare_claim_reserve": 3,  # trains kept beyond the plan's when claiming an unplanned route
    "long_claim": 0.0,  # extra score per space of a planned claim (long routes first)
}

# The base policy of each level that ranks with these knobs ("hard" searches among its own base policy's
# candidates; the playouts model every seat with the normal policy).
# Hard's base policy, tuned by A/B games against normal (base policies only, 2 players, 100 seeds x both
# seatings per board, and 4-player tables hard / normal / normal / easy): no unplanned claims of spare cards
# (they cost the plan more than they score), tickets drawn only with the plan done and at least 9 rounds left,
# long planned routes first, and tickets kept on the trains they need rather than the turns (time_slack 2.3:
# 2-player wins against normal Europe 60% -> 78%, Italy 50% -> 67%; 4-player tables Europe 36% -> 60%,
# Italy 22% -> 45%, Japan 49% -> 61%).
HARD_PARAMS: dict[str, float] = dict(
    PARAMS,
    spare_claim_length=99,
    ticket_draw_outstanding=0,
    ticket_draw_rounds=9,
    long_claim=3.0,
    time_slack=2.3,
)
# On boards whose bonus goes to the most completed tickets (Germany's Globetrotter, Märklin): draw tickets
# whenever the plan is done and 4 rounds are left, and keep only those that fit the turns left (2-player wins
# against normal, Germany 54% -> 76%, Märklin 62% -> 72%).
HARD_MOST_TICKETS: dict[str, float] = dict(HARD_PARAMS, ticket_draw_rounds=4, time_slack=1.2)
PROFILES: dict[str, dict[str, float]] = {"normal": PARAMS, "easy": PARAMS, "hard": HARD_PARAMS}


def params_for(level: str, state: GameState | None = None) -> dict[str, float]:
    """The knobs of `level`'s policy (on `state`'s board, for hard)."""
    if level == "hard" and state is not None and state.board.rules.get("most_tickets_bonus"):
        return HARD_MOST_TICKETS
    return PROFILES.get(level, PARAMS)


# ---- what the seat knows, digested once per decision ----------------------------------------------------------


@dataclass
class Context:
    state: GameState
    seat: int
    legal: list[Action]
    rng: random.Random
    level: str
    graph: planning.Graph = field(init=False)
    plan: planning.Plan = field(init=False)
    targets: list[int] = field(init=False)  # routes the cards are collected for
    missing: list[int] = field(init=False)  # cards missing per colour for the targets
    gray_color: dict[int, int] = field(init=False)
    locos_missing: int = field(init=False)
    rounds_left: float = field(init=False)
    last_turn: bool = field(init=False)
    by_type: dict[type, list[Action]] = field(init=False)
    params: dict[str, float] = field(init=False)

    def of(self, *types: type) -> list[Action]:
        """The legal actions of these types."""
        if len(types) == 1:
            return self.by_type.get(types[0], [])
        return [a for t in types for a in self.by_type.get(t, [])]

    def __post_init__(self) -> None:
        state, seat = self.state, self.seat
        self.params = params_for(self.level, state)
        by_type: dict[type, list[Action]] = {}
        for a in self.legal:
            by_type.setdefault(type(a), []).append(a)
        self.by_type = by_type
        self.graph = planning.seat_graph(state, seat, allow_borrow=self.level != "easy")
        self.plan = planning.make_plan(state, seat, graph=self.graph)
        self.rounds_left = rounds_left(state)
        self.last_turn = state.phase == LAST_ROUND
        self.targets = list(self.plan.routes) or filler_targets(state, seat, self.graph)
        self.missing, self.gray_color, self.locos_missing = planning.route_needs(state, seat, self.targets)

    @property
    def player(self) -> PlayerState:
        return self.state.players[self.seat]


def rounds_left(state: GameState) -> float:
    """A rough count of the turns each player still has (public information only)."""
    if state.phase == LAST_ROUND:
        return 1.0
    trigger = state.board.rules.get("end_trigger_trains", 2)
    fewest = min(p.trains for p in state.players)
    return max(1.0, (fewest - trigger) / 2.2 + 1.0)


def filler_targets(state: GameState, seat: int, graph: planning.Graph, n: int = 2) -> list[int]:
    """With no ticket to work on: the longest open routes the trains left can take (points for the trains)."""
    trains = state.players[seat].trains
    board = state.board
    cands = [
        r
        for r, c in graph.cost.items()
        if c > 0
        and r in graph.train_cost
        and board.routes[r].length <= trains
        and not board.routes[r].locomotives
        and not board.routes[r].waves
    ]
    cands.sort(key=lambda r: (-board.routes[r].length, planning.route_shortfall(state, seat, r), r))
    return cands[:n]

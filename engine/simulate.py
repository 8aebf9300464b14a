"""Random play and invariant checks: the engine's first test and its benchmark.

Players choose uniformly among their legal actions; after every action the invariants are checked (every card
accounted for, trains and stations counted, running scores equal a recount, board modules' own checks).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import cards, tickets
from engine.errors import IllegalAction
from engine.playout import random_legal_action
from engine.rules import apply, legal_actions, new_game, to_act
from engine.scoring import ScoreSheet, final_scores
from engine.state import FINISHED, LAST_ROUND, MAIN, GameState
from engine.turn import features_for
from maps import load_board
from maps.board import select_tickets

# Every board once, plus Europe's heaviest setup (Mega Europe with Warehouses & Depots): (board, variant, options)
# as the benchmarks and the broad tests play them.
SAMPLE_SETUPS: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("europe", None, ()),
    ("europe", "mega", ("warehouses",)),
    ("usa", None, ()),
    ("germany", None, ()),
    ("marklin", None, ()),
    ("japan", None, ()),
    ("italy", None, ()),
)
MAX_ACTIONS = 5000  # a random game never needs this many; reaching it is reported as an error


_TICKET_COUNT: dict[tuple[str, str], int] = {}
_MULTI_GROUPS: dict[str, list[tuple[int, ...]]] = {}


def check_invariants(state: GameState) -> list[str]:
    errors: list[str] = []
    board = state.board
    key = (board.id, state.variant)
    if key not in _TICKET_COUNT:
        _TICKET_COUNT[key] = len(select_tickets(board.tickets, board.variant(state.variant)))
        _MULTI_GROUPS[board.id] = [g for g in board.groups if len(g) > 1]
    if cards.total_cards(state) != cards.deck_size(state):
        errors.append(f"train cards: {cards.total_cards(state)} in play, deck has {cards.deck_size(state)}")
    n_tickets = _TICKET_COUNT[key]
    if tickets.total_tickets(state) != n_tickets:
        errors.append(f"tickets: {tickets.total_tickets(state)} accounted for, variant has {n_tickets}")
    trains = board.rules["trains_per_player"]
    stations = board.rules.get("stations_per_player", 0)
    for seat, p in enumerate(state.players):
        if min(p.hand) < 0:
            errors.append(f"seat {seat}: negative card count {p.hand}")
        used = sum(board.routes[r].length for r in p.routes)
        if p.trains + used != trains or p.trains < 0:
            errors.append(f"seat {seat}: {p.trains} trains left + {used} placed != {trains}")
        built = sum(1 for o in state.station_owner.values() if o == seat)
        if p.stations + built != stations:
            errors.append(f"seat {seat}: {p.stations} stations left + {built} built != {stations}")
        recount = sum(board.route_points(board.routes[r].length) for r in p.routes)
        recount += p.extra.get("points_in_play", 0)
        if p.score != recount:
            errors.append(f"seat {seat}: running score {p.score} != recount {recount}")
        for r in p.routes:
            if state.route_owner[r] != seat:
                errors.append(f"seat {seat}: route {r} listed but owned by {state.route_owner[r]}")
    for group in _MULTI_GROUPS[board.id]:
        owners = [state.route_owner[r] for r in group if state.route_owner[r] >= 0]
        if len(owners) != len(set(owners)):
            errors.append(f"one player owns two routes of group {group}")
        if len(owners) > 1 and state.num_players < board.rules.get("min_players_for_multi_routes", 4):
            errors.append(f"double route {group} used twice with {state.num_players} players")
    if len(state.face_up) != cards.ROW_SIZE:
        errors.append(f"face-up row has {len(state.face_up)} slots")
    for f in features_for(state):
        errors.extend(f.invariants(state))
    return errors


@dataclass
class GameResult:
    state: GameState
    actions: int
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    scores: list[ScoreSheet] = field(default_factory=list)


Chooser = Callable[[GameState, int, list], Any]


def play_game(
    board_id: str,
    players: int,
    seed: int,
    *,
    variant: str | None = None,
    options: tuple[str, ...] = (),
    check: bool = True,
    choosers: list[Chooser] | None = None,
) -> GameResult:
    """Play one complete game. `choosers[seat](state, seat, legal)` picks an action (uniform random if None)."""
    state = new_game(board_id, players, variant=variant, options=options, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    result = GameResult(state, 0)
    actions = 0
    while state.phase != FINISHED:
        if actions >= MAX_ACTIONS:
            result.errors.append(f"game did not end after {MAX_ACTIONS} actions")
            break
        if state.phase == MAIN or state.phase == LAST_ROUND:
            seat = state.current
        else:
            seats = to_act(state)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if choosers:
            legal = legal_actions(state, seat)
            if not legal:
                result.errors.append(f"seat {seat} must act but has no legal action (phase {state.phase})")
                break
            action = choosers[seat](state, seat, legal)
        else:
            try:
                action = random_legal_action(state, seat, rng)
            except (IndexError, ValueError):
                result.errors.append(f"seat {seat} must act but has no legal action (phase {state.phase})")
                break
        try:
            apply(state, seat, action)
        except IllegalAction as exc:
            result.errors.append(f"legal action refused: {action!r}: {exc}")
            break
        actions += 1
        if check:
            bad = check_invariants(state)
            if bad:
                result.violations.extend(f"after action {actions} {action!r}: {b}" for b in bad)
                break
    result.actions = actions
    result.scores = final_scores(state) if state.finished else []
    return result


def simulate(
    board_id: str,
    players: int,
    games: int,
    seed: int,
    *,
    variant: str | None = None,
    options: tuple[str, ...] = (),
    check: bool = True,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    board = load_board(board_id)
    started = time.perf_counter()
    errors: list[str] = []
    violations: list[str] = []
    actions = 0
    turns = 0
    first: GameResult | None = None
    for g in range(games):
        result = play_game(board.id, players, seed + g, variant=variant, options=options, check=check)
        first = first or result
        errors.extend(f"game {g} (seed {seed + g}): {e}" for e in result.errors)
        violations.extend(f"game {g} (seed {seed + g}): {v}" for v in result.violations)
        actions += result.actions
        turns += result.state.turn
        if progress:
            progress(g + 1)
    elapsed = time.perf_counter() - started
    return {
        "map": board.id,
        "variant": variant or board.default_variant,
        "options": list(options),
        "players": players,
        "games": games,
        "errors": len(errors),
        "invariant_violations": len(violations),
        "error_messages": errors[:10],
        "violation_messages": violations[:10],
        "mean_turns": turns / games if games else 0,
        "mean_actions": actions / games if games else 0,
        "games_per_second": games / elapsed if elapsed else 0.0,
        "_first": first,
    }

"""Matches and tournaments between AI levels (the `ttr simulate --seats ...` backend).

`play_match` plays one complete game with one AI level per seat, checking every action is legal (and, when
asked, the engine's invariants after each); `tournament` plays many and sums up wins, scores and decision times.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import LEVELS, choose_action
from engine.rules import apply, legal_actions, new_game, to_act
from engine.scoring import final_scores
from engine.simulate import MAX_ACTIONS, check_invariants
from engine.state import GameState
from maps import Board


@dataclass
class MatchResult:
    seats: list[str]
    scores: list[int]
    ranks: list[int]
    winners: list[int]  # seats ranked first (several when the tie-breaks leave a tie)
    actions: int
    turns: int
    decision_ms: list[list[float]] = field(default_factory=list)  # per seat: time of each decision
    errors: list[str] = field(default_factory=list)
    state: GameState | None = None


def play_match(
    board: Board | str,
    variant: str | None,
    options: Sequence[str],
    seats: Sequence[str],
    seed: int,
    *,
    budget_ms: float | None = None,
    check: bool = False,
    keep_state: bool = False,
) -> MatchResult:
    """One game, seat i played by AI level `seats[i]`. Every action is checked against `legal_actions`."""
    for level in seats:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")
    state = new_game(board, len(seats), variant=variant, options=tuple(options), seed=seed)
    master = random.Random(seed * 7919 + 17)
    rngs = [random.Random(master.getrandbits(64)) for _ in seats]
    order_rng = random.Random(master.getrandbits(64))
    times: list[list[float]] = [[] for _ in seats]
    errors: list[str] = []
    actions = 0
    while not state.finished:
        if actions >= MAX_ACTIONS:
            errors.append(f"game did not end after {MAX_ACTIONS} actions")
            break
        acting = to_act(state)
        seat = acting[0] if len(acting) == 1 else order_rng.choice(acting)
        t0 = time.perf_counter()
        action = choose_action(state, seat, seats[seat], rngs[seat], budget_ms=budget_ms)
        times[seat].append((time.perf_counter() - t0) * 1000.0)
        if action not in legal_actions(state, seat):
            errors.append(f"seat {seat} ({seats[seat]}) chose an illegal action {action!r}")
            break
        apply(state, seat, action)
        actions += 1
        if check:
            bad = check_invariants(state)
            if bad:
                errors.extend(f"after {action!r}: {b}" for b in bad)
                break
    sheets = final_scores(state) if state.finished else []
    scores = [s.total for s in sheets]
    ranks = [s.rank for s in sheets]
    return MatchResult(
        list(seats),
        scores,
        ranks,
        [s.seat for s in sheets if s.rank == 1],
        actions,
        state.turn,
        times,
        errors,
        state if keep_state else None,
    )


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[k]


def tournament(
    board: Board | str,
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    variant: str | None = None,
    options: Sequence[str] = (),
    budget_ms: float | None = None,
    rotate: bool = True,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play `games` games. With `rotate`, the seating turns every game so each level plays every seat position;
    results are reported per entry of `seats` (its level) and per level.

    Returns `seats`, `wins` (per entry; a shared win counts for each winner), `mean_scores`, `mean_decision_ms`,
    `p95_decision_ms`, `levels` ({level: {"entries", "win_rate", "mean_score"}}), `games`, `errors`."""
    n = len(seats)
    wins = [0] * n
    score_sum = [0.0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    errors: list[str] = []
    played = 0
    for g in range(games):
        shift = g % n if rotate else 0
        order = [(i + shift) % n for i in range(n)]  # order[position] = entry index
        result = play_match(
            board, variant, options, [seats[e] for e in order], seed + g, budget_ms=budget_ms, check=check
        )
        errors.extend(f"game {g} (seed {seed + g}): {e}" for e in result.errors)
        if result.scores:
            played += 1
            for pos, entry in enumerate(order):
                score_sum[entry] += result.scores[pos]
                times[entry].extend(result.decision_ms[pos])
                if pos in result.winners:
                    wins[entry] += 1
        if progress:
            progress(g + 1)
    levels: dict[str, dict[str, Any]] = {}
    for level in dict.fromkeys(seats):
        entries = [i for i, s in enumerate(seats) if s == level]
        levels[level] = {
            "entries": len(entries),
            "win_rate": sum(wins[i] for i in entries) / max(1, played * len(entries)),
            "mean_score": sum(score_sum[i] for i in entries) / max(1, played * len(entries)),
            "p50_decision_ms": percentile([t for i in entries for t in times[i]], 50),
            "p95_decision_ms": percentile([t for i in entries for t in times[i]], 95),
        }
    board_id = board if isinstance(board, str) else board.id
    return {
        "map": board_id,
        "board": board_id,
        "seats": list(seats),
        "games": played,
        "wins": wins,
        "win_rates": [w / max(1, played) for w in wins],
        "mean_scores": [s / max(1, played) for s in score_sum],
        "mean_decision_ms": [statistics.fmean(t) if t else 0.0 for t in times],
        "p95_decision_ms": [percentile(t, 95) for t in times],
        "levels": levels,
        "errors": errors,
    }

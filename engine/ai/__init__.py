"""AI players: decisions from what one seat may know, at four levels.

`choose_action(state, seat, level, rng)` is the one entry point; it always returns one of
`engine.rules.legal_actions(state, seat)`.

- "random": uniform over the legal actions (the baseline).
- "easy": plans its tickets loosely, keeps the cheapest tickets, claims planned routes when it can, else draws.
- "normal": plans shortest paths for its tickets, collects their colours, claims planned routes (longest first near
  the end), chooses tickets by what they add to its plan, uses stations, tunnels and board modules sensibly.
- "hard": determinized Monte Carlo over the normal policy's best candidates, within a time budget.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai.infoset import determinize, seat_view
from engine.rules import legal_actions
from engine.state import GameState

LEVELS = ("random", "easy", "normal", "hard")


def choose_action(
    state: GameState, seat: int, level: str, rng: random.Random, *, budget_ms: float | None = None
) -> Action:
    """The action `seat` takes now at `level` (one of LEVELS). Reads only what the seat may know; decisions are
    a function of the state's visible part and `rng` (hard: also of the time budget, when it runs out)."""
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    if level == "random":
        return legal[rng.randrange(len(legal))]
    if level in ("easy", "normal"):
        from engine.ai.policy import ranked

        return ranked(state, seat, legal, rng, level)[0][1]
    if level == "hard":
        from engine.ai.search import search

        return search(state, seat, legal, rng, budget_ms=budget_ms)
    raise ValueError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")


__all__ = ["LEVELS", "choose_action", "determinize", "seat_view"]

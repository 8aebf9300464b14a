"""Hard level: placeholder until written."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai.policy import ranked
from engine.state import GameState


def search(
    state: GameState, seat: int, legal: list[Action], rng: random.Random, *, budget_ms: float | None = None
) -> Action:
    return ranked(state, seat, legal, rng, "normal")[0][1]

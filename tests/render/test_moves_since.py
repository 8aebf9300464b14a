"""The turn picture outlines every route and city taken since a player's last turn, not only the last move."""

from __future__ import annotations

from engine.actions import ClaimRoute
from engine.rules import apply, legal_actions, new_game
from render.from_engine import board_view, moves_since


def _played(claims: int):  # type: ignore[no-untyped-def]
    state = new_game("europe", ["a", "b", "c"], seed=5)
    while state.phase == "setup":
        seat = next(iter(state.pending))
        apply(state, seat, legal_actions(state, seat)[0])
    start = len(state.history)
    claimed = []
    for _ in range(400):
        if len(claimed) == claims:
            break
        seat = state.current
        legal = legal_actions(state, seat)
        claim = next((a for a in legal if isinstance(a, ClaimRoute)), None)
        action = claim or next((a for a in legal if a.kind == "draw_blind"), legal[0])
        apply(state, seat, action)
        if claim is not None and state.route_owner[claim.route] == seat:
            claimed.append(claim.route)
    return state, start, claimed


def test_every_route_claimed_since_a_position_is_outlined() -> None:
    state, start, claimed = _played(3)
    routes, cities = moves_since(state, start + 1)
    assert list(routes) == claimed and cities == ()
    view = board_view(state, since=start + 1)
    assert view.last_move is not None and set(claimed) <= set(view.last_move.routes)
    # without `since`, only the last move
    alone = board_view(state)
    assert alone.last_move is not None and len(alone.last_move.routes) <= 1


def test_nothing_taken_since_the_end_of_the_log() -> None:
    state, _, _ = _played(1)
    assert moves_since(state, len(state.history) + 1) == ((), ())

"""engine.progress.routes_by_use: the routes on the cheapest paths of a seat's open tickets first, then by points."""

from __future__ import annotations

import pytest
from helpers.engine_states import started

from engine.progress import cheapest_paths, routes_by_use
from engine.state import NOBODY


@pytest.mark.parametrize("board", ["usa", "europe", "japan"])
def test_routes_on_open_tickets_paths_come_first_then_the_longest(board):
    state = started(board, 3, seed=11)
    seat = 0
    free = [r.id for r in state.board.routes if state.route_owner[r.id] == NOBODY]
    ranked = routes_by_use(state, seat, reversed(free))
    assert sorted(ranked) == sorted(free)  # the same routes, each once
    useful = {r for path in cheapest_paths(state, seat).values() for r in path}
    assert useful  # a fresh game: every ticket is open
    head = ranked[: len(useful)]
    assert set(head) == useful  # the useful ones first...
    rest = ranked[len(useful) :]
    points = [state.board.route_points(state.board.routes[r].length) for r in rest]
    assert points == sorted(points, reverse=True)  # ...then by points, most first


def test_ranking_is_private_to_the_seat_and_pure():
    state = started("usa", 2, seed=3)
    routes = [r.id for r in state.board.routes]
    before = state.copy()
    mine, theirs = routes_by_use(state, 0, routes), routes_by_use(state, 1, routes)
    assert mine != theirs  # different tickets, different first routes
    assert routes_by_use(state, 0, routes) == mine  # deterministic
    assert state.to_json() == before.to_json()  # nothing changed

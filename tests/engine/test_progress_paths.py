"""engine.progress.cheapest_paths: the routes still to claim on each open ticket's cheapest completion."""

from __future__ import annotations

import random

import pytest
from helpers.engine_states import started

from engine.playout import random_legal_action
from engine.progress import cheapest_paths, ticket_progress
from engine.rules import apply, to_act
from engine.scoring import joined, network, shared_routes
from engine.state import NOBODY


@pytest.mark.parametrize(("board", "options"), [("europe", ()), ("italy", ()), ("japan", ()), ("usa", ())])
def test_each_open_ticket_gets_unclaimed_routes_that_complete_it_for_the_trains_it_needs(board, options):
    state = started(board, 4, seed=5, options=options)
    rng = random.Random(5)
    checked = 0
    while not state.finished and state.turn < 70:
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
        if state.turn % 10:
            continue
        for s in range(state.num_players):
            paths = cheapest_paths(state, s)
            for p in ticket_progress(state, s):
                if p.done or p.trains_needed is None:
                    assert p.ticket not in paths  # done and blocked tickets have no path
                    continue
                path = paths[p.ticket]
                assert all(state.route_owner[r] == NOBODY for r in path)
                assert sum(state.board.routes[r].length for r in path) == p.trains_needed
                tk = state.board.tickets[p.ticket]
                own = state.players[s].routes + shared_routes(state)
                assert joined(state, network(state, [*own, *path]), tk.a, tk.b)
                checked += 1
    assert checked > 10

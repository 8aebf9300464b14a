"""The suggested move: the normal AI's choice for the seat, from what the seat may know, with a reason code."""

from __future__ import annotations

import random

from engine.actions import ClaimRoute, DrawFaceUp, KeepTickets
from engine.ai import choose_action
from engine.ai.advice import Suggestion, suggest
from engine.ai.infoset import determinize
from engine.rules import apply, legal_actions, new_game, to_act
from engine.scoring import joined, network, shared_routes
from engine.state import GameState
from maps import LOCOMOTIVE

REASONS = {"completes", "on_path", "points", "draw_toward", "draw_locomotive", "draw_blind", "draw_tickets",
           "keep_tickets", "station", "tunnel_pay", "tunnel_decline", "best"}  # fmt: skip


def _moments(board: str, seed: int, moves: int) -> list[tuple[GameState, int]]:
    """(state, seat to act) along a game the normal AI plays."""
    state, rng = new_game(board, 3, seed=seed), random.Random(seed)
    out = []
    for _ in range(moves):
        if state.finished:
            break
        seat = to_act(state)[0]
        out.append((state.copy(), seat))
        state = apply(state, seat, choose_action(state, seat, "normal", rng))
    return out


def test_a_suggestion_is_legal_and_its_reason_names_what_it_is_about() -> None:
    seen: set[str] = set()
    for state, seat in _moments("europe", 3, 160):
        s = suggest(state, seat)
        assert isinstance(s, Suggestion) and s.action in legal_actions(state, seat) and s.reason in REASONS
        seen.add(s.reason)
        board = state.board
        if s.reason in ("completes", "on_path"):
            assert isinstance(s.action, ClaimRoute) and s.params["route"] == s.action.route
            assert s.params["ticket"] in state.players[seat].tickets  # one of the seat's own tickets
        if s.reason == "completes":  # joined with the route, not without it
            ticket = board.tickets[s.params["ticket"]]
            mine = state.players[seat].routes + shared_routes(state)
            assert joined(state, network(state, [*mine, s.action.route]), ticket.a, ticket.b)  # type: ignore[attr-defined]
            assert not joined(state, network(state, mine), ticket.a, ticket.b)
        if s.reason == "draw_toward":
            assert isinstance(s.action, DrawFaceUp) and state.face_up[s.action.slot] == s.params["card"]
            assert s.params["ticket"] in state.players[seat].tickets
        if s.reason == "draw_locomotive":
            assert state.face_up[s.action.slot] == LOCOMOTIVE  # type: ignore[attr-defined]
        if s.reason == "keep_tickets":
            assert isinstance(s.action, KeepTickets) and s.params["n"] == len(s.action.tickets)
    assert {"completes", "on_path", "draw_toward", "keep_tickets"} <= seen


def test_the_suggestion_depends_only_on_what_the_seat_may_know() -> None:
    """Re-deal everything the seat cannot see (deck order, other hands and tickets): same suggestion."""
    for state, seat in _moments("usa", 5, 120)[::4]:
        other = determinize(state, seat, random.Random(99))
        assert other.players[seat].hand == state.players[seat].hand
        assert suggest(other, seat) == suggest(state, seat)


def test_asking_twice_gives_the_same_answer() -> None:
    for state, seat in _moments("italy", 2, 40)[::5]:
        assert suggest(state, seat) == suggest(state.copy(), seat)

"""Warehouses & Depots at its edges: the initial depot placement, the last cards of the deck, the depot bonus
when nobody has a depot left."""

from __future__ import annotations

import pytest
from helpers.engine_states import card, started

from engine.actions import BuildStation, DrawBlind, DrawFaceUp, KeepTickets, Pass, PlaceDepot
from engine.cards import EMPTY
from engine.errors import IllegalAction
from engine.rules import apply, legal_actions, new_game
from engine.scoring import final_scores
from engine.simulate import check_invariants
from engine.state import DEPOTS, FINISHED, MAIN


def at_depot_placement(players: int = 3, seed: int = 4, first_player: int | None = None):  # type: ignore[no-untyped-def]
    s = new_game("europe", players, options=("warehouses",), seed=seed, first_player=first_player)
    for seat in range(players):
        apply(s, seat, KeepTickets(tuple(sorted(s.pending[seat].offered)[:2])))
    assert s.phase == DEPOTS
    return s


def test_only_depots_during_the_initial_placement_and_every_seat_places_one() -> None:
    s = at_depot_placement(first_player=0)
    assert s.current == 2
    s.players[2].hand[card("red")] += 1
    s.deck.remove(card("red"))
    before = s.to_json()
    for action in (BuildStation(s.board.city("Paris").id, card("red")), DrawBlind(0), Pass()):
        with pytest.raises(IllegalAction, match="starting depot"):
            apply(s, 2, action)
        assert s.to_json() == before
    assert all(isinstance(a, PlaceDepot) for a in legal_actions(s, 2))
    for seat, city in ((2, "Paris"), (1, "Wien"), (0, "Berlin")):
        assert s.current == seat and s.phase == DEPOTS
        apply(s, seat, PlaceDepot(s.board.city(city).id))
    assert s.phase == MAIN and s.current == 0
    assert [p.depots for p in s.players] == [4, 4, 4]


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_initial_depots_go_backwards_from_the_player_before_the_first(first: int) -> None:
    s = at_depot_placement(players=4, first_player=first)
    order = []
    while s.phase == DEPOTS:
        order.append(s.current)
        apply(s, s.current, legal_actions(s, s.current)[0])
    assert order == [(first - k) % 4 for k in range(1, 5)]
    assert s.phase == MAIN and s.current == first


def _one_card_left(seed: int = 2):  # type: ignore[no-untyped-def]
    """Deck + discard hold one red card (the others in hands); the face-up row holds coloured cards."""
    s = started("europe", 2, seed=seed, options=("warehouses",))
    pool = s.deck + s.discard
    s.deck, s.discard = [], []
    for i, c in enumerate(pool):
        s.players[i % 2].hand[c] += 1
    red = card("red")
    holder = next(p for p in s.players if p.hand[red])
    holder.hand[red] -= 1
    s.deck = [red]
    s.face_up = [card("blue"), card("green"), card("white"), card("black"), card("yellow")]
    assert not check_invariants(s)
    return s


def test_one_card_left_every_listed_draw_is_accepted() -> None:
    s = _one_card_left()
    seat = s.current
    legal = legal_actions(s, seat)
    draws = [a for a in legal if isinstance(a, DrawBlind | DrawFaceUp)]
    assert draws and not any(isinstance(a, DrawBlind) for a in draws)  # the warehouse takes the last card
    for action in draws:
        t = s.copy()
        apply(t, seat, action)
        assert not check_invariants(t)
    before = s.to_json()
    with pytest.raises(IllegalAction):
        apply(s, seat, DrawBlind(0))
    assert s.to_json() == before  # the card did not move to a warehouse


def test_deck_and_discard_empty_never_stuck() -> None:
    s = _one_card_left()
    s.players[0].hand[s.deck.pop()] += 1
    seat = s.current
    legal = legal_actions(s, seat)
    draws = [a for a in legal if isinstance(a, DrawFaceUp)]
    assert draws and all(a.warehouse is None for a in draws)  # no card to store
    for action in legal:
        t = s.copy()
        apply(t, seat, action)
        assert not check_invariants(t)
    # nothing at all to draw, claim or pick: passing is listed and accepted
    s.face_up = [EMPTY] * 5
    for p in s.players:
        p.hand = [0] * len(p.hand)
    s.ticket_decks = {k: [] for k in s.ticket_decks}
    legal = legal_actions(s, seat)
    assert Pass() in legal and all(a.free for a in legal if not isinstance(a, Pass))
    apply(s, seat, Pass())
    assert s.current != seat


def test_depot_bonus_nobody_scores_it_with_no_depot_left() -> None:
    s = started("europe", 3, options=("warehouses",))
    for p in s.players:
        p.depots = 0
    s.phase = FINISHED
    assert [sh.bonuses["depots"] for sh in final_scores(s)] == [0, 0, 0]
    s.players[1].depots = 1
    assert [sh.bonuses["depots"] for sh in final_scores(s)] == [0, 10, 0]

"""The core rules of RULES-NOTES.md: setup, drawing cards, claiming, double routes, tickets, the end."""

from __future__ import annotations

import pytest
from helpers.engine_states import card, give, route_id, stack_deck, started

from engine.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from engine.errors import IllegalAction
from engine.events import BlindCardSeen, CardDrawn, private_events, public_events
from engine.pending import SecondDraw, TicketChoice
from engine.record import make_record, replay
from engine.rules import apply, legal_actions, new_game, to_act
from engine.simulate import check_invariants, play_game
from engine.state import FINISHED, LAST_ROUND, MAIN, SETUP, GameState
from maps import LOCOMOTIVE


def test_setup_deals_hands_row_and_tickets():
    s = new_game("europe", 4, seed=3)
    assert s.phase == SETUP
    assert all(sum(p.hand) == 4 for p in s.players)
    assert len(s.face_up) == 5 and s.face_up.count(LOCOMOTIVE) < 3
    assert sorted(to_act(s)) == [0, 1, 2, 3]
    for seat in range(4):
        choice = s.pending[seat]
        assert isinstance(choice, TicketChoice)
        assert sorted(choice.sources) == ["long", "regular", "regular", "regular"]
        assert choice.keep_min == 2
    assert not check_invariants(s)


def test_start_of_game_choice_in_any_order_then_play_starts():
    s = new_game("usa", 3, seed=1)
    for seat in (2, 0):
        offered = s.pending[seat].offered
        apply(s, seat, KeepTickets(tuple(sorted(offered[:2]))))
        assert s.phase == SETUP
    with pytest.raises(IllegalAction, match="Keep at least 2"):
        apply(s, 1, KeepTickets((s.pending[1].offered[0],)))
    apply(s, 1, KeepTickets(tuple(sorted(s.pending[1].offered))))
    assert s.phase == MAIN and s.current == s.first_player
    assert [len(p.tickets) for p in s.players] == [2, 3, 2]


def test_europe_classic_boxes_unused_long_tickets():
    s = started("europe", 3)
    assert "long" not in s.ticket_decks
    # 3 long tickets never dealt + 2 rejected tickets per player, all to the box; 9 regular tickets dealt
    assert len(s.box) == 3 + 3 * 2
    assert len(s.ticket_decks["regular"]) == 40 - 9


def test_three_locomotives_face_up_reset_the_row():
    s = started("europe", 2)
    s.face_up = [card("red")] * 5
    give(s, 0)
    stack_deck(s, ["locomotive", "blue", "green", "green", "yellow", "black"])
    s.face_up[0] = LOCOMOTIVE
    s.face_up[1] = LOCOMOTIVE
    # taking the red in slot 2 draws a third locomotive into the row: the whole row is replaced
    apply(s, 0, DrawFaceUp(2))
    assert s.face_up.count(LOCOMOTIVE) < 3
    assert s.face_up == [card("blue"), card("green"), card("green"), card("yellow"), card("black")]


def test_face_up_locomotive_first_ends_the_turn_and_never_second():
    s = started("europe", 2)
    s.face_up = [LOCOMOTIVE, card("red"), card("red"), card("blue"), card("blue")]
    apply(s, 0, DrawFaceUp(1))
    assert isinstance(s.pending[0], SecondDraw)
    with pytest.raises(IllegalAction, match="Locomotive cannot be your second card"):
        apply(s, 0, DrawFaceUp(0))
    assert DrawFaceUp(0) not in legal_actions(s, 0)
    apply(s, 0, DrawBlind())
    assert s.current == 1
    apply(s, 1, DrawFaceUp(0))
    assert s.current == 0  # a face-up Locomotive as the first card is the whole draw


def test_blind_locomotive_counts_as_one_card():
    s = started("europe", 2)
    stack_deck(s, ["locomotive", "red"])
    apply(s, 0, DrawBlind())
    assert isinstance(s.pending[0], SecondDraw)
    assert s.events == [CardDrawn(0, None), BlindCardSeen(0, LOCOMOTIVE)]
    assert public_events(s.events) == [CardDrawn(0, None)]  # the card's identity is private
    assert private_events(s.events, 0) == [BlindCardSeen(0, LOCOMOTIVE)] and not private_events(s.events, 1)


def test_empty_deck_reshuffles_discard():
    s = started("europe", 2)
    s.discard.extend(s.deck)
    s.deck.clear()
    before = len(s.discard)
    apply(s, 0, DrawBlind())
    assert len(s.deck) == before - 1 and not s.discard


def test_no_cards_anywhere_means_no_drawing():
    s = started("europe", 2)
    for c in s.deck + s.discard + [c for c in s.face_up if c >= 0]:
        s.players[1].hand[c] += 1
    s.deck.clear()
    s.discard.clear()
    s.face_up = [-1] * 5
    acts = legal_actions(s, 0)
    assert not any(isinstance(a, DrawBlind | DrawFaceUp) for a in acts)
    with pytest.raises(IllegalAction, match="deck and the discard pile are empty"):
        apply(s, 0, DrawBlind())


def test_colored_route_payment_and_message():
    s = started("europe", 4)
    paris_wien = route_id(s, "Frankfurt", "Paris", "white")
    give(s, 0, white=2)
    with pytest.raises(IllegalAction) as err:
        apply(s, 0, ClaimRoute(paris_wien, card("white"), 0))
    assert str(err.value) == "Frankfurt–Paris needs 3 white (you have 2)."
    give(s, 0, white=2, locomotive=1)
    with pytest.raises(IllegalAction, match="Frankfurt–Paris is white: it takes white cards"):
        apply(s, 0, ClaimRoute(paris_wien, card("red"), 1))
    before = s.to_json()
    with pytest.raises(IllegalAction):
        apply(s, 0, ClaimRoute(paris_wien, card("white"), 0))
    assert s.to_json() == before  # a refused action changes nothing
    apply(s, 0, ClaimRoute(paris_wien, card("white"), 1))
    p = s.players[0]
    assert s.route_owner[paris_wien] == 0 and p.trains == 42 and p.score == 4 and sum(p.hand) == 0


def test_gray_route_takes_any_one_colour():
    s = started("europe", 4)
    gray = route_id(s, "Marseille", "Paris")  # 4 gray
    give(s, 0, red=2, blue=2, locomotive=1)
    options = [a for a in legal_actions(s, 0) if isinstance(a, ClaimRoute) and a.route == gray]
    assert options == []  # no colour has 3 cards + 1 locomotive
    give(s, 0, red=3, blue=2, locomotive=1)
    options = {
        (a.color, a.locomotives) for a in legal_actions(s, 0) if isinstance(a, ClaimRoute) and a.route == gray
    }
    assert options == {(card("red"), 1)}


def test_double_routes_closed_with_three_players_open_with_four():
    for players, open_ in ((3, False), (4, True)):
        s = started("europe", players)
        red = route_id(s, "Bruxelles", "Paris", "red")
        yellow = route_id(s, "Bruxelles", "Paris", "yellow")
        give(s, 0, red=2)
        apply(s, 0, ClaimRoute(red, card("red")))
        give(s, 1, yellow=2)
        if open_:
            apply(s, 1, ClaimRoute(yellow, card("yellow")))
            assert s.route_owner[yellow] == 1
        else:
            with pytest.raises(IllegalAction, match="only one route"):
                apply(s, 1, ClaimRoute(yellow, card("yellow")))


def test_one_player_never_takes_both_routes_of_a_double():
    s = started("europe", 4)
    red = route_id(s, "Bruxelles", "Paris", "red")
    yellow = route_id(s, "Bruxelles", "Paris", "yellow")
    give(s, 0, red=2)
    apply(s, 0, ClaimRoute(red, card("red")))
    for seat in (1, 2, 3):
        apply(s, seat, DrawBlind())
        apply(s, seat, DrawBlind())
    give(s, 0, yellow=2)
    with pytest.raises(IllegalAction, match="one player may never take two"):
        apply(s, 0, ClaimRoute(yellow, card("yellow")))


def test_draw_tickets_keep_one_rest_under_the_deck():
    s = started("usa", 2)
    deck = s.ticket_decks["regular"]
    top3 = deck[-3:][::-1]
    apply(s, 0, DrawTickets())
    choice = s.pending[0]
    assert list(choice.offered) == top3 and choice.keep_min == 1
    with pytest.raises(IllegalAction, match="Keep at least 1"):
        apply(s, 0, KeepTickets(()))
    apply(s, 0, KeepTickets((top3[1],)))
    assert s.ticket_decks["regular"][:2] == [top3[2], top3[0]] or s.ticket_decks["regular"][:2] == [
        top3[0],
        top3[2],
    ]
    assert top3[1] in s.players[0].tickets and s.current == 1


def test_last_round_everyone_including_the_trigger_plays_once_more():
    s = started("usa", 3)
    s.players[0].trains = 3
    one = next(r for r in s.board.routes if r.length == 1 and r.color < 0)
    give(s, 0, red=1)
    apply(s, 0, ClaimRoute(one.id, card("red")))
    assert s.phase == LAST_ROUND and s.ended_by == 0
    for seat in (1, 2, 0):
        assert s.current == seat
        apply(s, seat, DrawBlind())
        apply(s, seat, DrawBlind())
    assert s.phase == FINISHED and to_act(s) == []


def test_not_your_turn():
    s = started("europe", 3)
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(s, 1, DrawBlind())


def test_json_round_trip_is_lossless_and_replay_is_exact():
    result = play_game("europe", 4, seed=11, options=("warehouses",), variant="big-cities")
    s = result.state
    assert s.finished
    text = s.to_json()
    assert GameState.from_json(text).to_json() == text
    again = replay(make_record(s))
    assert again.to_json() == text


def test_mid_game_state_is_small():
    s = new_game("europe", 5, seed=2)
    res = play_game("europe", 5, seed=2)
    mid = replay({**make_record(res.state), "actions": make_record(res.state)["actions"][:200]})
    assert len(mid.to_json()) < 50_000
    assert len(s.to_json()) < 50_000

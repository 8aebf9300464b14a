"""Märklin (marklin-fr.txt): passengers and merchandise, Passenger cards, Locomotive +4, the face-up reset on
3 Passenger cards, the announced ticket mix; and random games with every invariant checked."""

from __future__ import annotations

import time

import pytest
from helpers.engine_states import card, give, route_id, stack_deck, started
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards as deck_ops
from engine.actions import (
    ChooseTicketMix,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    MovePassenger,
    PlacePassenger,
    action_from_json,
)
from engine.claims import payment_options
from engine.errors import GameDataError, IllegalAction
from engine.events import PassengerMoved
from engine.features import FEATURES
from engine.features.merchandise import initial_piles, piles
from engine.features.passengers import check_trip, positions
from engine.pending import PassengerPlacement, SecondDraw, TicketChoice, TicketMix
from engine.rules import apply, claimable_routes, legal_actions, new_game
from engine.scoring import final_scores
from engine.simulate import check_invariants, simulate
from engine.state import MAIN, NOBODY, GameState
from maps import LOCOMOTIVE, LOCOMOTIVE_PLUS4, PASSENGER_CARD, load_board

BOARD = "marklin"


# ---- helpers ---------------------------------------------------------------------------------------------


def city(state: GameState, name: str) -> int:
    return state.board.city(name).id


def own(state: GameState, seat: int, rid: int) -> None:
    """Give a route to a seat as a claim would (trains and points counted)."""
    board = state.board
    state.route_owner[rid] = seat
    player = state.players[seat]
    player.routes.append(rid)
    player.trains -= board.routes[rid].length
    player.score += board.route_points(board.routes[rid].length)


def put_passenger(state: GameState, seat: int, name: str) -> int:
    c = city(state, name)
    positions(state)[c] = seat
    state.players[seat].extra["passengers"] -= 1
    return c


def moves(state: GameState, seat: int) -> list[MovePassenger]:
    return [a for a in legal_actions(state, seat) if isinstance(a, MovePassenger)]


# ---- setup -----------------------------------------------------------------------------------------------


def test_setup_deck_piles_and_passengers():
    s = new_game(BOARD, 4, seed=2)
    everything = s.deck + [c for c in s.face_up if c >= 0]
    for p in s.players:
        everything += [t for t, n in enumerate(p.hand) for _ in range(n)]
    assert len(everything) == deck_ops.deck_size(s) == 118
    assert everything.count(LOCOMOTIVE) == 14 and everything.count(LOCOMOTIVE_PLUS4) == 6
    assert everything.count(PASSENGER_CARD) == 10 and everything.count(card("red")) == 11
    board = s.board
    assert piles(s) == [list(p) for p in initial_piles(s)]
    assert piles(s)[city(s, "Berlin")] == [7, 6, 5, 4]  # highest on top
    assert all(not piles(s)[c.id] for c in board.cities if c.dead_end)  # countries hold none
    by_values = sorted(tuple(p) for p in piles(s) if p)
    assert by_values.count((7, 6, 5, 4)) == 1 and by_values.count((4, 3, 2)) == 6
    assert by_values.count((3, 2, 1)) == 12 and by_values.count((2,)) == 16
    assert sum(len(p) for p in piles(s)) == 74
    assert all(p.extra["passengers"] == 3 and p.extra["passengers_moved"] == 0 for p in s.players)
    assert all(seat == NOBODY for seat in positions(s))
    assert not check_invariants(s)


# ---- placing passengers ----------------------------------------------------------------------------------


def test_claim_then_place_a_passenger_one_per_city_any_owner():
    s = started(BOARD, 2)
    berlin, magdeburg, leipzig = city(s, "Berlin"), city(s, "Magdeburg"), city(s, "Leipzig")
    bm = route_id(s, "Berlin", "Magdeburg")
    give(s, 0, red=3)
    apply(s, 0, ClaimRoute(bm, card("red"), 0))
    assert s.pending[0] == PassengerPlacement(bm, (berlin, magdeburg))
    assert s.current == 0
    assert legal_actions(s, 0) == [PlacePassenger(berlin), PlacePassenger(magdeburg), PlacePassenger(None)]
    with pytest.raises(IllegalAction, match="city of the route you claimed"):
        apply(s, 0, PlacePassenger(leipzig))
    apply(s, 0, PlacePassenger(berlin))
    assert positions(s)[berlin] == 0 and s.players[0].extra["passengers"] == 2
    assert s.current == 1 and not s.pending
    # Berlin is taken (by another player's passenger): only Leipzig is offered
    bl = route_id(s, "Berlin", "Leipzig")
    give(s, 1, orange=4)
    apply(s, 1, ClaimRoute(bl, card("orange"), 0))
    assert s.pending[1] == PassengerPlacement(bl, (leipzig,))
    with pytest.raises(IllegalAction, match="a passenger is already in Berlin"):
        apply(s, 1, PlacePassenger(berlin))
    apply(s, 1, PlacePassenger(None))  # "il peut poser": keeping it is allowed
    assert s.players[1].extra["passengers"] == 3 and s.current == 0
    assert not check_invariants(s)


def test_never_on_a_country_and_nothing_to_decide_without_reserve():
    s = started(BOARD, 2)
    mn = route_id(s, "Münster", "Niederlande")
    give(s, 0, orange=2)
    apply(s, 0, ClaimRoute(mn, card("orange"), 0))
    assert s.pending[0] == PassengerPlacement(mn, (city(s, "Münster"),))
    with pytest.raises(IllegalAction):
        apply(s, 0, PlacePassenger(city(s, "Niederlande")))
    apply(s, 0, PlacePassenger(None))
    s.players[1].extra["passengers"] = 0
    s.players[1].extra["passengers_moved"] = 3
    give(s, 1, red=3)
    apply(s, 1, ClaimRoute(route_id(s, "Berlin", "Magdeburg"), card("red"), 0))
    assert not s.pending and s.current == 0  # no passenger left: the claim is the whole turn


def test_placement_pending_survives_json():
    s = started(BOARD, 2)
    give(s, 0, red=3)
    apply(s, 0, ClaimRoute(route_id(s, "Berlin", "Magdeburg"), card("red"), 0))
    copy = GameState.from_json(s.to_json())
    assert copy.pending == s.pending and legal_actions(copy, 0) == legal_actions(s, 0)
    for action in legal_actions(s, 0):
        assert action_from_json(action.to_json()) == action
    apply(copy, 0, PlacePassenger(city(s, "Magdeburg")))
    assert positions(copy)[city(s, "Magdeburg")] == 0


# ---- moving passengers -----------------------------------------------------------------------------------


def test_trip_tokens_score_at_once_and_none_at_the_start_city():
    """Magdeburg -> Berlin -> Leipzig -> Magdeburg: Berlin's 7 and Leipzig's 4; back in Magdeburg, nothing."""
    s = started(BOARD, 2)
    for a, b in (("Berlin", "Magdeburg"), ("Berlin", "Leipzig"), ("Leipzig", "Magdeburg")):
        own(s, 0, route_id(s, a, b))
    start = put_passenger(s, 0, "Magdeburg")
    trip = (
        route_id(s, "Berlin", "Magdeburg"),
        route_id(s, "Berlin", "Leipzig"),
        route_id(s, "Leipzig", "Magdeburg"),
    )
    # the list offers the shortest trail for these cities; the round trip is worth the same and is accepted
    assert MovePassenger(start, trip[:2]) in moves(s, 0)
    assert MovePassenger(start, trip) not in moves(s, 0)
    score = s.players[0].score
    apply(s, 0, MovePassenger(start, trip))
    p = s.players[0]
    assert p.extra["merchandise"] == [7, 4] and p.extra["points_in_play"] == 11
    assert p.score == score + 11
    assert piles(s)[start] == [2]  # the start city keeps its token
    assert piles(s)[city(s, "Berlin")] == [6, 5, 4] and piles(s)[city(s, "Leipzig")] == [3, 2]
    # the passenger leaves the game
    assert positions(s)[start] == NOBODY and p.extra["passengers_moved"] == 1 and p.extra["passengers"] == 2
    assert s.current == 1 and s.events[0] == PassengerMoved(0, start, tuple(trip), (7, 4), 0, 11)
    assert not check_invariants(s)
    s.current = 0
    with pytest.raises(IllegalAction, match="no passenger in Magdeburg"):
        apply(s, 0, MovePassenger(start, trip))


def test_one_token_per_city_per_trip_and_parallel_routes_are_separate():
    s = started(BOARD, 4)
    dd = route_id(s, "Dortmund", "Düsseldorf")
    dk1, dk2 = (r.id for r in s.board.routes_between(city(s, "Düsseldorf"), city(s, "Köln"))[:2])
    own(s, 0, dd)
    own(s, 0, dk1)
    own(s, 1, dk2)
    start = put_passenger(s, 0, "Dortmund")
    give(s, 0, passenger=1)
    with pytest.raises(IllegalAction, match="cannot take Düsseldorf–Köln twice"):
        apply(s, 0, MovePassenger(start, (dd, dk1, dk1)))
    # Dortmund -> Düsseldorf (3) -> Köln (4) -> Düsseldorf again by the other route (nothing more)
    assert check_trip(s, 0, start, (dd, dk1, dk2)).points == 7
    apply(s, 0, MovePassenger(start, (dd, dk1, dk2)))
    assert s.players[0].extra["merchandise"] == [3, 4]
    assert piles(s)[city(s, "Düsseldorf")] == [2, 1] and piles(s)[city(s, "Köln")] == [3, 2]
    assert s.players[0].hand[PASSENGER_CARD] == 0 and s.discard[-1] == PASSENGER_CARD
    assert not check_invariants(s)


def test_other_players_routes_cost_one_passenger_card_each():
    """Rulebook example: "Le joueur violet doit se défausser d'une carte passager pour emprunter la ligne du
    joueur jaune"; own routes are free."""
    s = started(BOARD, 3)
    bm, bl = route_id(s, "Berlin", "Magdeburg"), route_id(s, "Berlin", "Leipzig")
    own(s, 1, bm)
    own(s, 0, bl)
    start = put_passenger(s, 0, "Magdeburg")
    give(s, 0)
    assert moves(s, 0) == []  # every trip starts on the other player's route
    with pytest.raises(IllegalAction, match="costs 1 Passenger cards and you have 0"):
        apply(s, 0, MovePassenger(start, (bm, bl)))
    give(s, 0, passenger=2)
    assert MovePassenger(start, (bm, bl)) in moves(s, 0)
    discard = len(s.discard)
    apply(s, 0, MovePassenger(start, (bm, bl)))
    assert s.players[0].hand[PASSENGER_CARD] == 1 and len(s.discard) == discard + 1
    assert s.players[0].extra["merchandise"] == [7, 4]
    assert not check_invariants(s)


def test_passengers_never_enter_a_country_nor_use_unclaimed_routes():
    s = started(BOARD, 2)
    mn = route_id(s, "Münster", "Niederlande")
    own(s, 0, mn)
    start = put_passenger(s, 0, "Münster")
    assert moves(s, 0) == []
    with pytest.raises(IllegalAction, match=r"never go into a country \(Niederlande\)"):
        apply(s, 0, MovePassenger(start, (mn,)))
    dm = s.board.routes_between(city(s, "Dortmund"), start)[0].id
    with pytest.raises(IllegalAction, match="is not claimed"):
        apply(s, 0, MovePassenger(start, (dm,)))
    with pytest.raises(IllegalAction, match="does not leave from Münster"):
        apply(s, 0, MovePassenger(start, (route_id(s, "Berlin", "Leipzig"),)))
    with pytest.raises(IllegalAction, match="at least one"):
        apply(s, 0, MovePassenger(start, ()))
    with pytest.raises(IllegalAction, match="no passenger in Dortmund"):
        apply(s, 0, MovePassenger(city(s, "Dortmund"), (dm,)))


def test_a_move_is_a_whole_turn_of_its_own():
    s = started(BOARD, 2)
    bm = route_id(s, "Berlin", "Magdeburg")
    own(s, 0, bm)
    start = put_passenger(s, 0, "Magdeburg")
    apply(s, 0, DrawBlind())
    assert isinstance(s.pending[0], SecondDraw)
    with pytest.raises(IllegalAction, match="Finish what you started") as moving:
        apply(s, 0, MovePassenger(start, (bm,)))
    with pytest.raises(IllegalAction) as drawing:  # the core's turn actions share the check (engine.turn)
        apply(s, 0, DrawTickets())
    assert (moving.value.code, moving.value.params) == (
        "finish_first",
        {"pending": "second_draw", "action": "move_passenger"},
    )
    assert (drawing.value.code, drawing.value.params) == (
        "finish_first",
        {"pending": "second_draw", "action": "draw_tickets"},
    )
    apply(s, 0, DrawBlind())
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(s, 0, MovePassenger(start, (bm,)))


@pytest.mark.xdist_group("timing")  # a time bound: not beside another timing-bound test
def test_listed_moves_are_capped_but_any_valid_trip_is_accepted():
    s = started(BOARD, 4)
    board = s.board
    for r in board.routes:  # a crowded late board: every city-to-city route claimed, half of them by seat 0
        if not (board.cities[r.a].dead_end or board.cities[r.b].dead_end):
            s.route_owner[r.id] = 0 if r.id % 2 else 1
    start = put_passenger(s, 0, "Kassel")
    give(s, 0, passenger=3)
    began = time.perf_counter()
    listed = moves(s, 0)
    assert time.perf_counter() - began < 1.0
    degree = len(board.routes_at[start])
    assert 0 < len(listed) <= 30 + degree
    trips = [check_trip(s, 0, start, m.routes) for m in listed]  # every listed move is valid
    best = max(t.points for t in trips)
    assert trips[0].points == best > 0
    assert {(r,) for r in board.routes_at[start] if s.route_owner[r] != NOBODY} <= {m.routes for m in listed}
    # a long trail the list does not hold is still accepted by apply
    listed_routes = {m.routes for m in listed}
    path: list[int] = []
    here = start
    used: set[int] = set()
    cost = 0
    while len(path) < 12:
        for rid in board.routes_at[here]:
            r = board.routes[rid]
            nxt = r.b if r.a == here else r.a
            extra = 0 if s.route_owner[rid] == 0 else 1
            if rid in used or board.cities[nxt].dead_end or cost + extra > 3:
                continue
            path.append(rid)
            used.add(rid)
            cost += extra
            here = nxt
            break
        else:
            break
    assert len(path) > 3 and tuple(path) not in listed_routes
    trip = check_trip(s, 0, start, tuple(path))
    apply(s, 0, MovePassenger(start, tuple(path)))
    assert s.players[0].extra["points_in_play"] == trip.points
    assert s.players[0].hand[PASSENGER_CARD] == 3 - trip.cards


@settings(max_examples=examples(40))
@given(st.lists(st.integers(0, 7), min_size=1, max_size=15), st.integers(0, 10))
def test_random_trips_conserve_tokens_and_cost_what_they_cross(choices, passenger_cards):
    s = started(BOARD, 4, seed=7)
    board = s.board
    for r in board.routes:
        s.route_owner[r.id] = r.id % 3  # seats 0, 1, 2
    start = put_passenger(s, 0, "Frankfurt")
    give(s, 0, passenger=passenger_cards)
    path: list[int] = []
    here = start
    for k in choices:
        options = board.routes_at[here]
        rid = options[k % len(options)]
        r = board.routes[rid]
        path.append(rid)
        here = r.b if r.a == here else r.a
    before = [list(p) for p in piles(s)]
    try:
        trip = check_trip(s, 0, start, tuple(path))
    except IllegalAction:
        reached = [start]
        for rid in path:
            r = board.routes[rid]
            reached.append(r.b if r.a == reached[-1] else r.a)
        bad = (
            len(set(path)) < len(path)
            or any(board.cities[c].dead_end for c in reached)
            or sum(1 for rid in path if s.route_owner[rid] != 0) > passenger_cards
        )
        assert bad
        return
    firsts = list(dict.fromkeys(c for c in trip.cities if c != start))
    assert trip.points == sum(before[c][0] for c in firsts if before[c])
    assert trip.cards == sum(1 for rid in path if s.route_owner[rid] != 0)
    apply(s, 0, MovePassenger(start, tuple(path)))
    assert sum(s.players[0].extra["merchandise"]) == trip.points
    assert sum(map(sum, piles(s))) + trip.points == sum(map(sum, before))


# ---- end scoring -------------------------------------------------------------------------------------------


def test_merchandise_bonus_recount_and_tie_break():
    s = started(BOARD, 2)
    for p in s.players:
        s.box += p.tickets
        p.tickets = []
    for seat, (a, b) in enumerate((("Berlin", "Magdeburg"), ("Berlin", "Leipzig"))):
        own(s, seat, route_id(s, a, b))
    # seat 0: route 4 + tokens 7 = 11; seat 1: route 7 + tokens 4 = 11
    s.players[0].extra.update(merchandise=[7], points_in_play=7)
    s.players[0].score += 7
    s.players[1].extra.update(merchandise=[4], points_in_play=4)
    s.players[1].score += 4
    piles(s)[city(s, "Berlin")].pop(0)
    piles(s)[city(s, "Leipzig")].pop(0)
    assert not check_invariants(s)
    sheets = final_scores(s)
    assert [sh.bonuses["merchandise"] for sh in sheets] == [7, 4]
    assert [sh.total for sh in sheets] == [p.score for p in s.players] == [11, 11]
    assert [sh.tie_values["merchandise"] for sh in sheets] == [7, 4]
    assert [sh.rank for sh in sheets] == [1, 2]  # no completed ticket on either side: merchandise decides


def city_path(state: GameState, a: int, b: int) -> list[int]:
    """Routes of a shortest path between two places (countries only as the last step)."""
    board = state.board
    prev: dict[int, tuple[int, int]] = {a: (a, -1)}
    frontier = [a]
    while frontier and b not in prev:
        nxt_frontier = []
        for c in frontier:
            if board.cities[c].dead_end and c != a:
                continue
            for rid in board.routes_at[c]:
                r = board.routes[rid]
                n = r.b if r.a == c else r.a
                if n not in prev:
                    prev[n] = (c, rid)
                    nxt_frontier.append(n)
        frontier = nxt_frontier
    path = []
    c = b
    while c != a:
        c, rid = prev[c]
        path.append(rid)
    return path


def test_most_completed_tickets_bonus_all_tied_score_it():
    s = started(BOARD, 3)
    for p in s.players:
        p.tickets = []
    assert [sh.bonuses["most_tickets"] for sh in final_scores(s)] == [0, 0, 0]  # none completed: nobody
    t = s.board.tickets[0]
    for seat in (0, 1):
        s.players[seat].tickets = [t.id]
        s.players[seat].routes = city_path(s, t.a, t.b)  # scoring reads the lists only
    sheets = final_scores(s)
    assert [sh.completed_tickets for sh in sheets] == [1, 1, 0]
    assert [sh.bonuses["most_tickets"] for sh in sheets] == [10, 10, 0]


def test_score_file_merchandise():
    s = started(BOARD, 2)
    feature = FEATURES["merchandise"]
    for p in s.players:
        p.tickets = []
    feature.load_score_extras(s, 0, {"merchandise": [7, 4, 2]})
    feature.load_score_extras(s, 1, {"merchandise": 9})
    sheets = final_scores(s)
    assert [sh.bonuses["merchandise"] for sh in sheets] == [13, 9]
    assert [p.extra["points_in_play"] for p in s.players] == [13, 9]
    with pytest.raises(GameDataError, match="not a merchandise token value"):
        feature.load_score_extras(s, 0, {"merchandise": [8]})
    with pytest.raises(GameDataError, match="only 1 merchandise tokens worth 7"):
        feature.load_score_extras(s, 1, {"merchandise": [7]})
    with pytest.raises(GameDataError, match="cannot be negative"):
        feature.load_score_extras(s, 1, {"merchandise": -2})
    with pytest.raises(GameDataError):
        feature.load_score_extras(s, 1, {"merchandise": "lots"})


# ---- cards: Locomotive +4, Passenger cards, the face-up row -------------------------------------------------


def test_locomotive_plus4_only_on_routes_of_four_or_more():
    s = started(BOARD, 2)
    bm, bl = route_id(s, "Berlin", "Magdeburg"), route_id(s, "Berlin", "Leipzig")  # 3 and 4 spaces
    give(s, 0, red=2, orange=2, locomotive_4=4)
    with pytest.raises(
        IllegalAction, match="only pay for routes of 4 or more spaces; Berlin–Magdeburg has 3"
    ):
        apply(s, 0, ClaimRoute(bm, card("red"), 0, plus4=1))
    assert all(a.plus4 == 0 for a in payment_options(s, 0, bm))
    assert ClaimRoute(bl, card("orange"), 0, plus4=2) in payment_options(s, 0, bl)
    assert ClaimRoute(bl, LOCOMOTIVE, 0, plus4=4) in payment_options(s, 0, bl)
    apply(s, 0, ClaimRoute(bl, card("orange"), 0, plus4=2))
    hand = s.players[0].hand
    assert hand[LOCOMOTIVE_PLUS4] == 2 and hand[card("orange")] == 0
    assert s.discard[-2:] == [LOCOMOTIVE_PLUS4] * 2


def test_plus4_minimum_length_comes_from_the_board_data():
    """The real Märklin data may change the rule: the engine reads `deck.plus4_min_length`, not a constant."""
    import dataclasses

    board = load_board(BOARD)
    rules = {**board.rules, "deck": {**board.rules["deck"], "plus4_min_length": 5}}
    stricter = dataclasses.replace(board, rules=rules)
    s = started(stricter, 2)
    bl = route_id(s, "Berlin", "Leipzig")  # 4 spaces
    give(s, 0, orange=2, locomotive_4=4)
    assert all(a.plus4 == 0 for a in payment_options(s, 0, bl))
    assert all(shape[2] == 0 for rid, shapes in claimable_routes(s, 0) if rid == bl for shape in shapes)
    with pytest.raises(IllegalAction, match="only pay for routes of 5 or more spaces"):
        apply(s, 0, ClaimRoute(bl, card("orange"), 0, plus4=2))


def test_face_up_plus4_is_drawn_like_an_ordinary_card():
    s = started(BOARD, 2)
    s.face_up = [LOCOMOTIVE_PLUS4, LOCOMOTIVE_PLUS4, card("red"), card("blue"), card("green")]
    stack_deck(s, ["red", "blue"])
    apply(s, 0, DrawFaceUp(0))
    assert isinstance(s.pending[0], SecondDraw)  # does not end the turn as a Locomotive would
    assert DrawFaceUp(1) in legal_actions(s, 0)
    apply(s, 0, DrawFaceUp(1))  # and may be the second card
    assert s.players[0].hand[LOCOMOTIVE_PLUS4] >= 2 and s.current == 1


def test_three_passenger_cards_face_up_reset_the_row_three_plus4_do_not():
    s = started(BOARD, 2)
    s.face_up = [PASSENGER_CARD, PASSENGER_CARD, card("red"), card("red"), card("red")]
    stack_deck(s, ["passenger", "blue", "green", "green", "yellow", "black"])
    apply(s, 0, DrawFaceUp(2))
    assert s.face_up == [card("blue"), card("green"), card("green"), card("yellow"), card("black")]
    s = started(BOARD, 2)
    s.face_up = [LOCOMOTIVE_PLUS4, LOCOMOTIVE_PLUS4, card("red"), card("red"), card("red")]
    stack_deck(s, ["locomotive+4"])
    apply(s, 0, DrawFaceUp(2))
    assert s.face_up.count(LOCOMOTIVE_PLUS4) == 3
    s = started(BOARD, 2)
    s.face_up = [LOCOMOTIVE, LOCOMOTIVE, PASSENGER_CARD, PASSENGER_CARD, card("red")]
    stack_deck(s, ["white"])
    apply(s, 0, DrawFaceUp(4))
    assert s.face_up == [LOCOMOTIVE, LOCOMOTIVE, PASSENGER_CARD, PASSENGER_CARD, card("white")]


# ---- tickets -----------------------------------------------------------------------------------------------


def test_ticket_mix_at_setup_and_in_play():
    s = new_game(BOARD, 2, seed=9)
    assert s.pending[0] == TicketMix(0, 4)
    kept: list[int] = []
    for seat, mix in ((0, (2, 2)), (1, (3, 1))):
        apply(s, seat, ChooseTicketMix(mix))
        choice = s.pending[seat]
        assert isinstance(choice, TicketChoice) and choice.keep_min == 2
        assert sorted(choice.sources) == sorted(["short"] * mix[0] + ["long"] * mix[1])
        keep = tuple(sorted(choice.offered)[:2])
        kept += keep
        apply(s, seat, KeepTickets(keep))
    assert s.phase == MAIN
    for deck in ("short", "long"):
        assert len(s.ticket_decks[deck]) == 23 - sum(1 for t in kept if s.board.tickets[t].deck == deck)
    bottoms = {d: s.ticket_decks[d][-1] for d in ("short", "long")}
    apply(s, 0, DrawTickets((0, 4)))
    choice = s.pending[0]
    assert choice.keep_min == 1 and set(choice.sources) == {"long"}
    apply(s, 0, KeepTickets((choice.offered[0],)))
    assert set(s.ticket_decks["long"][:3]) == set(choice.offered[1:])  # under the long deck
    assert bottoms["long"] in choice.offered
    assert not check_invariants(s)


# ---- random games ------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    report = simulate(BOARD, players, 20, seed=2000 * players)
    assert report["errors"] == 0, report["error_messages"]
    assert report["invariant_violations"] == 0, report["violation_messages"]
    first = report["_first"]
    assert first.state.finished

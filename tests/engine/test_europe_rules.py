"""Europe's own rules, with the rulebook's worked examples: tunnels, ferries, stations, European Express,
tie-breaks, the anniversary variants and Warehouses & Depots."""

from __future__ import annotations

import pytest
from helpers.engine_states import card, give, route_id, stack_deck, started

from engine.actions import (
    BuildStation,
    ChooseTicketMix,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
    PlaceDepot,
    TakeWarehouses,
)
from engine.errors import IllegalAction
from engine.events import TunnelRevealed
from engine.pending import TicketChoice, TunnelPayment, WarehouseChoice
from engine.rules import apply, legal_actions, new_game
from engine.scoresheet import score_json
from engine.scoring import final_scores, longest_path
from engine.simulate import check_invariants
from engine.state import DEPOTS, MAIN
from maps import LOCOMOTIVE

# ---- Tunnels: the three examples of europe-fr.txt (Madrid–Pamplona: two parallel 3-space tunnels) ----------


def tunnel_game(hand: dict[str, int], revealed: list[str]):  # type: ignore[no-untyped-def]
    s = started("europe", 4)
    give(s, 0, **hand)
    stack_deck(s, revealed)
    return s


def test_tunnel_example_1_one_matching_card_costs_one_more():
    s = tunnel_game({"white": 4}, ["white", "blue", "green"])
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    apply(s, 0, ClaimRoute(tunnel, card("white")))
    pending = s.pending[0]
    assert isinstance(pending, TunnelPayment) and pending.extra == 1
    revealed = tuple(card(c) for c in ("white", "blue", "green"))
    assert s.events == [TunnelRevealed(0, tunnel, revealed, 1, (card("white"), 3, 0, 0, 0))]
    assert legal_actions(s, 0) == [DeclineTunnel(), PayTunnel(0)]
    apply(s, 0, PayTunnel(0))
    assert s.route_owner[tunnel] == 0 and s.players[0].hand[card("white")] == 0
    assert s.players[0].trains == 42  # the extra card costs no train
    assert not check_invariants(s)


def test_tunnel_example_2_a_revealed_locomotive_costs_one_more():
    s = tunnel_game({"black": 4, "locomotive": 1}, ["locomotive", "red", "red"])
    tunnel = route_id(s, "Madrid", "Pamplona", "black")
    apply(s, 0, ClaimRoute(tunnel, card("black")))
    assert s.pending[0].extra == 1
    # the extra may be paid with a Locomotive instead of a third... fourth black card
    assert set(legal_actions(s, 0)) == {DeclineTunnel(), PayTunnel(0), PayTunnel(1)}
    apply(s, 0, PayTunnel(1))
    assert s.players[0].hand[card("black")] == 1 and s.players[0].hand[LOCOMOTIVE] == 0


def test_tunnel_example_3_paid_with_locomotives_only_locomotives_count():
    s = tunnel_game({"locomotive": 4, "white": 2}, ["white", "white", "locomotive"])
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    apply(s, 0, ClaimRoute(tunnel, LOCOMOTIVE, 3))
    assert s.pending[0].extra == 1  # only the revealed Locomotive
    assert set(legal_actions(s, 0)) == {DeclineTunnel(), PayTunnel(1)}
    with pytest.raises(IllegalAction, match="must be Locomotives"):
        apply(s, 0, PayTunnel(0))
    apply(s, 0, PayTunnel(1))
    assert s.players[0].hand[card("white")] == 2 and s.players[0].hand[LOCOMOTIVE] == 0


def test_tunnel_declined_returns_the_cards_and_discards_the_revealed():
    s = tunnel_game({"white": 3}, ["white", "white", "blue"])
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    discard = len(s.discard)
    apply(s, 0, ClaimRoute(tunnel, card("white")))
    assert legal_actions(s, 0) == [DeclineTunnel()]  # 2 more white needed, none left
    apply(s, 0, DeclineTunnel())
    assert s.players[0].hand[card("white")] == 3 and s.route_owner[tunnel] == -1
    assert len(s.discard) == discard + 3 and s.current == 1


def test_tunnel_with_no_card_to_reveal_costs_nothing_more():
    s = tunnel_game({"white": 3}, [])
    for c in s.deck + s.discard:
        s.players[1].hand[c] += 1
    s.deck.clear()
    s.discard.clear()
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    apply(s, 0, ClaimRoute(tunnel, card("white")))
    assert s.route_owner[tunnel] == 0 and 0 not in s.pending


def test_tunnel_short_deck_reveals_what_there_is():
    s = tunnel_game({"white": 4}, [])
    keep = [card("white"), card("red")]
    for c in s.deck + s.discard:
        s.players[1].hand[c] += 1
    s.deck.clear()
    s.discard.clear()
    for c in keep:
        s.players[1].hand[c] -= 1
    s.deck.extend(keep)
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    apply(s, 0, ClaimRoute(tunnel, card("white")))
    assert len(s.pending[0].revealed) == 2 and s.pending[0].extra == 1


# ---- Ferries -----------------------------------------------------------------------------------------------


def test_ferry_palermo_smyrna_needs_two_locomotives():
    s = started("europe", 4)
    ferry = route_id(s, "Palermo", "Smyrna")  # 6 gray spaces, 2 with a Locomotive symbol
    give(s, 0, red=6, locomotive=1)
    with pytest.raises(IllegalAction, match="ferry: it needs 2 Locomotives"):
        apply(s, 0, ClaimRoute(ferry, card("red"), 1))
    assert not [a for a in legal_actions(s, 0) if isinstance(a, ClaimRoute) and a.route == ferry]
    give(s, 0, red=4, locomotive=2)
    options = [a for a in legal_actions(s, 0) if isinstance(a, ClaimRoute) and a.route == ferry]
    assert options == [ClaimRoute(ferry, card("red"), 2)]
    apply(s, 0, options[0])
    assert s.players[0].score == 15


# ---- Stations ----------------------------------------------------------------------------------------------


def test_station_costs_one_two_three_cards_of_one_colour():
    s = started("europe", 2)
    zurich = s.board.city("Zürich").id
    wien = s.board.city("Wien").id
    roma = s.board.city("Roma").id
    give(s, 0, red=1, blue=1)
    apply(s, 0, BuildStation(zurich, card("blue")))
    assert s.station_owner[zurich] == 0 and s.players[0].stations == 2
    apply(s, 1, DrawBlind())
    apply(s, 1, DrawBlind())
    give(s, 0, red=1, blue=1, locomotive=1)
    with pytest.raises(IllegalAction, match="costs 2 cards of one colour"):
        apply(s, 0, BuildStation(wien, card("red")))
    with pytest.raises(IllegalAction, match="already has a building"):
        apply(s, 0, BuildStation(zurich, card("red"), 1))
    apply(s, 0, BuildStation(wien, card("red"), 1))
    apply(s, 1, DrawBlind())
    apply(s, 1, DrawBlind())
    give(s, 0, green=2, locomotive=1)
    apply(s, 0, BuildStation(roma, card("green"), 1))
    assert s.players[0].stations == 0
    assert not any(isinstance(a, BuildStation) for a in legal_actions(s, 0))


def test_scoring_position_with_stations_uses_the_best_borrowed_route():
    # Ann's station in Frankfurt can borrow one of Bob's routes: Frankfurt–Essen links her Paris–Frankfurt
    # network to Essen–Berlin (ticket Paris–Berlin? not on classic; use Berlin–... tickets of the classic set).
    data = {
        "map": "europe",
        "players": [
            {
                "name": "Ann",
                "routes": [["Paris", "Frankfurt", "white"], ["Essen", "Berlin"]],
                "tickets": [["Frankfurt", "Kobenhavn"], ["Paris", "Wien"]],
                "stations": ["Frankfurt"],
            },
            {
                "name": "Bob",
                "routes": [
                    ["Frankfurt", "Essen"],
                    ["Frankfurt", "München"],
                    ["München", "Wien"],
                    ["Essen", "Kobenhavn", "gray"],
                ],
                "tickets": [],
                "stations": [],
            },
        ],
    }
    out = score_json(data)
    ann = out["players"][0]
    # Frankfurt–Kobenhavn (5) needs Frankfurt–Essen + Essen–Kobenhavn: two of Bob's routes, one station: fails.
    # Paris–Wien (8) needs Frankfurt–München–Wien: two of Bob's routes: fails too.
    assert [t["completed"] for t in ann["tickets"]] == [False, False]
    data["players"][0]["routes"].append(["Essen", "Kobenhavn", "gray"])
    data["players"][1]["routes"].pop()  # Bob no longer has Essen–Kobenhavn
    data["players"][0]["routes"][-1] = ["Essen", "Kobenhavn"]
    out = score_json(data)
    ann = out["players"][0]
    # With Essen–Kobenhavn her own, the station borrows Frankfurt–Essen: Frankfurt–Kobenhavn done (+5);
    # Paris–Wien still fails (-8). The station could have borrowed Frankfurt–München instead: no ticket gains.
    assert [t["completed"] for t in ann["tickets"]] == [True, False]
    assert ann["ticket_points"] == 5 - 8
    assert ann["bonuses"]["stations"] == 2 * 4


def test_station_choice_is_optimal_across_tickets():
    # Two tickets through one station city, each needing a different borrowed route: the bigger one wins.
    data = {
        "map": "europe",
        "players": [
            {
                "name": "Ann",
                "routes": [["Paris", "Frankfurt", "white"], ["München", "Wien"]],
                "tickets": [["Paris", "Wien"], ["Frankfurt", "Kobenhavn"]],
                "stations": ["Frankfurt"],
            },
            {"name": "Bob", "routes": [["Frankfurt", "München"], ["Frankfurt", "Essen"]], "tickets": []},
        ],
    }
    ann = score_json(data)["players"][0]
    # borrowing Frankfurt–München completes Paris–Wien (8); Frankfurt–Essen would complete nothing
    assert [t["completed"] for t in ann["tickets"]] == [True, False]


# ---- European Express --------------------------------------------------------------------------------------


def test_longest_path_may_loop_through_a_city_but_never_reuse_a_route():
    s = started("europe", 2)
    # a triangle Paris–Bruxelles–Frankfurt–Paris plus a tail Frankfurt–München
    routes = [
        route_id(s, "Paris", "Bruxelles", "red"),
        route_id(s, "Bruxelles", "Frankfurt", "blue"),
        route_id(s, "Frankfurt", "Paris", "white"),
        route_id(s, "Frankfurt", "München"),
    ]
    lengths = [s.board.routes[r].length for r in routes]
    assert longest_path(s, routes) == sum(lengths)  # the tail, around the triangle... all four routes once
    assert longest_path(s, routes[:1]) == lengths[0]


def test_european_express_ties_all_score():
    out = score_json(
        {
            "map": "europe",
            "players": [
                {"name": "Ann", "routes": [["Paris", "Frankfurt", "white"]], "tickets": []},
                {"name": "Bob", "routes": [["Frankfurt", "München"], ["München", "Wien"]], "tickets": []},
                {
                    "name": "Cy",
                    "routes": [["Bruxelles", "Paris", "red"], ["Bruxelles", "Amsterdam"]],
                    "tickets": [],
                },
            ],
        }
    )
    bonus = {p["name"]: p["bonuses"]["european_express"] for p in out["players"]}
    # Paris–Frankfurt 3; Frankfurt–München 2 + München–Wien 3 = 5; Bruxelles–Paris 2 + Amsterdam–Bruxelles 1 = 3
    assert bonus == {"Ann": 0, "Bob": 10, "Cy": 0}
    assert {p["name"]: p["longest_path"] for p in out["players"]} == {"Ann": 3, "Bob": 5, "Cy": 3}


def test_hand_checked_position():
    """Worked by hand from the board: route points by length 1:1 2:2 3:4 4:7 5:10 6:15 8:21."""
    out = score_json(
        {
            "map": "europe",
            "variant": "classic",
            "players": [
                {
                    "name": "Ann",
                    "routes": [
                        ["Edinburgh", "London", "black"],
                        ["London", "Dieppe", "gray"],
                        ["Dieppe", "Paris"],
                        ["Paris", "Frankfurt", "white"],
                        ["Frankfurt", "München"],
                        ["München", "Wien"],
                    ],
                    "tickets": [["Edinburgh", "Paris"], ["Paris", "Wien"], ["Berlin", "Roma"]],
                    "stations": ["Roma"],
                },
                {
                    "name": "Bob",
                    "routes": [["München", "Zürich"], ["Budapest", "Wien", "red"]],
                    "tickets": [["Zürich", "Budapest"]],
                    "stations": ["Wien"],
                },
            ],
        }
    )
    ann, bob = out["players"]
    # Ann: Edinburgh–London 4 (7) + London–Dieppe 2 (2) + Dieppe–Paris 1 (1) + Paris–Frankfurt 3 (4)
    #      + Frankfurt–München 2 (2) + München–Wien 3 (4) = 20 route points.
    assert ann["route_points"] == 20
    # Tickets: Edinburgh–Paris 7 done, Paris–Wien 8 done, Berlin–Roma 9 failed (her Roma station has no
    # route to borrow): 7 + 8 - 9 = 6. Two unbuilt stations: 8.
    assert ann["ticket_points"] == 6 and ann["bonuses"]["stations"] == 8
    # Longest path: all six routes in one line, 4+2+1+3+2+3 = 15 -> European Express.
    assert ann["longest_path"] == 15 and ann["bonuses"]["european_express"] == 10
    assert ann["total"] == 20 + 6 + 8 + 10
    # Bob: München–Zürich 2 (2) + Budapest–Wien 1 (1) = 3; Zürich–Budapest 6: his Wien station borrows Ann's
    # München–Wien: Zürich–München–Wien–Budapest, done, +6. Two unbuilt stations: 8. 3 + 6 + 8 = 17.
    assert bob["route_points"] == 3 and bob["ticket_points"] == 6 and bob["bonuses"]["stations"] == 8
    assert bob["total"] == 17 and out["winners"] == ["Ann"]


def test_tie_breaks_completed_tickets_then_fewest_stations():
    # Ann: 2 routes of 3 (4 + 4) and one station built (2 unbuilt: 8) = 16; Bob: 1 route of 3 (4) and no
    # station built (12) = 16. Both longest 3: both score the Express. Tied at 26, no ticket: Bob built fewer.
    out = score_json(
        {
            "map": "europe",
            "players": [
                {
                    "name": "Ann",
                    "routes": [["Paris", "Frankfurt", "white"], ["Madrid", "Pamplona", "black"]],
                    "tickets": [],
                    "stations": ["Roma"],
                },
                {"name": "Bob", "routes": [["Athina", "Sofia"]], "tickets": [], "stations": []},
            ],
        }
    )
    ann, bob = out["players"]
    assert ann["total"] == bob["total"] == 26
    assert (ann["rank"], bob["rank"]) == (2, 1) and out["winners"] == ["Bob"]


def test_tie_break_order_from_the_board():
    # most completed tickets first: a tie on points between a player with one ticket done and one without
    out = score_json(
        {
            "map": "europe",
            "players": [
                # Ann: Dieppe–Paris 1 (1) + Edinburgh–London 4 (7) + London–Dieppe 2 (2) = 10; Edinburgh–Paris +7 = 17;
                # 3 stations unbuilt 12 -> 29; longest 7 -> Express 10 -> 39
                {
                    "name": "Ann",
                    "routes": [["Dieppe", "Paris"], ["Edinburgh", "London", "black"], ["London", "Dieppe"]],
                    "tickets": [["Edinburgh", "Paris"]],
                },
                # Bob: Warszawa–Wien 4 (7) + Berlin–Wien 3 (4) = 11; 3 stations 12 -> 23; longest 7 -> 10 -> 33;
                # plus Budapest–Wien 1 (1) and longest 8 -> Bob alone takes the Express... keep it simple instead:
                {"name": "Bob", "routes": [["Warszawa", "Wien"], ["Berlin", "Wien"]], "tickets": []},
            ],
        }
    )
    ann, bob = out["players"]
    assert (ann["total"], bob["total"]) == (39, 33)
    assert ann["completed_tickets"] == 1 and ann["rank"] == 1


# ---- Anniversary variants ------------------------------------------------------------------------------------


def test_mega_europe_long_then_standard_with_keep_rules():
    s = new_game("europe", 3, variant="mega", seed=5)
    first = s.pending[0]
    assert isinstance(first, TicketChoice) and first.sources == ("long", "long")
    assert (first.keep_min, first.keep_max) == (0, 1)
    with pytest.raises(IllegalAction, match="at most 1"):
        apply(s, 0, KeepTickets(tuple(sorted(first.offered))))
    apply(s, 0, KeepTickets(()))  # no long ticket: must then keep 3 of 5 standard
    second = s.pending[0]
    assert second.sources == ("regular",) * 5 and second.keep_min == 3
    apply(s, 1, KeepTickets((s.pending[1].offered[0],)))
    assert s.pending[1].keep_min == 2
    boxed_before = len(s.box)
    assert boxed_before == 2 + 1  # rejected long tickets go to the box
    apply(s, 0, KeepTickets(tuple(sorted(second.offered[:3]))))
    apply(s, 1, KeepTickets(tuple(sorted(s.pending[1].offered[:2]))))
    apply(s, 2, KeepTickets(()))
    regular_before = len(s.ticket_decks["regular"])
    apply(s, 2, KeepTickets(tuple(sorted(s.pending[2].offered[:3]))))
    assert s.phase == MAIN
    # rejected standard tickets (2 + 3 + 2) went under the standard deck; unused long ones to the box
    assert len(s.ticket_decks["regular"]) == regular_before + 7
    assert "long" not in s.ticket_decks
    assert not check_invariants(s)


def test_big_cities_five_keep_two_and_draw_four():
    s = new_game("europe", 2, variant="big-cities", seed=1)
    assert len(s.pending[0].offered) == 5 and s.pending[0].keep_min == 2
    assert all("bigcities" in s.board.tickets[t].tags for t in s.pending[0].offered)
    s2 = started("europe", 2, variant="big-cities")
    from engine.actions import DrawTickets

    apply(s2, 0, DrawTickets())
    assert len(s2.pending[0].offered) == 4


def test_1912_uses_the_1912_tickets():
    s = new_game("europe", 2, variant="1912", seed=1)
    assert all("1912" in s.board.tickets[t].tags for t in s.pending[0].offered)


# ---- Warehouses & Depots -------------------------------------------------------------------------------------


def test_warehouses_and_depots_flow():
    s = new_game("europe", 3, options=("warehouses",), seed=4, first_player=0)
    for seat in range(3):
        apply(s, seat, KeepTickets(tuple(sorted(s.pending[seat].offered)[:2])))
    assert s.phase == DEPOTS and s.current == 2  # last player first, then backwards
    paris, wien, berlin = (s.board.city(n).id for n in ("Paris", "Wien", "Berlin"))
    apply(s, 2, PlaceDepot(paris))
    with pytest.raises(IllegalAction, match="without a station or depot"):
        apply(s, 1, PlaceDepot(paris))
    apply(s, 1, PlaceDepot(wien))
    apply(s, 0, PlaceDepot(berlin))
    assert s.phase == MAIN and s.current == 0
    # drawing cards: first the top card of the deck goes blind into a warehouse of the player's choice
    with pytest.raises(IllegalAction, match="warehouse"):
        apply(s, 0, DrawBlind())
    top = s.deck[-1]
    apply(s, 0, DrawBlind(warehouse=2))
    assert s.warehouses[2][top] == 1 and sum(s.warehouses[2]) == 1
    apply(s, 0, DrawBlind())
    # seat 1 claims a route touching Paris (seat 2's depot): it may empty seat 2's warehouse for a depot
    r = route_id(s, "Paris", "Dieppe")
    give(s, 1, pink=1)
    apply(s, 1, ClaimRoute(r, card("pink")))
    assert isinstance(s.pending[1], WarehouseChoice) and s.pending[1].owners == (2,)
    assert set(legal_actions(s, 1)) == {TakeWarehouses(()), TakeWarehouses((2,))}
    apply(s, 1, TakeWarehouses((2,)))
    assert s.players[1].hand[top] == 1 and sum(s.warehouses[2]) == 0 and s.players[1].depots == 3
    # free depot placement on one's turn does not end it
    apply(s, 2, PlaceDepot(s.board.city("Roma").id))
    assert s.current == 2
    # stations cannot go on a depot city
    give(s, 2, red=1)
    with pytest.raises(IllegalAction, match="already has a building"):
        apply(s, 2, BuildStation(paris, card("red")))
    assert not check_invariants(s)
    s.phase = "finished"
    sheets = final_scores(s)
    assert [sh.bonuses["depots"] for sh in sheets] == [10, 0, 0]  # 4, 3, 3 depots in reserve


def test_face_up_draw_with_warehouse():
    s = started("europe", 2, options=("warehouses",))
    slot = next(i for i, c in enumerate(s.face_up) if c != LOCOMOTIVE)
    apply(s, s.current, DrawFaceUp(slot, warehouse=0))
    assert sum(s.warehouses[0]) == 1


def test_unused_imports_are_used():
    assert ChooseTicketMix  # the helper module re-exports it for the two-deck boards

"""The board loader and validator (maps/board.py), on every board file and on broken data."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import networkx as nx
import pytest
from helpers.boards import multiplicity, raw_board

from maps.board import BoardDataError, board_from_dict, board_ids, load_board, select_tickets

BOARDS = ["europe", "usa", "germany", "marklin", "japan", "italy"]
FEATURES = {
    "stations",
    "tunnels",
    "ferries",
    "warehouses",
    "meeples",
    "passengers",
    "merchandise",
    "bullet_trains",
    "ferry_cards",
    "regions",
}
TIE_BREAKS = {"completed_tickets", "fewest_stations", "longest_path", "meeples", "merchandise"}
REJECTED = {"box", "bottom", "bottom_shuffled", "return_shuffled"}


def test_all_boards_present():
    assert set(BOARDS) <= set(board_ids())


@pytest.mark.parametrize("bid", BOARDS)
def test_board_loads_and_is_consistent(bid):
    board = load_board(bid)
    assert board.id == bid and board.status in ("verified", "provisional")
    rules = board.rules
    for key in (
        "trains_per_player",
        "route_points",
        "deck",
        "starting_hand",
        "min_players_for_multi_routes",
        "end_trigger_trains",
        "tie_breaks",
    ):
        assert key in rules, key
    assert set(rules["tie_breaks"]) <= TIE_BREAKS
    assert rules.get("players", [2, 5]) == [2, 5]
    for feature in rules.get("features", []):
        if feature in ("meeples", "passengers", "merchandise", "bullet_trains", "ferry_cards", "regions"):
            assert isinstance(rules.get(feature), dict), f"rules.{feature} holds the module's numbers"
    assert set(rules.get("features", [])) <= FEATURES
    assert max(r.length for r in board.routes) <= max(int(k) for k in rules["route_points"])
    # the whole network is connected (dead ends joined through their city), so every ticket can be completed
    g = nx.Graph()
    g.add_nodes_from(range(board.node_count))
    g.add_edges_from(board.route_nodes)
    cities = [c.id for c in board.cities if not c.dead_end]
    comp = {n: i for i, cc in enumerate(nx.connected_components(g)) for n in cc}
    city_comp = {comp[c] for c in cities}
    assert len(city_comp) == 1
    for t in board.tickets:
        for p in (t.a, t.b):
            assert {comp[n] for n in board.place_nodes[p]} <= city_comp


@pytest.mark.parametrize("bid", BOARDS)
def test_variants_are_well_formed(bid):
    board = load_board(bid)
    for vid, v in board.variants.items():
        tickets = select_tickets(board.tickets, v)
        decks = Counter(t.deck for t in tickets)
        tk = v["tickets"]
        for step in [*tk["setup"], tk["draw"]]:
            assert step["rejected"] in REJECTED, (vid, step)
            if "mix" in step:
                assert isinstance(step["draw"], int) and set(step["mix"]) <= set(decks), (vid, step)
                drawn = step["draw"]
            else:
                assert set(step["draw"]) <= set(decks), (vid, step)
                drawn = sum(step["draw"].values())
            assert 0 <= step["keep_min"] <= drawn
            assert step.get("keep_max", drawn) <= drawn
        assert set(tk.get("box_after_setup", [])) <= set(decks)


def test_europe_and_usa_counts():
    europe = load_board("europe")
    assert (len(europe.cities), len(europe.routes), len(europe.tickets)) == (47, 101, 101)
    assert sum(r.tunnel for r in europe.routes) == 18
    assert sum(bool(r.locomotives) for r in europe.routes) == 13
    assert sum(r.locomotives for r in europe.routes) == 17
    assert multiplicity(europe)[2] == 11
    usa = load_board("usa")
    assert (len(usa.cities), len(usa.routes)) == (36, 100)
    assert multiplicity(usa)[2] == 22
    assert len(select_tickets(usa.tickets, usa.variant(None))) == 30


def test_name_lookup_ignores_case_and_accents():
    germany = load_board("germany")
    assert germany.city("koln") is germany.city("Köln") is germany.city("  KÖLN ")
    assert germany.city("osterreich").kind == "country"
    with pytest.raises(BoardDataError, match="no place called 'Paris'"):
        germany.city("Paris")


def test_unknown_board_and_variant():
    with pytest.raises(BoardDataError, match="unknown board 'atlantis'"):
        load_board("atlantis")
    with pytest.raises(BoardDataError, match="no variant 'nope'"):
        load_board("italy").variant("nope")


# --- broken data ---------------------------------------------------------------------------------------------


@pytest.fixture
def data() -> dict[str, Any]:
    return copy.deepcopy(raw_board("germany"))


def broken(data: dict[str, Any], match: str) -> None:
    with pytest.raises(BoardDataError, match=match):
        board_from_dict(data)


def test_unknown_city_in_route(data):
    data["routes"][0]["b"] = "Atlantis"
    broken(data, r"germany: route #0 Augsburg–Atlantis: unknown city 'Atlantis'")


def test_unknown_city_in_ticket(data):
    data["tickets"][3]["a"] = "Paris"
    broken(data, r"ticket #3 Paris–.*unknown city 'Paris'")


def test_bad_colour(data):
    data["routes"][2]["color"] = "purple-ish"
    broken(data, r"route #2 .*bad colour 'purple-ish'")


def test_colour_aliases_are_accepted(data):
    data["routes"][2]["color"] = "purple"
    assert board_from_dict(data).routes[2].color_name == "pink"


@pytest.mark.parametrize("length", [0, 8, "3", None])
def test_impossible_length(data, length):
    data["routes"][5]["length"] = length
    broken(data, r"route #5 .*impossible length")


def test_duplicate_ticket(data):
    data["tickets"].append(dict(data["tickets"][0]))
    broken(data, r"ticket #89 .*duplicate ticket")


def test_same_ticket_reversed_is_a_duplicate(data):
    t = dict(data["tickets"][0])
    t["a"], t["b"] = t["b"], t["a"]
    data["tickets"].append(t)
    broken(data, "duplicate ticket")


def test_bad_ticket_points(data):
    data["tickets"][0]["points"] = 0
    broken(data, "bad ticket")


def test_route_to_itself(data):
    data["routes"][0]["b"] = data["routes"][0]["a"]
    broken(data, "must join two different places")


def test_double_route_of_different_lengths(data):
    # Augsburg–München is a gray double of length 2
    data["routes"][1]["length"] = 3
    broken(data, "different lengths; list it in rules.not_double_routes")
    data["rules"]["not_double_routes"] = [["Augsburg", "München"]]
    board = board_from_dict(data)
    routes = board.routes_between(board.city("Augsburg").id, board.city("München").id)
    assert sorted(r.length for r in routes) == [2, 3] and len({r.group for r in routes}) == 2


def test_coloured_ferry(data):
    data["routes"][2]["waves"] = 1
    broken(data, "ferry routes must be gray")


def test_waves_longer_than_route(data):
    data["routes"][0]["waves"] = 5
    broken(data, "exceed the length")


def test_two_dead_ends_joined(data):
    data["routes"][0]["a"], data["routes"][0]["b"] = "Frankreich", "Schweiz"
    broken(data, "joins two dead ends")


def test_duplicate_place_name(data):
    data["cities"][1]["aliases"] = ["Augsburg"]
    broken(data, "duplicate place name 'Augsburg'")


def test_bad_kind(data):
    data["cities"][0]["kind"] = "island"
    broken(data, "bad kind 'island'")


def test_missing_route_points(data):
    del data["rules"]["route_points"]
    broken(data, "route_points missing")


def test_variants_checked(data):
    data["default_variant"] = "mega"
    broken(data, "default variant 'mega' not defined")
    data["default_variant"] = "classic"
    data["variants"]["classic"]["tickets"]["tags"] = ["nowhere"]
    broken(data, "selects no ticket")
    del data["variants"]["classic"]["tickets"]["draw"]
    broken(data, "tickets.setup and tickets.draw are required")
    data["variants"] = {}
    broken(data, "no variants")

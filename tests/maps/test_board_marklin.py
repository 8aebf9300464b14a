"""maps/marklin.json: the provisional Märklin board built by maps/tools/build_marklin.py."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from helpers.boards import raw_board, reference, route_facts

from maps.board import LOCOMOTIVE, PASSENGER_CARD, board_from_dict, load_board, select_tickets
from maps.tools import build_marklin


@pytest.fixture(scope="module")
def board():
    return load_board("marklin")


@pytest.fixture(scope="module")
def germany():
    return load_board("germany")


def test_labelled_provisional(board):
    assert board.status == "provisional"
    assert "PROVISIONAL" in board.notes
    assert board.extra["provisional"] == ["network", "tickets", "merchandise_colours"]


def test_network_is_germany(board, germany):
    assert [(c.name, c.kind) for c in board.cities] == [(c.name, c.kind) for c in germany.cities]
    assert route_facts(board) == route_facts(germany)
    assert Counter(c.kind for c in board.cities) == {"city": 35, "country": 5}
    assert not any("passengers" in c.extra for c in board.cities)  # Germany's meeples are not on Märklin


def test_tickets(board, germany):
    assert len(board.tickets) == 46
    short = [t for t in board.tickets if t.deck == "short"]
    long_ = [t for t in board.tickets if t.deck == "long"]
    assert len(short) == len(long_) == 23
    assert {t.points for t in short} <= set(range(5, 12)) and min(t.points for t in short) == 5
    assert max(t.points for t in short) == 11
    assert {t.points for t in long_} <= set(range(12, 23)) and min(t.points for t in long_) == 12
    assert max(t.points for t in long_) == 22
    assert all(t.tags == ("marklin",) for t in board.tickets)
    # every ticket is a Germany ticket, none joins two countries (the Märklin rules only name city-country cards)
    names = {
        (frozenset((germany.cities[t.a].name, germany.cities[t.b].name)), t.points) for t in germany.tickets
    }
    for t in board.tickets:
        assert (frozenset((board.cities[t.a].name, board.cities[t.b].name)), t.points) in names
        assert not (board.cities[t.a].dead_end and board.cities[t.b].dead_end)
    assert len(select_tickets(board.tickets, board.variant(None))) == 46


def test_merchandise_piles(board):
    piles = board.rules["merchandise"]["piles"]
    assert {c: (p["count"], p["values"]) for c, p in piles.items()} == {
        "black": (1, [7, 6, 5, 4]),
        "red": (6, [4, 3, 2]),
        "yellow": (12, [3, 2, 1]),
        "white": (16, [2]),
    }
    colours = Counter(c.extra.get("goods") for c in board.cities if not c.dead_end)
    assert colours == {"black": 1, "red": 6, "yellow": 12, "white": 16}
    for c in board.cities:
        if c.dead_end:
            assert "goods" not in c.extra and "merchandise" not in c.extra  # countries hold none
        else:
            assert c.extra["merchandise"] == piles[c.extra["goods"]]["values"]  # highest on top (first)
    assert board.city("Berlin").extra == {"goods": "black", "merchandise": [7, 6, 5, 4]}
    assert sum(sum(c.extra.get("merchandise", [])) for c in board.cities) == 22 + 6 * 9 + 12 * 6 + 16 * 2
    assert sum(len(c.extra.get("merchandise", [])) for c in board.cities) == 74
    reds = {c.name for c in board.cities if c.extra.get("goods") == "red"}
    assert reds == {"Hamburg", "Köln", "Frankfurt", "München", "Leipzig", "Stuttgart"}


def test_yellow_recipe(board):
    # yellow = the 12 remaining cities with the most routes touching them (ties: name); white all the others
    degree = {c.name: len(board.routes_at[c.id]) for c in board.cities}
    yellow = [c.name for c in board.cities if c.extra.get("goods") == "yellow"]
    white = [c.name for c in board.cities if c.extra.get("goods") == "white"]
    assert min(degree[n] for n in yellow) >= max(degree[n] for n in white)


def test_rules(board):
    r = board.rules
    deck = r["deck"]
    assert deck["per_color"] * 8 + deck["locomotives"] + deck["locomotives_plus4"] + deck["passengers"] == 118
    assert (deck["locomotives_plus4"], deck["passengers"], deck["plus4_min_length"]) == (6, 10, 4)
    assert r["features"] == ["passengers", "merchandise"]
    assert r["passengers"]["per_player"] == 3
    # the face-up row is reset on 3 Locomotives and on 3 Passenger cards (not on Locomotive +4)
    assert r["face_up_reset_types"] == [LOCOMOTIVE, PASSENGER_CARD]
    assert r["players"] == [2, 5]
    assert r["most_tickets_bonus"] == {"name": "most_tickets", "points": 10}
    assert r["tie_breaks"] == ["completed_tickets", "merchandise"]
    assert "longest_path_bonus" not in r
    assert r["trains_per_player"] == 45
    tk = board.variant(None)["tickets"]
    assert tk["setup"][0]["mix"] == ["short", "long"] and tk["setup"][0]["rejected"] == "return_shuffled"
    assert tk["draw"]["rejected"] == "bottom"


def test_build_is_deterministic_and_up_to_date():
    own, germany = raw_board("marklin"), raw_board("germany")
    ref = reference("marklin")
    assert build_marklin.build(copy.deepcopy(own), germany, ref) == own


def test_real_data_swaps_in_without_code_change():
    """A reference that gives every city's colour and the real tickets is used as is; only the network stays."""
    own, germany = raw_board("marklin"), raw_board("germany")
    towns = [c["name"] for c in germany["cities"] if c["kind"] == "city"]
    colours = ["black"] + ["red"] * 6 + ["yellow"] * 12 + ["white"] * 16
    fake_colours = dict(zip(sorted(towns, key=lambda n: n != "Berlin"), colours, strict=True))
    fake = {
        "cities": [{"id": n, "extra": {"goods": colour}} for n, colour in fake_colours.items()],
        "routes": None,
        "tickets": [
            {"a": "Kiel", "b": "Lindau", "points": 22, "deck": "long", "tags": ["marklin"]},
            {"a": "Hannover", "b": "Erfurt", "points": 5, "deck": "short", "tags": ["marklin"]},
        ],
    }
    data = build_marklin.build(copy.deepcopy(own), germany, fake)
    board = board_from_dict(data)
    assert data["extra"]["provisional"] == ["network"]
    assert len(board.tickets) == 2
    assert {c.name: c.extra.get("goods") for c in board.cities if not c.dead_end} == fake_colours
    piles = own["rules"]["merchandise"]["piles"]
    assert all(
        c.extra["merchandise"] == piles[c.extra["goods"]]["values"] for c in board.cities if not c.dead_end
    )


def test_real_network_swaps_in_without_code_change():
    own, germany = raw_board("marklin"), raw_board("germany")
    first = germany["cities"][0]["name"]
    fake = {
        "cities": [
            {
                "id": c["name"],
                "lat": c["lat"],
                "lon": c["lon"],
                "kind": c["kind"],
                "extra": {"goods": "white" if c["kind"] == "city" else None},
            }
            for c in germany["cities"]
        ],
        "routes": [{k: r[k] for k in ("a", "b", "length", "color")} for r in germany["routes"]],
        "tickets": [{"a": first, "b": "Berlin", "points": 9, "deck": "short"}],
    }
    data = build_marklin.build(copy.deepcopy(own), germany, fake)
    board = board_from_dict(data)
    assert data["extra"]["provisional"] == []
    assert len(board.routes) == 110 and board.tickets[0].tags == ("marklin",)
    assert board.city("Berlin").extra == {"goods": "white", "merchandise": [2]}


def test_partial_colours_that_disagree_are_refused():
    own, germany = raw_board("marklin"), raw_board("germany")
    fake = {"cities": [{"id": "Berlin", "extra": {"goods": "red"}}], "routes": None, "tickets": None}
    with pytest.raises(ValueError, match="disagree"):
        build_marklin.build(copy.deepcopy(own), germany, fake)

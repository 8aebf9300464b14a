"""maps/germany.json against the reference data and the Germany (2017) rulebook."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.boards import between, multiplicity, reference, route_facts, ticket_points

from maps.board import load_board, select_tickets


@pytest.fixture(scope="module")
def board():
    return load_board("germany")


def test_places(board):
    kinds = Counter(c.kind for c in board.cities)
    assert kinds == {"city": 35, "country": 5}
    assert {c.name for c in board.cities if c.dead_end} == {
        "Dänemark",
        "Frankreich",
        "Niederlande",
        "Österreich",
        "Schweiz",
    }


def test_routes(board):
    assert len(board.routes) == 110
    assert multiplicity(board) == {1: 62, 2: 21, 3: 2}
    assert sum(r.length for r in board.routes) == 313
    assert Counter(r.length for r in board.routes) == {1: 23, 2: 30, 3: 25, 4: 17, 5: 8, 6: 2, 7: 5}
    assert sum(r.color_name == "gray" for r in board.routes) == 45
    assert not any(r.tunnel or r.locomotives or r.waves or r.bullet for r in board.routes)
    # 14 routes end in a country: DK 2, NL 3, F 3, A 3, CH 3
    into = Counter(board.cities[p].name for r in board.routes for p in (r.a, r.b) if board.cities[p].dead_end)
    assert into == {"Dänemark": 2, "Niederlande": 3, "Frankreich": 3, "Österreich": 3, "Schweiz": 3}


def test_route_spot_values(board):
    assert between(board, "Dänemark", "Bremerhaven") == [(5, "green")]
    assert between(board, "Erfurt", "Chemnitz") == [(4, "black")]
    assert between(board, "Erfurt", "Nürnberg") == [(4, "pink"), (4, "yellow")]
    assert between(board, "Berlin", "Magdeburg") == [(3, "red")]
    assert between(board, "Dortmund", "Düsseldorf") == [(1, "gray")] * 3
    assert between(board, "Düsseldorf", "Köln") == [(1, "gray")] * 3
    assert between(board, "Köln", "Frankfurt") == [(4, "gray")] * 2
    assert between(board, "Frankfurt", "Mainz") == [(1, "gray")] * 2


def test_triples_are_one_group(board):
    for a, b in (("Dortmund", "Düsseldorf"), ("Düsseldorf", "Köln")):
        routes = board.routes_between(board.city(a).id, board.city(b).id)
        assert len({r.group for r in routes}) == 1


def test_tickets(board):
    assert len(board.tickets) == 89
    decks = Counter(t.deck for t in board.tickets)
    assert decks == {"short": 55, "long": 34}
    assert all(t.points <= 11 for t in board.tickets if t.deck == "short")
    assert all(12 <= t.points <= 22 for t in board.tickets if t.deck == "long")
    assert (
        min(t.points for t in board.tickets) == 2
    )  # Mannheim–Stuttgart: the card reads 2 (rulebook: 3 to 11)
    assert ticket_points(board, "Mannheim", "Stuttgart") == [2]
    assert ticket_points(board, "Köln", "München") == [11]
    assert ticket_points(board, "Rostock", "Konstanz") == [22]
    assert ticket_points(board, "Dänemark", "Niederlande") == [10]
    assert ticket_points(board, "Frankreich", "Dänemark") == [17]
    country = [t for t in board.tickets if board.cities[t.a].dead_end or board.cities[t.b].dead_end]
    assert len(country) == 17
    assert len(select_tickets(board.tickets, board.variant(None))) == 89


def test_meeples(board):
    meeples = board.rules["meeples"]
    placed = {c.name: c.extra["passengers"] for c in board.cities}
    assert sum(placed.values()) == 60 == len(meeples["colors"]) * meeples["per_color"]
    assert placed["Berlin"] == 5
    assert all(placed[n] == 4 for n in ("Hamburg", "Köln", "Frankfurt", "München"))
    assert placed["Leipzig"] == placed["Stuttgart"] == 3
    big = {"Berlin", "Hamburg", "Köln", "Frankfurt", "München", "Leipzig", "Stuttgart"}
    assert all(n == 1 for name, n in placed.items() if name not in big)  # countries included
    assert meeples["majority_points"] == [20, 10]


def test_rules(board):
    r = board.rules
    assert r["trains_per_player"] == 45
    assert r["deck"] == {"per_color": 12, "locomotives": 14}
    assert r["features"] == ["meeples"]
    assert r["most_tickets_bonus"] == {"name": "globetrotter", "points": 15}
    assert "longest_path_bonus" not in r and "stations_per_player" not in r
    assert r["tie_breaks"] == ["completed_tickets", "meeples"]
    assert r["min_players_for_multi_routes"] == 4 and r["end_trigger_trains"] == 2
    assert max(r.length for r in board.routes) == 7 == max(int(k) for k in r["route_points"])
    assert board.route_points(7) == 18


def test_ticket_variant(board):
    tk = board.variant(None)["tickets"]
    assert tk["setup"] == [
        {"draw": 4, "mix": ["short", "long"], "keep_min": 2, "rejected": "return_shuffled"}
    ]
    assert tk["draw"] == {"draw": 4, "mix": ["short", "long"], "keep_min": 1, "rejected": "bottom"}


def test_countries_are_dead_ends(board):
    # "Même si Freiburg et Saarbrücken sont toutes les deux connectées à la France, elles ne sont pas connectées"
    fr = board.city("Frankreich").id
    nodes = [
        n for r in board.routes for p, n in zip((r.a, r.b), board.route_nodes[r.id], strict=True) if p == fr
    ]
    assert len(nodes) == len(set(nodes)) == 3
    assert set(nodes) == set(board.place_nodes[fr])


def test_matches_reference(board):
    ref = reference("germany")
    assert route_facts(board) == Counter(
        (*sorted((r["a"], r["b"])), r["length"], r["color"]) for r in ref["routes"]
    )
    assert Counter(
        (t.points, t.deck, frozenset((board.cities[t.a].name, board.cities[t.b].name))) for t in board.tickets
    ) == Counter((t["points"], t["deck"], frozenset((t["a"], t["b"]))) for t in ref["tickets"])
    assert {c["id"]: c["extra"]["passengers"] for c in ref["cities"]} == {
        c.name: c.extra["passengers"] for c in board.cities
    }

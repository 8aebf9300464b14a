"""maps/italy.json against the reference data and the Italy rulebook (Map Collection 7)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.boards import between, multiplicity, reference, route_facts, ticket_points

from maps.board import load_board, select_tickets

AREAS = {"Francia", "Monaco", "Svizzera", "Austria", "Croazia"}


@pytest.fixture(scope="module")
def board():
    return load_board("italy")


def test_places(board):
    assert sum(c.kind == "city" for c in board.cities) == 34
    assert {c.name for c in board.cities if c.dead_end} == AREAS
    assert len(board.cities) == 39


def test_routes(board):
    assert len(board.routes) == 128
    assert sum(r.length for r in board.routes) == 379
    assert Counter(r.length for r in board.routes) == {1: 15, 2: 37, 3: 43, 4: 21, 5: 3, 6: 1, 7: 8}
    assert multiplicity(board) == {1: 41, 2: 42, 3: 1}
    spaces = Counter()
    for r in board.routes:
        spaces[r.color_name] += r.length
    assert spaces["gray"] == 106 and spaces["pink"] == 35
    assert all(spaces[c] == 34 for c in ("red", "blue", "green", "yellow", "black", "white", "orange"))


def test_napoli_roma_triple(board):
    routes = board.routes_between(board.city("Napoli").id, board.city("Roma").id)
    assert sorted((r.length, r.color_name) for r in routes) == [(4, "red"), (4, "white"), (4, "yellow")]
    assert len({r.group for r in routes}) == 1
    triples = [g for g in board.groups if len(g) == 3]
    assert len(triples) == 1 and set(triples[0]) == {r.id for r in routes}


def test_ferries(board):
    ferries = [r for r in board.routes if r.waves]
    assert len(ferries) == 21
    assert sum(r.waves for r in ferries) == 55
    assert Counter(r.waves for r in ferries) == {1: 6, 2: 4, 3: 3, 4: 8}
    # every gray route is a ferry line, and only gray routes are
    assert {r.id for r in ferries} == {r.id for r in board.routes if r.color_name == "gray"}
    # Trieste–Venezia: a mixed double, orange 3 and a gray ferry 3 with one wave
    tv = board.routes_between(board.city("Trieste").id, board.city("Venezia").id)
    assert sorted((r.length, r.color_name, r.waves) for r in tv) == [(3, "gray", 1), (3, "orange", 0)]
    assert len({r.group for r in tv}) == 1


def test_regions(board):
    cfg = board.rules["regions"]
    names = set(cfg["names"])
    assert len(names) == 17
    region_of = {c.name: c.extra.get("region") for c in board.cities}
    assert all(region_of[c.name] in names for c in board.cities if not c.dead_end)
    assert all(region_of[n] is None for n in AREAS)
    assert set(region_of.values()) - {None} == names  # every region has a city
    sizes = Counter(v for v in region_of.values() if v)
    assert sizes["Sicilia"] == 5 and sizes["Puglia"] == 4 and sizes["Sardegna"] == 3
    assert region_of["Firenze"] == region_of["Pisa"] == "Toscana"  # the rulebook's example
    assert region_of["Bari"] == region_of["Foggia"] == "Puglia"
    assert set(cfg["double_if_complete"]) == {"Sardegna", "Sicilia", "Puglia"}
    bonus = {int(k): v for k, v in cfg["bonus"].items()}
    assert min(bonus) == 5 and bonus[5] == 1 and bonus[9] == 11 and max(bonus) == 15 and bonus[15] == 56


def test_route_spot_values(board):
    assert between(board, "Agrigento", "Catania") == [(3, "yellow")]
    assert between(board, "Agrigento", "Palermo") == [(2, "orange"), (2, "pink")]
    assert between(board, "Firenze", "Pisa") == [(1, "pink"), (1, "red")]


def test_tickets(board):
    assert len(board.tickets) == 56
    assert all(t.deck == "regular" and t.tags == ("italy",) for t in board.tickets)
    assert sum(t.points for t in board.tickets) == 677
    assert min(t.points for t in board.tickets) == 4 and max(t.points for t in board.tickets) == 28
    assert ticket_points(board, "Francia", "Austria") == [11]
    assert ticket_points(board, "Firenze", "Roma") == [5]
    assert ticket_points(board, "Venezia", "Roma") == [8]
    assert len(select_tickets(board.tickets, board.variant(None))) == 56


def test_rules(board):
    r = board.rules
    assert r["trains_per_player"] == 45
    assert r["features"] == ["ferry_cards", "regions"]
    assert r["ferry_cards"] == {"pile": 10, "max_in_hand": 2, "waves_per_card": 2}
    assert r["min_players_for_multi_routes"] == 4
    assert "longest_path_bonus" not in r and "most_tickets_bonus" not in r
    assert max(r.length for r in board.routes) == max(int(k) for k in r["route_points"]) == 7


def test_ticket_variant(board):
    tk = board.variant(None)["tickets"]
    assert tk["setup"] == [{"draw": {"regular": 5}, "keep_min": 3, "rejected": "bottom_shuffled"}]
    assert tk["draw"] == {"draw": {"regular": 4}, "keep_min": 1, "rejected": "bottom"}


def test_areas_are_dead_ends(board):
    for name in AREAS:
        c = board.city(name)
        assert len(board.place_nodes[c.id]) == len(board.routes_at[c.id]) > 0


def test_matches_reference(board):
    ref = reference("italy")
    assert route_facts(board) == Counter(
        (*sorted((r["a"], r["b"])), r["length"], r["color"]) for r in ref["routes"]
    )
    ref_waves = Counter((frozenset((r["a"], r["b"])), r["extra"].get("waves", 0)) for r in ref["routes"])
    assert ref_waves == Counter(
        (frozenset((board.cities[r.a].name, board.cities[r.b].name)), r.waves) for r in board.routes
    )
    assert {c["id"]: c["extra"]["region"] for c in ref["cities"]} == {
        c.name: c.extra["region"] for c in board.cities
    }
    assert Counter((t["points"], frozenset((t["a"], t["b"]))) for t in ref["tickets"]) == Counter(
        (t.points, frozenset((board.cities[t.a].name, board.cities[t.b].name))) for t in board.tickets
    )

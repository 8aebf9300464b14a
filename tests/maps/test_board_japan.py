"""maps/japan.json against the reference data and the Japan rulebook (Map Collection 7)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.boards import between, multiplicity, reference, route_facts, ticket_points

from maps.board import load_board, select_tickets


@pytest.fixture(scope="module")
def board():
    return load_board("japan")


def test_places(board):
    assert len(board.cities) == 48
    assert all(c.kind == "city" for c in board.cities)
    zooms = Counter(c.extra.get("zoom") for c in board.cities)
    assert zooms == {None: 30, "tokyo": 11, "kyushu": 7}  # zooms include Tokyo and Kokura
    # Tokyo and Kokura are one place each, drawn both on the main map and in a zoom
    assert board.city("Tokyo").extra["also_on_main_map"] and board.city("Kokura").extra["also_on_main_map"]
    assert board.city("tokyo") is board.city("Tokyo")


def test_routes(board):
    assert len(board.routes) == 114
    assert sum(r.length for r in board.routes) == 277
    assert Counter(r.length for r in board.routes) == {1: 22, 2: 43, 3: 32, 4: 13, 5: 3, 6: 1}
    assert sum(r.color_name == "gray" for r in board.routes) == 25
    assert multiplicity(board) == {1: 70, 2: 22}


def test_bullet_routes(board):
    bullets = [r for r in board.routes if r.bullet]
    assert len(bullets) == 23
    assert sum(r.length for r in bullets) == 59
    assert all(r.color_name == "gray" for r in bullets)
    gray_plain = sorted(
        board.route_label(r.id) for r in board.routes if r.color_name == "gray" and not r.bullet
    )
    assert gray_plain == ["Ginza–Tokyo", "Kokura–Matsuyama"]


def test_aomori_hakodate_is_not_a_double(board):
    routes = board.routes_between(board.city("Aomori").id, board.city("Hakodate").id)
    assert sorted((r.length, r.color_name, r.bullet) for r in routes) == [
        (2, "gray", True),
        (3, "white", False),
    ]
    assert len({r.group for r in routes}) == 2
    assert board.rules["not_double_routes"] == [["Aomori", "Hakodate"]]


def test_route_spot_values(board):
    assert between(board, "Masuda", "Tottori") == [(6, "black")]
    assert between(board, "Akita", "Aomori") == [(3, "red")]
    assert between(board, "Kokura", "Matsuyama") == [(4, "gray")]
    assert between(board, "Ginza", "Tokyo") == [(1, "gray")]
    odawara = board.routes_between(board.city("Tokyo").id, board.city("Odawara").id)
    assert [(r.length, r.bullet) for r in odawara] == [(1, True)]


def test_tickets(board):
    assert len(board.tickets) == 54
    assert all(t.deck == "regular" and t.tags == ("japan",) for t in board.tickets)
    assert sum(t.points for t in board.tickets) == 402
    assert min(t.points for t in board.tickets) == 1 and max(t.points for t in board.tickets) == 19
    assert ticket_points(board, "Osaka", "Shibuya") == [13]  # the rulebook's example
    assert ticket_points(board, "Tokyo", "Hakodate") == [8]
    assert ticket_points(board, "Osaka", "Tokyo") == [5]
    assert len(select_tickets(board.tickets, board.variant(None))) == 54


def test_rules(board):
    r = board.rules
    assert r["trains_per_player"] == 20
    assert r["features"] == ["bullet_trains"]
    bt = r["bullet_trains"]
    assert bt["supply"] == 16 and bt["no_contribution"] == -20 and bt["end_trigger_supply"] == 2
    for players, row in bt["bonus_by_rank"].items():
        assert len(row) == int(players)
        assert row == sorted(row, reverse=True)
    assert bt["bonus_by_rank"]["5"] == [25, 15, 5, -5, -10]  # the rulebook's worked example (5 players)
    assert bt["bonus_by_rank"]["2"] == [10, -10]
    assert "longest_path_bonus" not in r and "most_tickets_bonus" not in r
    assert max(r.length for r in board.routes) == max(int(k) for k in r["route_points"]) == 6


def test_ticket_variant(board):
    tk = board.variant(None)["tickets"]
    assert tk["setup"] == [{"draw": {"regular": 4}, "keep_min": 2, "rejected": "bottom_shuffled"}]
    assert tk["draw"] == {"draw": {"regular": 3}, "keep_min": 1, "rejected": "bottom"}


def test_matches_reference(board):
    ref = reference("japan")
    assert route_facts(board) == Counter(
        (*sorted((r["a"], r["b"])), r["length"], r["color"]) for r in ref["routes"]
    )
    ref_bullets = Counter(frozenset((r["a"], r["b"])) for r in ref["routes"] if r["extra"].get("bullet"))
    assert ref_bullets == Counter(
        frozenset((board.cities[r.a].name, board.cities[r.b].name)) for r in board.routes if r.bullet
    )
    assert Counter((t["points"], frozenset((t["a"], t["b"]))) for t in ref["tickets"]) == Counter(
        (t.points, frozenset((board.cities[t.a].name, board.cities[t.b].name))) for t in board.tickets
    )

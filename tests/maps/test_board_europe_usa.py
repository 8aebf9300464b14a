"""Europe and USA board files against the reference data: ticket logos and decks, spot values."""

from __future__ import annotations

from collections import Counter

from maps import load_board
from maps.board import select_tickets


def ticket(board, a: str, b: str, tag: str):  # type: ignore[no-untyped-def]
    ca, cb = board.city(a).id, board.city(b).id
    return next(t for t in board.tickets if {t.a, t.b} == {ca, cb} and tag in t.tags)


def test_europe_ticket_sets_per_variant():
    europe = load_board("europe")
    count = {
        vid: Counter(t.deck for t in select_tickets(europe.tickets, v)) for vid, v in europe.variants.items()
    }
    assert count["classic"] == {"long": 6, "regular": 40}
    assert count["1912"] == {"long": 6, "regular": 49}
    assert sum(count["big-cities"].values()) == 45 and "long" not in count["big-cities"]
    assert count["mega"] == {"long": 12, "regular": 89}


def test_europe_spot_values():
    europe = load_board("europe")
    assert ticket(europe, "Brest", "Petrograd", "europe").points == 20
    assert ticket(europe, "Paris", "Wien", "europe").points == 8
    assert ticket(europe, "Edinburgh", "Athina", "europe").deck == "long"
    kyiv = [
        r for r in europe.routes if {europe.cities[r.a].name, europe.cities[r.b].name} == {"Kyiv", "Smolensk"}
    ]
    assert [(r.length, r.color_name) for r in kyiv] == [(3, "red")]
    danzig = europe.routes_between(europe.city("Danzig").id, europe.city("Warszawa").id)
    assert [(r.length, r.color_name) for r in danzig] == [(2, "gray")]  # the reference's documented choice
    assert europe.city("athina").name == "Athina" and europe.city("Cádiz").name == "Cadiz"


def test_usa_spot_values():
    usa = load_board("usa")
    assert ticket(usa, "Los Angeles", "New York", "usa").points == 21
    assert ticket(usa, "Denver", "El Paso", "usa").points == 4
    sea_port = usa.routes_between(usa.city("Seattle").id, usa.city("Portland").id)
    assert len(sea_port) == 2 and {r.length for r in sea_port} == {1}
    assert max(r.length for r in usa.routes) == 6
    assert usa.rules["longest_path_bonus"] == {"name": "longest_path", "points": 10}

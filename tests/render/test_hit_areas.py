"""The board's touch targets (render/hit_areas.py): a track per route and a named disc per city, on every board."""

from __future__ import annotations

import re
from html import unescape

import pytest

from maps import load_board
from render.hit_areas import hit_areas_svg


@pytest.mark.parametrize("name", ["europe", "germany", "italy", "japan", "marklin", "usa"])
def test_every_route_has_a_track_and_every_city_a_disc_with_its_name(name: str) -> None:
    board = load_board(name)
    svg = hit_areas_svg(board)
    routes = {int(r) for r in re.findall(r'data-route="(\d+)"', svg)}
    assert routes == {r.id for r in board.routes}
    # a polyline the page reads as it is (its corners): "M x,y L x,y ..."
    for d in re.findall(r'<path data-route="\d+" d="([^"]+)"', svg):
        assert re.fullmatch(r"M-?[\d.]+,-?[\d.]+(L-?[\d.]+,-?[\d.]+)+", d), d
    named = {c: unescape(n) for c, n in re.findall(r'data-city="([^"]+)" aria-label="([^"]*)"', svg)}
    assert named == {str(c.id): c.name for c in board.cities if not c.dead_end}

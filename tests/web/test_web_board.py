"""The live map's board: the chat's drawing with invisible touch targets, one per route track and city."""

from __future__ import annotations

import io
import re

from PIL import Image, ImageChops

from maps import load_board
from render.board_svg import render_board_svg
from render.layout import layout_of
from render.png import svg_to_png


def test_touch_targets_cover_every_route_and_city_and_paint_nothing() -> None:
    board = load_board("italy")
    plain = render_board_svg(board, width=800)
    touch = render_board_svg(board, width=800, hit_areas=True)
    routes = {int(x) for x in re.findall(r'data-route="(\d+)"', touch)}
    cities = {int(x) for x in re.findall(r'data-city="(\d+)"', touch)}
    assert routes == set(range(len(board.routes)))
    assert cities == {c for c, _frame in layout_of(board).cities if not board.cities[c].dead_end}
    assert "data-route" not in plain and touch.startswith(plain[:-6])  # the same drawing, targets added last
    a = Image.open(io.BytesIO(svg_to_png(plain, width=800, quantize=False))).convert("RGB")
    b = Image.open(io.BytesIO(svg_to_png(touch, width=800, quantize=False))).convert("RGB")
    assert ImageChops.difference(a, b).getbbox() is None  # pixel for pixel the same picture

"""The board's touch targets, for the interactive map (the live map page, `bot/web/`): one wide, invisible path
along every route track (``data-route="<route id>"``) and one disc on every city (``data-city="<city id>"``).

Drawn last, over the picture, so a tap anywhere near a route finds it; they paint nothing (transparent, and the
PNG path never asks for them), so the picture looks exactly as the PNG. The page measures its taps against these
shapes on screen (a finger's reach, whatever the zoom); a city's disc carries the city's name (``aria-label``)
for screen readers and for the page to find the reader's ticket cities.
"""

from __future__ import annotations

from html import escape

from maps.board import Board

from .layout import layout_of
from .layout.geometry import DOT_R, Layout

#: Width of a route's touch target, in canvas units (a train space is about 12 units tall).
ROUTE_HIT_WIDTH = 16.0
CITY_HIT_R = DOT_R + 7.0


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _track(points: tuple[tuple[float, float], ...]) -> str:
    head, *rest = points
    return f"M{_f(head[0])},{_f(head[1])}" + "".join(f"L{_f(x)},{_f(y)}" for x, y in rest)


def hit_areas_svg(board: Board, lay: Layout | None = None) -> str:
    """The touch targets of `board` as one SVG group (routes first, cities over them)."""
    lay = lay or layout_of(board)
    out = ['<g class="hits" fill="none" stroke="#000" stroke-opacity="0">']
    for g in lay.routes:
        if len(g.path) >= 2:
            out.append(
                f'<path data-route="{g.route}" d="{_track(g.path)}" stroke-width="{_f(ROUTE_HIT_WIDTH)}" '
                'stroke-linecap="round" pointer-events="stroke"/>'
            )
    for (c, _frame), (x, y) in sorted(lay.cities.items()):
        if not board.cities[c].dead_end:
            out.append(
                f'<circle data-city="{c}" aria-label="{escape(board.cities[c].name)}" cx="{_f(x)}" cy="{_f(y)}" '
                f'r="{_f(CITY_HIT_R)}" fill="#000" fill-opacity="0" pointer-events="all"/>'
            )
    out.append("</g>")
    return "".join(out)

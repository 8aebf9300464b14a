"""Board geometry in picture units: projection, city positions, train spaces, label places, coastlines.

Everything here depends only on the board (never on a game), so a :class:`~render.layout.geometry.Layout` is
computed once per board and cached (:func:`layout_of`). The picture is laid out in a fixed coordinate system
:data:`~render.layout.geometry.CANVAS_W` units wide; the SVG's ``width`` attribute scales it, so every size is in
those units (:mod:`render.layout.geometry`: the sizes and the types a layout is made of).

Steps, one module each (:func:`compute_layout` runs them in turn):
1. :mod:`~render.layout.projection`: project lat/lon with a Lambert conformal conic fitted to the board's places,
   into the map area; zoom insets go where they hide the least.
2. :mod:`~render.layout.places`: relax positions a little: every route must have room for its spaces, cities
   keep a minimum distance, and each city is pulled back to its true place.
3. :mod:`~render.layout.places`: dead ends (``kind`` country/area) get one endpoint per route (a flag at the
   border), placed beyond the city the route starts from, toward the country (or away from the board's centre
   when the country has no lat/lon).
4. :mod:`~render.layout.tracks`: routes become rows of rectangles along a centreline (curved when a straight line
   would cross a city dot); double/triple routes are offset side by side.
5. :mod:`~render.layout.labels`: city labels are placed greedily around their dots, never over another label or
   dot, avoiding train spaces.

A board may override positions in ``board.extra["layout"]``: ``{"nudge": {"City": [dx, dy]}, "label": {"City":
"e"|"ne"|"n"|...}}`` (units of the 1600-wide canvas).
"""

from __future__ import annotations

from maps.board import Board, load_board

from .geometry import CANVAS_W, MAP_W, Layout
from .labels import place_labels
from .places import place_cities, place_flags
from .projection import project, zoom_areas
from .tracks import lay_tracks


def compute_layout(board: Board) -> Layout:
    """Lay out `board` on the canvas (see the package docstring). Pure; use :func:`layout_for` for the cache."""
    overrides = (board.extra or {}).get("layout") or {}
    nudges = {board.city(k).id: v for k, v in (overrides.get("nudge") or {}).items()}
    label_pref = {board.city(k).id: v for k, v in (overrides.get("label") or {}).items()}
    proj = project(board)
    cities = place_cities(board, proj, nudges)
    flags, route_ends = place_flags(board, proj, cities)
    geoms = lay_tracks(board, cities, flags, route_ends)
    labels, country_labels = place_labels(board, cities, geoms, flags, proj.boxes, label_pref)
    return Layout(
        board.id,
        float(CANVAS_W),
        proj.map_h,
        float(MAP_W),
        proj.map_h,
        tuple(proj.frames),
        cities,
        tuple(geoms),
        tuple(flags),
        tuple(labels),
        tuple(country_labels),
        zoom_areas(board, proj, cities),
    )


def layout_for(board_id: str) -> Layout:
    """The cached layout of a board loaded by id."""
    return layout_of(load_board(board_id))


_LAYOUTS: dict[tuple, Layout] = {}
_BY_ID: dict[int, tuple[Board, Layout]] = {}


def _fingerprint(board: Board) -> tuple:
    return (
        board.id,
        tuple((c.name, c.kind, c.lat, c.lon, tuple(sorted(map(str, c.extra.items())))) for c in board.cities),
        tuple(
            (r.a, r.b, r.length, r.color, r.group, str(r.extra.get("drawn_in_zoom"))) for r in board.routes
        ),
        repr((board.extra or {}).get("layout")),
    )


def layout_of(board: Board) -> Layout:
    """The layout of `board`, cached by the board's geometry (any Board object with the same places and routes)."""
    hit = _BY_ID.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    key = _fingerprint(board)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = compute_layout(board)
        if len(_LAYOUTS) > 32:
            _LAYOUTS.clear()
        _LAYOUTS[key] = lay
    if len(_BY_ID) > 64:
        _BY_ID.clear()
    _BY_ID[id(board)] = (board, lay)  # holds the board, so its id cannot be reused while cached
    return lay


__all__ = [
    "compute_layout",
    "layout_for",
    "layout_of",
]

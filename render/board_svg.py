"""The board image as SVG: one pure function, a board plus a public view in, SVG text out.

>>> from maps.board import load_board
>>> svg = render_board_svg(load_board("usa"))
>>> svg.startswith("<svg")
True

The picture is two layers: the printed map (:func:`static_layer`, the same all game) and what a game adds over it
(:func:`game_layer`, also as parts a compositor may draw from cached sprites: :func:`game_layer_parts`). This
module composes them from the sea, land and zoom insets drawn here and the parts drawn elsewhere: routes
(:mod:`render.board_routes`), places (:mod:`render.board_places`) and the side panel (:mod:`render.board_panel`),
in the shared vocabulary of :mod:`render.svg`.

Element ids and classes are stable (tests and callers may count them): ``route-<id>`` groups with class
``route`` (plus ``owned``/``closed``/``tunnel``/``ferry``), ``space`` rectangles, ``city-<id>`` groups with class
``city``, ``flag`` for dead-end endpoints, ``label`` texts, ``player-<seat>`` rows in the panel.
"""

from __future__ import annotations

from maps.board import Board

from .board_panel import panel_chrome, panel_svg
from .board_places import cities_svg, labels_svg, labels_under, pieces_svg
from .board_routes import (
    CompactClaims,
    Shadows,
    TicketArcs,
    geom_d,
    halo_path,
    highlight_svg,
    route_overlay,
    route_static,
)
from .hit_areas import hit_areas_svg
from .layout import layout_of
from .layout.geometry import CANVAS_W, Layout
from .model import BoardView, LastMove
from .regions import regions_svg
from .svg import BORDER, COAST, FONT, LAND, SEA, escape, num
from .words import ENGLISH, PictureWords


def render_board_svg(
    board: Board,
    view: BoardView | None = None,
    *,
    width: int = 1600,
    colorblind: bool = True,
    highlight: LastMove | None = None,
    words: PictureWords = ENGLISH,
    hit_areas: bool = False,
) -> str:
    """The board with the public state of a game, as SVG text.

    `view` holds only public information (:class:`render.model.BoardView`); without it the empty board is drawn.
    `width` is the picture width in pixels (the drawing is laid out on a 1600-unit canvas and scaled).
    `colorblind` adds a letter to every route colour and a shape to every player colour.
    `highlight` replaces the view's ``last_move`` as the thing outlined on the map (pass ``LastMove()`` for none).
    `words` are the panel's words, in the reader's language (:mod:`render.words`).
    `hit_areas` adds the invisible touch targets of the live map (:mod:`render.hit_areas`).
    """
    view = view or BoardView()
    lay = layout_of(board)
    height = canvas_height(lay, view)
    return (
        svg_open(width, height, words.font)
        + static_layer(board, colorblind=colorblind, words=words)
        + game_layer(board, view, colorblind=colorblind, highlight=highlight, height=height, words=words)
        + (hit_areas_svg(board, lay) if hit_areas else "")
        + "</svg>"
    )


def canvas_height(lay: Layout, view: BoardView | None = None) -> float:
    """Picture height in canvas units: the map's (the panel fits itself into it)."""
    return lay.height


def svg_open(width: int, height: float, font: str = FONT) -> str:
    px_h = round(width * height / CANVAS_W)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{px_h}" '
        f'viewBox="0 0 {CANVAS_W} {num(height)}" font-family="{font}">'
    )


def static_layer(
    board: Board,
    *,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
    panel: bool = True,
    names: bool = True,
) -> str:
    """The map as printed: sea, land, borders, every route unclaimed, cities, flags, (with `names`) the city
    names and (with `panel`) the panel's frame.

    Never changes during a game, so the PNG path renders it once per board and reuses it.
    """
    lay = layout_of(board)
    region_tints, region_names = regions_svg(board)
    inset_leaders, inset_frames = inset_joins(lay)
    return "".join(
        [
            _defs().replace("{mw}", num(lay.map_w)).replace("{mh}", num(lay.map_h)),
            _background(lay, words),
            region_tints,
            inset_leaders,
            '<g class="routes">',
            *(route_static(board, lay, g.route, colorblind, words) for g in lay.routes),
            "</g>",
            inset_frames,
            cities_svg(board, lay, colorblind),
            region_names,
            labels_svg(board, lay, words=words) if names else "",
            panel_chrome(lay.height, colorblind, words) if panel else "",
        ]
    )


def game_layer(
    board: Board,
    view: BoardView,
    *,
    colorblind: bool = True,
    highlight: LastMove | None = None,
    height: float | None = None,
    labels_on_top: bool = True,
    compact: bool = False,
    panel: bool = True,
    words: PictureWords = ENGLISH,
) -> str:
    """What a game adds over :func:`static_layer`: highlight, claimed/closed routes, pieces and (with `panel`) the
    panel."""
    return "".join(
        p if isinstance(p, str) else p.svg()
        for p in game_layer_parts(
            board,
            view,
            colorblind=colorblind,
            highlight=highlight,
            height=height,
            labels_on_top=labels_on_top,
            compact=compact,
            panel=panel,
            words=words,
        )
    )


#: A part of the game layer: SVG text, or the claimed routes and their shadows as data.
GamePart = str | Shadows | CompactClaims | TicketArcs


def game_layer_parts(
    board: Board,
    view: BoardView,
    *,
    colorblind: bool = True,
    highlight: LastMove | None = None,
    height: float | None = None,
    labels_on_top: bool = True,
    compact: bool = False,
    panel: bool = True,
    words: PictureWords = ENGLISH,
) -> list[GamePart]:
    """:func:`game_layer` in drawing order, its claimed routes and their shadow kept as data (the parts after the
    first, the defs, draw independently of one another: a compositor may draw them from cached pictures)."""
    lay = layout_of(board)
    height = height or canvas_height(lay, view)
    parts: list[GamePart] = [_defs().replace("{mw}", num(lay.map_w)).replace("{mh}", num(lay.map_h))]
    hl = highlight if highlight is not None else view.last_move
    hl_routes = tuple(hl.routes) if hl is not None else ()
    if hl is not None and (hl.routes or hl.cities):
        parts.append(highlight_svg(lay, hl_routes, tuple(hl.cities)))
    parts.append('<g class="claims">')
    parts.append(Shadows.of(lay, set(view.routes)))
    if compact:
        parts.append(CompactClaims.of(lay, view, colorblind))
    elif view.routes:  # every rim under every train (a rim must not cut into a neighbour's trains)
        parts.append(halo_path("".join(geom_d(g, "piece") for g in lay.routes if g.route in view.routes)))
    for rid in sorted(set(view.closed) if compact else set(view.routes) | set(view.closed)):
        if 0 <= rid < len(board.routes):
            parts.append(route_overlay(board, lay, rid, view, colorblind))
    for rid in hl_routes:  # a highlighted free route is redrawn over its glow
        if 0 <= rid < len(board.routes) and rid not in view.routes:
            parts.append(
                route_static(board, lay, rid, colorblind, words).replace(
                    f'id="route-{rid}"', f'id="hl-{rid}"'
                )
            )
    parts.append("</g>")
    if view.final and view.ticket_routes:
        parts.append(TicketArcs.of(lay, view))
    if lay.zoom_areas and view.routes:  # claimed trains would hide the frames around the zoomed places
        parts.append(inset_joins(lay)[1])
    parts.append(pieces_svg(board, lay, view, colorblind))
    covered = labels_under(lay, set(view.routes) | set(hl_routes))
    if covered and labels_on_top:  # names that a claimed route now hides are drawn again on top
        parts.append(labels_svg(board, lay, covered, words))
    if panel:
        parts.append(panel_svg(board, view, height, colorblind, words))
    return parts


def _defs() -> str:
    stops = "".join(
        f'<stop offset="{i / 6:.2f}" stop-color="{c}"/>'
        for i, c in enumerate(["#d9342b", "#f2871c", "#f5cd1e", "#2e9e48", "#2f6fc0", "#6b3fc9", "#e35ea6"])
    )
    return (
        "<defs>"
        f'<linearGradient id="rainbow" x1="0" y1="0" x2="1" y2="1">{stops}</linearGradient>'
        '<clipPath id="mapclip"><rect x="0" y="0" width="{mw}" height="{mh}"/></clipPath>'
        "</defs>"
    )


def _background(lay: Layout, words: PictureWords = ENGLISH) -> str:
    """Sea, land, borders and frame boxes: the part of the picture that never changes during a game."""
    out = [f'<rect x="0" y="0" width="{num(lay.map_w)}" height="{num(lay.map_h)}" fill="{SEA}"/>']
    for fr in lay.frames:
        if fr.name != "main":
            out.append(
                f'<rect class="zoom-frame" x="{num(fr.x)}" y="{num(fr.y)}" width="{num(fr.w)}" height="{num(fr.h)}" '
                f'fill="{SEA}" stroke="#5a6b75" stroke-width="2" rx="6"/>'
            )
            out.append(
                f'<clipPath id="clip-{fr.name}"><rect x="{num(fr.x)}" y="{num(fr.y)}" width="{num(fr.w)}" '
                f'height="{num(fr.h)}" rx="6"/></clipPath>'
            )
        clip = "url(#mapclip)" if fr.name == "main" else f"url(#clip-{fr.name})"
        out.append(
            f'<g clip-path="{clip}"><path class="land" d="{fr.land}" fill="{LAND}" stroke="{COAST}" '
            f'stroke-width="1.6" stroke-linejoin="round" fill-rule="evenodd"/>'
            f'<path class="borders" d="{fr.borders}" fill="none" stroke="{BORDER}" stroke-width="1.3" '
            'stroke-dasharray="5,3" stroke-linejoin="round"/></g>'
        )
        if fr.name != "main":
            out.append(
                f'<text x="{num(fr.x + 10)}" y="{num(fr.y + 22)}" font-family="{words.font}" font-size="15" '
                f'font-weight="bold" fill="#41525c">{escape(words.zoom(lay.board_id, fr.name))}</text>'
            )
    return "".join(out)


INSET_INK = "#41525c"


def inset_joins(lay: Layout) -> tuple[str, str]:
    """Each zoom inset joined to its place on the main map: (leader lines, frames). The dashed leader line runs
    under the routes, from the inset's frame to the frame around the place, which is drawn over the routes (a
    hub's trains would hide it) but under the cities and their names."""
    insets = {fr.name: fr for fr in lay.frames if fr.name != "main"}
    leaders, frames = [], []
    for name, (x0, y0, x1, y1) in lay.zoom_areas:
        fr = insets.get(name)
        if fr is None:
            continue
        ix0, iy0, ix1, iy1 = fr.x, fr.y, fr.x + fr.w, fr.y + fr.h
        # nearest points of each box to the other's centre
        ax = min(max((ix0 + ix1) / 2, x0), x1)
        ay = min(max((iy0 + iy1) / 2, y0), y1)
        bx = min(max((x0 + x1) / 2, ix0), ix1)
        by = min(max((y0 + y1) / 2, iy0), iy1)
        leaders.append(
            f'<g class="zoom-leader zoom-{escape(name)}" stroke-linecap="round">'
            f'<path d="M{num(ax)},{num(ay)}L{num(bx)},{num(by)}" fill="none" stroke="{INSET_INK}" stroke-width="2.4" '
            f'stroke-dasharray="7,5" opacity="0.8"/><circle cx="{num(bx)}" cy="{num(by)}" r="4.5" '
            f'fill="{INSET_INK}"/></g>'
        )
        box = f'x="{num(x0)}" y="{num(y0)}" width="{num(x1 - x0)}" height="{num(y1 - y0)}" rx="7" fill="none"'
        frames.append(
            f'<g class="zoom-area zoom-{escape(name)}"><rect {box} stroke="#ffffff" stroke-width="5.5" '
            f'opacity="0.85"/><rect {box} stroke="{INSET_INK}" stroke-width="3"/></g>'
        )
    return "".join(leaders), "".join(frames)


__all__ = [
    "render_board_svg",
    "static_layer",
    "game_layer",
    "game_layer_parts",
    "canvas_height",
    "svg_open",
    "inset_joins",
]

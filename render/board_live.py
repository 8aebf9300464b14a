"""The live map's board as a base and pieces: the base is the printed map (no side panel: the page's sheet shows
the players, market and log), with an empty group per layer of pieces and the touch targets; the pieces are what
a game puts over it (claimed trains and their rims and shadows, closed twins, the last move's glow, stations and
the other pieces on places, the names a claimed route would hide drawn again, the final board's ticket arcs),
each an SVG fragment under a stable id ``<layer>.<key>``.

The base changes only with the board, the language and the colour-blind setting (the page fetches it once and
the browser keeps it); a move changes a few pieces. The page puts each piece in its layer's group
(``data-layer``), in the order of the ids, and removes the ones that are gone: nothing else. Composed so
(:func:`compose`), base and pieces are the same picture as :func:`live_board_svg`, which is
:func:`render.board_svg.render_board_svg`'s map without the side panel (tests/render/test_board_live.py compares
the pixels).
"""

from __future__ import annotations

import re

from maps.board import Board

from .board_places import labels_svg, labels_under, pieces_svg
from .board_routes import TicketArcs, geom_d, halo_path, highlight_svg, route_overlay, route_static
from .board_svg import game_layer, inset_joins, static_layer
from .hit_areas import hit_areas_svg
from .layout import layout_of
from .layout.geometry import Layout
from .model import BoardView, LastMove
from .svg import FONT, PLAYER_SHAPE, mark_ink, num, player_fill, player_mark
from .words import ENGLISH, PictureWords

#: The layers of pieces, bottom to top, as :func:`render.board_svg.game_layer` draws them; the base gives each
#: its group (`shadow` at the shadows' opacity: one shade over all of them, as the chat's picture has it).
LAYERS = ("glow", "shadow", "halo", "train", "glowtop", "arcs", "inset", "place", "label")
SHADOW_OPACITY = 0.28


def _open(lay: Layout, font: str) -> str:
    """The map's part of the canvas, one canvas unit a pixel."""
    w, h = num(lay.map_w), num(lay.height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="{font}">'
    )


def _layers() -> str:
    groups = {name: f'<g data-layer="{name}"></g>' for name in LAYERS}
    groups["shadow"] = f'<g data-layer="shadow" opacity="{SHADOW_OPACITY}"></g>'
    claims = "".join(groups[n] for n in ("shadow", "halo", "train", "glowtop"))
    return (
        groups["glow"]
        + f'<g class="claims">{claims}</g>'
        + "".join(groups[n] for n in ("arcs", "inset", "place", "label"))
    )


def live_base_svg(board: Board, *, colorblind: bool = True, words: PictureWords = ENGLISH) -> str:
    """The live map's base drawing: the printed map, a group per layer of pieces (empty), the touch targets."""
    lay = layout_of(board)
    return (
        _open(lay, words.font or FONT)
        + static_layer(board, colorblind=colorblind, words=words, panel=False)
        + _layers()
        + hit_areas_svg(board, lay)
        + "</svg>"
    )


def _key(n: int) -> str:
    return f"{n:05d}"  # ids sort in drawing order


def live_pieces(
    board: Board,
    view: BoardView,
    *,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
    highlight: LastMove | None = None,
) -> dict[str, str]:
    """What the game puts over the base, each piece's SVG under its id ``<layer>.<key>`` (drawn in id order)."""
    lay = layout_of(board)
    out: dict[str, str] = {}
    hl = highlight if highlight is not None else view.last_move
    hl_routes = tuple(hl.routes) if hl is not None else ()
    if hl is not None and (hl.routes or hl.cities):
        out["glow.0"] = highlight_svg(lay, hl_routes, tuple(hl.cities))
    claimed = dict.fromkeys(
        g.route for g in lay.routes if g.route in view.routes
    )  # (a route may have 2 tracks)
    for rid in claimed:
        tracks = [g for g in lay.routes if g.route == rid]
        out[f"shadow.{_key(rid)}"] = (
            f'<path class="shadow" d="{"".join(geom_d(g, "shadow") for g in tracks)}" fill="#000000"/>'
        )
        out[f"halo.{_key(rid)}"] = halo_path("".join(geom_d(g, "piece") for g in tracks))
    for rid in sorted(set(view.routes) | set(view.closed)):
        if 0 <= rid < len(board.routes):
            drawn = route_overlay(board, lay, rid, view, colorblind)
            if drawn:
                out[f"train.{_key(rid)}"] = drawn
    for rid in hl_routes:  # a highlighted free route is redrawn over its glow
        if 0 <= rid < len(board.routes) and rid not in view.routes:
            out[f"glowtop.{_key(rid)}"] = route_static(board, lay, rid, colorblind, words).replace(
                f'id="route-{rid}"', f'id="hl-{rid}"'
            )
    if view.final and view.ticket_routes:
        out["arcs.0"] = TicketArcs.of(lay, view).svg()
    if lay.zoom_areas and view.routes:  # claimed trains would hide the frames around the zoomed places
        out["inset.0"] = inset_joins(lay)[1]
    places = pieces_svg(board, lay, view, colorblind)
    if places:
        out["place.0"] = places
    for city in sorted(labels_under(lay, set(view.routes) | set(hl_routes))):
        out[f"label.{_key(city)}"] = labels_svg(board, lay, {city}, words)
    return out


_LAYER = re.compile(r'(<g data-layer="([a-z]+)"[^>]*>)(</g>)')


def compose(base: str, pieces: dict[str, str]) -> str:
    """The base with its pieces in their layers, in id order, each in a group of its own (as the page does)."""
    by_layer: dict[str, list[str]] = {}
    for pid in sorted(pieces):
        layer = pid.split(".", 1)[0]
        by_layer.setdefault(layer, []).append(f'<g data-piece="{pid}">{pieces[pid]}</g>')
    return _LAYER.sub(lambda m: m.group(1) + "".join(by_layer.get(m.group(2), ())) + m.group(3), base)


def live_board_svg(
    board: Board,
    view: BoardView,
    *,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
    highlight: LastMove | None = None,
) -> str:
    """The same picture drawn whole, as :func:`render.board_svg.render_board_svg` draws the map (no panel): what
    :func:`compose` of base and pieces must look like."""
    lay = layout_of(board)
    return (
        _open(lay, words.font or FONT)
        + static_layer(board, colorblind=colorblind, words=words, panel=False)
        + game_layer(board, view, colorblind=colorblind, highlight=highlight, panel=False, words=words)
        + "</svg>"
    )


def seat_mark_svg(color: str) -> str:
    """A seat's colour-blind mark as the drawing puts it on the seat's trains and stations (the shape of
    `render.svg.PLAYER_SHAPE` in the mark's ink on the seat's colour), as a small SVG for the page's chips."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-8 -8 16 16" aria-hidden="true">'
        f'<rect x="-8" y="-8" width="16" height="16" fill="{player_fill(color)}"/>'
        + player_mark(PLAYER_SHAPE.get(color, "circle"), 0, 0, 4.6, mark_ink(color))
        + "</svg>"
    )

"""The board image as SVG: one pure function, a board plus a public view in, SVG text out.

>>> from maps.board import load_board
>>> svg = render_board_svg(load_board("usa"))
>>> svg.startswith("<svg")
True

Element ids and classes are stable (tests and callers may count them): ``route-<id>`` groups with class
``route`` (plus ``owned``/``closed``/``tunnel``/``ferry``), ``space`` rectangles, ``city-<id>`` groups with class
``city``, ``flag`` for dead-end endpoints, ``label`` texts, ``player-<seat>`` rows in the panel.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape as _xml_escape

from maps.board import COLORS, GRAY, LOCOMOTIVE, Board

from .hit_areas import hit_areas_svg
from .layout import (
    CANVAS_W,
    DOT_R,
    FLAG_H,
    FLAG_W,
    FONT_SIZE,
    MAP_W,
    PANEL_W,
    SPACE_H,
    Layout,
    RouteGeom,
    layout_of,
    text_width,
)
from .model import BoardView, LastMove, PlayerPanel
from .regions import PALETTE as REGION_PALETTE
from .regions import region_colors, regions_svg
from .words import ENGLISH, PictureWords

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """XML-escape `text` and drop characters XML cannot hold (player names come from Discord)."""
    return _xml_escape(_NOT_XML.sub("", str(text)))


FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SEA = "#cfe2ec"
LAND = "#f4eedd"
COAST = "#a9c3cf"
BORDER = "#c4b59a"
INK = "#2b2b2b"
HILITE = "#ff2d95"

# Route colours on the board, and the letter printed on them for colour-blind players.
ROUTE_FILL = {
    "red": "#d9342b", "blue": "#2f6fc0", "green": "#2e9e48", "yellow": "#f5cd1e", "black": "#30343a",
    "white": "#fbfbf8", "orange": "#f2871c", "pink": "#e35ea6", "gray": "#b0aba3",
}  # fmt: skip
ROUTE_LETTER = {
    "red": "R", "blue": "B", "green": "G", "yellow": "Y", "black": "K", "white": "W", "orange": "O", "pink": "P",
    "gray": "",
}  # fmt: skip
LIGHT = {"yellow", "white", "gray", "orange"}

# Player piece colours, and the shape marked on every piece for colour-blind players.
PLAYER_FILL = {
    "red": "#b3261e", "blue": "#1c4f9c", "green": "#1f7a35", "yellow": "#e8b400", "black": "#1b1d21",
    "purple": "#6b3fc9", "orange": "#d9570f", "white": "#f3f3f0",
}  # fmt: skip
PLAYER_SHAPE = {
    "red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond", "black": "cross",
    "purple": "star", "orange": "ring", "white": "bar",
}  # fmt: skip
CARD_FILL = {**ROUTE_FILL, "locomotive": "url(#rainbow)"}


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _player_fill(color: str) -> str:
    return PLAYER_FILL.get(color, color)


def _mark_ink(color: str) -> str:
    return "#1b1d21" if color in ("yellow", "white") else "#ffffff"


def _shape(kind: str, x: float, y: float, r: float, fill: str) -> str:
    """A small player mark centred on (x, y)."""
    if kind == "circle":
        return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}"/>'
    if kind == "square":
        return (
            f'<rect x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}" fill="{fill}"/>'
        )
    if kind == "triangle":
        pts = f"{_f(x)},{_f(y - r * 1.15)} {_f(x + r * 1.1)},{_f(y + r * 0.85)} {_f(x - r * 1.1)},{_f(y + r * 0.85)}"
        return f'<polygon points="{pts}" fill="{fill}"/>'
    if kind == "diamond":
        pts = f"{_f(x)},{_f(y - r * 1.25)} {_f(x + r * 1.1)},{_f(y)} {_f(x)},{_f(y + r * 1.25)} {_f(x - r * 1.1)},{_f(y)}"
        return f'<polygon points="{pts}" fill="{fill}"/>'
    if kind == "cross":
        w = r * 0.55
        return (
            f'<path d="M{_f(x - r)},{_f(y - w)}h{_f(2 * r)}v{_f(2 * w)}h{_f(-2 * r)}Z'
            f'M{_f(x - w)},{_f(y - r)}h{_f(2 * w)}v{_f(2 * r)}h{_f(-2 * w)}Z" fill="{fill}"/>'
        )
    if kind == "star":
        corners = []
        for i in range(10):
            rr = r * 1.25 if i % 2 == 0 else r * 0.5
            a = math.pi / 2 + i * math.pi / 5
            corners.append(f"{_f(x + rr * math.cos(a))},{_f(y - rr * math.sin(a))}")
        return f'<polygon points="{" ".join(corners)}" fill="{fill}"/>'
    if kind == "ring":
        return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.8)}" fill="none" stroke="{fill}" stroke-width="{_f(r * 0.55)}"/>'
    # bar
    return f'<rect x="{_f(x - r * 1.2)}" y="{_f(y - r * 0.45)}" width="{_f(r * 2.4)}" height="{_f(r * 0.9)}" fill="{fill}"/>'


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


def _loco(x: float, y: float, angle: float, s: float = 1.0) -> str:
    """A small locomotive mark (ferry symbol) on a space."""
    return (
        f'<g transform="translate({_f(x)},{_f(y)}) rotate({_f(angle)}) scale({s})" class="loco">'
        '<path d="M-6.5,2.5V-1.5H-2.5V-4.5H1V-1.5H5.5L6.5,1V2.5Z" fill="#1b1d21"/>'
        '<circle cx="-3.5" cy="3.2" r="1.6" fill="#1b1d21"/><circle cx="3" cy="3.2" r="1.6" fill="#1b1d21"/>'
        "</g>"
    )


def _wave(x: float, y: float, angle: float) -> str:
    return (
        f'<path class="wave" transform="translate({_f(x)},{_f(y)}) rotate({_f(angle)})" '
        'd="M-7,1.5q1.75,-3.5 3.5,0t3.5,0t3.5,0t3.5,0" fill="none" stroke="#1c64a8" stroke-width="1.8" '
        'stroke-linecap="round"/>'
    )


def _bullet(x: float, y: float, angle: float) -> str:
    return (
        f'<g transform="translate({_f(x)},{_f(y)}) rotate({_f(angle)})" class="bullet">'
        '<path d="M-8,3.2V-2.2H2.5C6,-2.2 8.5,0.5 8.5,3.2Z" fill="#ffffff" stroke="#1b1d21" stroke-width="1"/>'
        '<path d="M-8,1.2H7.6" stroke="#2f6fc0" stroke-width="1.2"/></g>'
    )


def _route_static(board: Board, lay: Layout, rid: int, colorblind: bool) -> str:
    """A route as printed on the board (nobody's trains on it)."""
    g = lay.routes[rid] if lay.routes[rid].route == rid else next(x for x in lay.routes if x.route == rid)
    r = board.routes[rid]
    cname = r.color_name
    classes = ["route", f"color-{cname}"]
    for flag, name in (
        (r.tunnel, "tunnel"),
        (r.locomotives, "ferry"),
        (r.waves, "waves"),
        (r.bullet, "bullet-route"),
    ):
        if flag:
            classes.append(name)
    out = [f'<g id="route-{rid}" class="{" ".join(classes)}">']
    fill = ROUTE_FILL[cname]
    stroke, sw, dash = ("#5b5750" if cname in LIGHT else "#1e1e1e"), "1", ""
    if r.tunnel:
        stroke, sw, dash = "#111111", "1.6", ' stroke-dasharray="3.2,2"'
    for i, s in enumerate(g.spaces):
        out.append(_space(s, fill, stroke, sw, dash))
        if i < r.locomotives:
            out.append(_loco(s.x, s.y, s.angle))
        elif i < r.waves:
            out.append(_wave(s.x, s.y, s.angle))
    if colorblind and ROUTE_LETTER[cname]:
        n = len(g.spaces)
        picks = {n // 2} if n < 5 else {0, n // 2, n - 1}
        ink = "#1b1d21" if cname in LIGHT else "#ffffff"
        for i in sorted(picks):
            s = g.spaces[i]
            out.append(
                f'<text class="rletter" x="0" y="3.6" transform="translate({_f(s.x)},{_f(s.y)}) rotate({_f(s.angle)})" '
                f'fill="{ink}" font-size="10" font-weight="bold" text-anchor="middle">{ROUTE_LETTER[cname]}</text>'
            )
    if r.bullet and g.spaces:
        s = g.spaces[len(g.spaces) // 2]
        out.append(_bullet(s.x, s.y, s.angle))
    out.append("</g>")
    return "".join(out)


def _space(s, fill: str, stroke: str, sw: str, extra: str = "") -> str:
    return (
        f'<rect class="space" x="{_f(-s.length / 2)}" y="{_f(-SPACE_H / 2)}" width="{_f(s.length)}" '
        f'height="{_f(SPACE_H)}" rx="2.2" transform="translate({_f(s.x)},{_f(s.y)}) rotate({_f(s.angle)})" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{extra}/>'
    )


def _rect_d(s, length: float, height: float, dx: float = 0.0, dy: float = 0.0) -> str:
    """Path data of a rectangle centred on space `s`, rotated with it (one subpath, for merging)."""
    a = math.radians(s.angle)
    c, n = math.cos(a), math.sin(a)
    hl, hh = length / 2, height / 2
    pts = []
    for u, v in ((-hl, -hh), (hl, -hh), (hl, hh), (-hl, hh)):
        pts.append(f"{_f(s.x + dx + u * c - v * n)},{_f(s.y + dy + u * n + v * c)}")
    return "M" + "L".join(pts) + "Z"


def _shape_d(kind: str, x: float, y: float, r: float) -> str:
    """Path data of a player mark (see PLAYER_SHAPE) centred on (x, y)."""

    def poly(pts):
        return "M" + "L".join(f"{_f(x + px)},{_f(y + py)}" for px, py in pts) + "Z"

    def circle(rr):
        return f"M{_f(x - rr)},{_f(y)}a{_f(rr)},{_f(rr)} 0 1,0 {_f(2 * rr)},0a{_f(rr)},{_f(rr)} 0 1,0 {_f(-2 * rr)},0Z"

    if kind == "circle":
        return circle(r)
    if kind == "square":
        return poly(((-r, -r), (r, -r), (r, r), (-r, r)))
    if kind == "triangle":
        return poly(((0, -r * 1.15), (r * 1.1, r * 0.85), (-r * 1.1, r * 0.85)))
    if kind == "diamond":
        return poly(((0, -r * 1.25), (r * 1.1, 0), (0, r * 1.25), (-r * 1.1, 0)))
    if kind == "cross":
        w = r * 0.5
        return poly(
            (
                (-w, -r),
                (w, -r),
                (w, -w),
                (r, -w),
                (r, w),
                (w, w),
                (w, r),
                (-w, r),
                (-w, w),
                (-r, w),
                (-r, -w),
                (-w, -w),
            )
        )
    if kind == "star":
        pts = []
        for i in range(10):
            rr = r * 1.3 if i % 2 == 0 else r * 0.55
            a = math.pi / 2 + i * math.pi / 5
            pts.append((rr * math.cos(a), -rr * math.sin(a)))
        return poly(pts)
    if kind == "ring":
        return circle(r) + circle(r * 0.5)
    return poly(((-r * 1.2, -r * 0.45), (r * 1.2, -r * 0.45), (r * 1.2, r * 0.45), (-r * 1.2, r * 0.45)))


def _route_overlay(board: Board, lay: Layout, rid: int, view: BoardView, colorblind: bool) -> str:
    """What a game puts on a route: a player's trains, or the grey-out of a closed twin route."""
    g = next(x for x in lay.routes if x.route == rid)
    owner = view.routes.get(rid)
    if owner is not None:
        player = view.players[owner].color if 0 <= owner < len(view.players) else "black"
        fill = _player_fill(player)
        stroke = "#000000" if player != "black" else "#8a8d92"
        pieces = "".join(_rect_d(s, s.length + 2.0, SPACE_H + 4.0) for s in g.spaces)
        out = [
            f'<g id="owned-{rid}" class="owned owner-{owner} player-{escape(player)}">'
            f'<path class="piece" d="{pieces}" fill="{fill}" stroke="{stroke}" stroke-width="1.6" '
            'stroke-linejoin="round"/>'
        ]
        if colorblind:
            kind = PLAYER_SHAPE.get(player, "circle")
            marks = "".join(_shape_d(kind, s.x, s.y, 3.8) for s in g.spaces)
            out.append(f'<path class="mark" d="{marks}" fill="{_mark_ink(player)}" fill-rule="evenodd"/>')
        out.append("</g>")
        return "".join(out)
    if rid in view.closed:
        covers = "".join(_rect_d(s, s.length + 1.5, SPACE_H + 1.5) for s in g.spaces)
        mid = g.spaces[len(g.spaces) // 2]
        return (
            f'<g id="closed-{rid}" class="closed"><path d="{covers}" fill="{LAND}" opacity="0.72"/>'
            f'<path class="closed-mark" transform="translate({_f(mid.x)},{_f(mid.y)})" d="M-4,-4L4,4M4,-4L-4,4" '
            'stroke="#555" stroke-width="1.8"/></g>'
        )
    return ""


def _claims_compact(lay: Layout, view: BoardView, colorblind: bool) -> str:
    """All claimed routes as one piece path and one mark path per player (same picture, far fewer elements)."""
    return CompactClaims.of(lay, view, colorblind).svg()


def _piece_path(d: str, player: str, *, fill: bool = True, stroke: bool = True) -> str:
    """The trains of `player` over the spaces of path data `d` (fill, outline or both)."""
    ink = ("#000000" if player != "black" else "#8a8d92") if stroke else "none"
    return (
        f'<path class="piece" d="{d}" fill="{_player_fill(player) if fill else "none"}" stroke="{ink}" '
        'stroke-width="1.6" stroke-linejoin="round"/>'
    )


def _mark_path(d: str, player: str) -> str:
    return f'<path class="mark" d="{d}" fill="{_mark_ink(player)}" fill-rule="evenodd"/>'


@dataclass(frozen=True)
class CompactClaims:
    """The claimed routes of a game layer, each player's as one piece path and one mark path.

    `seats` holds, per player in seat order, the player's colour and the path data of each of their routes (the
    route's trains, and its marks when colour-blind, else ""). :meth:`svg` is the SVG; a compositor may draw the
    routes one by one instead (:mod:`render.sprites`): a player's fills, then their outlines, then their marks.
    """

    seats: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]

    @staticmethod
    def of(lay: Layout, view: BoardView, colorblind: bool) -> CompactClaims:
        by_seat: dict[int, dict[int, tuple[list[str], list[str]]]] = {}
        for g in lay.routes:
            seat = view.routes.get(g.route)
            if seat is None:
                continue
            player = view.players[seat].color if 0 <= seat < len(view.players) else "black"
            pieces, marks = by_seat.setdefault(seat, {}).setdefault(g.route, ([], []))
            pieces.append(_geom_d(g, "piece"))
            if colorblind:
                marks.append(_geom_d(g, PLAYER_SHAPE.get(player, "circle")))
        seats = []
        for seat, routes in sorted(by_seat.items()):
            player = view.players[seat].color if 0 <= seat < len(view.players) else "black"
            seats.append((player, tuple(("".join(p), "".join(m)) for p, m in routes.values())))
        return CompactClaims(tuple(seats))

    def svg(self) -> str:
        out = []
        for player, routes in self.seats:
            out.append(_piece_path("".join(p for p, _m in routes), player))
            marks = "".join(m for _p, m in routes)
            if marks:
                out.append(_mark_path(marks, player))
        return "".join(out)


SHADOW_OPACITY = 0.28


def _shadow_path(d: str, opacity: float = SHADOW_OPACITY) -> str:
    alpha = f' opacity="{opacity}"' if opacity < 1 else ""
    return f'<path class="shadow" d="{d}" fill="#000000"{alpha}/>'


@dataclass(frozen=True)
class Shadows:
    """The shadow under claimed trains: one path for all the routes, black at :data:`SHADOW_OPACITY`.

    `routes` holds each shadowed route's path data; :meth:`svg` is the SVG; a compositor may draw the union of the
    routes' shadows as a mask instead (:mod:`render.sprites`)."""

    routes: tuple[str, ...]

    @staticmethod
    def of(lay: Layout, routes) -> Shadows:
        by_route: dict[int, list[str]] = {}
        for g in lay.routes:
            if g.route in routes:
                by_route.setdefault(g.route, []).append(_geom_d(g, "shadow"))
        return Shadows(tuple("".join(d) for d in by_route.values()))

    def svg(self) -> str:
        d = "".join(self.routes)
        return _shadow_path(d) if d else ""


def _shadows(lay: Layout, routes) -> str:
    return Shadows.of(lay, routes).svg()


def _labels_under(lay: Layout, routes: set[int]) -> set[int]:
    """Cities whose name box touches a space of one of `routes` (pieces are drawn bigger than spaces)."""
    out: set[int] = set()
    if not routes:
        return out
    for g in lay.routes:
        if g.route in routes:
            out |= _geom_under(lay, g)
    return out


_GEOM_D: dict[tuple[int, str], tuple[RouteGeom, str]] = {}
_GEOM_UNDER: dict[int, tuple[RouteGeom, frozenset[int]]] = {}


def _geom_d(g: RouteGeom, what: str) -> str:
    """Path data every picture of a board draws again for route track `g`, computed once: its trains ("piece"),
    their shadow ("shadow") or a player's marks on them (the shape's name, see PLAYER_SHAPE)."""
    hit = _GEOM_D.get((id(g), what))
    if hit is not None and hit[0] is g:
        return hit[1]
    if what == "piece":
        d = "".join(_rect_d(s, s.length + 2.0, SPACE_H + 4.0) for s in g.spaces)
    elif what == "shadow":
        d = "".join(_rect_d(s, s.length + 2.0, SPACE_H + 4.0, 1.2, 1.8) for s in g.spaces)
    else:
        d = "".join(_shape_d(what, s.x, s.y, 3.8) for s in g.spaces)
    _GEOM_D[(id(g), what)] = (g, d)
    return d


def _geom_under(lay: Layout, g: RouteGeom) -> frozenset[int]:
    """The cities whose name box touches a space of route track `g` (computed once per track)."""
    hit = _GEOM_UNDER.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    out = set()
    boxes = [(lab.city, lab.box) for lab in (*lay.labels, *lay.country_labels)]
    for s in g.spaces:
        reach = s.length / 2 + SPACE_H
        for city, (x0, y0, x1, y1) in boxes:
            if x0 - reach < s.x < x1 + reach and y0 - reach < s.y < y1 + reach:
                out.add(city)
    _GEOM_UNDER[id(g)] = (g, frozenset(out))
    return frozenset(out)


def _highlight_svg(lay: Layout, routes: tuple[int, ...], cities: tuple[int, ...]) -> str:
    out = ['<g class="highlight">']
    by_id = {g.route: g for g in lay.routes}
    for rid in routes:
        g = by_id.get(rid)
        if g is None:
            continue
        for s in g.spaces:
            out.append(
                f'<rect x="{_f(-s.length / 2 - 6)}" y="{_f(-SPACE_H / 2 - 6)}" width="{_f(s.length + 12)}" '
                f'height="{_f(SPACE_H + 12)}" rx="7" transform="translate({_f(s.x)},{_f(s.y)}) rotate({_f(s.angle)})" '
                f'fill="{HILITE}" opacity="0.8"/>'
            )
    for c in cities:
        for (cid, _f2), (x, y) in lay.cities.items():
            if cid == c:
                out.append(
                    f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(DOT_R + 8)}" fill="{HILITE}" opacity="0.8"/>'
                )
    out.append("</g>")
    return "".join(out)


def _ticket_arcs_svg(lay: Layout, view: BoardView) -> str:
    """Final board: each player's tickets as arcs between their two places, in the player's colour; completed
    tickets solid, failed ones dashed. Arcs of different seats bend by different amounts so they stay apart."""
    where: dict[int, tuple[float, float]] = {}
    for (cid, _i), xy in lay.cities.items():
        where.setdefault(cid, xy)
    out = ['<g class="ticket-arcs" fill="none" stroke-linecap="round">']
    for seat, lines in sorted(view.ticket_routes.items()):
        if not 0 <= seat < len(view.players):
            continue
        color = _player_fill(view.players[seat].color)
        bend = 0.12 + 0.05 * seat
        for t in lines:
            if t.a not in where or t.b not in where:
                continue
            (x1, y1), (x2, y2) = where[t.a], where[t.b]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            cx, cy = mx - (y2 - y1) * bend, my + (x2 - x1) * bend
            dash = "" if t.done else ' stroke-dasharray="10 8"'
            out.append(
                f'<path class="ticket-arc seat-{seat}{"" if t.done else " failed"}" '
                f'd="M{_f(x1)},{_f(y1)} Q{_f(cx)},{_f(cy)} {_f(x2)},{_f(y2)}" stroke="#fff" stroke-width="7" '
                f'opacity="0.55"/>'
                f'<path d="M{_f(x1)},{_f(y1)} Q{_f(cx)},{_f(cy)} {_f(x2)},{_f(y2)}" stroke="{color}" '
                f'stroke-width="4" opacity="0.85"{dash}/>'
            )
    out.append("</g>")
    return "".join(out)


def _station(x: float, y: float, color: str, colorblind: bool) -> str:
    fill = _player_fill(color)
    s = (
        f'<path class="station" d="M{_f(x - 9)},{_f(y + 8)}v-9.5l9,-8 9,8v9.5Z" fill="{fill}" stroke="#111" '
        'stroke-width="1.5" stroke-linejoin="round"/>'
    )
    if colorblind:
        s += _shape(PLAYER_SHAPE.get(color, "circle"), x, y + 2, 3.2, _mark_ink(color))
    return s


def _cities_svg(board: Board, lay: Layout, colorblind: bool) -> str:
    out = []
    colors = region_colors(board)
    for (c, _frame), (x, y) in sorted(lay.cities.items()):
        city = board.cities[c]
        if city.dead_end:
            continue
        ring = colors.get(str(city.extra.get("region")), "#ffffff")
        out.append(
            f'<g id="city-{c}" class="city"><circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(DOT_R + 2.5)}" fill="{ring}"/>'
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(DOT_R)}" fill="#c0392b" stroke="#5a1a12" stroke-width="1.4"/>'
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(DOT_R * 0.42)}" fill="#ffffff" opacity="0.85"/></g>'
        )
    for fl in lay.flags:
        out.append(_flag(board.cities[fl.city].name, fl))
    return "".join(out)


def _pieces_svg(board: Board, lay: Layout, view: BoardView, colorblind: bool) -> str:
    """Stations, depots, warehouse counts, passengers, merchandise and meeples on the cities."""

    def spots(c: int) -> list[tuple[str, tuple[float, float]]]:
        if 0 <= c < len(board.cities) and board.cities[c].dead_end:
            fl = next((f for f in lay.flags if f.city == c), None)
            return [("main", (fl.x, fl.y - 4))] if fl else []
        return lay.city_positions(c)

    out = []
    for c, seat in view.stations.items():
        if 0 <= seat < len(view.players):
            for _fr, (x, y) in spots(c):
                out.append(_station(x, y, view.players[seat].color, colorblind))
    for c, seat in view.depots.items():
        if 0 <= seat < len(view.players):
            col = view.players[seat].color
            for _fr, (x, y) in spots(c):
                out.append(
                    f'<rect class="depot" x="{_f(x - 17)}" y="{_f(y - 17)}" width="9" height="9" '
                    f'fill="{_player_fill(col)}" stroke="#111" stroke-width="1"/>'
                )
    for c, n in view.warehouse_cards.items():
        for _fr, (x, y) in spots(c):
            out.append(_badge(x - 14, y + 13, str(n), "#fff3bf", "warehouse"))
    for c, seats in view.passengers.items():
        for _fr, (x, y) in spots(c):
            n = len(seats)
            for k, seat in enumerate(seats):
                if 0 <= seat < len(view.players):
                    col = view.players[seat].color
                    out.append(_person(x - (n - 1) * 5 + k * 10, y - 17, _player_fill(col), "passenger"))
    for c, values in view.merchandise.items():
        if values:
            text = str(values[0]) + (f" +{len(values) - 1}" if len(values) > 1 else "")
            for _fr, (x, y) in spots(c):
                out.append(_badge(x + 16, y + 14, text, "#d3f9d8", "merchandise"))
    for c, counts in view.meeples.items():
        for _fr, (x, y) in spots(c):
            shown = [(name, n) for name, n in sorted(counts.items()) if n > 0]
            for k, (colname, n) in enumerate(shown):
                px = x - (len(shown) - 1) * 8 + k * 16
                fill = PLAYER_FILL.get(colname, ROUTE_FILL.get(colname, colname))
                out.append(_person(px, y + 19, fill, "meeple"))
                if n > 1:
                    out.append(
                        f'<text x="{_f(px + 5)}" y="{_f(y + 28)}" font-size="9" font-weight="bold" fill="#111">{n}</text>'
                    )
    if view.regions:  # a view's own regions (the printed map already rings each city in its board region)
        colors = region_colors(board)
        for c, region in view.regions.items():
            ring = colors.get(region, REGION_PALETTE[sum(map(ord, region)) % len(REGION_PALETTE)])
            for _fr, (x, y) in spots(c):
                out.append(
                    f'<circle class="region" cx="{_f(x)}" cy="{_f(y)}" r="{_f(DOT_R + 1.5)}" fill="none" '
                    f'stroke="{ring}" stroke-width="2.5"/>'
                )
    return "".join(out)


# National flags for the dead-end countries (by normalised name, any language the boards use).
_FLAGS = {
    "france": ("v", "#0055a4", "#ffffff", "#ef4135"), "frankreich": ("v", "#0055a4", "#ffffff", "#ef4135"),
    "francia": ("v", "#0055a4", "#ffffff", "#ef4135"),
    "netherlands": ("h", "#ae1c28", "#ffffff", "#21468b"), "niederlande": ("h", "#ae1c28", "#ffffff", "#21468b"),
    "austria": ("h", "#ed2939", "#ffffff", "#ed2939"), "osterreich": ("h", "#ed2939", "#ffffff", "#ed2939"),
    "croazia": ("h", "#ff0000", "#ffffff", "#171796"), "croatia": ("h", "#ff0000", "#ffffff", "#171796"),
    "monaco": ("h", "#ce1126", "#ffffff"),
    "schweiz": ("cross", "#da291c"), "svizzera": ("cross", "#da291c"), "switzerland": ("cross", "#da291c"),
    "danemark": ("nordic", "#c8102e"), "denmark": ("nordic", "#c8102e"),
}  # fmt: skip


def _flag(name: str, fl) -> str:
    """A dead-end endpoint: the country's flag (a neutral pennant when the country is not known)."""
    from maps.board import normalize_name

    spec = _FLAGS.get(normalize_name(name))
    x, y, w, h = fl.x - FLAG_W / 2, fl.y - FLAG_H / 2, FLAG_W, FLAG_H
    out = [f'<g class="flag" id="flag-{fl.city}-{fl.route}">']
    if spec is None:
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" fill="#fffaf0"/>')
        out.append(
            f'<path d="M{_f(x + 5)},{_f(y + 4)}l{_f(w - 10)},{_f(h / 2 - 4)}l{_f(10 - w)},{_f(h / 2 - 4)}Z" '
            'fill="#8c7a5b"/>'
        )
    elif spec[0] in ("v", "h"):
        cols = spec[1:]
        n = len(cols)
        for k, c in enumerate(cols):
            if spec[0] == "v":
                out.append(
                    f'<rect x="{_f(x + k * w / n)}" y="{_f(y)}" width="{_f(w / n + 0.3)}" height="{_f(h)}" fill="{c}"/>'
                )
            else:
                out.append(
                    f'<rect x="{_f(x)}" y="{_f(y + k * h / n)}" width="{_f(w)}" height="{_f(h / n + 0.3)}" fill="{c}"/>'
                )
    elif spec[0] == "cross":
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" fill="{spec[1]}"/>')
        cx, cy = fl.x, fl.y
        out.append(f'<path d="M{_f(cx - 2)},{_f(cy - 6)}h4v4h4v4h-4v4h-4v-4h-4v-4h4Z" fill="#ffffff"/>')
    else:  # nordic cross
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" fill="{spec[1]}"/>')
        out.append(
            f'<path d="M{_f(x + w * 0.32)},{_f(y)}v{_f(h)}M{_f(x)},{_f(fl.y)}h{_f(w)}" stroke="#ffffff" '
            'stroke-width="3.2"/>'
        )
    out.append(
        f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" rx="1.5" fill="none" stroke="#3a3226" '
        'stroke-width="1.4"/></g>'
    )
    return "".join(out)


def _person(x: float, y: float, fill: str, cls: str) -> str:
    """A little person (passenger / meeple) standing at (x, y)."""
    return (
        f'<path class="{cls}" d="M{_f(x - 2.8)},{_f(y - 4.5)}a2.8,2.8 0 1,0 5.6,0a2.8,2.8 0 1,0 -5.6,0Z'
        f'M{_f(x - 4.5)},{_f(y + 6)}v-3.5a4.5,4 0 0,1 9,0v3.5Z" fill="{fill}" stroke="#111" stroke-width="1"/>'
    )


def _badge(x: float, y: float, text: str, fill: str, cls: str) -> str:
    w = 6 + 6.5 * len(text)
    return (
        f'<g class="{cls}"><rect x="{_f(x - w / 2)}" y="{_f(y - 6.5)}" width="{_f(w)}" height="13" rx="3" '
        f'fill="{fill}" stroke="#444" stroke-width="0.8"/><text x="{_f(x)}" y="{_f(y + 3.8)}" font-size="10" '
        f'font-weight="bold" text-anchor="middle" fill="#222">{escape(text)}</text></g>'
    )


def _labels_svg(board: Board, lay: Layout, only: set[int] | None = None) -> str:
    halo, ink = [], []
    for lab in lay.labels:
        if only is not None and lab.city not in only:
            continue
        size = FONT_SIZE if lab.frame == "main" else FONT_SIZE - 1
        name = escape(board.cities[lab.city].name)
        attrs = f'x="{_f(lab.x)}" y="{_f(lab.y)}" text-anchor="{lab.anchor}" font-size="{_f(size)}"'
        halo.append(f"<text {attrs}>{name}</text>")
        ink.append(f'<text class="label" {attrs}>{name}</text>')
    for lab in lay.country_labels:
        if only is not None and lab.city not in only:
            continue
        name = escape(board.cities[lab.city].name.upper())
        attrs = f'x="{_f(lab.x)}" y="{_f(lab.y)}" text-anchor="{lab.anchor}" font-size="{_f(FONT_SIZE - 2)}"'
        halo.append(f"<text {attrs}>{name}</text>")
        ink.append(f'<text class="label country" fill="#6b5a3c" {attrs}>{name}</text>')
    return (
        f'<g font-family="{FONT}" font-weight="bold" fill="none" stroke="#ffffff" stroke-width="4.2" '
        f'stroke-linejoin="round" opacity="0.92">{"".join(halo)}</g>'
        f'<g font-family="{FONT}" font-weight="bold" fill="{INK}">{"".join(ink)}</g>'
    )


def _background(lay: Layout) -> str:
    """Sea, land, borders and frame boxes: the part of the picture that never changes during a game."""
    out = [f'<rect x="0" y="0" width="{_f(lay.map_w)}" height="{_f(lay.map_h)}" fill="{SEA}"/>']
    for fr in lay.frames:
        if fr.name != "main":
            out.append(
                f'<rect class="zoom-frame" x="{_f(fr.x)}" y="{_f(fr.y)}" width="{_f(fr.w)}" height="{_f(fr.h)}" '
                f'fill="{SEA}" stroke="#5a6b75" stroke-width="2" rx="6"/>'
            )
            out.append(
                f'<clipPath id="clip-{fr.name}"><rect x="{_f(fr.x)}" y="{_f(fr.y)}" width="{_f(fr.w)}" '
                f'height="{_f(fr.h)}" rx="6"/></clipPath>'
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
                f'<text x="{_f(fr.x + 10)}" y="{_f(fr.y + 22)}" font-family="{FONT}" font-size="15" '
                f'font-weight="bold" fill="#41525c">{escape(fr.name.title())}</text>'
            )
    return "".join(out)


INSET_INK = "#41525c"


def _inset_joins(lay: Layout) -> tuple[str, str]:
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
            f'<path d="M{_f(ax)},{_f(ay)}L{_f(bx)},{_f(by)}" fill="none" stroke="{INSET_INK}" stroke-width="2.4" '
            f'stroke-dasharray="7,5" opacity="0.8"/><circle cx="{_f(bx)}" cy="{_f(by)}" r="4.5" '
            f'fill="{INSET_INK}"/></g>'
        )
        box = f'x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="7" fill="none"'
        frames.append(
            f'<g class="zoom-area zoom-{escape(name)}"><rect {box} stroke="#ffffff" stroke-width="5.5" '
            f'opacity="0.85"/><rect {box} stroke="{INSET_INK}" stroke-width="3"/></g>'
        )
    return "".join(leaders), "".join(frames)


def _card(x: float, y: float, w: float, h: float, ctype: int) -> str:
    name = "locomotive" if ctype == LOCOMOTIVE else (COLORS[ctype] if 0 <= ctype < len(COLORS) else "gray")
    fill = CARD_FILL.get(name, "#cccccc")
    letter = "L" if name == "locomotive" else ROUTE_LETTER.get(name, "?")
    ink = "#1b1d21" if name in LIGHT else "#ffffff"
    return (
        f'<g class="card card-{name}"><rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" rx="5" '
        f'fill="{fill}" stroke="#333" stroke-width="1.2"/>'
        f'<text x="{_f(x + w / 2)}" y="{_f(y + h / 2 + 6)}" font-size="17" font-weight="bold" text-anchor="middle" '
        f'fill="{ink}" stroke="{"none" if name != "locomotive" else "#000"}" stroke-width="0.6">{letter}</text></g>'
    )


def _panel_chrome(height: float, colorblind: bool, words: PictureWords) -> str:
    """The panel's fixed parts (background, route-letter legend): drawn with the static map."""
    x0, w = MAP_W, PANEL_W
    out = [
        f'<g class="panel-chrome" font-family="{FONT}"><rect x="{x0}" y="0" width="{w}" height="{_f(height)}" '
        'fill="#f7f5f0"/>',
        f'<line x1="{x0}" y1="0" x2="{x0}" y2="{_f(height)}" stroke="#b8b1a3" stroke-width="2"/>',
    ]
    if colorblind:
        _legend(out, x0, height, w, words)
    out.append("</g>")
    return "".join(out)


def _panel_svg(board: Board, view: BoardView, height: float, colorblind: bool, words: PictureWords) -> str:
    """The panel's game parts: title, players, face-up row, piles, last move, final tickets."""
    x0 = MAP_W
    w = PANEL_W
    out = [f'<g class="panel" font-family="{FONT}">']
    y = 34.0
    title = view.title or words.text("title", board=words.board_name(board.id, board.name))
    size = min(
        20.0, 20.0 * (w - 32) / max(1.0, text_width(title, 20.0))
    )  # longer titles (other languages) shrink
    out.append(
        f'<text x="{x0 + 16}" y="{_f(y)}" font-size="{_f(size)}" font-weight="bold" fill="{INK}">{escape(title)}</text>'
    )
    if view.round is not None or view.final:
        y += 22
        sub = words.final_scores if view.final else words.text("round", n=view.round)
        out.append(f'<text x="{x0 + 16}" y="{_f(y)}" font-size="14" fill="#555">{sub}</text>')
    y += 14
    show_cards = not view.final and bool(view.face_up or view.deck or view.discard)
    reserved = (165 if show_cards else 0) + (80 if view.last_move else 0) + 90
    n = max(1, len(view.players))
    extra_lines = max((len(_stat_lines(s, p, view)) - 1 for s, p in enumerate(view.players)), default=0)
    row_h = max(48.0, min(62.0, (height - y - reserved) / n - 7)) + extra_lines * _STAT_LINE_H
    for seat, p in enumerate(view.players):
        y = _player_row(out, seat, p, view, x0, y, w, colorblind, row_h)
    if show_cards:
        y += 12
        out.append(
            f'<text x="{x0 + 16}" y="{_f(y + 14)}" font-size="14" font-weight="bold" fill="{INK}">{escape(words.face_up)}</text>'
        )
        y += 24
        cw, ch = 52.0, 72.0
        for k, ct in enumerate(view.face_up):
            out.append(_card(x0 + 16 + k * (cw + 10), y, cw, ch, ct))
        y += ch + 24
        piles = [("cards", words.text("deck", n=view.deck)), ("cards", words.text("discard", n=view.discard))]
        if view.tickets_left is not None:
            piles.append(("tickets", words.text("tickets_left", n=view.tickets_left)))
        for k, (kind, text) in enumerate(piles):
            cx = x0 + 26 + k * 112
            out.append(_icon(kind, cx, y - 5))
            out.append(
                f'<text class="piles" x="{_f(cx + 13)}" y="{_f(y)}" font-size="14" fill="{INK}">{escape(text)}</text>'
            )
        y += 6
    move_text = _last_move_text(board, view, words)
    if move_text:
        y += 26
        out.append(
            f'<text x="{x0 + 16}" y="{_f(y)}" font-size="13" font-weight="bold" fill="{HILITE}">{escape(words.last_move)}</text>'
        )
        for line in _wrap(move_text, 42)[:3]:
            y += 18
            out.append(f'<text x="{x0 + 16}" y="{_f(y)}" font-size="14" fill="{INK}">{escape(line)}</text>')
    legend = _icon_legend_lines(view, words)
    legend_y = height - 120 - 20 * max(0, len(legend) - 1)
    if view.final and view.ticket_routes:
        y = _tickets_block(out, board, view, x0, y + 14, w, legend_y - 20, words)
    _icon_legend(out, legend, x0, legend_y)
    out.append("</g>")
    return "".join(out)


def _last_move_text(board: Board, view: BoardView, words: PictureWords) -> str:
    """The view's own text, else who claimed/built what (from the highlighted routes and cities)."""
    lm = view.last_move
    if lm is None:
        return ""
    if lm.text:
        return lm.text
    who = view.players[lm.seat].name if lm.seat is not None and 0 <= lm.seat < len(view.players) else ""
    what = [board.route_label(r) for r in lm.routes if 0 <= r < len(board.routes)]
    what += [board.cities[c].name for c in lm.cities if 0 <= c < len(board.cities)]
    if not what:
        return words.text("drew_cards_or_tickets", player=who) if who else ""
    return f"{who}: {', '.join(what)}" if who else ", ".join(what)


def _wrap(text: str, n: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for wd in words:
        if cur and len(cur) + 1 + len(wd) > n:
            lines.append(cur)
            cur = wd
        else:
            cur = f"{cur} {wd}".strip()
    if cur:
        lines.append(cur)
    return lines


_ICONS = {  # 16x16 pictograms for the panel, drawn around (0, 0)
    "trains": "M-8,4V-3H-3V-7H2V-3H6L8,1V4ZM-5,7a2,2 0 1,0 .1,0ZM4,7a2,2 0 1,0 .1,0Z",
    "cards": "M-7,-6h8v12h-8ZM-2,-7.5h8v12h-8Z",
    "tickets": "M-8,-5h16v10h-16ZM-4,-5v10",
    "stations": "M-7,7v-7l7,-6 7,6v7Z",
    "passengers": "M0,-7.5a3,3 0 1,0 .1,0ZM-5,7v-4a5,4 0 0,1 10,0v4Z",
    "bullets": "M-8,4V-3H1C5,-3 8,0 8,4Z",
    "depots": "M-7,7v-9h14v9ZM-8,-2l8,-5 8,5",
    "track": "M-7,7V-7M-7,-7h11l-3,3 3,3h-11",
    "done": "M-7,0l5,5 9,-10",
    "ferry_cards": "M-8,1h16l-3,6h-10ZM-4,1v-5h7v5M-1,-4v-4",
    "merchandise": "M-7,-6h14v13h-14ZM-7,-1h14M0,-6v5",
    "meeples": "M0,-7.5a3,3 0 1,0 .1,0ZM-5,7v-4a5,4 0 0,1 10,0v4Z",
}  # fmt: skip
_ICON_LINE = {"cards", "tickets", "depots", "track", "done", "ferry_cards", "merchandise"}
# The player rows' counts after trains, cards and tickets: (pictogram, PlayerPanel field), in drawing order.
_ROW_STATS = (
    ("stations", "stations"), ("passengers", "passengers"), ("merchandise", "merchandise"),
    ("ferry_cards", "ferry_cards"), ("bullets", "bullet_trains"), ("depots", "depots"),
    ("done", "completed_tickets"),
)  # fmt: skip


def _icon(kind: str, x: float, y: float) -> str:
    d = _ICONS[kind]
    if kind in _ICON_LINE:
        return (
            f'<path class="icon icon-{kind}" transform="translate({_f(x)},{_f(y)})" d="{d}" fill="#ffffff" '
            'stroke="#555" stroke-width="1.5" stroke-linejoin="round"/>'
        )
    return f'<path class="icon icon-{kind}" transform="translate({_f(x)},{_f(y)})" d="{d}" fill="#555"/>'


def _icon_legend_lines(view: BoardView, words: PictureWords) -> list[list[tuple[str, str, float]]]:
    """The legend of the pictograms in use, as lines of (pictogram, word, width)."""
    if not view.players:
        return []
    used = ["trains", "cards", "tickets"]
    for kind, attr in _ROW_STATS:
        if any(getattr(p, attr) is not None for p in view.players):
            used.append(kind)
        if kind == "bullets" and view.bullet_track:  # in the rows' order
            used.append("track")
    if any(p.meeples is not None for p in view.players):
        used.append("meeples")
    lines: list[list[tuple[str, str, float]]] = [[]]
    x = 24.0
    for kind in used:
        word = words.text(f"icon_{kind}")
        width = 22 + len(word) * 6.6
        if x + width > PANEL_W - 10 and lines[-1]:
            lines.append([])
            x = 24.0
        lines[-1].append((kind, word, width))
        x += width + 8
    return lines


def _icon_legend(out: list[str], lines: list[list[tuple[str, str, float]]], x0: float, y: float) -> None:
    """What the pictograms of the player rows mean (only those in use)."""
    for row in lines:
        x = x0 + 24
        for kind, word, width in row:
            out.append(_icon(kind, x, y - 4))
            out.append(
                f'<text x="{_f(x + 11)}" y="{_f(y)}" font-size="11.5" fill="#555">{escape(word)}</text>'
            )
            x += width + 8
        y += 20


def _player_row(
    out: list[str],
    seat: int,
    p: PlayerPanel,
    view: BoardView,
    x0: float,
    y: float,
    w: float,
    colorblind: bool,
    h: float = 62.0,
) -> float:
    turn = view.turn == seat and not view.final
    bg = "#fff3c4" if turn else "#ffffff"
    out.append(
        f'<g id="player-{seat}" class="player"><rect x="{_f(x0 + 10)}" y="{_f(y)}" width="{_f(w - 20)}" height="{_f(h)}" '
        f'rx="7" fill="{bg}" stroke="{"#e0a800" if turn else "#d6d0c4"}" stroke-width="{2.2 if turn else 1}"/>'
    )
    fill = _player_fill(p.color)
    out.append(
        f'<rect x="{_f(x0 + 20)}" y="{_f(y + 9)}" width="26" height="26" rx="5" fill="{fill}" stroke="#222"/>'
    )
    if colorblind:
        out.append(_shape(PLAYER_SHAPE.get(p.color, "circle"), x0 + 33, y + 22, 6, _mark_ink(p.color)))
    name = p.name if len(p.name) <= 18 else p.name[:17] + "…"
    marker = "▶ " if turn else ""
    out.append(
        f'<text x="{_f(x0 + 56)}" y="{_f(y + 28)}" font-size="17" font-weight="bold" fill="{INK}">'
        f"{escape(marker + name)}</text>"
    )
    out.append(
        f'<text class="score" x="{_f(x0 + w - 22)}" y="{_f(y + 30)}" font-size="24" font-weight="bold" '
        f'text-anchor="end" fill="{INK}">{p.score}</text>'
    )
    lines = _stat_lines(seat, p, view)
    base = y + h - 13 - (len(lines) - 1) * _STAT_LINE_H
    for row, stats in enumerate(lines):
        cy = base + row * _STAT_LINE_H
        step = min(62.0, (w - 40) / max(1, len(stats)))
        for k, (kind, value) in enumerate(stats):
            cx = x0 + 30 + k * step
            if kind.startswith("meeple-"):  # one little person per meeple colour, in that colour
                colname = kind.removeprefix("meeple-")
                fill = PLAYER_FILL.get(colname, ROUTE_FILL.get(colname, colname))
                out.append(_person(cx, cy - 1, fill, f"stat-meeple meeple-{escape(colname)}"))
            else:
                out.append(_icon(kind, cx, cy))
            ink = "#9a968e" if value == 0 and kind.startswith("meeple-") else "#333"
            out.append(
                f'<text class="stat stat-{escape(kind)}" x="{_f(cx + 12)}" y="{_f(cy + 5.5)}" font-size="15" '
                f'font-weight="bold" fill="{ink}">{value}</text>'
            )
    out.append("</g>")
    return y + h + 7


_STAT_LINE_H = 22.0
_STATS_PER_LINE = 6


def _stat_lines(seat: int, p: PlayerPanel, view: BoardView) -> list[list[tuple[str, int]]]:
    """A player row's counts as lines of (pictogram, value): the counts first, then meeples by colour."""
    stats = [("trains", p.trains), ("cards", p.cards), ("tickets", p.tickets)]
    for kind, attr in _ROW_STATS:
        value = getattr(p, attr)
        if value is not None:
            stats.append((kind, value))
        if kind == "bullets" and view.bullet_track.get(seat) is not None:
            stats.append(("track", view.bullet_track[seat]))
    lines = [stats[k : k + _STATS_PER_LINE] for k in range(0, len(stats), _STATS_PER_LINE)]
    if p.meeples is not None:
        lines.append([(f"meeple-{name}", n) for name, n in p.meeples])
    return lines


def _tickets_block(out, board, view, x0, y, w, bottom, words: PictureWords) -> float:
    """Every player's tickets, done or failed (final board only), in one or two columns above `bottom`."""
    out.append(
        f'<text x="{x0 + 16}" y="{_f(y + 8)}" font-size="14" font-weight="bold" fill="{INK}">{escape(words.tickets)}</text>'
    )
    y += 14
    items = [
        (seat, t)
        for seat, lines in sorted(view.ticket_routes.items())
        if 0 <= seat < len(view.players)
        for t in lines
    ]
    step = 15.0
    room = max(1, int((bottom - y) // step) - 1)
    cols = 1 if len(items) <= room else 2
    shown = items[: room * cols]
    colw = (w - 32) / cols
    for k, (seat, t) in enumerate(shown):
        col, row = divmod(k, room)
        if cols == 1:
            col, row = 0, k
        cx = x0 + 16 + col * colw
        cy = y + (row + 1) * step
        p = view.players[seat]
        mark = "✔" if t.done else "✘"
        ink = "#1f7a35" if t.done else "#b3261e"
        a, b = board.cities[t.a].name, board.cities[t.b].name
        txt = _fit_pair(a, b, colw - 62, 11.5)
        out.append(
            f'<g class="ticket-line"><rect x="{_f(cx)}" y="{_f(cy - 9)}" width="9" height="9" '
            f'fill="{_player_fill(p.color)}" stroke="#222" stroke-width="0.6"/>'
            f'<text x="{_f(cx + 13)}" y="{_f(cy)}" font-size="11.5" fill="{INK}">{escape(txt)}</text>'
            f'<text x="{_f(cx + colw - 8)}" y="{_f(cy)}" font-size="11.5" text-anchor="end" fill="{ink}">'
            f"{mark}{'+' if t.done else '−'}{t.points}</text></g>"
        )
    if len(shown) < len(items):
        out.append(
            f'<text x="{x0 + 16}" y="{_f(y + (room + 1) * step)}" font-size="11" fill="#555">'
            f"{escape(words.text('more_tickets', n=len(items) - len(shown)))}</text>"
        )
    return y + min(len(items), room) * step


def _fit_pair(a: str, b: str, room: float, size: float) -> str:
    """'A–B', shortening the longer name with a dot until it fits `room` units."""

    while text_width(f"{a}–{b}", size) * 0.93 > room and max(len(a), len(b)) > 3:
        if len(a.rstrip(".")) >= len(b.rstrip(".")):
            a = a.rstrip(".")[:-1] + "."
        else:
            b = b.rstrip(".")[:-1] + "."
    return f"{a}–{b}"


def _legend(out: list[str], x0: float, height: float, w: float, words: PictureWords) -> None:
    y = height - 70
    out.append(
        f'<text x="{x0 + 16}" y="{_f(y)}" font-size="12" fill="#555">{escape(words.route_letters)}</text>'
    )
    y += 8
    for k, name in enumerate(COLORS + ("gray",)):
        cx = x0 + 16 + (k % 5) * 68
        cy = y + (k // 5) * 24
        fill = ROUTE_FILL[name]
        ink = "#1b1d21" if name in LIGHT else "#ffffff"
        out.append(
            f'<rect x="{_f(cx)}" y="{_f(cy)}" width="20" height="14" rx="2" fill="{fill}" stroke="#333" stroke-width="0.8"/>'
            f'<text x="{_f(cx + 10)}" y="{_f(cy + 11)}" font-size="10" font-weight="bold" text-anchor="middle" '
            f'fill="{ink}">{ROUTE_LETTER[name]}</text>'
            f'<text x="{_f(cx + 24)}" y="{_f(cy + 11)}" font-size="11" fill="#444">{escape(words.color(name))}</text>'
        )


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
        _svg_open(width, height)
        + static_layer(board, colorblind=colorblind, words=words)
        + game_layer(board, view, colorblind=colorblind, highlight=highlight, height=height, words=words)
        + (hit_areas_svg(board, lay) if hit_areas else "")
        + "</svg>"
    )


def canvas_height(lay: Layout, view: BoardView | None = None) -> float:
    """Picture height in canvas units: the map's (the panel fits itself into it)."""
    return lay.height


def _svg_open(width: int, height: float) -> str:
    px_h = round(width * height / CANVAS_W)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{px_h}" '
        f'viewBox="0 0 {CANVAS_W} {_f(height)}" font-family="{FONT}">'
    )


def static_layer(board: Board, *, colorblind: bool = True, words: PictureWords = ENGLISH) -> str:
    """The map as printed: sea, land, borders, every route unclaimed, cities, flags, names and the panel's frame.

    Never changes during a game, so the PNG path renders it once per board and reuses it.
    """
    lay = layout_of(board)
    region_tints, region_names = regions_svg(board)
    inset_leaders, inset_frames = _inset_joins(lay)
    return "".join(
        [
            _defs().replace("{mw}", _f(lay.map_w)).replace("{mh}", _f(lay.map_h)),
            _background(lay),
            region_tints,
            inset_leaders,
            '<g class="routes">',
            *(_route_static(board, lay, g.route, colorblind) for g in lay.routes),
            "</g>",
            inset_frames,
            _cities_svg(board, lay, colorblind),
            region_names,
            _labels_svg(board, lay),
            _panel_chrome(lay.height, colorblind, words),
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
GamePart = str | Shadows | CompactClaims


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
    parts: list[GamePart] = [_defs().replace("{mw}", _f(lay.map_w)).replace("{mh}", _f(lay.map_h))]
    hl = highlight if highlight is not None else view.last_move
    hl_routes = tuple(hl.routes) if hl is not None else ()
    if hl is not None and (hl.routes or hl.cities):
        parts.append(_highlight_svg(lay, hl_routes, tuple(hl.cities)))
    parts.append('<g class="claims">')
    parts.append(Shadows.of(lay, set(view.routes)))
    if compact:
        parts.append(CompactClaims.of(lay, view, colorblind))
    for rid in sorted(set(view.closed) if compact else set(view.routes) | set(view.closed)):
        if 0 <= rid < len(board.routes):
            parts.append(_route_overlay(board, lay, rid, view, colorblind))
    for rid in hl_routes:  # a highlighted free route is redrawn over its glow
        if 0 <= rid < len(board.routes) and rid not in view.routes:
            parts.append(
                _route_static(board, lay, rid, colorblind).replace(f'id="route-{rid}"', f'id="hl-{rid}"')
            )
    parts.append("</g>")
    if view.final and view.ticket_routes:
        parts.append(_ticket_arcs_svg(lay, view))
    if lay.zoom_areas and view.routes:  # claimed trains would hide the frames around the zoomed places
        parts.append(_inset_joins(lay)[1])
    parts.append(_pieces_svg(board, lay, view, colorblind))
    covered = _labels_under(lay, set(view.routes) | set(hl_routes))
    if covered and labels_on_top:  # names that a claimed route now hides are drawn again on top
        parts.append(_labels_svg(board, lay, covered))
    if panel:
        parts.append(_panel_svg(board, view, height, colorblind, words))
    return parts


ROUTE_COLORS = {name: ROUTE_FILL[name] for name in (*COLORS, "gray")}
__all__ = [
    "render_board_svg",
    "static_layer",
    "game_layer",
    "game_layer_parts",
    "canvas_height",
    "ROUTE_FILL",
    "PLAYER_FILL",
    "PLAYER_SHAPE",
    "ROUTE_LETTER",
    "GRAY",
]

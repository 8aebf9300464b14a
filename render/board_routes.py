"""Routes on the board picture: each route as printed (its coloured spaces and letter, ferry, tunnel, wave and
bullet marks), and what a game puts on routes: the claimed trains (rim, pieces, players' marks, shadow; also as
data, for the sprites), the grey-out of a closed twin route, the last moves' glow and the final board's ticket
arcs."""

from __future__ import annotations

import math
from dataclasses import dataclass

from maps.board import Board

from .layout.geometry import DOT_R, SPACE_H, Layout, RouteGeom
from .model import BoardView
from .svg import (
    HILITE,
    LAND,
    LIGHT,
    PLAYER_SHAPE,
    ROUTE_FILL,
    escape,
    mark_ink,
    num,
    player_fill,
    player_mark_d,
)
from .words import ENGLISH, PictureWords


def route_static(board: Board, lay: Layout, rid: int, colorblind: bool, words: PictureWords = ENGLISH) -> str:
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
    letter = words.letter(cname)
    if colorblind and letter:
        n = len(g.spaces)
        picks = {n // 2} if n < 5 else {0, n // 2, n - 1}
        ink = "#1b1d21" if cname in LIGHT else "#ffffff"
        for i in sorted(picks):
            s = g.spaces[i]
            out.append(
                f'<text class="rletter" x="0" y="3.6" transform="translate({num(s.x)},{num(s.y)}) rotate({num(s.angle)})" '
                f'fill="{ink}" font-size="{letter_size(letter)}" font-weight="bold" text-anchor="middle">'
                f"{escape(letter)}</text>"
            )
    if r.bullet and g.spaces:
        s = g.spaces[len(g.spaces) // 2]
        out.append(_bullet(s.x, s.y, s.angle))
    out.append("</g>")
    return "".join(out)


def letter_size(letter: str) -> str:
    """A colour's letter fits a train space: two letters (French "Vi") a little smaller than one."""
    return "10" if len(letter) < 2 else "8.5"


def _space(s, fill: str, stroke: str, sw: str, extra: str = "") -> str:
    return (
        f'<rect class="space" x="{num(-s.length / 2)}" y="{num(-SPACE_H / 2)}" width="{num(s.length)}" '
        f'height="{num(SPACE_H)}" rx="2.2" transform="translate({num(s.x)},{num(s.y)}) rotate({num(s.angle)})" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{extra}/>'
    )


def _loco(x: float, y: float, angle: float, s: float = 1.0) -> str:
    """A small locomotive mark (ferry symbol) on a space."""
    return (
        f'<g transform="translate({num(x)},{num(y)}) rotate({num(angle)}) scale({s})" class="loco">'
        '<path d="M-6.5,2.5V-1.5H-2.5V-4.5H1V-1.5H5.5L6.5,1V2.5Z" fill="#1b1d21"/>'
        '<circle cx="-3.5" cy="3.2" r="1.6" fill="#1b1d21"/><circle cx="3" cy="3.2" r="1.6" fill="#1b1d21"/>'
        "</g>"
    )


def _wave(x: float, y: float, angle: float) -> str:
    return (
        f'<path class="wave" transform="translate({num(x)},{num(y)}) rotate({num(angle)})" '
        'd="M-7,1.5q1.75,-3.5 3.5,0t3.5,0t3.5,0t3.5,0" fill="none" stroke="#1c64a8" stroke-width="1.8" '
        'stroke-linecap="round"/>'
    )


def _bullet(x: float, y: float, angle: float) -> str:
    return (
        f'<g transform="translate({num(x)},{num(y)}) rotate({num(angle)})" class="bullet">'
        '<path d="M-8,3.2V-2.2H2.5C6,-2.2 8.5,0.5 8.5,3.2Z" fill="#ffffff" stroke="#1b1d21" stroke-width="1"/>'
        '<path d="M-8,1.2H7.6" stroke="#2f6fc0" stroke-width="1.2"/></g>'
    )


def rect_d(s, length: float, height: float, dx: float = 0.0, dy: float = 0.0) -> str:
    """Path data of a rectangle centred on space `s`, rotated with it (one subpath, for merging)."""
    a = math.radians(s.angle)
    c, n = math.cos(a), math.sin(a)
    hl, hh = length / 2, height / 2
    pts = []
    for u, v in ((-hl, -hh), (hl, -hh), (hl, hh), (-hl, hh)):
        pts.append(f"{num(s.x + dx + u * c - v * n)},{num(s.y + dy + u * n + v * c)}")
    return "M" + "L".join(pts) + "Z"


def route_overlay(board: Board, lay: Layout, rid: int, view: BoardView, colorblind: bool) -> str:
    """What a game puts on a route: a player's trains, or the grey-out of a closed twin route."""
    g = next(x for x in lay.routes if x.route == rid)
    owner = view.routes.get(rid)
    if owner is not None:
        player = view.players[owner].color if 0 <= owner < len(view.players) else "black"
        pieces = "".join(rect_d(s, s.length + 2.0, SPACE_H + 4.0) for s in g.spaces)
        out = [
            f'<g id="owned-{rid}" class="owned owner-{owner} player-{escape(player)}">'
            + piece_path(pieces, player)
        ]
        if colorblind:
            kind = PLAYER_SHAPE.get(player, "circle")
            marks = "".join(player_mark_d(kind, s.x, s.y, 3.8) for s in g.spaces)
            out.append(f'<path class="mark" d="{marks}" fill="{mark_ink(player)}" fill-rule="evenodd"/>')
        out.append("</g>")
        return "".join(out)
    if rid in view.closed:
        covers = "".join(rect_d(s, s.length + 1.5, SPACE_H + 1.5) for s in g.spaces)
        mid = g.spaces[len(g.spaces) // 2]
        return (
            f'<g id="closed-{rid}" class="closed"><path d="{covers}" fill="{LAND}" opacity="0.72"/>'
            f'<path class="closed-mark" transform="translate({num(mid.x)},{num(mid.y)})" d="M-4,-4L4,4M4,-4L-4,4" '
            'stroke="#555" stroke-width="1.8"/></g>'
        )
    return ""


def piece_path(d: str, player: str, *, fill: bool = True, stroke: bool = True) -> str:
    """The trains of `player` over the spaces of path data `d` (fill, outline or both): the outline is the white
    line inside the dark rim (:func:`halo_path`)."""
    ink = PIECE_LINE if stroke else "none"
    return (
        f'<path class="piece" d="{d}" fill="{player_fill(player) if fill else "none"}" stroke="{ink}" '
        f'stroke-width="{num(PIECE_LINE_W)}" stroke-linejoin="round"/>'
    )


#: Claimed trains wear a dark rim with a white line inside it, which no printed route (thin outline, flat colour)
#: nor card has: a claimed route reads as claimed even where the player's colour is a card colour. The rim is a
#: stroke of HALO_W canvas units under the trains (half of it outside them).
HALO_W = 6.4
HALO_INK = "#15171a"
PIECE_LINE = "#ffffff"
PIECE_LINE_W = 1.5


def halo_path(d: str) -> str:
    """The dark rim around the trains of path data `d`."""
    return (
        f'<path class="halo" d="{d}" fill="{HALO_INK}" stroke="{HALO_INK}" stroke-width="{num(HALO_W)}" '
        'stroke-linejoin="round"/>'
    )


def mark_path(d: str, player: str) -> str:
    return f'<path class="mark" d="{d}" fill="{mark_ink(player)}" fill-rule="evenodd"/>'


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
            pieces.append(geom_d(g, "piece"))
            if colorblind:
                marks.append(geom_d(g, PLAYER_SHAPE.get(player, "circle")))
        seats = []
        for seat, routes in sorted(by_seat.items()):
            player = view.players[seat].color if 0 <= seat < len(view.players) else "black"
            seats.append((player, tuple(("".join(p), "".join(m)) for p, m in routes.values())))
        return CompactClaims(tuple(seats))

    def svg(self) -> str:
        every = "".join(p for _player, routes in self.seats for p, _m in routes)
        out = [halo_path(every)] if every else []
        for player, routes in self.seats:
            out.append(piece_path("".join(p for p, _m in routes), player))
            marks = "".join(m for _p, m in routes)
            if marks:
                out.append(mark_path(marks, player))
        return "".join(out)


SHADOW_OPACITY = 0.28


def shadow_path(d: str, opacity: float = SHADOW_OPACITY) -> str:
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
                by_route.setdefault(g.route, []).append(geom_d(g, "shadow"))
        return Shadows(tuple("".join(d) for d in by_route.values()))

    def svg(self) -> str:
        d = "".join(self.routes)
        return shadow_path(d) if d else ""


_GEOM_D: dict[tuple[int, str], tuple[RouteGeom, str]] = {}
#: Entries of _GEOM_D kept before it starts over: every track of the six boards (663) in each of its drawings (trains,
#: shadow, eight players' marks) is 6630, so a worker drawing every board keeps them all; a process whose layouts are
#: made anew (more board geometries than render.layout keeps) cannot grow it past this
GEOM_CACHE_SIZE = 8192


def geom_d(g: RouteGeom, what: str) -> str:
    """Path data every picture of a board draws again for route track `g`, computed once: its trains ("piece"),
    their shadow ("shadow") or a player's marks on them (the shape's name, see PLAYER_SHAPE)."""
    hit = _GEOM_D.get((id(g), what))
    if hit is not None and hit[0] is g:
        return hit[1]
    if what == "piece":
        d = "".join(rect_d(s, s.length + 2.0, SPACE_H + 4.0) for s in g.spaces)
    elif what == "shadow":
        d = "".join(rect_d(s, s.length + 2.0, SPACE_H + 4.0, 1.2, 1.8) for s in g.spaces)
    else:
        d = "".join(player_mark_d(what, s.x, s.y, 3.8) for s in g.spaces)
    if len(_GEOM_D) >= GEOM_CACHE_SIZE:
        _GEOM_D.clear()
    _GEOM_D[(id(g), what)] = (g, d)
    return d


def highlight_svg(lay: Layout, routes: tuple[int, ...], cities: tuple[int, ...], pad: float = 8.0) -> str:
    """The glow around the last moves' trains and cities, `pad` canvas units wide."""
    out = ['<g class="highlight">']
    by_id = {g.route: g for g in lay.routes}
    for rid in routes:
        g = by_id.get(rid)
        if g is None:
            continue
        for s in g.spaces:
            out.append(
                f'<rect x="{num(-s.length / 2 - pad)}" y="{num(-SPACE_H / 2 - pad)}" width="{num(s.length + 2 * pad)}" '
                f'height="{num(SPACE_H + 2 * pad)}" rx="{num(pad)}" transform="translate({num(s.x)},{num(s.y)}) rotate({num(s.angle)})" '
                f'fill="{HILITE}" opacity="0.8"/>'
            )
    for c in cities:
        for (cid, _f2), (x, y) in lay.cities.items():
            if cid == c:
                out.append(
                    f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R + pad)}" fill="{HILITE}" opacity="0.8"/>'
                )
    out.append("</g>")
    return "".join(out)


@dataclass(frozen=True)
class TicketArc:
    """One ticket on the final board: a quadratic arc from (x1, y1) to (x2, y2) bent towards (cx, cy), in the
    seat's colour `ink`; `done`: completed (solid), else dashed."""

    seat: int
    x1: float
    y1: float
    cx: float
    cy: float
    x2: float
    y2: float
    ink: str
    done: bool

    def svg(self) -> str:
        d = f"M{num(self.x1)},{num(self.y1)} Q{num(self.cx)},{num(self.cy)} {num(self.x2)},{num(self.y2)}"
        dash = "" if self.done else ' stroke-dasharray="10 8"'
        return (
            f'<path class="ticket-arc seat-{self.seat}{"" if self.done else " failed"}" '
            f'd="{d}" stroke="#fff" stroke-width="{num(TICKET_HALO_W)}" opacity="{TICKET_HALO_OPACITY}"/>'
            f'<path d="{d}" stroke="{self.ink}" stroke-width="{num(TICKET_ARC_W)}" opacity="{TICKET_ARC_OPACITY}"'
            f"{dash}/>"
        )


TICKET_HALO_W, TICKET_HALO_OPACITY = 7.0, 0.55
TICKET_ARC_W, TICKET_ARC_OPACITY = 4.0, 0.85
TICKET_DASH = (10.0, 8.0)


@dataclass(frozen=True)
class TicketArcs:
    """Final board: each player's tickets as arcs between their two places, in the player's colour; completed
    tickets solid, failed ones dashed. Arcs of different seats bend by different amounts so they stay apart.

    :meth:`svg` is the SVG; a compositor may stroke the arcs itself (:mod:`render.sprites`): they differ from
    one game to the next, a sprite of one would never be drawn twice."""

    arcs: tuple[TicketArc, ...]

    @staticmethod
    def of(lay: Layout, view: BoardView) -> TicketArcs:
        where: dict[int, tuple[float, float]] = {}
        for (cid, _i), xy in lay.cities.items():
            where.setdefault(cid, xy)
        arcs = []
        for seat, lines in sorted(view.ticket_routes.items()):
            if not 0 <= seat < len(view.players):
                continue
            color = player_fill(view.players[seat].color)
            bend = 0.12 + 0.05 * seat
            for t in lines:
                if t.a not in where or t.b not in where:
                    continue
                (x1, y1), (x2, y2) = where[t.a], where[t.b]
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                cx, cy = mx - (y2 - y1) * bend, my + (x2 - x1) * bend
                # at the SVG's precision: the same curve however it is drawn
                x1, y1, cx, cy, x2, y2 = (float(num(v)) for v in (x1, y1, cx, cy, x2, y2))
                arcs.append(TicketArc(seat, x1, y1, cx, cy, x2, y2, color, t.done))
        return TicketArcs(tuple(arcs))

    def svg(self) -> str:
        return (
            '<g class="ticket-arcs" fill="none" stroke-linecap="round">'
            + "".join(a.svg() for a in self.arcs)
            + "</g>"
        )


def _ticket_arcs_svg(lay: Layout, view: BoardView) -> str:
    """The final board's ticket arcs as SVG (see :class:`TicketArcs`)."""
    return TicketArcs.of(lay, view).svg()

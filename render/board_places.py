"""Places on the board picture: the city dots (ringed in their region's colour), dead-end flags, city and country
names (and which of them a route's trains cover), and the pieces a game puts on places: stations, depots,
warehouse counts, passengers, merchandise, meeples, a view's regions."""

from __future__ import annotations

from maps.board import Board

from .layout.geometry import DOT_R, FLAG_H, FLAG_W, FONT_SIZE, SPACE_H, Layout, RouteGeom
from .model import BoardView
from .regions import PALETTE as REGION_PALETTE
from .regions import region_colors
from .svg import (
    INK,
    PLAYER_FILL,
    PLAYER_SHAPE,
    ROUTE_FILL,
    escape,
    mark_ink,
    num,
    person,
    player_fill,
    player_mark,
)
from .words import ENGLISH, PictureWords


def cities_svg(board: Board, lay: Layout, colorblind: bool) -> str:
    out = []
    colors = region_colors(board)
    for (c, _frame), (x, y) in sorted(lay.cities.items()):
        city = board.cities[c]
        if city.dead_end:
            continue
        ring = colors.get(str(city.extra.get("region")), "#ffffff")
        out.append(
            f'<g id="city-{c}" class="city"><circle cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R + 2.5)}" fill="{ring}"/>'
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R)}" fill="#c0392b" stroke="#5a1a12" stroke-width="1.4"/>'
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R * 0.42)}" fill="#ffffff" opacity="0.85"/></g>'
        )
    for fl in lay.flags:
        out.append(_flag(board.cities[fl.city].name, fl))
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
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="#fffaf0"/>')
        out.append(
            f'<path d="M{num(x + 5)},{num(y + 4)}l{num(w - 10)},{num(h / 2 - 4)}l{num(10 - w)},{num(h / 2 - 4)}Z" '
            'fill="#8c7a5b"/>'
        )
    elif spec[0] in ("v", "h"):
        cols = spec[1:]
        n = len(cols)
        for k, c in enumerate(cols):
            if spec[0] == "v":
                out.append(
                    f'<rect x="{num(x + k * w / n)}" y="{num(y)}" width="{num(w / n + 0.3)}" height="{num(h)}" fill="{c}"/>'
                )
            else:
                out.append(
                    f'<rect x="{num(x)}" y="{num(y + k * h / n)}" width="{num(w)}" height="{num(h / n + 0.3)}" fill="{c}"/>'
                )
    elif spec[0] == "cross":
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{spec[1]}"/>')
        cx, cy = fl.x, fl.y
        out.append(f'<path d="M{num(cx - 2)},{num(cy - 6)}h4v4h4v4h-4v4h-4v-4h-4v-4h4Z" fill="#ffffff"/>')
    else:  # nordic cross
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{spec[1]}"/>')
        out.append(
            f'<path d="M{num(x + w * 0.32)},{num(y)}v{num(h)}M{num(x)},{num(fl.y)}h{num(w)}" stroke="#ffffff" '
            'stroke-width="3.2"/>'
        )
    out.append(
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="1.5" fill="none" stroke="#3a3226" '
        'stroke-width="1.4"/></g>'
    )
    return "".join(out)


def labels_svg(board: Board, lay: Layout, only: set[int] | None = None, words: PictureWords = ENGLISH) -> str:
    """The cities' names (`only` these cities'), as the readers of `words` know them, in its font."""
    halo, ink = [], []
    for lab in lay.labels:
        if only is not None and lab.city not in only:
            continue
        size = FONT_SIZE if lab.frame == "main" else FONT_SIZE - 1
        name = escape(words.city(board.id, board.cities[lab.city].name))
        attrs = f'x="{num(lab.x)}" y="{num(lab.y)}" text-anchor="{lab.anchor}" font-size="{num(size)}"'
        halo.append(f"<text {attrs}>{name}</text>")
        ink.append(f'<text class="label" {attrs}>{name}</text>')
    for lab in lay.country_labels:
        if only is not None and lab.city not in only:
            continue
        name = escape(words.city(board.id, board.cities[lab.city].name).upper())
        attrs = (
            f'x="{num(lab.x)}" y="{num(lab.y)}" text-anchor="{lab.anchor}" font-size="{num(FONT_SIZE - 2)}"'
        )
        halo.append(f"<text {attrs}>{name}</text>")
        ink.append(f'<text class="label country" fill="#6b5a3c" {attrs}>{name}</text>')
    return (
        f'<g font-family="{words.font}" font-weight="bold" fill="none" stroke="#ffffff" stroke-width="4.2" '
        f'stroke-linejoin="round" opacity="0.92">{"".join(halo)}</g>'
        f'<g font-family="{words.font}" font-weight="bold" fill="{INK}">{"".join(ink)}</g>'
    )


def labels_under(lay: Layout, routes: set[int]) -> set[int]:
    """Cities whose name box touches a space of one of `routes` (pieces are drawn bigger than spaces)."""
    out: set[int] = set()
    if not routes:
        return out
    for g in lay.routes:
        if g.route in routes:
            out |= _geom_under(lay, g)
    return out


_GEOM_UNDER: dict[int, tuple[RouteGeom, frozenset[int]]] = {}
#: Entries of _GEOM_UNDER kept before it starts over: one per track, 663 on the six boards
GEOM_UNDER_SIZE = 2048


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
    if len(_GEOM_UNDER) >= GEOM_UNDER_SIZE:
        _GEOM_UNDER.clear()
    _GEOM_UNDER[id(g)] = (g, frozenset(out))
    return frozenset(out)


def pieces_svg(board: Board, lay: Layout, view: BoardView, colorblind: bool) -> str:
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
                    f'<rect class="depot" x="{num(x - 17)}" y="{num(y - 17)}" width="9" height="9" '
                    f'fill="{player_fill(col)}" stroke="#111" stroke-width="1"/>'
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
                    out.append(person(x - (n - 1) * 5 + k * 10, y - 17, player_fill(col), "passenger"))
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
                out.append(person(px, y + 19, fill, "meeple"))
                if n > 1:
                    out.append(
                        f'<text x="{num(px + 5)}" y="{num(y + 28)}" font-size="9" font-weight="bold" fill="#111">{n}</text>'
                    )
    if view.regions:  # a view's own regions (the printed map already rings each city in its board region)
        colors = region_colors(board)
        for c, region in view.regions.items():
            ring = colors.get(region, REGION_PALETTE[sum(map(ord, region)) % len(REGION_PALETTE)])
            for _fr, (x, y) in spots(c):
                out.append(
                    f'<circle class="region" cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R + 1.5)}" fill="none" '
                    f'stroke="{ring}" stroke-width="2.5"/>'
                )
    return "".join(out)


def _station(x: float, y: float, color: str, colorblind: bool) -> str:
    fill = player_fill(color)
    s = (
        f'<path class="station" d="M{num(x - 9)},{num(y + 8)}v-9.5l9,-8 9,8v9.5Z" fill="{fill}" stroke="#111" '
        'stroke-width="1.5" stroke-linejoin="round"/>'
    )
    if colorblind:
        s += player_mark(PLAYER_SHAPE.get(color, "circle"), x, y + 2, 3.2, mark_ink(color))
    return s


def _badge(x: float, y: float, text: str, fill: str, cls: str) -> str:
    w = 6 + 6.5 * len(text)
    return (
        f'<g class="{cls}"><rect x="{num(x - w / 2)}" y="{num(y - 6.5)}" width="{num(w)}" height="13" rx="3" '
        f'fill="{fill}" stroke="#444" stroke-width="0.8"/><text x="{num(x)}" y="{num(y + 3.8)}" font-size="10" '
        f'font-weight="bold" text-anchor="middle" fill="#222">{escape(text)}</text></g>'
    )

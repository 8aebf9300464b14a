"""Italy's regions on the printed map: a soft tint around each region's cities, clipped to land, and the region's
name where it hides no city, name or train space.

The region of a city is board data (``city.extra["region"]``), so this is part of the static layer, drawn once per
board. A region's tint is the rounded convex hull of its cities (a disc for one city, a capsule for two); regions
that touch get different colours, and each city's ring takes its region's colour (see ``board_places.cities_svg``).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from maps.board import Board

from .layout import layout_of
from .layout.geometry import DOT_R, FLAG_H, FLAG_W, SPACE_H, Layout, Point, text_width
from .layout.labels import Grid, overlap

# Saturated hues: the tint shows them at low opacity, the rings and names in full.
PALETTE = ("#e8590c", "#1c7ed6", "#37b24d", "#ae3ec9", "#f59f00", "#0ca678", "#d6336c", "#5c7cfa", "#74b816")
TINT_PAD = 34.0  # how far the tint reaches beyond a region's outer cities
TINT_OPACITY = 0.26
NAME_SIZE = 12.5
_NEAR = 150.0  # regions whose cities come this close are neighbours (they get different colours)

_CACHE: dict[int, tuple[Layout, dict[str, str], tuple[str, str]]] = {}  # by layout: colours, (tints, names)


def city_regions(board: Board) -> dict[int, str]:
    """Region name per city, for the boards that have regions (empty otherwise)."""
    return {c.id: str(c.extra["region"]) for c in board.cities if c.extra.get("region")}


def _main_points(board: Board, lay: Layout) -> dict[str, list[Point]]:
    pts: dict[str, list[Point]] = {}
    for cid, region in city_regions(board).items():
        xy = lay.cities.get((cid, "main"))
        if xy is not None:
            pts.setdefault(region, []).append(xy)
    return pts


def _colors(board: Board, pts: dict[str, list[Point]]) -> dict[str, str]:
    """Greedy colouring: biggest regions first, each takes the first hue no neighbour has."""
    regions = city_regions(board)
    touching: dict[str, set[str]] = {r: set() for r in pts}
    for r in board.routes:
        ra, rb = regions.get(r.a), regions.get(r.b)
        if ra and rb and ra != rb and ra in touching and rb in touching:
            touching[ra].add(rb)
            touching[rb].add(ra)
    names = sorted(pts)
    for k, a in enumerate(names):
        for b in names[k + 1 :]:
            if any(math.dist(p, q) < _NEAR for p in pts[a] for q in pts[b]):
                touching[a].add(b)
                touching[b].add(a)
    colors: dict[str, str] = {}
    for name in sorted(names, key=lambda n: (-len(touching[n]), n)):
        taken = {colors[n] for n in touching[name] if n in colors}
        colors[name] = next((c for c in PALETTE if c not in taken), PALETTE[len(colors) % len(PALETTE)])
    return colors


def _hull(points: list[Point]) -> list[Point]:
    """Convex hull (monotone chain), counter-clockwise; fewer than 3 distinct points come back as they are."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _tint(hull: list[Point], color: str) -> str:
    """The hull drawn with a thick round stroke of its own colour: a rounded blob TINT_PAD beyond the cities."""
    d = "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in hull) + ("Z" if len(hull) > 2 else "")
    if len(hull) == 1:
        d += "l0.01,0"
    return (
        f'<path d="{d}" fill="{color}" stroke="{color}" stroke-width="{_f(2 * TINT_PAD)}" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
    )


def _obstacles(board: Board, lay: Layout) -> tuple[list[tuple[float, float, float, float]], Grid]:
    """Boxes a region name must not touch (city dots, city and country names, flags) and the train spaces."""
    boxes = [lab.box for lab in (*lay.labels, *lay.country_labels)]
    for (_c, _fr), (x, y) in lay.cities.items():
        boxes.append((x - DOT_R - 3, y - DOT_R - 3, x + DOT_R + 3, y + DOT_R + 3))
    for fl in lay.flags:
        boxes.append((fl.x - FLAG_W / 2, fl.y - FLAG_H / 2, fl.x + FLAG_W / 2, fl.y + FLAG_H / 2))
    grid = Grid()
    for g in lay.routes:
        for s in g.spaces:
            a = math.radians(s.angle)
            c, n = math.cos(a), math.sin(a)
            for t in (-0.5, -0.25, 0.0, 0.25, 0.5):
                for o in (-0.5, 0.5):
                    grid.add(
                        (s.x + c * s.length * t - n * SPACE_H * o, s.y + n * s.length * t + c * SPACE_H * o)
                    )
    return boxes, grid


def _name_lines(name: str) -> list[tuple[str, ...]]:
    """The ways to write a region's name: one line, or two split at the hyphen or space nearest the middle."""
    text = name.upper()
    cuts = [k for k, ch in enumerate(text) if ch in "- "]
    if not cuts:
        return [(text,)]
    k = min(cuts, key=lambda i: abs(i - len(text) / 2))
    first = text[: k + 1] if text[k] == "-" else text[:k]
    return [(text,), (first, text[k + 1 :])]


def _name_spot(
    name: str,
    pts: list[Point],
    others: list[Point],
    taken: list[tuple[float, float, float, float]],
    grid: Grid,
    lay: Layout,
) -> tuple[float, float, tuple[str, ...], tuple[float, float, float, float]] | None:
    """Centre and lines of the name: near the region's middle, on nothing, inside the map."""
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    best = None
    for lines in _name_lines(name):
        w = max(text_width(t, NAME_SIZE) for t in lines) * 1.08 + 4
        h = NAME_SIZE * len(lines) + 4
        penalty = 18.0 * (len(lines) - 1)
        for r in (0.0, 22.0, 40.0, 58.0, 78.0, 100.0, 125.0, 150.0, 175.0):
            steps = 1 if r == 0 else 16
            for k in range(steps):
                a = 2 * math.pi * k / steps
                x, y = cx + r * math.cos(a), cy + r * math.sin(a) * 0.8
                box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
                if box[0] < 6 or box[1] < 6 or box[2] > lay.map_w - 6 or box[3] > lay.map_h - 6:
                    continue
                hits = sum(1 for t in taken if overlap(t, box))
                near = (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)
                cost = hits * 1000 + grid.count(near) * 60 + r + penalty
                own = min(math.dist((x, y), p) for p in pts)
                if any(math.dist((x, y), q) < own - 10 for q in others):  # reads as the neighbour's name
                    cost += 900
                if best is None or cost < best[0]:
                    best = (cost, x, y, lines, box)
            if (
                best is not None and best[0] < r + 22
            ):  # nothing hit and not far: farther rings cannot do better
                break
    return None if best is None else best[1:]


def region_colors(board: Board) -> dict[str, str]:
    """The colour of each region of `board` (empty for boards without regions)."""
    return _build(board)[0]


def regions_svg(board: Board) -> tuple[str, str]:
    """(tints, names) of the board's regions as SVG: the tints go under the routes, the names over them."""
    return _build(board)[1]


def _build(board: Board) -> tuple[dict[str, str], tuple[str, str]]:
    lay = layout_of(board)
    hit = _CACHE.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1], hit[2]
    pts = _main_points(board, lay)
    colors = _colors(board, pts) if pts else {}
    svg = (_tints_svg(lay, pts, colors), _names_svg(board, lay, pts, colors)) if pts else ("", "")
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[id(lay)] = (lay, colors, svg)  # holds the layout, so its id cannot be reused while cached
    return colors, svg


def _tints_svg(lay: Layout, pts: dict[str, list[Point]], colors: dict[str, str]) -> str:
    main = next(fr for fr in lay.frames if fr.name == "main")
    tints = "".join(_tint(_hull(pts[name]), colors[name]) for name in sorted(pts))
    return (
        f'<clipPath id="region-land"><path d="{main.land}" fill-rule="evenodd"/></clipPath>'
        f'<g class="regions" clip-path="url(#region-land)" opacity="{TINT_OPACITY}">{tints}</g>'
    )


def _names_svg(board: Board, lay: Layout, pts: dict[str, list[Point]], colors: dict[str, str]) -> str:
    """Region names, the regions with most cities first (they are the hardest to place)."""
    taken, grid = _obstacles(board, lay)
    halo, ink = [], []
    for name in sorted(pts, key=lambda n: -len(pts[n])):
        others = [p for other, ps in pts.items() if other != name for p in ps]
        spot = _name_spot(name, pts[name], others, taken, grid, lay)
        if spot is None:
            continue
        x, y, lines, box = spot
        taken.append(box)
        top = y - NAME_SIZE * (len(lines) - 1) / 2 + NAME_SIZE * 0.36
        for k, line in enumerate(lines):
            attrs = f'x="{_f(x)}" y="{_f(top + k * NAME_SIZE)}"'
            text = escape(line)
            halo.append(f"<text {attrs}>{text}</text>")
            ink.append(f'<text class="region-name" fill="{_darker(colors[name])}" {attrs}>{text}</text>')
    style = (
        f'font-size="{_f(NAME_SIZE)}" font-weight="bold" font-style="italic" text-anchor="middle" '
        'letter-spacing="0.6"'
    )
    return (
        f'<g {style} fill="none" stroke="#ffffff" stroke-width="3.4" stroke-linejoin="round" opacity="0.9">'
        f"{''.join(halo)}</g><g {style}>{''.join(ink)}</g>"
    )


def _darker(color: str, k: float = 0.62) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"#{int(r * k):02x}{int(g * k):02x}{int(b * k):02x}"

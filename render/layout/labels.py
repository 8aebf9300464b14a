"""Step 5 of a layout: the names' places, city names placed greedily around their dots (never over another name,
a dot or a flag, avoiding train spaces; a board may prefer a side), then country and area names beside their
flags."""

from __future__ import annotations

import math

from .geometry import DOT_R, FLAG_H, FLAG_W, FONT_SIZE, SPACE_H, Flag, Label, Point, distance, text_width

_DIRS = {  # name: (unit dx, unit dy, text-anchor)
    "e": (1, 0, "start"), "w": (-1, 0, "end"), "n": (0, -1, "middle"), "s": (0, 1, "middle"),
    "ne": (0.75, -0.75, "start"), "nw": (-0.75, -0.75, "end"), "se": (0.75, 0.75, "start"),
    "sw": (-0.75, 0.75, "end"),
}  # fmt: skip


class Grid:
    def __init__(self, cell: float = 24.0) -> None:
        self.cell = cell
        self.pts: dict[tuple[int, int], list[Point]] = {}

    def add(self, p: Point) -> None:
        self.pts.setdefault((int(p[0] // self.cell), int(p[1] // self.cell)), []).append(p)

    def count(self, box: tuple[float, float, float, float]) -> int:
        x0, y0, x1, y1 = box
        n = 0
        for gx in range(int(x0 // self.cell), int(x1 // self.cell) + 1):
            for gy in range(int(y0 // self.cell), int(y1 // self.cell) + 1):
                for x, y in self.pts.get((gx, gy), ()):
                    if x0 <= x <= x1 and y0 <= y <= y1:
                        n += 1
        return n


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label_box(x: float, y: float, dx: float, dy: float, anchor: str, w: float, size: float):
    """Anchor point and box of a label whose dot is at (x, y), placed in direction (dx, dy)."""
    gap = DOT_R + 3
    ax = x + dx * gap
    ay = y + dy * gap
    asc, desc = size * 0.76, size * 0.24
    if dy < 0:
        base = ay - desc
    elif dy > 0:
        base = ay + asc
    else:
        base = y + asc / 2 - 1
    if anchor == "start":
        bx0 = ax
    elif anchor == "end":
        bx0 = ax - w
    else:
        bx0 = ax - w / 2
    return (ax, base), (bx0 - 2, base - asc - 2, bx0 + w + 2, base + desc + 2)


def place_labels(board, cities, geoms, flags, boxes, pref):
    grid = Grid()
    for g in geoms:
        for s in g.spaces:
            r = math.radians(s.angle)
            cx, cy = math.cos(r), math.sin(r)
            for t in (-0.5, -0.25, 0, 0.25, 0.5):
                for o in (-0.4, 0.4):
                    grid.add(
                        (
                            s.x + cx * s.length * t - cy * SPACE_H * o,
                            s.y + cy * s.length * t + cx * SPACE_H * o,
                        )
                    )
    taken: list[tuple[float, float, float, float]] = []
    for (_c, _f), (x, y) in cities.items():
        taken.append((x - DOT_R - 1, y - DOT_R - 1, x + DOT_R + 1, y + DOT_R + 1))
    for fl in flags:
        taken.append((fl.x - FLAG_W / 2, fl.y - FLAG_H / 2, fl.x + FLAG_W / 2, fl.y + FLAG_H / 2))

    # Most crowded cities first: they have the fewest good spots.
    def crowd(item):
        (c, f), p = item
        return -sum(1 for (c2, f2), q in cities.items() if f2 == f and c2 != c and distance(p, q) < 90)

    order = sorted(((k, v) for k, v in cities.items() if not board.cities[k[0]].dead_end), key=crowd)
    labels: list[Label] = []
    for (c, f), (x, y) in order:
        name = board.cities[c].name
        size = FONT_SIZE if f == "main" else FONT_SIZE - 1
        w = text_width(name, size)
        bx0, by0, bx1, by1 = boxes[f]
        best = None
        dirs = list(_DIRS.items())
        if c in pref:
            dirs.sort(key=lambda kv: kv[0] != pref[c])
        for rank, (dname, (dx, dy, anchor)) in enumerate(dirs):
            for far in (0.0, 6.0, 12.0, 20.0):
                (ax, ay), box = _label_box(x + dx * far, y + dy * far, dx, dy, anchor, w, size)
                if box[0] < bx0 + 2 or box[2] > bx1 - 2 or box[1] < by0 + 2 or box[3] > by1 - 2:
                    continue
                hits = sum(1 for t in taken if overlap(t, box))
                cost = hits * 1000 + grid.count(box) * 40 + rank * 1.5 + far * 2.5
                if c in pref and dname == pref[c]:
                    cost -= 500
                if best is None or cost < best[0]:
                    best = (cost, ax, ay, anchor, box)
        if best is None:
            (ax, ay), box = _label_box(x, y, 1, 0, "start", w, size)
            best = (0, ax, ay, "start", box)
        _, ax, ay, anchor, box = best
        taken.append(box)
        labels.append(Label(c, f, round(ax, 1), round(ay, 1), anchor, tuple(round(v, 1) for v in box)))

    # Country / area names: beside the centroid of their flags, away from the map centre
    country_labels: list[Label] = []
    by_country: dict[int, list[Flag]] = {}
    for fl in flags:
        by_country.setdefault(fl.city, []).append(fl)
    clusters: list[tuple[int, list[Flag]]] = []
    for c, fls in by_country.items():
        groups: list[list[Flag]] = []
        for fl in fls:
            for grp in groups:
                if any(distance((fl.x, fl.y), (o.x, o.y)) < 110 for o in grp):
                    grp.append(fl)
                    break
            else:
                groups.append([fl])
        clusters += [(c, grp) for grp in groups]
    for c, fls in clusters:
        name = board.cities[c].name
        size = FONT_SIZE - 2
        w = text_width(name, size)
        fx = sum(f.x for f in fls) / len(fls)
        fy = max(f.y for f in fls)
        best = None
        for dname, (dx, dy, anchor) in _DIRS.items():
            for far in (4.0, 12.0, 22.0):
                (ax, ay), box = _label_box(
                    fx + dx * far,
                    fy + dy * far + (FLAG_H / 2 - DOT_R if dy > 0 else 0),
                    dx,
                    dy,
                    anchor,
                    w,
                    size,
                )
                bx0, by0, bx1, by1 = boxes["main"]
                if box[0] < bx0 + 2 or box[2] > bx1 - 2 or box[1] < by0 + 2 or box[3] > by1 - 2:
                    continue
                cost = (
                    sum(1 for t in taken if overlap(t, box)) * 1000
                    + grid.count(box) * 40
                    + (dname != "s") * 2
                    + far
                )
                if best is None or cost < best[0]:
                    best = (cost, ax, ay, anchor, box)
        if best is None:
            continue
        _, ax, ay, anchor, box = best
        taken.append(box)
        country_labels.append(
            Label(c, "main", round(ax, 1), round(ay, 1), anchor, tuple(round(v, 1) for v in box))
        )
    return labels, country_labels

"""Step 4 of a layout: the routes' tracks, a centreline from end to end (curved when a straight line would cross a
city dot or a flag) cut into train spaces; the tracks of a double or triple route run side by side."""

from __future__ import annotations

import math

from maps.board import Board

from .geometry import DOT_R, SPACE_GAP, SPACE_H, TRACK_SEP, Flag, Point, RouteGeom, Space, distance
from .projection import route_frame


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy or 1e-9
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return math.hypot(ax + t * dx - p[0], ay + t * dy - p[1])


def _bezier(a: Point, c: Point, b: Point, n: int = 24) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])
        )
    return out


def _offset(path: list[Point], off: float) -> list[Point]:
    if not off:
        return list(path)
    out = []
    n = len(path)
    for i, p in enumerate(path):
        q0 = path[max(0, i - 1)]
        q1 = path[min(n - 1, i + 1)]
        dx, dy = q1[0] - q0[0], q1[1] - q0[1]
        L = math.hypot(dx, dy) or 1e-9
        out.append((p[0] - dy / L * off, p[1] + dx / L * off))
    return out


def _along(path: list[Point], s: float) -> tuple[Point, float]:
    """Point and tangent angle (degrees) at arc length s."""
    for i in range(len(path) - 1):
        a, b = path[i], path[i + 1]
        L = distance(a, b)
        if s <= L or i == len(path) - 2:
            t = 0 if L == 0 else max(0.0, min(1.0, s / L))
            ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), ang
        s -= L
    return path[-1], 0.0


def _length(path: list[Point]) -> float:
    return sum(distance(path[i], path[i + 1]) for i in range(len(path) - 1))


def _spaces(path: list[Point], n: int, end_a: float, end_b: float) -> tuple[Space, ...]:
    total = _length(path)
    usable = max(total - end_a - end_b, n * 6.0)
    s = max(4.0, (usable - (n - 1) * SPACE_GAP) / n)
    start = end_a + (usable - (n * s + (n - 1) * SPACE_GAP)) / 2
    out = []
    for i in range(n):
        (x, y), ang = _along(path, start + i * (s + SPACE_GAP) + s / 2)
        if ang > 90:
            ang -= 180
        elif ang <= -90:
            ang += 180
        out.append(Space(round(x, 1), round(y, 1), round(ang, 1), round(s, 1)))
    return tuple(out)


def lay_tracks(
    board: Board,
    cities: dict[tuple[int, str], Point],
    flags: list[Flag],
    route_ends: dict[int, tuple[Point, Point, float, float]],
) -> list[RouteGeom]:
    """Every route's track and spaces, in route order."""
    geoms: list[RouteGeom] = []
    done_groups: set[int] = set()
    for gid_members in board.groups:
        members = [m for m in gid_members if m in route_ends]
        if not members or members[0] in done_groups:
            continue
        first = board.routes[members[0]]
        pa, pb, ea, eb = route_ends[members[0]]
        fname = route_frame(board, first.id)
        half = (len(members) - 1) * TRACK_SEP / 2 + SPACE_H / 2
        obstacles = [p for (c, f), p in cities.items() if f == fname and c not in (first.a, first.b)]
        obstacles += [
            (fl.x, fl.y) for fl in flags if distance((fl.x, fl.y), pa) > 1 and distance((fl.x, fl.y), pb) > 1
        ]
        clear = DOT_R + half + 3
        path = [pa, pb]
        if any(_seg_dist(o, pa, pb) < clear for o in obstacles):
            d = distance(pa, pb)
            nx, ny = -(pb[1] - pa[1]) / d, (pb[0] - pa[0]) / d
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            best = None
            for bend in (0.08, 0.13, 0.18, 0.25, 0.33):
                for sign in (1, -1):
                    ctrl = (mid[0] + nx * d * bend * 2 * sign, mid[1] + ny * d * bend * 2 * sign)
                    cand = _bezier(pa, ctrl, pb)
                    worst = min(
                        (
                            min(_seg_dist(o, cand[i], cand[i + 1]) for i in range(len(cand) - 1))
                            for o in obstacles
                        ),
                        default=1e9,
                    )
                    if best is None or worst > best[0] + 0.5:
                        best = (worst, cand)
                    if worst >= clear:
                        break
                if best and best[0] >= clear:
                    break
            path = best[1] if best else path
        if len(path) == 2:
            path = [pa, ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2), pb]
        n = len(members)
        for k, rid in enumerate(sorted(members)):
            off = (k - (n - 1) / 2) * TRACK_SEP
            tp = _offset(path, off)
            # keep the offset tracks' ends near the city: shorten a bit more when offset
            extra_end = abs(off) * 0.35
            sp = _spaces(tp, board.routes[rid].length, ea + extra_end, eb + extra_end)
            geoms.append(RouteGeom(rid, fname, sp, tuple((round(x, 1), round(y, 1)) for x, y in tp), pa, pb))
            done_groups.add(rid)
    geoms.sort(key=lambda g: g.route)
    return geoms

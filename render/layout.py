"""Board geometry in picture units: projection, city positions, train spaces, label places, coastlines.

Everything here depends only on the board (never on a game), so a :class:`Layout` is computed once per board and
cached. The picture is laid out in a fixed coordinate system :data:`CANVAS_W` units wide; the SVG's ``width``
attribute scales it, so every size below is in those units.

Steps:
1. Project lat/lon with a Lambert conformal conic fitted to the board's places, into the map area.
2. Relax positions a little: every route must have room for its spaces, cities keep a minimum distance, and
   each city is pulled back to its true place.
3. Dead ends (``kind`` country/area) get one endpoint per route (a flag at the border), placed beyond the city the
   route starts from, toward the country (or away from the board's centre when the country has no lat/lon).
4. Routes become rows of rectangles along a centreline (curved when a straight line would cross a city dot);
   double/triple routes are offset side by side.
5. City labels are placed greedily around their dots, never over another label or dot, avoiding train spaces.

A board may override positions in ``board.extra["layout"]``: ``{"nudge": {"City": [dx, dy]}, "label": {"City":
"e"|"ne"|"n"|...}}`` (units of the 1600-wide canvas).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache

from maps.board import MAPS_DIR, Board, load_board

CANVAS_W = 1600
PANEL_W = 370
MAP_W = CANVAS_W - PANEL_W
MAP_PAD = 46
DOT_R = 8.0
END_GAP = DOT_R + 4.0  # centreline distance kept free at each city
SPACE_H = 12.0  # train space thickness
SPACE_GAP = 3.0  # gap between spaces along a route
TRACK_SEP = SPACE_H + 3.0  # distance between the tracks of a double route
MIN_SPACE = 26.0  # shortest acceptable train space
MIN_CITY_DIST = 44.0
FONT_SIZE = 16.5
FLAG_W, FLAG_H = 26.0, 18.0

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Space:
    """One train space: centre, angle (degrees) and length along the route."""

    x: float
    y: float
    angle: float
    length: float


@dataclass(frozen=True, slots=True)
class RouteGeom:
    route: int
    frame: str
    spaces: tuple[Space, ...]
    path: tuple[Point, ...]  # centreline of this track, from a to b
    a: Point  # where the track starts and ends (city centres or flags)
    b: Point


@dataclass(frozen=True, slots=True)
class Label:
    city: int
    frame: str
    x: float  # text anchor point (start of the text, baseline)
    y: float
    anchor: str  # "start" | "middle" | "end"
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Flag:
    """A dead-end endpoint: one per route into a country/area."""

    city: int
    route: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Frame:
    """A drawing area: the main map or a zoom inset (Japan)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    land: str  # SVG path data
    borders: str


@dataclass(frozen=True)
class Layout:
    board_id: str
    width: float
    height: float
    map_w: float
    map_h: float
    frames: tuple[Frame, ...]
    cities: dict[tuple[int, str], Point]  # (city, frame) -> position
    routes: tuple[RouteGeom, ...]
    flags: tuple[Flag, ...]
    labels: tuple[Label, ...]
    country_labels: tuple[Label, ...]
    # Where each zoom inset's places lie on the main map: (zoom name, (x0, y0, x1, y1)), for the frame and the
    # leader line that join an inset to its place
    zoom_areas: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()

    def city_positions(self, city: int) -> list[tuple[str, Point]]:
        return [(f, p) for (c, f), p in self.cities.items() if c == city]


# ---------------------------------------------------------------------------------------------------- projection


class _Conic:
    """Lambert conformal conic with standard parallels at 1/6 and 5/6 of the latitude range."""

    def __init__(self, lats: list[float], lons: list[float]) -> None:
        lo, hi = min(lats), max(lats)
        p1 = math.radians(lo + (hi - lo) / 6)
        p2 = math.radians(hi - (hi - lo) / 6)
        self.lon0 = (min(lons) + max(lons)) / 2
        if abs(p1 - p2) < 1e-6:
            n = math.sin(p1)
        else:
            n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
                math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
            )
        self.n = n
        self.f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n

    def __call__(self, lon: float, lat: float) -> Point:
        rho = self.f / math.tan(math.pi / 4 + math.radians(max(-85.0, min(85.0, lat))) / 2) ** self.n
        t = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(t), rho * math.cos(t)  # y grows southward (picture convention)


class _Fit:
    """Projection followed by the scale/offset that puts a set of points into a box."""

    def __init__(
        self, proj: _Conic, pts: list[Point], box: tuple[float, float, float, float], stretch: float = 1.0
    ) -> None:
        self.proj = proj
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        bw, bh = max(xs) - min(xs) or 1e-9, max(ys) - min(ys) or 1e-9
        x0, y0, w, h = box
        k = min(w / bw, h / bh)
        # A board that leaves room on one axis is stretched a little along it (cities and coasts alike).
        self.kx = min(w / bw, k * stretch)
        self.ky = min(h / bh, k * stretch)
        self.dx = x0 + (w - bw * self.kx) / 2 - min(xs) * self.kx
        self.dy = y0 + (h - bh * self.ky) / 2 - min(ys) * self.ky

    def __call__(self, lon: float, lat: float) -> Point:
        x, y = self.proj(lon, lat)
        return x * self.kx + self.dx, y * self.ky + self.dy


# ---------------------------------------------------------------------------------------------------- helpers


def _geo(board_id: str) -> dict:
    path = MAPS_DIR / "geo" / f"{board_id}.json"
    if not path.exists():
        return {"land": [], "borders": [], "zooms": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def _path_data(lines: list[list[float]], fit: _Fit, close: bool, min_step: float = 1.6) -> str:
    out: list[str] = []
    for flat in lines:
        pts: list[Point] = []
        for i in range(0, len(flat) - 1, 2):
            p = fit(flat[i], flat[i + 1])
            if pts and abs(p[0] - pts[-1][0]) + abs(p[1] - pts[-1][1]) < min_step:
                continue
            pts.append(p)
        if len(pts) < (3 if close else 2):
            continue
        s = "M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(s + ("Z" if close else ""))
    return "".join(out)


@cache
def _font(size: float):
    try:
        from PIL import ImageFont

        for name in ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
            try:
                return ImageFont.truetype(name, int(round(size * 4)))
            except OSError:
                continue
    except ImportError:  # pragma: no cover
        pass
    return None


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """Width of `text` in the bold label font (DejaVu Sans Bold metrics, else an estimate)."""
    font = _font(size)
    if font is None:
        return len(text) * size * 0.62
    return font.getlength(text) / 4


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


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
        L = _dist(a, b)
        if s <= L or i == len(path) - 2:
            t = 0 if L == 0 else max(0.0, min(1.0, s / L))
            ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), ang
        s -= L
    return path[-1], 0.0


def _length(path: list[Point]) -> float:
    return sum(_dist(path[i], path[i + 1]) for i in range(len(path) - 1))


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


# ---------------------------------------------------------------------------------------------------- layout


def _lonlat(board: Board, cid: int) -> Point:
    """(lon, lat) of a place that has them (callers only pass such places)."""
    c = board.cities[cid]
    assert c.lat is not None and c.lon is not None, c.name
    return c.lon, c.lat


def _zoom_of(board: Board, cid: int) -> tuple[str | None, bool]:
    extra = board.cities[cid].extra
    return extra.get("zoom"), bool(extra.get("also_on_main_map"))


def _route_frame(board: Board, rid: int) -> str:
    r = board.routes[rid]
    z = r.extra.get("drawn_in_zoom")
    if z:
        return str(z)
    for c in (r.a, r.b):
        zc, twin = _zoom_of(board, c)
        if zc and not twin:
            return zc
    return "main"


def _schematic(pts: dict[int, Point], mix: float = 0.55) -> dict[int, Point]:
    """Spread a dense cluster like a subway map: blend each coordinate with its evenly spaced rank."""
    out = {i: list(p) for i, p in pts.items()}
    for axis in (0, 1):
        order = sorted(pts, key=lambda i: pts[i][axis])
        lo, hi = pts[order[0]][axis], pts[order[-1]][axis]
        for rank, i in enumerate(order):
            even = lo + (hi - lo) * rank / (len(order) - 1)
            out[i][axis] = pts[i][axis] * (1 - mix) + even * mix
    return {i: (p[0], p[1]) for i, p in out.items()}


def _relax(
    pos: dict[int, Point],
    anchors: dict[int, Point],
    needs: list[tuple[int, int, float]],
    box: tuple[float, float, float, float],
    iters: int = 600,
    pull: float = 0.02,
) -> None:
    ids = list(pos)
    x0, y0, x1, y1 = box
    for _ in range(iters):
        moved = 0.0
        disp = {i: [0.0, 0.0] for i in ids}
        for a, b, need in needs:
            pa, pb = pos[a], pos[b]
            d = _dist(pa, pb) or 1e-6
            if d < need:
                push = (need - d) / 2 * 0.5
                ux, uy = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
                disp[a][0] -= ux * push
                disp[a][1] -= uy * push
                disp[b][0] += ux * push
                disp[b][1] += uy * push
        for i in ids:
            ax, ay = anchors[i]
            px, py = pos[i]
            dx = disp[i][0] + (ax - px) * pull
            dy = disp[i][1] + (ay - py) * pull
            moved += abs(dx) + abs(dy)
            pos[i] = (min(x1, max(x0, px + dx)), min(y1, max(y0, py + dy)))
        if moved < 0.05:
            break


def _pick_spot(
    pts: list[Point],
    samples: list[Point],
    w: float,
    h: float,
    map_w: float,
    map_h: float,
    used: list[tuple[float, float, float, float]],
) -> tuple[float, float]:
    """Top-left corner for a w*h inset that covers the fewest cities and route samples (edges preferred)."""
    best, where = None, (10.0, 10.0)
    m = 10.0
    xs = [m + k * 20.0 for k in range(int((map_w - w - 2 * m) // 20) + 1)]
    ys = [m + k * 20.0 for k in range(int((map_h - h - 2 * m) // 20) + 1)]
    for cx in xs:
        for cy in ys:
            if any(cx < u[2] + 8 and u[0] - 8 < cx + w and cy < u[3] + 8 and u[1] - 8 < cy + h for u in used):
                continue
            inside = sum(1 for x, y in pts if cx - 40 <= x <= cx + w + 40 and cy - 40 <= y <= cy + h + 40)
            cover = sum(1 for x, y in samples if cx - 10 <= x <= cx + w + 10 and cy - 10 <= y <= cy + h + 10)
            edge = min(cx, map_w - w - cx) + min(cy, map_h - h - cy)
            cost = inside * 100 + cover * 5 + edge * 0.05
            if best is None or cost < best:
                best, where = cost, (cx, cy)
    return where


def compute_layout(board: Board) -> Layout:
    """Lay out `board` on the canvas (see the module docstring). Pure; use :func:`layout_for` for the cache."""
    geo = _geo(board.id)
    overrides = (board.extra or {}).get("layout") or {}
    nudges = {board.city(k).id: v for k, v in (overrides.get("nudge") or {}).items()}
    label_pref = {board.city(k).id: v for k, v in (overrides.get("label") or {}).items()}

    # Which frame each city is drawn in
    in_frame: dict[str, list[int]] = {"main": []}
    for c in board.cities:
        if c.lat is None or c.lon is None:
            continue
        z, twin = _zoom_of(board, c.id)
        if z:
            in_frame.setdefault(z, []).append(c.id)
            if twin:
                in_frame["main"].append(c.id)
        else:
            in_frame["main"].append(c.id)

    main_ids = [i for i in in_frame["main"] if not board.cities[i].dead_end] or in_frame["main"]
    lats = [_lonlat(board, i)[1] for i in main_ids]
    lons = [_lonlat(board, i)[0] for i in main_ids]
    proj = _Conic(lats, lons)
    raw = [proj(*_lonlat(board, i)) for i in main_ids]
    xs = [p[0] for p in raw]
    ys = [p[1] for p in raw]
    aspect = (max(ys) - min(ys)) / ((max(xs) - min(xs)) or 1e-9)
    inner_w = MAP_W - 2 * MAP_PAD - 40
    map_h = max(860.0, min(1150.0, inner_w * aspect + 2 * MAP_PAD + 40))
    # Room at the edges for dead-end flags that have no place of their own (Italy's neighbours)
    pad = 110.0 if any(c.dead_end and (c.lat is None or c.lon is None) for c in board.cities) else 0.0
    fit = _Fit(
        proj,
        raw and [proj(*_lonlat(board, i)) for i in main_ids],
        (
            MAP_PAD + 20 + pad,
            MAP_PAD + 20 + pad,
            MAP_W - 2 * MAP_PAD - 40 - 2 * pad,
            map_h - 2 * MAP_PAD - 40 - 2 * pad,
        ),
        stretch=1.5,
    )

    frames: list[Frame] = []
    fits: dict[str, _Fit] = {"main": fit}
    boxes: dict[str, tuple[float, float, float, float]] = {"main": (0.0, 0.0, float(MAP_W), map_h)}
    frames.append(
        Frame(
            "main",
            0.0,
            0.0,
            float(MAP_W),
            map_h,
            "".join(_path_data(poly, fit, True) for poly in geo.get("land", [])),
            _path_data(geo.get("borders", []), fit, False),
        )
    )
    main_pts = [fit(*_lonlat(board, i)) for i in in_frame["main"]]
    # Route samples on the main map, so zoom insets go where they hide the least
    main_xy = dict(zip(in_frame["main"], main_pts, strict=True))
    samples: list[Point] = []
    for r in board.routes:
        if r.a in main_xy and r.b in main_xy and _route_frame(board, r.id) == "main":
            (ax, ay), (bx, by) = main_xy[r.a], main_xy[r.b]
            samples += [(ax + (bx - ax) * t / 8, ay + (by - ay) * t / 8) for t in range(9)]
    for z in sorted(k for k in in_frame if k != "main"):
        ids = in_frame[z]
        zproj = _Conic([_lonlat(board, i)[1] for i in ids], [_lonlat(board, i)[0] for i in ids])
        zr = [zproj(*_lonlat(board, i)) for i in ids]
        zw = MAP_W * 0.34
        zxs = [p[0] for p in zr]
        zys = [p[1] for p in zr]
        za = (max(zys) - min(zys)) / ((max(zxs) - min(zxs)) or 1e-9)
        zh = max(220.0, min(map_h * 0.45, zw * za + 80))
        cx, cy = _pick_spot(
            main_pts, samples, zw, zh, MAP_W, map_h, [b for k, b in boxes.items() if k != "main"]
        )
        zfit = _Fit(zproj, zr, (cx + 40, cy + 40, zw - 80, zh - 80))
        zgeo = (geo.get("zooms") or {}).get(z, {})
        fits[z] = zfit
        boxes[z] = (cx, cy, cx + zw, cy + zh)
        frames.append(
            Frame(
                z,
                cx,
                cy,
                zw,
                zh,
                "".join(_path_data(poly, zfit, True, 1.0) for poly in zgeo.get("land", [])),
                _path_data(zgeo.get("borders", []), zfit, False, 1.0),
            )
        )

    # Positions per frame, relaxed
    cities: dict[tuple[int, str], Point] = {}
    for fname, ids in in_frame.items():
        f = fits[fname]
        anchors = {}
        for i in ids:
            p = f(*_lonlat(board, i))
            nd = nudges.get(i)
            if nd:
                p = (p[0] + nd[0], p[1] + nd[1])
            anchors[i] = p
        if fname != "main" and len(ids) > 2:
            anchors = _schematic(anchors)
        pos = dict(anchors)
        needs: list[tuple[int, int, float]] = []
        idset = set(ids)
        seen = set()
        for r in board.routes:
            if r.a in idset and r.b in idset and _route_frame(board, r.id) == fname and r.group not in seen:
                seen.add(r.group)
                needs.append((r.a, r.b, r.length * (MIN_SPACE + SPACE_GAP) + 2 * END_GAP))
        for k, a in enumerate(ids):
            for b in ids[k + 1 :]:
                needs.append((a, b, MIN_CITY_DIST))
        x0, y0, x1, y1 = boxes[fname]
        _relax(
            pos, anchors, needs, (x0 + 24, y0 + 30, x1 - 24, y1 - 24), pull=0.02 if fname == "main" else 0.004
        )
        for i, p in pos.items():
            cities[(i, fname)] = p

    # Dead-end flags: one per route, beyond the city the route comes from
    mx = sum(p[0] for p in main_pts) / max(1, len(main_pts))
    my = sum(p[1] for p in main_pts) / max(1, len(main_pts))
    flags: list[Flag] = []
    route_ends: dict[int, tuple[Point, Point, float, float]] = {}
    group_dir: dict[tuple[int, int], Point] = {}
    for r in board.routes:
        fname = _route_frame(board, r.id)
        ends: list[Point | None] = []
        for this, other in ((r.a, r.b), (r.b, r.a)):
            if board.cities[this].dead_end:
                origin = cities.get((other, fname))
                if origin is None:
                    ends.append(None)
                    continue
                key = (this, other)
                if key not in group_dir:
                    place = board.cities[this]
                    if place.lat is not None and place.lon is not None:
                        tx, ty = fits[fname](place.lon, place.lat)
                        if _dist((tx, ty), origin) < 5:
                            tx, ty = origin[0] + (origin[0] - mx), origin[1] + (origin[1] - my)
                    else:
                        tx, ty = origin[0] + (origin[0] - mx), origin[1] + (origin[1] - my)
                    d = _dist((tx, ty), origin) or 1.0
                    group_dir[key] = ((tx - origin[0]) / d, (ty - origin[1]) / d)
                ux, uy = group_dir[key]
                reach = r.length * (MIN_SPACE + 6 + SPACE_GAP) + END_GAP + FLAG_W / 2 + 6
                x0, y0, x1, y1 = boxes[fname]
                fx = min(x1 - 16, max(x0 + 16, origin[0] + ux * reach))
                fy = min(y1 - 14, max(y0 + 14, origin[1] + uy * reach))
                ends.append((fx, fy))
            else:
                ends.append(cities.get((this, fname)))
        end_a, end_b = ends
        if end_a is None or end_b is None:
            continue
        ea = FLAG_W / 2 + 3 if board.cities[r.a].dead_end else END_GAP
        eb = FLAG_W / 2 + 3 if board.cities[r.b].dead_end else END_GAP
        route_ends[r.id] = (end_a, end_b, ea, eb)
    seen_flags: dict[tuple[int, int], Flag] = {}
    for rid, (pa, pb, _, _) in route_ends.items():
        r = board.routes[rid]
        for cid, p in ((r.a, pa), (r.b, pb)):
            if board.cities[cid].dead_end and (cid, r.group) not in seen_flags:
                seen_flags[(cid, r.group)] = Flag(cid, rid, round(p[0], 1), round(p[1], 1))
    flags = list(seen_flags.values())

    # Route centrelines (curved around city dots in the way) and spaces
    geoms: list[RouteGeom] = []
    done_groups: set[int] = set()
    for gid_members in board.groups:
        members = [m for m in gid_members if m in route_ends]
        if not members or members[0] in done_groups:
            continue
        first = board.routes[members[0]]
        pa, pb, ea, eb = route_ends[members[0]]
        fname = _route_frame(board, first.id)
        half = (len(members) - 1) * TRACK_SEP / 2 + SPACE_H / 2
        obstacles = [p for (c, f), p in cities.items() if f == fname and c not in (first.a, first.b)]
        obstacles += [
            (fl.x, fl.y) for fl in flags if _dist((fl.x, fl.y), pa) > 1 and _dist((fl.x, fl.y), pb) > 1
        ]
        clear = DOT_R + half + 3
        path = [pa, pb]
        if any(_seg_dist(o, pa, pb) < clear for o in obstacles):
            d = _dist(pa, pb)
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

    labels, country_labels = _place_labels(board, cities, geoms, flags, boxes, label_pref)
    zoom_areas = tuple(
        (z, _zoom_area(board, in_frame[z], fit, cities, (0.0, 0.0, float(MAP_W), map_h)))
        for z in sorted(k for k in in_frame if k != "main")
    )
    return Layout(
        board.id,
        float(CANVAS_W),
        map_h,
        float(MAP_W),
        map_h,
        tuple(frames),
        cities,
        tuple(geoms),
        tuple(flags),
        tuple(labels),
        tuple(country_labels),
        zoom_areas,
    )


def _zoom_area(
    board: Board,
    ids: list[int],
    fit: _Fit,
    cities: dict[tuple[int, str], Point],
    box: tuple[float, float, float, float],
) -> tuple[float, float, float, float]:
    """The main-map box of a zoom's places: their projected extent, moved with a place shown on both (the main
    map's relaxed position wins), at least a small box around it, kept inside the map."""
    pts = [fit(*_lonlat(board, i)) for i in ids]
    dx = dy = 0.0
    twins = [i for i in ids if (i, "main") in cities]
    if twins:
        tx, ty = fit(*_lonlat(board, twins[0]))
        mx, my = cities[(twins[0], "main")]
        dx, dy = mx - tx, my - ty
    xs = [p[0] + dx for p in pts]
    ys = [p[1] + dy for p in pts]
    pad = 14.0
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = max(x1 - x0, 84.0), max(y1 - y0, 64.0)
    bx0, by0, bx1, by1 = box[0] + 4, box[1] + 4, box[2] - 4, box[3] - 4
    x0, x1 = max(bx0, cx - w / 2), min(bx1, cx + w / 2)
    y0, y1 = max(by0, cy - h / 2), min(by1, cy + h / 2)
    return (round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1))


# ---------------------------------------------------------------------------------------------------- labels

_DIRS = {  # name: (unit dx, unit dy, text-anchor)
    "e": (1, 0, "start"), "w": (-1, 0, "end"), "n": (0, -1, "middle"), "s": (0, 1, "middle"),
    "ne": (0.75, -0.75, "start"), "nw": (-0.75, -0.75, "end"), "se": (0.75, 0.75, "start"),
    "sw": (-0.75, 0.75, "end"),
}  # fmt: skip


class _Grid:
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


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
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


def _place_labels(board, cities, geoms, flags, boxes, pref):
    grid = _Grid()
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
        return -sum(1 for (c2, f2), q in cities.items() if f2 == f and c2 != c and _dist(p, q) < 90)

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
                hits = sum(1 for t in taken if _overlap(t, box))
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
                if any(_dist((fl.x, fl.y), (o.x, o.y)) < 110 for o in grp):
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
                    sum(1 for t in taken if _overlap(t, box)) * 1000
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
    "Layout",
    "RouteGeom",
    "Space",
    "Label",
    "Flag",
    "Frame",
    "compute_layout",
    "layout_for",
    "layout_of",
    "text_width",
]

"""Step 1 of a layout: which frame each place is drawn in (the main map or a zoom inset), each frame's projection
(a Lambert conformal conic fitted to its places) and box, where the insets go on the map, and the coastlines and
borders of ``maps/geo/`` drawn through those projections."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from maps.board import MAPS_DIR, Board

from .geometry import MAP_PAD, MAP_W, Frame, Point


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


def lonlat(board: Board, cid: int) -> Point:
    """(lon, lat) of a place that has them (callers only pass such places)."""
    c = board.cities[cid]
    assert c.lat is not None and c.lon is not None, c.name
    return c.lon, c.lat


def _zoom_of(board: Board, cid: int) -> tuple[str | None, bool]:
    extra = board.cities[cid].extra
    return extra.get("zoom"), bool(extra.get("also_on_main_map"))


def route_frame(board: Board, rid: int) -> str:
    r = board.routes[rid]
    z = r.extra.get("drawn_in_zoom")
    if z:
        return str(z)
    for c in (r.a, r.b):
        zc, twin = _zoom_of(board, c)
        if zc and not twin:
            return zc
    return "main"


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


def _zoom_area(
    board: Board,
    ids: list[int],
    fit: _Fit,
    cities: dict[tuple[int, str], Point],
    box: tuple[float, float, float, float],
) -> tuple[float, float, float, float]:
    """The main-map box of a zoom's places: their projected extent, moved with a place shown on both (the main
    map's relaxed position wins), at least a small box around it, kept inside the map."""
    pts = [fit(*lonlat(board, i)) for i in ids]
    dx = dy = 0.0
    twins = [i for i in ids if (i, "main") in cities]
    if twins:
        tx, ty = fit(*lonlat(board, twins[0]))
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


@dataclass(frozen=True)
class Projection:
    """Where a board's places go before spacing: the places of each frame (``"main"`` and each zoom's name), each
    frame's fit (projection to canvas) and box, the frames to draw, the map's height, the main map's places."""

    in_frame: dict[str, list[int]]
    fits: dict[str, _Fit]
    boxes: dict[str, tuple[float, float, float, float]]
    frames: list[Frame]
    map_h: float
    main_pts: list[Point]


def project(board: Board) -> Projection:
    """The frames of `board`: the main map sized to the board's shape, each zoom inset where it hides the least."""
    geo = _geo(board.id)

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
    lats = [lonlat(board, i)[1] for i in main_ids]
    lons = [lonlat(board, i)[0] for i in main_ids]
    proj = _Conic(lats, lons)
    raw = [proj(*lonlat(board, i)) for i in main_ids]
    xs = [p[0] for p in raw]
    ys = [p[1] for p in raw]
    aspect = (max(ys) - min(ys)) / ((max(xs) - min(xs)) or 1e-9)
    inner_w = MAP_W - 2 * MAP_PAD - 40
    map_h = max(860.0, min(1150.0, inner_w * aspect + 2 * MAP_PAD + 40))
    # Room at the edges for dead-end flags that have no place of their own (Italy's neighbours)
    pad = 110.0 if any(c.dead_end and (c.lat is None or c.lon is None) for c in board.cities) else 0.0
    fit = _Fit(
        proj,
        raw and [proj(*lonlat(board, i)) for i in main_ids],
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
    main_pts = [fit(*lonlat(board, i)) for i in in_frame["main"]]
    # Route samples on the main map, so zoom insets go where they hide the least
    main_xy = dict(zip(in_frame["main"], main_pts, strict=True))
    samples: list[Point] = []
    for r in board.routes:
        if r.a in main_xy and r.b in main_xy and route_frame(board, r.id) == "main":
            (ax, ay), (bx, by) = main_xy[r.a], main_xy[r.b]
            samples += [(ax + (bx - ax) * t / 8, ay + (by - ay) * t / 8) for t in range(9)]
    for z in sorted(k for k in in_frame if k != "main"):
        ids = in_frame[z]
        zproj = _Conic([lonlat(board, i)[1] for i in ids], [lonlat(board, i)[0] for i in ids])
        zr = [zproj(*lonlat(board, i)) for i in ids]
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
    return Projection(in_frame, fits, boxes, frames, map_h, main_pts)


def zoom_areas(
    board: Board, proj: Projection, cities: dict[tuple[int, str], Point]
) -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    """Where each zoom inset's places lie on the main map (see :attr:`Layout.zoom_areas`)."""
    return tuple(
        (
            z,
            _zoom_area(
                board, proj.in_frame[z], proj.fits["main"], cities, (0.0, 0.0, float(MAP_W), proj.map_h)
            ),
        )
        for z in sorted(k for k in proj.in_frame if k != "main")
    )

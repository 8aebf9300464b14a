"""Steps 2 and 3 of a layout: the places' positions, relaxed so that every route has room for its spaces and cities
keep apart while each is pulled back to its true place (a zoom inset's places spread like a subway map first), and
the dead-end flags: one per route into a country or area, beyond the city the route comes from."""

from __future__ import annotations

from maps.board import Board

from .geometry import END_GAP, FLAG_W, MIN_CITY_DIST, MIN_SPACE, SPACE_GAP, Flag, Point, distance
from .projection import Projection, lonlat, route_frame


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
            d = distance(pa, pb) or 1e-6
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


def place_cities(
    board: Board, proj: Projection, nudges: dict[int, list[float]]
) -> dict[tuple[int, str], Point]:
    """Each place's position in each frame it is drawn in, `nudges` (the board's overrides) added before relaxing."""
    in_frame, fits, boxes = proj.in_frame, proj.fits, proj.boxes
    cities: dict[tuple[int, str], Point] = {}
    for fname, ids in in_frame.items():
        f = fits[fname]
        anchors = {}
        for i in ids:
            p = f(*lonlat(board, i))
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
            if r.a in idset and r.b in idset and route_frame(board, r.id) == fname and r.group not in seen:
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
    return cities


def place_flags(
    board: Board, proj: Projection, cities: dict[tuple[int, str], Point]
) -> tuple[list[Flag], dict[int, tuple[Point, Point, float, float]]]:
    """The dead-end flags, and every drawable route's two ends (places or flags) with the room kept free at each."""
    main_pts, fits, boxes = proj.main_pts, proj.fits, proj.boxes
    mx = sum(p[0] for p in main_pts) / max(1, len(main_pts))
    my = sum(p[1] for p in main_pts) / max(1, len(main_pts))
    route_ends: dict[int, tuple[Point, Point, float, float]] = {}
    group_dir: dict[tuple[int, int], Point] = {}
    for r in board.routes:
        fname = route_frame(board, r.id)
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
                        if distance((tx, ty), origin) < 5:
                            tx, ty = origin[0] + (origin[0] - mx), origin[1] + (origin[1] - my)
                    else:
                        tx, ty = origin[0] + (origin[0] - mx), origin[1] + (origin[1] - my)
                    d = distance((tx, ty), origin) or 1.0
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
    return flags, route_ends

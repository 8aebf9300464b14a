"""Build the facts of `maps/marklin.json` (places, routes, tickets, merchandise piles), deterministically.

The reference data has no Märklin network, tickets or city colours yet (only Berlin = black), so until it does
the facts follow the provisional recipe of the reference data's README:

- network: the cities, countries and routes of `maps/germany.json` (the Märklin board is said to be the same);
- tickets: the Märklin decks are 23 short (5-11) and 23 long (12-22). From the Germany tickets worth 5-11 (short)
  and 12-22 (long), leaving out the two country-to-country cards (the Märklin rulebook only speaks of tickets
  joining a city and a country), 23 of each deck are picked evenly spread over the deck sorted by
  (points, city a, city b), so both ends of each value range are kept;
- merchandise: Berlin black; red Hamburg, Köln, Frankfurt, München, Leipzig, Stuttgart; yellow the 12 remaining
  cities with the most routes touching them (a double route counts twice; ties by accent-free name); white the
  16 others; countries hold none.

Whenever the reference data's `marklin.json` gives the real routes, tickets, or a goods colour for every city,
those are used instead, so swapping in the real data is a re-run of this script and no code change. The board
file's own sections (id, name, status, notes, rules, variants, options) are kept; `extra.provisional` is rewritten
to list the parts that still come from the recipe.

    python -m maps.tools.build_marklin --reference DIR
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from maps.board import MAPS_DIR, board_from_dict, normalize_name
from maps.tools.import_reference import OWN_SECTIONS, convert

SHORT_COUNT, LONG_COUNT = 23, 23
SHORT_RANGE, LONG_RANGE = (5, 11), (12, 22)
BLACK = "Berlin"
RED = ("Hamburg", "Köln", "Frankfurt", "München", "Leipzig", "Stuttgart")
PILES = {"black": 1, "red": 6, "yellow": 12, "white": 16}


def spread(items: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """k items evenly spread over `items` (first and last included), in their order."""
    n = len(items)
    if n < k:
        raise ValueError(f"need {k} tickets, only {n} available")
    if k == 1:
        return items[:1]
    return [items[(i * (n - 1) + (k - 1) // 2) // (k - 1)] for i in range(k)]


def recipe_tickets(germany: dict[str, Any]) -> list[dict[str, Any]]:
    kinds = {c["name"]: c.get("kind", "city") for c in germany["cities"]}
    out = []
    for deck, (lo, hi), k in (("short", SHORT_RANGE, SHORT_COUNT), ("long", LONG_RANGE, LONG_COUNT)):
        pool = [
            t
            for t in germany["tickets"]
            if lo <= t["points"] <= hi and (kinds[t["a"]] == "city" or kinds[t["b"]] == "city")
        ]
        pool.sort(key=lambda t: (t["points"], normalize_name(t["a"]), normalize_name(t["b"])))
        out += [
            {"a": t["a"], "b": t["b"], "points": t["points"], "deck": deck, "tags": ["marklin"]}
            for t in spread(pool, k)
        ]
    return out


def recipe_goods(cities: list[dict[str, Any]], routes: list[dict[str, Any]]) -> dict[str, str]:
    towns = [c["name"] for c in cities if c.get("kind", "city") == "city"]
    missing = [n for n in (BLACK, *RED) if n not in towns]
    if missing:
        raise ValueError(f"recipe cities not on the board: {missing}")
    goods = {BLACK: "black"} | dict.fromkeys(RED, "red")
    degree = {n: sum(n in (r["a"], r["b"]) for r in routes) for n in towns}
    rest = sorted((n for n in towns if n not in goods), key=lambda n: (-degree[n], normalize_name(n)))
    goods |= dict.fromkeys(rest[: PILES["yellow"]], "yellow")
    goods |= dict.fromkeys(rest[PILES["yellow"] :], "white")
    return goods


def build(own: dict[str, Any], germany: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    provisional = []
    if reference.get("routes"):
        facts = convert({**reference, "tickets": reference.get("tickets") or []}, own)
        cities, routes = facts["cities"], facts["routes"]
    else:
        provisional.append("network")
        cities = [{k: v for k, v in c.items() if k != "extra"} for c in germany["cities"]]
        routes = [dict(r) for r in germany["routes"]]
    if reference.get("tickets"):
        tickets = [
            {
                "a": t["a"],
                "b": t["b"],
                "points": t["points"],
                "deck": t.get("deck", "regular"),
                "tags": list(dict.fromkeys([*(t.get("tags") or []), "marklin"])),
            }
            for t in reference["tickets"]
        ]
    else:
        provisional.append("tickets")
        tickets = recipe_tickets(germany)

    known: dict[str, str] = {}
    for c in reference.get("cities") or []:
        colour = (c.get("extra") or {}).get("goods")
        if colour:
            known[c["id"]] = colour
    towns = [c["name"] for c in cities if c.get("kind", "city") == "city"]
    goods: dict[str, str]
    if all(n in known for n in towns):
        goods = {n: known[n] for n in towns}
    else:
        provisional.append("merchandise_colours")
        goods = recipe_goods(cities, routes)
        clash = {n: (c, goods.get(n)) for n, c in known.items() if goods.get(n) != c}
        if clash:
            raise ValueError(f"reference goods colours disagree with the recipe (complete them): {clash}")
    piles = own["rules"]["merchandise"]["piles"]
    for c in cities:
        extra = {k: v for k, v in (c.get("extra") or {}).items() if k not in ("goods", "merchandise")}
        if c["name"] in goods:
            colour = goods[c["name"]]
            extra |= {"goods": colour, "merchandise": list(piles[colour]["values"])}
        c.pop("extra", None)
        if extra:
            c["extra"] = extra
    out = {k: own[k] for k in OWN_SECTIONS if k in own}
    out["extra"] = {**own.get("extra", {}), "provisional": provisional}
    out.update(cities=cities, routes=routes, tickets=tickets)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reference", type=Path, required=True, help="the folder of the maps reference data")
    args = parser.parse_args()
    path = MAPS_DIR / "marklin.json"
    own = json.loads(path.read_text(encoding="utf-8"))
    germany = json.loads((MAPS_DIR / "germany.json").read_text(encoding="utf-8"))
    reference = json.loads((args.reference / "marklin.json").read_text(encoding="utf-8"))
    data = build(own, germany, reference)
    board_from_dict(data)  # refuse to write a file that does not validate
    if data["extra"]["provisional"] and data.get("status") != "provisional":
        print(
            f"warning: status is {data.get('status')!r} but these parts are provisional: "
            f"{data['extra']['provisional']}"
        )
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} (provisional: {', '.join(data['extra']['provisional']) or 'nothing'})")


if __name__ == "__main__":
    main()

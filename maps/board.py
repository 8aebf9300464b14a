"""Board data: the typed, validated form of one `maps/<id>.json` file.

A board file holds facts (places, routes, tickets) and the board's rule numbers and variants; the engine reads
everything board-specific from here, so rules code never names a city. Indices (city, route, ticket ids) are
positions in the file's lists, which keeps the engine's hot loops on plain ints.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

MAPS_DIR = Path(__file__).resolve().parent

# Card colours shared by every board. Index = card type in hands and decks.
COLORS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink")
LOCOMOTIVE = 8
LOCOMOTIVE_PLUS4 = 9  # Märklin: wild only on routes of 4+
PASSENGER_CARD = 10  # Märklin: pays for moving a passenger over another player's route
CARD_TYPES = 11
CARD_NAMES: tuple[str, ...] = (*COLORS, "locomotive", "locomotive+4", "passenger")
GRAY = -1

COLOR_ALIASES = {"purple": "pink", "grey": "gray"}


class BoardDataError(ValueError):
    """A board file that does not describe a valid board; the message says where."""


def normalize_name(name: str) -> str:
    """Case- and accent-insensitive key for matching place names typed by people."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True, slots=True)
class City:
    id: int
    name: str
    kind: str  # "city", or "country" / "area" for dead ends that never link two routes
    lat: float | None
    lon: float | None
    aliases: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def dead_end(self) -> bool:
        return self.kind != "city"


@dataclass(frozen=True, slots=True)
class Route:
    id: int
    a: int
    b: int
    length: int
    color: int  # index into COLORS, or GRAY
    tunnel: bool = False
    locomotives: int = 0  # ferry locomotive symbols (Europe)
    bullet: bool = False  # Japan
    waves: int = 0  # Italy wave spaces
    group: int = 0  # routes sharing a group are one double/triple route
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def color_name(self) -> str:
        return "gray" if self.color == GRAY else COLORS[self.color]


@dataclass(frozen=True, slots=True)
class Ticket:
    id: int
    a: int
    b: int
    points: int
    deck: str  # "regular", "long", "short"
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    status: str  # "verified" or "provisional"
    notes: str
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    rules: dict[str, Any]
    variants: dict[str, dict[str, Any]]
    default_variant: str
    options: dict[str, dict[str, Any]]
    extra: dict[str, Any]
    # Derived lookups (built by the loader)
    name_index: dict[str, int] = field(repr=False, compare=False)
    groups: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    groups_by_route: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)  # route -> its group
    # Connectivity nodes: a dead-end place gets one node per route touching it, so that two routes into the
    # same country never join. route_nodes[r] = (node of a, node of b); place_nodes[c] = nodes of place c.
    route_nodes: tuple[tuple[int, int], ...] = field(repr=False, compare=False)
    place_nodes: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    node_count: int = field(repr=False, compare=False)
    routes_at: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    points_by_length: tuple[int, ...] = field(repr=False, compare=False)  # rules.route_points by length

    def city(self, name: str) -> City:
        """The place called `name` (case- and accent-insensitive, aliases allowed)."""
        idx = self.name_index.get(normalize_name(name))
        if idx is None:
            raise BoardDataError(f"{self.name} has no place called {name!r}")
        return self.cities[idx]

    def route_label(self, route_id: int) -> str:
        r = self.routes[route_id]
        return f"{self.cities[r.a].name}–{self.cities[r.b].name}"

    def routes_between(self, a: int, b: int) -> list[Route]:
        return [r for r in self.routes if {r.a, r.b} == {a, b}]

    def rule(self, key: str, default: Any = None) -> Any:
        return self.rules.get(key, default)

    def variant(self, variant_id: str | None) -> dict[str, Any]:
        vid = variant_id or self.default_variant
        if vid not in self.variants:
            known = ", ".join(self.variants)
            raise BoardDataError(f"{self.name} has no variant {vid!r} (known: {known})")
        return self.variants[vid]

    def route_points(self, length: int) -> int:
        return self.points_by_length[length]


def _color(value: str, where: str) -> int:
    name = COLOR_ALIASES.get(value, value)
    if name == "gray":
        return GRAY
    if name not in COLORS:
        raise BoardDataError(f"{where}: bad colour {value!r}")
    return COLORS.index(name)


def board_from_dict(data: dict[str, Any]) -> Board:
    """Validate raw board data and build the Board; every problem raises BoardDataError naming the spot."""
    bid = data.get("id")
    if not isinstance(bid, str) or not bid:
        raise BoardDataError("board file has no id")
    cities: list[City] = []
    name_index: dict[str, int] = {}
    for i, c in enumerate(data.get("cities") or []):
        name = c.get("name")
        if not isinstance(name, str) or not name:
            raise BoardDataError(f"{bid}: city #{i} has no name")
        kind = c.get("kind", "city")
        if kind not in ("city", "country", "area"):
            raise BoardDataError(f"{bid}: city {name!r} has bad kind {kind!r}")
        aliases = tuple(c.get("aliases") or ())
        city = City(i, name, kind, c.get("lat"), c.get("lon"), aliases, dict(c.get("extra") or {}))
        for key in (name, *aliases):
            k = normalize_name(key)
            if k in name_index and name_index[k] != i:
                raise BoardDataError(f"{bid}: duplicate place name {key!r}")
            name_index[k] = i
        cities.append(city)
    if not cities:
        raise BoardDataError(f"{bid}: no cities")

    rules = dict(data.get("rules") or {})
    points = rules.get("route_points") or {}
    if not points:
        raise BoardDataError(f"{bid}: rules.route_points missing")

    def place(name: Any, where: str) -> int:
        if not isinstance(name, str) or normalize_name(name) not in name_index:
            raise BoardDataError(f"{bid}: {where}: unknown city {name!r}")
        return name_index[normalize_name(name)]

    routes: list[Route] = []
    group_of: dict[tuple[int, int], int] = {}
    not_multi = {
        frozenset((place(a, "not_double_routes"), place(b, "not_double_routes")))
        for a, b in rules.get("not_double_routes", [])
    }
    for i, r in enumerate(data.get("routes") or []):
        where = f"route #{i} {r.get('a')}–{r.get('b')}"
        a, b = place(r.get("a"), where), place(r.get("b"), where)
        if a == b:
            raise BoardDataError(f"{bid}: {where}: a route must join two different places")
        length = r.get("length")
        if not isinstance(length, int) or length < 1 or str(length) not in points:
            raise BoardDataError(f"{bid}: {where}: impossible length {length!r}")
        locos = int(r.get("locomotives", 0))
        waves = int(r.get("waves", 0))
        if locos < 0 or locos > length or waves < 0 or waves > length:
            raise BoardDataError(f"{bid}: {where}: locomotive/wave spaces exceed the length")
        color = _color(str(r.get("color", "gray")), f"{bid}: {where}")
        if (locos or waves) and color != GRAY:
            raise BoardDataError(f"{bid}: {where}: ferry routes must be gray")
        key = (min(a, b), max(a, b))
        if frozenset(key) in not_multi:
            gid = len(routes)  # its own group: not a double route
        else:
            gid = group_of.setdefault(key, len(routes))
        routes.append(
            Route(
                i,
                a,
                b,
                length,
                color,
                bool(r.get("tunnel", False)),
                locos,
                bool(r.get("bullet", False)),
                waves,
                gid,
                dict(r.get("extra") or {}),
            )
        )
    if not routes:
        raise BoardDataError(f"{bid}: no routes")
    groups_map: dict[int, list[int]] = {}
    for r in routes:
        groups_map.setdefault(r.group, []).append(r.id)
    for members in groups_map.values():
        if len(members) > 1:
            lengths = {routes[m].length for m in members}
            if len(lengths) != 1:
                raise BoardDataError(
                    f"{bid}: multiple route {routes[members[0]].a}–{routes[members[0]].b} "
                    "has routes of different lengths; list it in rules.not_double_routes"
                )

    tickets: list[Ticket] = []
    seen: set[tuple[frozenset[int], int, tuple[str, ...], str]] = set()
    for i, t in enumerate(data.get("tickets") or []):
        where = f"ticket #{i} {t.get('a')}–{t.get('b')}"
        a, b = place(t.get("a"), where), place(t.get("b"), where)
        pts = t.get("points")
        if a == b or not isinstance(pts, int) or pts <= 0:
            raise BoardDataError(f"{bid}: {where}: bad ticket")
        tags = tuple(t.get("tags") or ())
        deck = str(t.get("deck", "regular"))
        key = (frozenset((a, b)), pts, tags, deck)
        if key in seen:
            raise BoardDataError(f"{bid}: {where}: duplicate ticket")
        seen.add(key)
        tickets.append(Ticket(i, a, b, pts, deck, tags))

    variants = dict(data.get("variants") or {})
    if not variants:
        raise BoardDataError(f"{bid}: no variants")
    default_variant = data.get("default_variant") or next(iter(variants))
    if default_variant not in variants:
        raise BoardDataError(f"{bid}: default variant {default_variant!r} not defined")
    for vid, v in variants.items():
        tk = v.get("tickets") or {}
        if "setup" not in tk or "draw" not in tk:
            raise BoardDataError(f"{bid}: variant {vid}: tickets.setup and tickets.draw are required")
        selected = select_tickets(tickets, v)
        if not selected:
            raise BoardDataError(f"{bid}: variant {vid}: selects no ticket")

    # Connectivity nodes
    node_count = len(cities)
    place_nodes: list[list[int]] = [[c.id] if not c.dead_end else [] for c in cities]
    route_nodes: list[tuple[int, int]] = []
    for r in routes:
        ends = []
        for p in (r.a, r.b):
            if cities[p].dead_end:
                ends.append(node_count)
                place_nodes[p].append(node_count)
                node_count += 1
            else:
                ends.append(p)
        if cities[r.a].dead_end and cities[r.b].dead_end:
            raise BoardDataError(f"{bid}: route {cities[r.a].name}–{cities[r.b].name} joins two dead ends")
        route_nodes.append((ends[0], ends[1]))
    points_table = rules["route_points"]
    longest = max(int(k) for k in points_table)
    routes_at: list[list[int]] = [[] for _ in cities]
    for r in routes:
        routes_at[r.a].append(r.id)
        routes_at[r.b].append(r.id)

    return Board(
        id=bid,
        name=str(data.get("name", bid)),
        status=str(data.get("status", "verified")),
        notes=str(data.get("notes", "")),
        cities=tuple(cities),
        routes=tuple(routes),
        tickets=tuple(tickets),
        rules=rules,
        variants=variants,
        default_variant=default_variant,
        options=dict(data.get("options") or {}),
        extra=dict(data.get("extra") or {}),
        name_index=name_index,
        groups=tuple(tuple(m) for m in groups_map.values()),
        groups_by_route=tuple(tuple(groups_map[r.group]) for r in routes),
        route_nodes=tuple(route_nodes),
        place_nodes=tuple(tuple(n) for n in place_nodes),
        node_count=node_count,
        routes_at=tuple(tuple(x) for x in routes_at),
        points_by_length=tuple(int(points_table.get(str(n), 0)) for n in range(longest + 1)),
    )


def select_tickets(tickets: list[Ticket] | tuple[Ticket, ...], variant: dict[str, Any]) -> list[Ticket]:
    """The tickets a variant plays with: those carrying any of its tags (all tickets when it names none)."""
    tags = set(variant.get("tickets", {}).get("tags") or ())
    return [t for t in tickets if not tags or tags.intersection(t.tags)]


def board_ids() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


@cache
def load_board(board_id: str) -> Board:
    """Load and validate `maps/<board_id>.json` (cached: boards are immutable)."""
    key = normalize_name(board_id).replace(" ", "-")
    path = MAPS_DIR / f"{key}.json"
    if not path.exists():
        raise BoardDataError(f"unknown board {board_id!r} (known: {', '.join(board_ids())})")
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    return board_from_dict(data)

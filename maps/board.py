"""Board data: the typed, validated form of one `maps/<id>.json` file.

A board file holds facts (places, routes, tickets) and the board's rule numbers and variants; the engine reads
everything board-specific from here, so rules code never names a city. Indices (city, route, ticket ids) are
positions in the file's lists, which keeps the engine's hot loops on plain ints.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
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

# Other names of a colour or card (the Europe rulebook's "purple" is the USA's "pink"), keyed by normalize_name.
COLOR_ALIASES = {
    "purple": "pink",
    "grey": "gray",
    "loco": "locomotive",
    "locomotive 4": "locomotive+4",
    "loco+4": "locomotive+4",
    "loco 4": "locomotive+4",
    "+4": "locomotive+4",
}


class BoardDataError(ValueError):
    """A board file that does not describe a valid board; the message says where."""


class RouteNameError(BoardDataError):
    """Text that names no route, or more than one; `code` and `params` say why (for a translated refusal).

    Codes: `no_places` (the text names no two places), `unknown_color`, `no_route` (no route joins the two
    places), `no_lane` (none of its lanes has that colour), `none_open` (none of the named lanes is available),
    `ambiguous` (lanes of different colours are available: say which). Params: `text`, and when known `route`
    ("Paris–Wien"), `color`, `colors` (the available lanes' colours).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def normalize_name(name: str) -> str:
    """Case- and accent-insensitive key for matching place names typed by people."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.replace("-", " ").replace("_", " ").split())


def _lookup_key(name: str) -> str:
    return normalize_name(name).replace(" ", "")


# every card and colour name, alias and plural (as _lookup_key makes it) -> card type, or GRAY for gray
_CARD_KEYS: dict[str, int] = {
    **{_lookup_key(n): i for i, n in enumerate(CARD_NAMES)},
    _lookup_key("gray"): GRAY,
}
_CARD_KEYS.update(
    {_lookup_key(alias): _CARD_KEYS[_lookup_key(name)] for alias, name in COLOR_ALIASES.items()}
)
_CARD_KEYS.update({key + "s": idx for key, idx in list(_CARD_KEYS.items()) if not key.endswith(("s", "4"))})


def card_index(name: str, extra_names: Mapping[str, int] | None = None) -> int | None:
    """The card type called `name` (a COLORS index, LOCOMOTIVE, LOCOMOTIVE_PLUS4, PASSENGER_CARD), GRAY for
    gray, or None; case, accents, plurals and COLOR_ALIASES ("purple" is pink) do not matter.

    `extra_names` adds names (e.g. a language's colour words, normalized by the caller or not) -> card type.
    """
    key = _lookup_key(name)
    if extra_names:
        for extra, idx in extra_names.items():
            if _lookup_key(extra) == key:
                return idx
    return _CARD_KEYS.get(key)


def color_index(name: str, extra_names: Mapping[str, int] | None = None) -> int | None:
    """The route colour called `name`: a COLORS index or GRAY, None for anything else (cards included)."""
    idx = card_index(name, extra_names)
    return idx if idx is not None and (idx == GRAY or 0 <= idx < len(COLORS)) else None


def _words(text: str) -> tuple[str, ...]:
    """The words of a place or route name: no case, accents or punctuation ("Sault St. Marie", "Paris–Wien")."""
    return tuple(re.sub(r"[\W_]+", " ", normalize_name(text)).split())


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

    @cached_property
    def _places_by_words(self) -> dict[tuple[str, ...], int]:
        return {_words(name): c.id for c in self.cities for name in (c.name, *c.aliases) if _words(name)}

    def parse_route(
        self, text: str, color: str | None = None, *, color_names: Mapping[str, int] | None = None
    ) -> tuple[int, int, int | None]:
        """(place a, place b, lane colour or None) named by `text`.

        Accepted: "Paris - Wien", "Paris-Wien", "Paris–Wien", "paris wien", accents or not, either place first,
        with a colour word after them for one lane of a multiple route ("Paris - Wien pink"), or the claim
        menu's label ("Paris – Wien (3 pink, tunnel)"). `color`, when given, is the lane colour and wins over a
        colour word in the text; `color_names` adds colour words (another language's). Raises RouteNameError.
        """
        main, _, inside = text.partition("(")
        words = _words(main)
        places = self._places_by_words
        parses: list[tuple[int, int, tuple[str, ...]]] = []
        for i in range(1, len(words)):
            a = places.get(words[:i])
            if a is None:
                continue
            for j in range(i + 1, len(words) + 1):
                b = places.get(words[i:j])
                if b is not None and b != a:
                    parses.append((a, b, words[j:]))
        # the two places, then at most one colour word; a parse with nothing left over wins
        parses = [p for p in parses if len(p[2]) <= 1]
        parses.sort(key=lambda p: len(p[2]))
        if not parses:
            raise RouteNameError("no_places", f"{self.name} has no route called {text!r}", text=text)
        a, b, rest = parses[0]
        wanted = color
        if wanted is None and rest:
            wanted = rest[0]
        if wanted is None:  # the menu label's "(3 pink, tunnel)": its colour word, if any
            found = [w for w in _words(inside) if color_index(w, color_names) is not None]
            wanted = found[0] if found else None
        lane: int | None = None
        if wanted is not None:
            lane = color_index(wanted, color_names)
            if lane is None:
                raise RouteNameError(
                    "unknown_color", f"{wanted!r} is not a route colour", text=text, color=wanted
                )
        return a, b, lane

    def find_routes(
        self, text: str, color: str | None = None, *, color_names: Mapping[str, int] | None = None
    ) -> list[int]:
        """Ids of the routes `text` names (see `parse_route`): every lane between the two places, or the
        lanes of the colour named (gray lanes when none has that colour: they can be paid in any colour).

        Filter the result by what is open to find "the lanes of this double not yet claimed". Raises
        RouteNameError when the text names no two places or an unknown colour, or no route joins them.
        """
        a, b, lane = self.parse_route(text, color, color_names=color_names)
        return self.lanes(a, b, lane, text=text)

    def lanes(
        self,
        a: int,
        b: int,
        color: int | None = None,
        *,
        gray_takes_any: bool = True,
        text: str | None = None,
    ) -> list[int]:
        """Ids of the routes joining places `a` and `b`, of lane colour `color` when given; when no lane has
        that colour, its gray lanes (they can be paid in any colour) unless `gray_takes_any` is False.
        Raises RouteNameError (`no_route`, `no_lane`)."""
        label = f"{self.cities[a].name}–{self.cities[b].name}"
        shown = label if text is None else text
        between = self.routes_between(a, b)
        if not between:
            raise RouteNameError(
                "no_route", f"there is no route {label} on {self.name}", text=shown, route=label
            )
        if color is None:
            return [r.id for r in between]
        chosen = [r.id for r in between if r.color == color]
        if not chosen and gray_takes_any:
            chosen = [r.id for r in between if r.color == GRAY]
        if not chosen:
            name = "gray" if color == GRAY else COLORS[color]
            raise RouteNameError(
                "no_lane", f"{label} has no {name} route", text=shown, route=label, color=name
            )
        return chosen

    def pick_lane(self, lanes: list[int], available: Collection[int] | None = None, *, text: str = "") -> int:
        """The one route among `lanes` (one route's lanes, from `find_routes` or `lanes`) restricted to
        `available`: the only one left, or the first when those left share a colour. Raises RouteNameError
        (`none_open` when none is available, `ambiguous` when lanes of different colours are)."""
        route = self.route_label(lanes[0])
        left = [r for r in lanes if available is None or r in available]
        if not left:
            raise RouteNameError("none_open", f"{route} is taken", text=text or route, route=route)
        colors = sorted({self.routes[r].color_name for r in left})
        if len(colors) > 1:
            raise RouteNameError(
                "ambiguous",
                f"{route} is a multiple route ({', '.join(colors)}): say which colour",
                text=text or route,
                route=route,
                colors=colors,
            )
        return left[0]

    def find_route(
        self,
        text: str,
        color: str | None = None,
        *,
        available: Collection[int] | None = None,
        color_names: Mapping[str, int] | None = None,
    ) -> int:
        """The one route `text` names among `available` (all routes when None): `find_routes` then
        `pick_lane`, so the second lane of a double is found by name once the first is taken. Raises
        RouteNameError."""
        return self.pick_lane(self.find_routes(text, color, color_names=color_names), available, text=text)

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
    idx = color_index(value)
    if idx is None:
        raise BoardDataError(f"{where}: bad colour {value!r}")
    return idx


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

"""Regions bonus (Italy): at the end each separate network of a player scores on its own by the number of regions
it connects (`rules.regions.bonus`: 5 regions 1 point ... 15 and more 56; fewer than the smallest entry: 0).

A network touches a region when one of its routes touches a city of that region (`city.extra.region`; the
dead-end areas have none). The regions of `double_if_complete` count twice for a network holding ALL of their
cities. Networks are the player's own routes joined at cities; routes into a dead-end area never join.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.features import Feature, register_feature
from engine.state import GameState
from maps import Board

if TYPE_CHECKING:
    from engine.sheets import ScoreSheet

NAME = "regions"


@dataclass(frozen=True)
class RegionNetwork:
    """One separate network of a player: its cities, the regions it touches, what it scores."""

    cities: frozenset[int]
    regions: tuple[str, ...]  # sorted names of the regions touched
    doubled: tuple[str, ...]  # double-if-complete regions whose every city is in this network
    count: int  # regions counted for the bonus (doubled ones twice)
    points: int


def _rules(board: Board) -> dict[str, Any]:
    rules: dict[str, Any] = board.rules.get(NAME, {})
    return rules


def region_of(board: Board, city: int) -> str | None:
    region = board.cities[city].extra.get("region")
    return str(region) if region else None


def bonus_points(board: Board, count: int) -> int:
    """Points for a network counting `count` regions (the table's largest entry holds for anything above it)."""
    table = _facts(board).bonus
    best = [k for k in table if k <= count]
    return table[max(best)] if best else 0


@dataclass(frozen=True)
class _RegionFacts:
    region: tuple[str | None, ...]  # per place
    cities: dict[str, frozenset[int]]  # per region
    bonus: dict[int, int]


_FACTS: dict[int, tuple[Board, _RegionFacts]] = {}  # by id(board); the board is held so its id stays its own


def _facts(board: Board) -> _RegionFacts:
    found = _FACTS.get(id(board))
    if found is None:
        region = tuple(region_of(board, c.id) for c in board.cities)
        cities: dict[str, set[int]] = {}
        for c, name in enumerate(region):
            if name:
                cities.setdefault(name, set()).add(c)
        bonus = {int(k): int(v) for k, v in _rules(board).get("bonus", {}).items()}
        facts = _RegionFacts(region, {k: frozenset(v) for k, v in cities.items()}, bonus)
        found = _FACTS[id(board)] = (board, facts)
    return found[1]


def networks(board: Board, routes: list[int]) -> list[RegionNetwork]:
    """The separate networks formed by `routes`, with their regions and points (largest first)."""
    parent = list(range(board.node_count))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for r in routes:
        a, b = board.route_nodes[r]
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    cities_of: dict[int, set[int]] = {}
    for r in routes:
        route = board.routes[r]
        root = find(board.route_nodes[r][0])
        cities_of.setdefault(root, set()).update(
            c for c in (route.a, route.b) if not board.cities[c].dead_end
        )
    facts = _facts(board)
    region_cities = facts.cities
    doubles = list(_rules(board).get("double_if_complete", []))
    out: list[RegionNetwork] = []
    for cities in cities_of.values():
        regions = sorted({reg for c in cities if (reg := facts.region[c])})
        doubled = tuple(d for d in doubles if d in region_cities and region_cities[d] <= cities)
        count = len(regions) + len(doubled)
        out.append(
            RegionNetwork(frozenset(cities), tuple(regions), doubled, count, bonus_points(board, count))
        )
    out.sort(key=lambda n: (-n.count, sorted(n.cities)))
    return out


def regions_bonus(board: Board, routes: list[int]) -> int:
    return sum(n.points for n in networks(board, routes))


class Regions(Feature):
    name = NAME

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        for sheet in sheets:
            sheet.bonuses[NAME] = regions_bonus(state.board, state.players[sheet.seat].routes)


register_feature(Regions())

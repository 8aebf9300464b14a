"""Passenger trips (Märklin): checking a trip and searching the trails worth offering.

The rules of passengers are in engine.features.passengers; this is their path-finding, in a module of its own so
that it is compiled with the engine (the passengers module defines action types and stays interpreted, see
setup.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction
from engine.features.merchandise import piles, top_token
from engine.state import NOBODY, GameState
from maps import PASSENGER_CARD

NAME = "passengers"
NO_PASSENGER = -1
TRAIL_LIMIT = 30  # best trails listed per passenger (besides every one-route move)
SEARCH_BUDGET = 2000  # route steps the trail search may take per passenger


@dataclass(frozen=True, slots=True)
class Trip:
    start: int
    routes: tuple[int, ...]
    cities: tuple[int, ...]  # cities reached, in order (repeats included)
    token_cities: tuple[
        int, ...
    ]  # cities where a token is taken (first visit, not the start, pile not empty)
    cards: int  # Passenger cards to pay
    points: int  # value of the tokens taken


def _rules(state: GameState) -> dict[str, Any]:
    found: dict[str, Any] = state.board.rules.get(NAME, {})
    return found


def per_player(state: GameState) -> int:
    return int(_rules(state).get("per_player", 3))


def card_cost(state: GameState) -> int:
    return int(_rules(state).get("cards_per_other_route", 1))


def positions(state: GameState) -> list[int]:
    """Per place: the seat of the passenger standing there, or -1."""
    found: list[int] = state.module[NAME]
    return found


def passengers_of(state: GameState, seat: int) -> list[int]:
    pos = positions(state)
    if seat not in pos:
        return []
    return [c for c, s in enumerate(pos) if s == seat]


def free_cities(state: GameState, route: int) -> list[int]:
    """Cities of the route where a passenger may be put (not a country, nobody's passenger there)."""
    r = state.board.routes[route]
    pos = positions(state)
    return [c for c in (r.a, r.b) if not state.board.cities[c].dead_end and pos[c] == NO_PASSENGER]


def check_trip(state: GameState, seat: int, start: int, routes: tuple[int, ...] | list[int]) -> Trip:
    """The trip of the seat's passenger from `start` along `routes`, or IllegalAction saying what is wrong."""
    board = state.board
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(board.cities):
        raise IllegalAction("There is no such city.")
    if positions(state)[start] != seat:
        raise IllegalAction(f"You have no passenger in {board.cities[start].name}.")
    if not routes:
        raise IllegalAction("Say which routes the passenger travels along (at least one).")
    owner = state.route_owner
    price = card_cost(state)
    city = start
    used: set[int] = set()
    visited = {start}
    reached: list[int] = []
    token_cities: list[int] = []
    cards = 0
    points = 0
    for rid in routes:
        if isinstance(rid, bool) or not isinstance(rid, int) or not 0 <= rid < len(board.routes):
            raise IllegalAction(f"There is no route {rid!r}.")
        label = board.route_label(rid)
        route = board.routes[rid]
        if city not in (route.a, route.b):
            raise IllegalAction(
                f"{label} does not leave from {board.cities[city].name}, where the passenger is."
            )
        if rid in used:
            raise IllegalAction(f"The passenger cannot take {label} twice in one trip.")
        if owner[rid] == NOBODY:
            raise IllegalAction(f"{label} is not claimed: passengers only travel on claimed routes.")
        nxt = route.b if route.a == city else route.a
        if board.cities[nxt].dead_end:
            raise IllegalAction(f"Passengers never go into a country ({board.cities[nxt].name}).")
        used.add(rid)
        if owner[rid] != seat:
            cards += price
        reached.append(nxt)
        if nxt not in visited:
            visited.add(nxt)
            value = top_token(state, nxt)
            if value:
                token_cities.append(nxt)
                points += value
        city = nxt
    have = state.players[seat].hand[PASSENGER_CARD]
    if cards > have:
        raise IllegalAction(
            f"That trip uses other players' routes: it costs {cards} Passenger cards and you have {have}."
        )
    return Trip(start, tuple(routes), tuple(reached), tuple(token_cities), cards, points)


def trip_options(
    state: GameState, seat: int, start: int, *, limit: int = TRAIL_LIMIT, budget: int = SEARCH_BUDGET
) -> list[tuple[int, ...]]:
    """Trips worth offering for the passenger on `start`: every affordable one-route move, plus the `limit` best
    trails found in `budget` search steps (one per set of cities reached, the cheapest then shortest)."""
    board = state.board
    owner = state.route_owner
    routes_at = board.routes_at
    cities = board.cities
    price = card_cost(state)
    have = state.players[seat].hand[PASSENGER_CARD]
    # visited cities as a bit mask -> (-points, cards, routes, path): the best trail reaching exactly them
    best: dict[int, tuple[int, int, int, tuple[int, ...]]] = {}
    path: list[int] = []
    used: set[int] = set()
    steps = 0
    goods = piles(state)

    expanded: set[tuple[int, int, int]] = set()

    def dfs(city: int, visited: int, cards: int, points: int) -> None:
        nonlocal steps
        if (city, visited, cards) in expanded:
            return  # reached here before with the same cities and cost: its trails are (nearly) these
        expanded.add((city, visited, cards))
        steps_here = []
        for rid in routes_at[city]:
            o = owner[rid]
            if o == NOBODY or rid in used:
                continue
            cost = cards + (price if o != seat else 0)
            if cost > have:
                continue
            r = board.routes[rid]
            nxt = r.b if r.a == city else r.a
            if cities[nxt].dead_end:
                continue
            pile = goods[nxt]
            gain = pile[0] if pile and not visited >> nxt & 1 else 0
            steps_here.append((-gain, cost, rid, nxt))
        steps_here.sort()  # richest and cheapest first: the budget goes to the best trails
        for neg_gain, cost, rid, nxt in steps_here:
            if steps >= budget:
                return
            steps += 1
            seen = visited | 1 << nxt
            path.append(rid)
            used.add(rid)
            score = neg_gain - points
            old = best.get(seen)
            if (
                old is None
                or score < old[0]
                or score == old[0]
                and (
                    cost < old[1]
                    or cost == old[1]
                    and (len(path) < old[2] or len(path) == old[2] and tuple(path) < old[3])
                )
            ):
                best[seen] = (score, cost, len(path), tuple(path))
            dfs(nxt, seen, cost, points - neg_gain)
            path.pop()
            used.discard(rid)

    dfs(start, 1 << start, 0, 0)
    ranked = sorted(best.values())[:limit]
    out = [k[3] for k in ranked]
    for rid in routes_at[start]:  # every one-route move, even those the ranking left out
        o = owner[rid]
        r = board.routes[rid]
        nxt = r.b if r.a == start else r.a
        if o == NOBODY or cities[nxt].dead_end or (o != seat and price > have):
            continue
        if (rid,) not in out:
            out.append((rid,))
    return out

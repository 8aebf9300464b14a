"""Passengers (Märklin): 3 per player. After claiming a route the player may put one reserve passenger on one
of the route's two cities (never a country; one passenger per city, whoever owns it). "Move a passenger" is a
turn: the passenger travels from its city along claimed routes, never the same route twice (the routes of a
double route are two routes), never into a country; the player's own routes are free, each route of another
player costs one Passenger card. At each city it reaches it takes the top merchandise token (none at its start
city; one per city per trip), then it leaves the game. The tokens score at once (engine.features.merchandise).

The move action carries the whole trip (route ids in order). `legal_actions` cannot list every trail of a late
board, so it offers, per passenger, every one-route move plus the `TRAIL_LIMIT` best trails (most merchandise,
then fewest Passenger cards, then fewest routes; one trail per set of cities reached) found by a depth-first
search of at most `SEARCH_BUDGET` route steps. `apply` accepts ANY valid trip.

State: `state.module["passengers"]` = per place the seat of the passenger there, or -1;
`player.extra["passengers"]` = passengers in reserve, `player.extra["passengers_moved"]` = passengers used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action, MovePassenger, PlacePassenger
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import PassengerMoved, PassengerPlaced
from engine.features import Feature, register_feature
from engine.features.merchandise import piles, take_token, top_token
from engine.pending import PassengerPlacement, Pending
from engine.state import LAST_ROUND, MAIN, NOBODY, GameState
from engine.turn import end_turn, require_turn_start
from maps import PASSENGER_CARD

NAME = "passengers"
RESERVE = "passengers"
MOVED = "passengers_moved"
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
        raise IllegalAction("no_such_city", "There is no such city.")
    if positions(state)[start] != seat:
        name = board.cities[start].name
        raise IllegalAction("no_passenger_there", f"You have no passenger in {name}.", city=name)
    if not routes:
        raise IllegalAction(
            "trip_needs_routes", "Say which routes the passenger travels along (at least one)."
        )
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
            raise IllegalAction("no_such_route", f"There is no route {rid!r}.", route=str(rid))
        label = board.route_label(rid)
        route = board.routes[rid]
        if city not in (route.a, route.b):
            here = board.cities[city].name
            raise IllegalAction(
                "trip_not_from_here",
                f"{label} does not leave from {here}, where the passenger is.",
                route=label,
                city=here,
            )
        if rid in used:
            raise IllegalAction(
                "trip_route_twice", f"The passenger cannot take {label} twice in one trip.", route=label
            )
        if owner[rid] == NOBODY:
            raise IllegalAction(
                "trip_route_unclaimed",
                f"{label} is not claimed: passengers only travel on claimed routes.",
                route=label,
            )
        nxt = route.b if route.a == city else route.a
        if board.cities[nxt].dead_end:
            country = board.cities[nxt].name
            raise IllegalAction(
                "trip_into_country", f"Passengers never go into a country ({country}).", city=country
            )
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
            "trip_needs_cards",
            f"That trip uses other players' routes: it costs {cards} Passenger cards and you have {have}.",
            need=cards,
            have=have,
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


class Passengers(Feature):
    name = NAME
    action_types = (PlacePassenger, MovePassenger)
    pending_types = (PassengerPlacement,)

    def setup(self, state: GameState) -> None:
        state.module[NAME] = [NO_PASSENGER] * len(state.board.cities)
        for p in state.players:
            p.extra[RESERVE] = per_player(state)
            p.extra[MOVED] = 0

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        if state.phase not in (MAIN, LAST_ROUND):
            return []
        return [
            MovePassenger(start, trip)
            for start in passengers_of(state, seat)
            for trip in trip_options(state, seat, start)
        ]

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        if state.phase not in (MAIN, LAST_ROUND):
            return 0
        return sum(len(trip_options(state, seat, start)) for start in passengers_of(state, seat))

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        for start in passengers_of(state, seat):
            trips = trip_options(state, seat, start)
            if k < len(trips):
                return MovePassenger(start, trips[k])
            k -= len(trips)
        raise IndexError(k)

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        if state.players[seat].extra.get(RESERVE, 0) <= 0:
            return
        cities = free_cities(state, route)
        if cities:
            state.pending[seat] = PassengerPlacement(route, tuple(cities))

    def pending_actions(self, state: GameState, seat: int, pending: Pending) -> list[Action]:
        assert isinstance(pending, PassengerPlacement)
        return [*(PlacePassenger(c) for c in pending.cities), PlacePassenger(None)]

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        if isinstance(action, PlacePassenger):
            self._place(state, seat, action)
        else:
            assert isinstance(action, MovePassenger)
            self._move(state, seat, action)

    def _place(self, state: GameState, seat: int, action: PlacePassenger) -> None:
        pending = state.pending.get(seat)
        if not isinstance(pending, PassengerPlacement):
            raise IllegalAction(
                "no_passenger_to_place",
                "You can put a passenger on the board only just after claiming a route.",
            )
        player = state.players[seat]
        if action.city is not None:
            board = state.board
            if action.city not in pending.cities:
                r = board.routes[pending.route]
                names = " or ".join(board.cities[c].name for c in pending.cities)
                if action.city in (r.a, r.b) and not board.cities[action.city].dead_end:
                    there = board.cities[action.city].name  # an end of the route: a city that exists
                    raise IllegalAction(
                        "passenger_already_there",
                        f"You cannot put your passenger there: a passenger is already in {there}.",
                        city=there,
                    )
                raise IllegalAction(
                    "passenger_not_on_route",
                    f"You cannot put your passenger there: passengers go on a city of the route you claimed "
                    f"({names}).",
                    cities=names,
                )
            positions(state)[action.city] = seat
            player.extra[RESERVE] -= 1
        state.events.append(PassengerPlaced(seat, action.city))
        del state.pending[seat]
        end_turn(state)

    def _move(self, state: GameState, seat: int, action: MovePassenger) -> None:
        require_turn_start(state, seat, state.pending.get(seat), action, "moving a passenger")
        trip = check_trip(state, seat, action.start, tuple(action.routes))
        player = state.players[seat]
        if trip.cards:
            player.hand[PASSENGER_CARD] -= trip.cards
            state.discard.extend([PASSENGER_CARD] * trip.cards)
        tokens = [v for c in trip.token_cities if (v := take_token(state, seat, c)) is not None]
        positions(state)[trip.start] = NO_PASSENGER
        player.extra[MOVED] = player.extra.get(MOVED, 0) + 1
        state.events.append(
            PassengerMoved(seat, trip.start, tuple(trip.routes), tuple(tokens), trip.cards, sum(tokens))
        )
        end_turn(state)

    def invariants(self, state: GameState) -> list[str]:
        errors: list[str] = []
        pos = positions(state)
        for seat, p in enumerate(state.players):
            reserve, moved = p.extra.get(RESERVE, 0), p.extra.get(MOVED, 0)
            placed = sum(1 for s in pos if s == seat)
            if min(reserve, moved) < 0 or reserve + placed + moved != per_player(state):
                errors.append(
                    f"seat {seat}: passengers {reserve} in reserve + {placed} placed + {moved} moved "
                    f"!= {per_player(state)}"
                )
        for city, s in enumerate(pos):
            if s != NO_PASSENGER and state.board.cities[city].dead_end:
                errors.append(f"a passenger stands in the country {state.board.cities[city].name}")
        return errors

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {NAME: [[c, s] for c, s in enumerate(positions(state)) if s != NO_PASSENGER]}


register_feature(Passengers())

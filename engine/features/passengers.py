"""Passengers (Märklin): 3 per player. After claiming a route the player may put one reserve passenger on one
of the route's two cities (never a country; one passenger per city, whoever owns it). "Move a passenger" is a
turn: the passenger travels from its city along claimed routes, never the same route twice (the routes of a
double route are two routes), never into a country; the player's own routes are free, each route of another
player costs one Passenger card. At each city it reaches it takes the top merchandise token (none at its start
city; one per city per trip), then it leaves the game. The tokens score at once (engine.features.merchandise).

The move action carries the whole trip (route ids in order). `legal_actions` cannot list every trail of a late
board, so it offers, per passenger, every one-route move plus the `TRAIL_LIMIT` best trails (most merchandise,
then fewest Passenger cards, then fewest routes; one trail per set of cities reached) found by a depth-first
search of at most `SEARCH_BUDGET` route steps (engine.features.passenger_trips). `apply` accepts ANY valid trip.

State: `state.module["passengers"]` = per place the seat of the passenger there, or -1;
`player.extra["passengers"]` = passengers in reserve, `player.extra["passengers_moved"]` = passengers used.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, MovePassenger, PlacePassenger
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.features import Feature, register_feature
from engine.features.merchandise import take_token
from engine.features.passenger_trips import (
    NAME,
    NO_PASSENGER,
    check_trip,
    free_cities,
    passengers_of,
    per_player,
    positions,
    trip_options,
)
from engine.pending import PassengerPlacement, Pending
from engine.state import LAST_ROUND, MAIN, GameState
from engine.turn import end_turn
from maps import PASSENGER_CARD

RESERVE = "passengers"
MOVED = "passengers_moved"


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
            raise IllegalAction("You can put a passenger on the board only just after claiming a route.")
        player = state.players[seat]
        if action.city is not None:
            board = state.board
            if action.city not in pending.cities:
                r = board.routes[pending.route]
                names = " or ".join(board.cities[c].name for c in pending.cities)
                why = (
                    f"a passenger is already in {board.cities[action.city].name}"
                    if action.city in (r.a, r.b) and not board.cities[action.city].dead_end
                    else f"passengers go on a city of the route you claimed ({names})"
                )
                raise IllegalAction(f"You cannot put your passenger there: {why}.")
            positions(state)[action.city] = seat
            player.extra[RESERVE] -= 1
            state.last_event["public"]["passenger_placed"] = action.city
        del state.pending[seat]
        end_turn(state)

    def _move(self, state: GameState, seat: int, action: MovePassenger) -> None:
        pending = state.pending.get(seat)
        if pending is not None:
            raise IllegalAction(
                f"Finish what you started first ({pending.kind.replace('_', ' ')}) before moving a passenger."
            )
        if state.phase not in (MAIN, LAST_ROUND):
            raise IllegalAction("You cannot move a passenger now.")
        trip = check_trip(state, seat, action.start, tuple(action.routes))
        player = state.players[seat]
        if trip.cards:
            player.hand[PASSENGER_CARD] -= trip.cards
            state.discard.extend([PASSENGER_CARD] * trip.cards)
        tokens = [v for c in trip.token_cities if (v := take_token(state, seat, c)) is not None]
        positions(state)[trip.start] = NO_PASSENGER
        player.extra[MOVED] = player.extra.get(MOVED, 0) + 1
        state.last_event["public"]["passenger_trip"] = {
            "start": trip.start,
            "routes": list(trip.routes),
            "tokens": tokens,
            "cards": trip.cards,
        }
        state.last_event["points"] = sum(tokens)
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

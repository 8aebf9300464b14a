"""Stations (Europe): built on a free city for 1, 2, then 3 cards of one colour; at the end each lets its owner
use one route of another player touching its city. The engine picks the best routes (engine.scoring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, BuildStation
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import StationBuilt
from engine.features import Feature, register_feature
from engine.state import MAIN, NOBODY, GameState
from engine.turn import end_turn, pay_cards
from maps import COLORS, LOCOMOTIVE

if TYPE_CHECKING:
    from engine.scoring import ScoreSheet


def station_cost(state: GameState, seat: int) -> int:
    costs = state.board.rules.get("station_costs", [1, 2, 3])
    built = state.board.rules.get("stations_per_player", 0) - state.players[seat].stations
    return int(costs[min(built, len(costs) - 1)])


def city_is_free(state: GameState, city: int) -> bool:
    return (
        city not in state.station_owner
        and city not in state.depot_owner
        and not state.board.cities[city].dead_end
    )


def station_payments(state: GameState, seat: int) -> list[tuple[int, int]]:
    """(colour, locomotives) pairs that pay for the seat's next station."""
    cost = station_cost(state, seat)
    hand = state.players[seat].hand
    out: list[tuple[int, int]] = []
    if hand[LOCOMOTIVE] >= cost:
        out.append((LOCOMOTIVE, cost))
    for c in range(len(COLORS)):
        if hand[c]:
            for k in range(max(0, cost - hand[c]), min(cost - 1, hand[LOCOMOTIVE]) + 1):
                out.append((c, k))
    return out


def station_payment_count(state: GameState, seat: int) -> int:
    """len(station_payments(state, seat)), counted."""
    cost = station_cost(state, seat)
    hand = state.players[seat].hand
    locos = hand[LOCOMOTIVE]
    n = 1 if locos >= cost else 0
    top = min(cost - 1, locos)
    for have in hand[: len(COLORS)]:
        if have:
            lo = cost - have
            if lo < 0:
                lo = 0
            if top >= lo:
                n += top - lo + 1
    return n


def borrow_options(state: GameState, seat: int, city: int) -> list[int]:
    """Routes of other players touching a station's city: what the station may use at the end."""
    owner = state.route_owner
    return [r for r in state.board.routes_at[city] if owner[r] not in (NOBODY, seat)]


def _real_cities(state: GameState) -> tuple[int, ...]:
    real: tuple[int, ...] | None = state.derived.get("real_cities")
    if real is None:
        real = state.derived["real_cities"] = tuple(c.id for c in state.board.cities if not c.dead_end)
    return real


def free_city_count(state: GameState) -> int:
    """How many cities `city_is_free` (one building per city, none on dead ends), counted from the buildings."""
    # the rules never put a building on a dead end, and one building per city: count the keys
    return len(_real_cities(state)) - len(state.station_owner.keys() | state.depot_owner.keys())


def free_cities(state: GameState) -> list[int]:
    """The cities where `city_is_free`, in id order."""
    taken = state.station_owner.keys() | state.depot_owner.keys()
    return [c for c in _real_cities(state) if c not in taken]


class Stations(Feature):
    name = "stations"
    action_types = (BuildStation,)

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return []
        pays = station_payments(state, seat)
        if not pays:
            return []
        return [
            BuildStation(city, c, k)
            for city in range(len(state.board.cities))
            if city_is_free(state, city)
            for c, k in pays
        ]

    def _open(self, state: GameState, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return [], []
        pays = station_payments(state, seat)
        if not pays:
            return [], []
        return free_cities(state), pays

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return 0
        pays = station_payment_count(state, seat)
        return free_city_count(state) * pays if pays else 0

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        cities, pays = self._open(state, seat)
        city, p = divmod(k, len(pays))
        return BuildStation(cities[city], *pays[p])

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        assert isinstance(action, BuildStation)
        if state.pending.get(seat) is not None:
            raise IllegalAction(
                "finish_decision_first",
                "Finish your current decision before building a station.",
                action=action.kind,
            )
        player = state.players[seat]
        board = state.board
        if player.stations <= 0:
            raise IllegalAction("no_station_left", "You have no station left to build.")
        if not 0 <= action.city < len(board.cities) or board.cities[action.city].dead_end:
            raise IllegalAction("station_not_on_city", "Stations are built on cities.")
        name = board.cities[action.city].name
        if not city_is_free(state, action.city):
            raise IllegalAction("city_taken", f"{name} already has a building; one per city.", city=name)
        cost = station_cost(state, seat)
        k = action.locomotives
        colored = cost - k
        if k < 0 or colored < 0:
            raise IllegalAction("station_cost", f"Your next station costs {cost} cards.", n=cost)
        color = LOCOMOTIVE if colored == 0 else action.color
        if colored and not 0 <= color < len(COLORS):
            raise IllegalAction("choose_station_color", "Choose the colour of the cards for your station.")
        hand = player.hand
        if (colored and hand[color] < colored) or hand[LOCOMOTIVE] < k:
            what = f"{colored} {COLORS[color]}" if colored else ""
            raise IllegalAction(
                "station_needs_cards",
                f"A station in {name} costs {cost} cards of one colour: "
                f"{what}{' and ' if colored and k else ''}{f'{k} Locomotives' if k else ''}"
                " is more than you have.",
                city=name,
                n=cost,
            )
        pay_cards(state, seat, Payment(color, colored, k, 0, 0))
        player.stations -= 1
        state.station_owner[action.city] = seat
        state.events.append(StationBuilt(seat, action.city))
        end_turn(state)

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        points = state.board.rules.get("station_points", 4)
        for sheet in sheets:
            sheet.bonuses["stations"] = points * state.players[sheet.seat].stations


register_feature(Stations())

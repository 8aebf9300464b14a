"""Passenger meeples (Germany): 60 meeples (6 colours x 10) drawn at random from the bag onto the board at setup,
as many on each place (city or country) as the board data says (`extra.passengers`). After claiming a route the
player takes one meeple, of their choice of colour, from each end of the route that still has one. At the end,
in each colour: most meeples 20, second most 10; tied for most, all score 20 and nobody scores second; one
leader and several tied second, all of those score 10; a player without that colour is never ranked. Total
meeples is the `meeples` tie-break.

The choice is one pending decision per route end that offers a real choice: `TakeMeeple(city, colour)`; an end
with a single colour left gives it at once, an end with none gives nothing. Taking can never hurt, so there is
no "take none".

State: `state.module["meeples"]` = {"places": per place the count of each colour, "bag": counts left in the
bag}; `player.extra["meeples"]` = the player's count of each colour (colours in the board's order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action, TakeMeeple
from engine.claims import Payment
from engine.errors import GameDataError, IllegalAction
from engine.events import MeepleTaken
from engine.features import Feature, register_feature
from engine.pending import MeepleChoice, Pending
from engine.state import GameState
from engine.turn import end_turn, share_event, shared_event

if TYPE_CHECKING:
    from engine.sheets import ScoreSheet

NAME = "meeples"


def _rules(state: GameState) -> dict[str, Any]:
    found: dict[str, Any] = state.board.rules.get(NAME, {})
    return found


def colors(state: GameState) -> list[str]:
    return list(_rules(state).get("colors", ["red", "black", "yellow", "blue", "green", "white"]))


def per_color(state: GameState) -> int:
    return int(_rules(state).get("per_color", 10))


def places(state: GameState) -> list[list[int]]:
    """Per place: how many meeples of each colour stand there."""
    found: list[list[int]] = state.module[NAME]["places"]
    return found


def holdings(state: GameState, seat: int) -> list[int]:
    found: list[int] = state.players[seat].extra[NAME]
    return found


def majority_points(counts: list[int], first: int = 20, second: int = 10) -> list[int]:
    """Points of each player for one colour, from their counts of it (the rulebook's majority rule)."""
    out = [0] * len(counts)
    ranked = [n for n in counts if n > 0]
    if not ranked:
        return out
    top = max(ranked)
    leaders = [i for i, n in enumerate(counts) if n == top]
    for i in leaders:
        out[i] = first
    if len(leaders) > 1:
        return out  # tied for most: nobody scores second
    rest = [n for n in ranked if n < top]
    if rest:
        runner = max(rest)
        for i, n in enumerate(counts):
            if n == runner:
                out[i] = second
    return out


def meeple_bonus(state: GameState) -> list[int]:
    """Every seat's meeple points, all colours together."""
    first, second = (_rules(state).get("majority_points") or [20, 10])[:2]
    totals = [0] * state.num_players
    for ci in range(len(colors(state))):
        pts = majority_points([holdings(state, s)[ci] for s in range(state.num_players)], first, second)
        for s, p in enumerate(pts):
            totals[s] += p
    return totals


def _take(state: GameState, seat: int, city: int, ci: int) -> None:
    places(state)[city][ci] -= 1
    holdings(state, seat)[ci] += 1
    name = colors(state)[ci]
    key = ("meeple", seat, city, name)
    state.events.append(shared_event(key) or share_event(key, MeepleTaken(seat, city, name)))


def _resolve(state: GameState, seat: int, route: int, todo: list[int]) -> bool:
    """Take from the places of `todo` where there is no choice (one colour left); places with a choice make a
    pending decision. Returns whether one is pending."""
    left: list[int] = []
    for city in todo:
        avail = [ci for ci, k in enumerate(places(state)[city]) if k > 0]
        if len(avail) == 1 and city not in left:
            _take(state, seat, city, avail[0])
        elif avail:
            left.append(city)
    if left:
        state.pending[seat] = MeepleChoice(route, tuple(left))
        return True
    return False


class Meeples(Feature):
    name = NAME
    action_types = (TakeMeeple,)
    pending_types = (MeepleChoice,)

    def setup(self, state: GameState) -> None:
        names = colors(state)
        bag = [ci for ci in range(len(names)) for _ in range(per_color(state))]
        state.rng.shuffle(bag)
        board_places: list[list[int]] = []
        for city in state.board.cities:
            counts = [0] * len(names)
            for _ in range(int(city.extra.get("passengers", 0))):
                if bag:
                    counts[bag.pop()] += 1
            board_places.append(counts)
        left = [0] * len(names)
        for ci in bag:
            left[ci] += 1
        state.module[NAME] = {"places": board_places, "bag": left}
        for p in state.players:
            p.extra[NAME] = [0] * len(names)

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        r = state.board.routes[route]
        n = int(_rules(state).get("take_per_route_end", 1))
        _resolve(state, seat, route, [c for c in (r.a, r.b) for _ in range(n)])

    def pending_actions(self, state: GameState, seat: int, pending: Pending) -> list[Action]:
        assert isinstance(pending, MeepleChoice)
        names = colors(state)
        out: list[Action] = []
        for city in dict.fromkeys(pending.cities):
            out.extend(TakeMeeple(city, names[ci]) for ci, k in enumerate(places(state)[city]) if k > 0)
        return out

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        assert isinstance(action, TakeMeeple)
        pending = state.pending.get(seat)
        if not isinstance(pending, MeepleChoice):
            raise IllegalAction("no_meeple_to_take", "You take meeples only just after claiming a route.")
        board = state.board
        if isinstance(action.city, bool) or action.city not in pending.cities:
            ends = " and ".join(board.cities[c].name for c in dict.fromkeys(pending.cities))
            raise IllegalAction(
                "meeple_not_on_route",
                f"Take your meeples from the ends of the route you claimed ({ends}).",
                cities=ends,
            )
        names = colors(state)
        if action.color not in names:
            raise IllegalAction(
                "no_such_meeple",
                f"Meeples are {', '.join(names)}; there is no {action.color!r} meeple.",
                meeple=str(action.color),
                meeples=", ".join(names),
            )
        ci = names.index(action.color)
        here = places(state)[action.city]
        if here[ci] <= 0:
            avail = ", ".join(names[i] for i, k in enumerate(here) if k > 0)
            city = board.cities[action.city].name
            raise IllegalAction(
                "meeple_gone",
                f"There is no {action.color} meeple in {city} (there: {avail}).",
                meeple=action.color,
                city=city,
                meeples=avail,
            )
        _take(state, seat, action.city, ci)
        todo = list(pending.cities)
        todo.remove(action.city)
        del state.pending[seat]
        if not _resolve(state, seat, pending.route, todo):
            end_turn(state)

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        bonus = meeple_bonus(state)
        for sheet in sheets:
            sheet.bonuses[NAME] = bonus[sheet.seat]
            sheet.tie_values[NAME] = sum(holdings(state, sheet.seat))

    def invariants(self, state: GameState) -> list[str]:
        errors: list[str] = []
        names = colors(state)
        module = state.module[NAME]
        n = per_color(state)
        columns = list(zip(*module["places"], strict=True))
        for ci, name in enumerate(names):
            on_board = sum(columns[ci])
            held = [holdings(state, s)[ci] for s in range(state.num_players)]
            total = on_board + module["bag"][ci] + sum(held)
            if total != n or min(held) < 0 or min(columns[ci]) < 0:
                errors.append(
                    f"{name} meeples: {on_board} on the board + {module['bag'][ci]} in the bag + "
                    f"{held} held != {n}"
                )
        return errors

    def load_score_extras(self, state: GameState, seat: int, data: dict[str, Any]) -> None:
        """`"meeples": {"red": 3, "black": 1, ...}` (colours not named: none)."""
        if NAME not in data:
            return
        value = data[NAME]
        player = state.players[seat]
        names = colors(state)
        if not isinstance(value, dict):
            raise GameDataError(f'{player.name}: meeples are given as {{"red": 3, ...}}, not {value!r}')
        counts = [0] * len(names)
        for key, n in value.items():
            colour = str(key).strip().lower()
            if colour not in names:
                raise GameDataError(
                    f"{player.name}: there are no {key!r} meeples (colours: {', '.join(names)})"
                )
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= per_color(state):
                raise GameDataError(
                    f"{player.name}: {key} meeples must be a count from 0 to {per_color(state)}, not {n!r}"
                )
            counts[names.index(colour)] = n
        player.extra[NAME] = counts
        for ci, name in enumerate(names):
            total = sum(p.extra.get(NAME, [0] * len(names))[ci] for p in state.players)
            if total > per_color(state):
                raise GameDataError(
                    f"there are only {per_color(state)} {name} meeples; the score file has {total}"
                )

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {NAME: {"colors": colors(state), "places": [list(p) for p in places(state)]}}


register_feature(Meeples())

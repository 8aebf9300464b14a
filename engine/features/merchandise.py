"""Merchandise (Märklin): a pile of goods tokens on each city, highest value on top; passengers take them
(engine.features.passengers). Tokens score at once and stay with the player for the recount: the end-of-game
sheet shows them as the bonus `merchandise` (the running score already holds them as `points_in_play`), and
their total is the `merchandise` tie-break.

Board data: each city's `extra.merchandise` is its pile, top first (`[7, 6, 5, 4]`); countries have none.
State: `state.module["merchandise"]` = one list per place (top first); `player.extra["merchandise"]` = the token
values a player holds, `player.extra["points_in_play"]` = their sum (also counted in `player.score`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.errors import GameDataError
from engine.features import Feature, register_feature
from engine.state import GameState

if TYPE_CHECKING:
    from engine.sheets import ScoreSheet

NAME = "merchandise"
POINTS_IN_PLAY = "points_in_play"
DECLARED = "merchandise_declared"  # `ttr score`: a points total given instead of the token list


_INITIAL: dict[str, tuple[tuple[int, ...], ...]] = {}


def initial_piles(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The piles as the board data sets them up (top first); empty for countries and cities without goods."""
    board = state.board
    found = _INITIAL.get(board.id)
    if found is None:
        found = tuple(
            () if c.dead_end else tuple(int(v) for v in c.extra.get("merchandise") or ())
            for c in board.cities
        )
        _INITIAL[board.id] = found
    return found


def supply(state: GameState) -> Counter[int]:
    """How many tokens of each value the game has."""
    return Counter(v for pile in initial_piles(state) for v in pile)


def piles(state: GameState) -> list[list[int]]:
    found: list[list[int]] = state.module[NAME]
    return found


def top_token(state: GameState, city: int) -> int:
    """Value of the top token of a city's pile (0 when empty)."""
    pile = piles(state)[city]
    return pile[0] if pile else 0


def take_token(state: GameState, seat: int, city: int) -> int | None:
    """The seat takes the top token of the city; it scores at once. Returns its value (None: pile empty)."""
    pile = piles(state)[city]
    if not pile:
        return None
    value = pile.pop(0)
    player = state.players[seat]
    player.extra.setdefault(NAME, []).append(value)
    player.extra[POINTS_IN_PLAY] = player.extra.get(POINTS_IN_PLAY, 0) + value
    player.score += value
    return value


def merchandise_points(state: GameState, seat: int) -> int:
    """Recount of the seat's merchandise from the tokens held (plus a total declared in a score file)."""
    extra = state.players[seat].extra
    return sum(extra.get(NAME, ())) + int(extra.get(DECLARED, 0))


class Merchandise(Feature):
    name = NAME

    def setup(self, state: GameState) -> None:
        state.module[NAME] = [list(p) for p in initial_piles(state)]
        for p in state.players:
            p.extra[NAME] = []
            p.extra.setdefault(POINTS_IN_PLAY, 0)

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        for sheet in sheets:
            points = merchandise_points(state, sheet.seat)
            sheet.bonuses[NAME] = points
            sheet.tie_values[NAME] = points

    def invariants(self, state: GameState) -> list[str]:
        errors: list[str] = []
        held = held_value = 0
        for seat, p in enumerate(state.players):
            tokens = p.extra.get(NAME, [])
            held += len(tokens)
            held_value += sum(tokens)
            if sum(tokens) + p.extra.get(DECLARED, 0) != p.extra.get(POINTS_IN_PLAY, 0):
                errors.append(
                    f"seat {seat}: merchandise {tokens} but points_in_play {p.extra.get(POINTS_IN_PLAY)}"
                )
        on_board = board_value = 0
        for city, (pile, first) in enumerate(zip(piles(state), initial_piles(state), strict=True)):
            on_board += len(pile)
            board_value += sum(pile)
            if len(pile) > len(first) or tuple(pile) != first[len(first) - len(pile) :]:
                errors.append(
                    f"pile of {state.board.cities[city].name} is {pile}, not the bottom of {list(first)}"
                )
        total = sum(len(first) for first in initial_piles(state))
        value = sum(sum(first) for first in initial_piles(state))
        if held + on_board != total or held_value + board_value != value:
            errors.append(
                f"merchandise tokens: {on_board} on the board + {held} held != {total}, "
                f"or points {board_value} + {held_value} != {value}"
            )
        return errors

    def load_score_extras(self, state: GameState, seat: int, data: dict[str, Any]) -> None:
        """`"merchandise": [7, 4, 2]` (token values collected) or `"merchandise": 13` (their total)."""
        if NAME not in data:
            return
        value = data[NAME]
        player = state.players[seat]
        if isinstance(value, bool) or not isinstance(value, int | list):
            raise GameDataError(
                f"{player.name}: merchandise is a list of token values or a points total, not {value!r}"
            )
        if isinstance(value, int):
            if value < 0:
                raise GameDataError(f"{player.name}: merchandise points cannot be negative")
            player.extra[DECLARED] = value
            player.extra[POINTS_IN_PLAY] = player.extra.get(POINTS_IN_PLAY, 0) + value
            player.score += value
            return
        tokens = supply(state)
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or v not in tokens:
                raise GameDataError(
                    f"{player.name}: {v!r} is not a merchandise token value "
                    f"({', '.join(map(str, sorted(tokens)))})"
                )
        held = Counter(value)
        for other in state.players:
            if other is not player:
                held.update(other.extra.get(NAME, []))
        for v, n in held.items():
            if n > tokens[v]:
                raise GameDataError(
                    f"there are only {tokens[v]} merchandise tokens worth {v}; the score file has {n}"
                )
        player.extra[NAME] = list(value)
        player.extra[POINTS_IN_PLAY] = player.extra.get(POINTS_IN_PLAY, 0) + sum(value)
        player.score += sum(value)

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {NAME: [list(p) for p in piles(state)]}


register_feature(Merchandise())

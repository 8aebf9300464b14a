"""Score a finished position given as JSON (a physical game, or a check of the engine's scoring).

Input: {"map": "europe", "variant": "classic", "options": [...], "players": [{"name": "Ann", "routes": [["Paris",
"Wien"], ["Kyiv", "Smolensk", "red"]], "tickets": [["Paris", "Budapest"]], "stations": ["Zürich"],
"depots_in_reserve": 2, ...board extras}]}. Names match case-insensitively and without accents.
"""

from __future__ import annotations

from typing import Any

from engine.errors import GameDataError
from engine.rules import new_game
from engine.scoring import ScoreSheet, final_scores, winners
from engine.state import FINISHED, NOBODY, GameState
from engine.turn import features_for
from maps import COLORS, Board, BoardDataError, load_board
from maps.board import RouteNameError, color_index, select_tickets


def _place(board: Board, name: Any) -> int:
    if not isinstance(name, str):
        raise GameDataError(f"a place name must be a string, not {name!r}")
    try:
        return board.city(name).id
    except BoardDataError as exc:
        raise GameDataError(str(exc)) from exc


def resolve_route(board: Board, entry: Any, taken: list[int]) -> int:
    """The route `entry` ([a, b] or [a, b, colour]) names among those not yet in `taken`."""
    if not isinstance(entry, list) or len(entry) not in (2, 3):
        raise GameDataError(f"a route is [a, b] or [a, b, colour], not {entry!r}")
    a, b = _place(board, entry[0]), _place(board, entry[1])
    try:
        colour: int | None = None
        if len(entry) == 3:
            colour = color_index(str(entry[2]))
            if colour is None:
                raise GameDataError(f"{entry[2]!r} is not a route colour")
        lanes = board.lanes(a, b, colour, gray_takes_any=False)  # a score file names the lane itself
        return board.pick_lane(lanes, [r for r in lanes if taken[r] == NOBODY])
    except RouteNameError as exc:
        if exc.code == "none_open":
            raise GameDataError(f"{exc.params['route']} is claimed twice") from exc
        if exc.code == "ambiguous":
            raise GameDataError(f"{exc}, as [a, b, colour]") from exc
        raise GameDataError(str(exc)) from exc


def resolve_ticket(board: Board, variant: str, entry: Any) -> int:
    if not isinstance(entry, list) or len(entry) != 2:
        raise GameDataError(f"a ticket is [a, b], not {entry!r}")
    a, b = _place(board, entry[0]), _place(board, entry[1])
    for t in select_tickets(board.tickets, board.variant(variant)):
        if {t.a, t.b} == {a, b}:
            return t.id
    raise GameDataError(
        f"{board.cities[a].name}–{board.cities[b].name} is not a ticket of {board.name} ({variant})"
    )


def _entries(entry: dict[str, Any], key: str) -> list[Any]:
    """A player's list `key` (routes, tickets, stations), empty when absent."""
    found = entry.get(key, [])
    if not isinstance(found, list):
        raise GameDataError(f"{key} is a list, not {found!r}")
    return found


def position_from_json(data: Any) -> GameState:
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise GameDataError('a score file is {"map": ..., "players": [...]}')
    if not all(isinstance(p, dict) for p in data["players"]):
        raise GameDataError('each player is {"name": ..., "routes": [...], ...}')
    try:
        board = load_board(str(data.get("map", "")))
        names = [str(p["name"]) for p in data["players"]]
        lo, hi = board.rules["players"]
        if not lo <= len(names) <= hi:  # the board's tables (bonuses by rank...) stop there
            raise GameDataError(
                f"{board.name} is played by {lo} to {hi} players; this position has {len(names)}"
            )
        state = new_game(
            board,
            names,
            variant=data.get("variant"),
            options=tuple(data.get("options", ())),
            first_player=0,
        )
    except (BoardDataError, KeyError, TypeError) as exc:
        raise GameDataError(str(exc)) from exc
    except ValueError as exc:
        raise GameDataError(str(exc)) from exc
    state.pending.clear()
    state.route_owner = [NOBODY] * len(board.routes)
    rules = board.rules
    for seat, (player, entry) in enumerate(zip(state.players, data["players"], strict=True)):
        player.routes = []
        for r in _entries(entry, "routes"):
            rid = resolve_route(board, r, state.route_owner)
            for other in board.groups_by_route[rid]:
                if state.route_owner[other] == seat:
                    raise GameDataError(f"{player.name} has two routes of {board.route_label(rid)}")
            state.route_owner[rid] = seat
            player.routes.append(rid)
        player.trains = rules["trains_per_player"] - sum(board.routes[r].length for r in player.routes)
        if player.trains < 0:
            raise GameDataError(
                f"{player.name}'s routes need {rules['trains_per_player'] - player.trains} trains; "
                f"{board.name} gives each player {rules['trains_per_player']}"
            )
        player.score = sum(board.route_points(board.routes[r].length) for r in player.routes)
        player.tickets = [resolve_ticket(board, state.variant, t) for t in _entries(entry, "tickets")]
        stations = _entries(entry, "stations")
        if stations and not rules.get("stations_per_player"):
            raise GameDataError(f"{board.name} has no stations")
        if len(stations) > rules.get("stations_per_player", 0):
            raise GameDataError(f"{player.name} has more than {rules.get('stations_per_player')} stations")
        for city_name in stations:
            city = _place(board, city_name)
            if city in state.station_owner:
                raise GameDataError(f"{board.cities[city].name} has two stations")
            state.station_owner[city] = seat
        player.stations = rules.get("stations_per_player", 0) - len(stations)
        if "depots_in_reserve" in entry:
            if "warehouses" not in state.options:
                raise GameDataError('depots_in_reserve needs "options": ["warehouses"]')
            depots = entry["depots_in_reserve"]
            if not isinstance(depots, int) or isinstance(depots, bool) or depots < 0:
                raise GameDataError(f"depots_in_reserve is a count, not {depots!r}")
            player.depots = depots
        for f in features_for(state):
            f.load_score_extras(state, seat, entry)
    _check_multiple_routes(state)
    state.phase = FINISHED
    return state


def _check_multiple_routes(state: GameState) -> None:
    """Below the board's player count for multiple routes, one route of each double or triple route is used:
    a position with two of them claimed cannot come from a game."""
    board = state.board
    least = board.rules.get("min_players_for_multi_routes", 4)
    if state.num_players >= least:
        return
    for group in board.groups:
        claimed = [r for r in group if state.route_owner[r] != NOBODY]
        if len(claimed) > 1:
            raise GameDataError(
                f"{board.route_label(claimed[0])}: {len(claimed)} routes of one multiple route are claimed; with "
                f"{state.num_players} players only one can be ({least} or more players use them all)"
            )


def score_json(data: Any) -> dict[str, Any]:
    state = position_from_json(data)
    sheets: list[ScoreSheet] = final_scores(state)
    return {"players": [s.to_json() for s in sheets], "winners": winners(sheets)}


__all__ = ["COLORS", "position_from_json", "score_json"]

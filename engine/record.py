"""Game records: a game is its setup (board, variant, options, players, seed, first player) plus its action log.
The seed draws the first player; a record names it too, so a game saved before that draw (seat 0 first) replays.

A record replays exactly through the engine; `replay` refuses a record whose actions are not legal and names the
first bad one.
"""

from __future__ import annotations

from typing import Any

from engine.actions import action_from_json
from engine.errors import GameDataError, IllegalAction
from engine.rules import apply, new_game
from engine.state import GameState

RECORD_FORMAT = 1


def make_record(state: GameState) -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "map": state.board.id,
        "variant": state.variant,
        "options": list(state.options),
        "players": [p.name for p in state.players],
        "seed": state.seed,
        "first_player": state.first_player,
        "actions": [{"seat": seat, "action": action.to_json()} for seat, action in state.history],
    }


def replay(record: dict[str, Any]) -> GameState:
    if not isinstance(record, dict) or not isinstance(record.get("map"), str):
        raise GameDataError(
            'not a game record: a record is {"map": "...", "players": [...], "seed": ..., ...}'
        )
    if not isinstance(record.get("actions", []), list) or not isinstance(record.get("players"), list):
        raise GameDataError("not a game record: its players and actions are lists")
    try:
        state = new_game(
            record["map"],
            list(record["players"]),
            variant=record.get("variant"),
            options=tuple(record.get("options", ())),
            seed=int(record["seed"]),
            # the seed draws it (engine.rules.draw_first_player); a record written before that has none
            first_player=record.get("first_player"),
        )
        actions = record["actions"]
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        raise GameDataError(f"not a game record: {exc}") from exc
    for i, entry in enumerate(actions, start=1):
        try:
            seat = int(entry["seat"])
            action = action_from_json(entry["action"])
        except (KeyError, TypeError, ValueError) as exc:
            raise GameDataError(f"action {i}: malformed entry {entry!r}") from exc
        try:
            apply(state, seat, action)
        except IllegalAction as exc:
            raise GameDataError(f"action {i} (seat {seat}, {entry['action']}) is not legal: {exc}") from exc
    return state

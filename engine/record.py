"""Game records: a game is its setup (board, variant, options, players, seed, first player) plus its action log.
The seed draws the first player; a record names it too, so a game saved before that draw (seat 0 first) replays.

A record replays exactly through the engine. `iter_replay` is the one replay: `replay` (the final state, `ttr
replay`), the bot's game log and the end-of-game GIF all step through it. It refuses a record whose actions are
not legal and names the first bad one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.actions import Action, action_from_json
from engine.errors import GameDataError, IllegalAction
from engine.rules import apply, new_game
from engine.state import GameState

RECORD_FORMAT = 1


def make_record(
    state: GameState, actions: Iterable[tuple[int | None, dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """The record of the game `state` is in. `actions`: its log as (seat, action as JSON) pairs, when it comes
    from elsewhere than `state.history` (a stored log, whose seat column may be empty: the replay refuses such
    an entry by its position); the setup is always `state`'s."""
    if actions is None:
        actions = ((seat, action.to_json()) for seat, action in state.history)
    return {
        "format": RECORD_FORMAT,
        "map": state.board.id,
        "variant": state.variant,
        "options": list(state.options),
        "players": [p.name for p in state.players],
        "seed": state.seed,
        "first_player": state.first_player,
        "actions": [{"seat": seat, "action": action} for seat, action in actions],
    }


def start_of(record: Any) -> GameState:
    """The game of `record` before its first action. `record` is whatever a file held (Any, not a dict: the
    compiled module would refuse a list with a TypeError before the check below could say what is wrong)."""
    if not isinstance(record, dict) or not isinstance(record.get("map"), str):
        raise GameDataError(
            'not a game record: a record is {"map": "...", "players": [...], "seed": ..., ...}'
        )
    if not isinstance(record.get("actions", []), list) or not isinstance(record.get("players"), list):
        raise GameDataError("not a game record: its players and actions are lists")
    try:
        return new_game(
            record["map"],
            list(record["players"]),
            variant=record.get("variant"),
            options=tuple(record.get("options", ())),
            seed=int(record["seed"]),
            # the seed draws it (engine.rules.draw_first_player); a record written before that has none
            first_player=record.get("first_player"),
        )
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        raise GameDataError(f"not a game record: {exc}") from exc


def iter_replay(record: Any) -> Iterator[tuple[int, int, Action, GameState]]:
    """Plays `record` back: after each action, (its position in the log from 1, seat, action, the state). The
    state is one object, changed in place by every step: copy it to keep a position."""
    state = start_of(record)
    try:
        actions = list(record["actions"])
    except (KeyError, TypeError) as exc:
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
        yield i, seat, action, state


def replay(record: Any) -> GameState:
    """The game of `record` after its last action."""
    last: GameState | None = None
    for step in iter_replay(record):
        last = step[3]
    return last if last is not None else start_of(record)

"""Game records: a game is its setup (board, variant, options, players, seed, first player) plus its action log.
The seed draws the first player; a record names it too, so a game saved before that draw (seat 0 first) replays.

A record replays exactly through the engine. `iter_replay` is the one replay: `replay` (the final state, `ttr
replay`), the bot's game log and the end-of-game GIF all step through it. It refuses a record whose actions are
not legal and names the first bad one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from engine.actions import Action, action_from_json, history_entry
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


# ---- saved positions: a game stored as its log plus its position every few actions ----------------------------


def saved_position(state: GameState) -> dict[str, Any]:
    """`state` as `GameState.to_dict` saves it, without its history (its log is kept apart: `resume`)."""
    return state.to_dict(history=False)


def resume(saved: dict[str, Any], log: Sequence[Sequence[Any]], at: int) -> GameState:
    """The game whose position after the first `at` entries of `log` is `saved` (`saved_position`), played on
    through the rest of `log` (seat, action as JSON): the same state, byte for byte, as the one that was saved
    after every action (the engine is deterministic: its chance is the state's own generator). A `saved` that
    still holds its history (a whole `to_dict`) is taken with that history. The state owns what `saved` holds
    afterwards (as with `GameState.from_dict`: pass a copy to keep it). GameDataError when the log does not fit
    (`at` beyond it, an entry that is not a legal action there)."""
    if not 0 <= at <= len(log):
        raise GameDataError(f"a position saved after action {at} of a log of {len(log)}")
    # (a whole `to_dict` keeps its history as it is: a log of moves before it may be missing)
    state = GameState.from_dict(saved if "history" in saved else {**saved, "history": log[:at]})
    for i in range(at, len(log)):
        seat, action = log[i]
        try:
            apply(state, int(seat), action_from_json(action))
        except (IllegalAction, TypeError, ValueError, KeyError) as exc:
            raise GameDataError(f"action {i + 1} (seat {seat}, {action}) does not replay: {exc}") from exc
    # the replayed entries shared as a loaded history's are (engine.actions.history_entry): a cached game's memory
    replayed = len(log) - at
    if replayed:
        state.history[-replayed:] = [
            history_entry(seat, action) for seat, action in state.history[-replayed:]
        ]
    return state

"""How a game is stored (bot.storage, V006): a move appends its action to the game's log, and the game's position
(the engine state without its history) is saved with the move every :data:`SAVE_POSITION_EVERY` moves and with the
last one. A game is its last saved position played on through the actions after it (``engine.record.resume``);
its history is its log. Loading one replays fewer actions than that, a few microseconds each."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from bot.storage import GameRecord, GameRepository, GameStatus, StorageBroken, StorageUnavailable
from engine.actions import action_from_json, history_entry
from engine.record import resume, saved_position
from engine.state import GameState

__all__ = ["SAVE_POSITION_EVERY", "catch_up", "position_due", "share_newest", "state_of", "stored_state"]

log = logging.getLogger(__name__)


class Saved(Protocol):
    """A game as far as its saved position goes (bot.manager.store.LiveGame)."""

    id: str
    action_count: int
    snapshot_seq: int


#: the game's position is saved with every this many moves (WAL and disk per move against replay per load)
SAVE_POSITION_EVERY = 20


def position_due(seq: int, saved_at: int, finished: bool, every: int = SAVE_POSITION_EVERY) -> bool:
    """Whether the move that makes the game's log `seq` long saves its position (last saved after `saved_at`)."""
    return finished or seq - saved_at >= every


def share_newest(state: GameState) -> None:
    """The newest entry of `state`'s history made the shared one (engine.actions.history_entry), as a loaded
    game's are: a game played on in this process keeps about 8 bytes a move of history, not a tuple and an
    action of its own (a cached game's memory)."""
    if state.history:
        seat, action = state.history[-1]
        # (its action as a load decodes it: the same shared instance, whoever made this one)
        state.history[-1] = history_entry(seat, action_from_json(action.to_json()))


def state_of(rec: GameRecord, actions: Sequence[Sequence[Any]]) -> GameState | None:
    """The game of `rec` (None before it started): its saved position played on through `actions`, its log as
    ``[seat, action]`` pairs (``GameRepository.load_log``). GameDataError when they do not fit."""
    if not rec.snapshot:
        return None
    if len(actions) < rec.action_count:
        log.error(
            "game %s: its log has %d actions, the game counts %d", rec.id, len(actions), rec.action_count
        )
    # the log is read after the row: moves another process made in between are not this record's game (nor may a
    # position of theirs be saved as this one's)
    return resume(rec.snapshot, actions[: rec.action_count], rec.snapshot_seq)


async def stored_state(repo: GameRepository, game_id: str) -> GameState | None:
    """The game as storage holds it; None before it started."""
    rec = await repo.load_game(game_id)
    return state_of(rec, await repo.load_log(game_id) if rec.snapshot and rec.action_count else [])


async def catch_up(
    repo: GameRepository, game: Saved, state: GameState, every: int = SAVE_POSITION_EVERY
) -> int:
    """After a load that had to replay `every` actions or more (a game stored before V006, a crash), save the
    position now: the next load replays less. Returns how many actions the stored position has applied. Best
    effort: the log is the game, the position only shortens its load."""
    if game.action_count - game.snapshot_seq < every:
        return game.snapshot_seq
    try:
        if await repo.save_snapshot(game.id, game.action_count, saved_position(state)):
            return game.action_count
    except (StorageUnavailable, StorageBroken) as exc:
        log.warning("game %s: position not saved (%s); the next load replays its log again", game.id, exc)
    return game.snapshot_seq


def changed_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The cached game's fields that storing ``update_game(**fields)`` changes, by name (for
    `dataclasses.replace` before the write, and set on the cached game once it landed)."""
    changed: dict[str, Any] = {}
    if "status" in fields:
        changed["status"] = GameStatus(fields["status"])
    if "seats" in fields:
        changed["seats"] = tuple(fields["seats"])
    if "settings" in fields:
        changed["raw_settings"] = dict(fields["settings"])
    if "host_id" in fields:
        changed["host_id"] = fields["host_id"]
    if "snapshot" in fields:
        changed["state"] = GameState.from_dict(fields["snapshot"])
    return changed

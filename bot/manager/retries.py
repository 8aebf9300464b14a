"""Storage writes retried across a lost acknowledgement: a connection lost during COMMIT raises
``StorageUnavailable`` although the write may have landed. The retry (same expected version) then meets that
write; it is recognised here, and the request answers as if the first try had been acknowledged, instead of
refusing because of its own write ("already open here", "already started", "already in this game"...).

A change of a game is recognised by the version it wrote *and* what it wrote (:func:`landed`): another
process's different write at that version is not taken for ours (the request runs again on it). A new lobby is
recognised as the place's open game, untouched (version 0), opened since the request began, with what the
request wrote (:func:`created`). Appending a move has its own check, against the log (bot.manager.store).

What the player is told once the retries are spent, and what the host reads, is here too (:func:`gave_up`,
:func:`broken_refusal`), for the one classification of storage faults (bot.storage.base): retry now, retry later,
the host must act, a bug.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.manager.refusals import Refused
from bot.storage import (
    GameRecord,
    GameStatus,
    PlaceTaken,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageUnavailable,
    TimerChange,
    VersionConflict,
)

if TYPE_CHECKING:
    from bot.manager.outage import Outage
    from bot.manager.store import GameStore, LiveGame

__all__ = ["broken_refusal", "create", "created", "gave_up", "landed", "update"]

log = logging.getLogger(__name__)


async def create(store: GameStore, **fields: Any) -> GameRecord:
    """``create_game(only_if_place_free=True, **fields)`` with the store's retries; a retry that meets, as the
    place's open game, the lobby its own lost attempt created is that creation acknowledged. PlaceTaken
    otherwise (another game is open there)."""
    unavailable: StorageUnavailable | None = None
    since = store.clock.now()
    for delay in (0.0, *store.retry_delays):
        if delay:
            await asyncio.sleep(delay)
        try:
            record = await store.repo.create_game(only_if_place_free=True, **fields)
        except StorageUnavailable as exc:
            unavailable = exc
            if not store.outage.retrying(exc, " while opening a game"):
                break
        except StorageBroken as exc:
            raise broken_refusal(exc, store.outage) from None
        except PlaceTaken as exc:
            if unavailable is None:
                raise
            stored = await _find(store, exc.game_id)
            if stored is None or not created(stored, since, fields):
                raise
            log.info("game %s: its creation's acknowledgement was lost; it had landed", stored.id)
            return stored
        else:
            store.outage.recovered(wrote=True)
            return record
    raise gave_up(unavailable, store.outage) from unavailable


async def update(store: GameStore, game: LiveGame, fields: dict[str, Any], change: TimerChange) -> int:
    """``update_game(**fields)`` of `game` (with the timer rows `change`) under its version guard, with the
    store's retries; returns the new version. A retry that meets the version its own lost attempt wrote,
    holding what that attempt wrote, is that write acknowledged; VersionConflict otherwise."""
    expected = game.version
    unavailable: StorageUnavailable | None = None
    for delay in (0.0, *store.retry_delays):
        if delay:
            await asyncio.sleep(delay)
        try:
            version = await store.repo.update_game(game.id, expected, **fields, timers=change or None)
        except StorageUnavailable as exc:
            unavailable = exc
            if not store.outage.retrying(exc, f" while saving a change of game {game.id}"):
                break
        except StorageBroken as exc:
            raise broken_refusal(exc, store.outage) from None
        except VersionConflict:
            if unavailable is None:
                raise
            stored = await _find(store, game.id)
            if stored is None or not landed(stored, expected + 1, fields):
                raise
            log.info("game %s: a change whose acknowledgement was lost had landed", game.id)
            return expected + 1
        else:
            store.outage.recovered(wrote=True)
            return version
    raise gave_up(unavailable, store.outage) from unavailable


async def _find(store: GameStore, game_id: str) -> GameRecord | None:
    return await store.storage(lambda: store.repo.find_game(game_id))


def landed(stored: GameRecord, version: int, fields: dict[str, Any]) -> bool:
    """Whether `stored` is the write of `fields` at `version`: the version that write made, holding what it
    wrote."""
    if stored.version != version:
        return False
    return all(
        getattr(stored, name) == _as_stored(name, value)
        for name, value in fields.items()
        if value is not None and hasattr(stored, name)  # (results: written with it, not on the game's row)
    )


def created(stored: GameRecord, since: datetime, fields: dict[str, Any]) -> bool:
    """Whether `stored` is the lobby a ``create_game(**fields)`` begun at `since` wrote, untouched since."""
    if stored.version != 0 or stored.created_at < since - timedelta(seconds=1):
        return False
    names = ("guild_id", "channel_id", "thread_id", "host_id", "board", "variant", "options", "settings")
    return all(
        getattr(stored, name) == _as_stored(name, fields[name])
        for name in (*names, "seats", "status")
        if name in fields
    )


def _as_stored(name: str, value: Any) -> Any:
    """A field's `value` as it reads back from storage (JSON: tuples become lists, keys strings)."""
    if name == "status":
        return GameStatus(value)
    if name == "seats":
        return tuple(value)
    if name in ("settings", "options", "snapshot"):
        return json.loads(json.dumps(value))
    return value


def gave_up(last: StorageUnavailable | None, outage: Outage) -> Refused:
    """The player's refusal once the retries are spent: the database is busy (``storage``: try again in a
    moment), or cannot be reached for now (``storage_down``: try again later; the host reads one error line
    per outage, naming the cause: `outage`)."""
    if isinstance(last, StorageDown):
        outage.failed(last)
        return Refused("storage_down")
    return Refused("storage")


def broken_refusal(exc: StorageBroken, outage: Outage) -> Refused:
    """The player's refusal for a fault no retry can fix; the host reads what to do in the outage's one line
    (a bug of the bot's own statement is logged each time: it is no outage)."""
    if isinstance(exc, StorageBug):
        log.error("storage refused the bot's statement: %s. %s", exc, exc.advice)
    else:
        outage.failed(exc)
    return Refused("storage_unavailable")

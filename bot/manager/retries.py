"""Storage writes retried across a lost acknowledgement: a connection lost during COMMIT raises
``StorageUnavailable`` although the write may have landed. The retry (same expected version) then meets that
write; it is recognised here, and the request answers as if the first try had been acknowledged, instead of
refusing because of its own write ("already open here", "already started", "already in this game"...). The
one retry loop that asks these questions is :meth:`bot.manager.store.GameStore.storage`.

A change of a game is recognised by the version it wrote *and* what it wrote (:func:`landed`): another
process's different write at that version is not taken for ours (the request runs again on it). A new lobby is
recognised as the place's open game, untouched (version 0), opened since the request began, with what the
request wrote (:func:`created`). A move is recognised in the log, as the one action after those known, with
its seat, action and version (:func:`appended`).

What the player is told once the retries are spent, and what the host reads, is here too (:func:`gave_up`,
:func:`broken_refusal`), for the one classification of storage faults (bot.storage.base): retry now, retry later,
the host must act, a bug.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.manager.refusals import Refused
from bot.storage import (
    ActionRecord,
    GameRecord,
    GameStatus,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageUnavailable,
)

if TYPE_CHECKING:
    from bot.manager.outage import Outage

__all__ = ["appended", "broken_refusal", "created", "gave_up", "landed"]

log = logging.getLogger(__name__)


def appended(rows: Sequence[ActionRecord], seat: int, action: dict[str, Any], version: int) -> bool:
    """Whether the log's `rows` after the game's last known action are the append of `action` by `seat` at
    `version`: the only one, ours."""
    return len(rows) == 1 and rows[0].seat == seat and rows[0].action == action and rows[0].version == version


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

"""Lobby expiry: a lobby nobody starts is abandoned ``LOBBY_EXPIRE_HOURS`` after its last change.

A lobby has one ``lobby`` timer row (:data:`~bot.manager.store.LOBBY_TIMER`), written in the transaction that
creates it (:func:`first_rows`) and given at start-up to a lobby that lacks it (:meth:`LiveGame.lobby_work`,
through ``TurnTimers.sweep``). Joins, departures, AI seats and settings do NOT rewrite it (a lobby change
costs no timer write): when it fires (:func:`fire`, from the one dispatcher in :mod:`bot.manager.timers`,
under the game's lock, after the row was found still stored), it is re-armed for one delay after the lobby's
last change, or, when the lobby saw no change for the whole delay, the lobby is abandoned (its rows go in the
same transaction) and the notifier hears ``on_lobby_expired``. Starting the game or abandoning it clears the
row with the change (:meth:`LiveGame.due_work`).

Across processes the row is served once: it is claimed with a lease, checked again under the lock, and the
abandonment is written under the game's version guard (a process that lost the race writes nothing and the
row, or what is left of it, is served again from the stored game). The notifier is told after the commit: a
process that dies in between leaves the lobby closed without its message (at most once, like a reminder).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.manager.clock import Clock
from bot.manager.events import GameEvent
from bot.manager.moves import Collector
from bot.manager.read import outcome_of
from bot.manager.store import LOBBY_TIMER, GameStore, LiveGame
from bot.messages import Text
from bot.storage import GameStatus, NewTimer, Timer, TimerChange

if TYPE_CHECKING:
    from bot.manager.timers import Notifier

__all__ = ["EXPIRED", "expiry_of", "fire", "first_rows", "hours_text"]

log = logging.getLogger(__name__)

#: the ``data`` flag of the "abandoned" event of an expired lobby
EXPIRED = "expired"


def expiry_of(hours: float) -> timedelta | None:
    """The delay of ``LOBBY_EXPIRE_HOURS`` (0 or less: lobbies never expire)."""
    return timedelta(hours=hours) if hours > 0 else None


def hours_text(delay: timedelta) -> str:
    """``24`` / ``1.5``: the delay in hours as players read it."""
    hours = delay.total_seconds() / 3600
    return str(int(hours)) if hours == int(hours) else f"{hours:g}"


def first_rows(now: datetime, expiry: timedelta | None) -> TimerChange:
    """The rows a new lobby is created with (in the same transaction): its expiry, when lobbies expire."""
    return TimerChange() if expiry is None else TimerChange(add=(NewTimer(LOBBY_TIMER, now + expiry, {}),))


async def fire(
    store: GameStore,
    clock: Clock,
    notifier: Notifier,
    game: LiveGame,
    timer: Timer,
    notes: list[Callable[[], Awaitable[None]]],
) -> None:
    """Serve the ``lobby`` row `timer` of `game` (held under its lock, the row found still stored): re-arm it
    from the lobby's last change, expire the lobby, or drop a row that has nothing left to watch. What the
    bot must be told goes to `notes` (called outside the lock)."""
    expiry = store.lobby_expiry
    if game.status != GameStatus.LOBBY or expiry is None:  # started, over, or expiry turned off since
        change = game.due_work(clock.now())
        await store.change_timers(game, change or TimerChange(clear=(timer.kind,)))
        return
    now = clock.now()
    due = game.last_move_at + expiry
    if due > now:  # something happened in the lobby since the row was armed: wait from then
        await store.change_timers(
            game, TimerChange(clear=(LOBBY_TIMER,), add=(NewTimer(LOBBY_TIMER, due, {}),))
        )
        return
    await store.update(game, status=GameStatus.ABANDONED)  # the rows go with it (LiveGame.due_work)
    log.info("game %s: lobby expired after %s h without a change", game.id, hours_text(expiry))
    out = Collector(game.id)
    out.events.append(
        GameEvent(
            game.id,
            0,
            "abandoned",
            None,
            Text("ev.lobby_expired", {"hours": hours_text(expiry)}),
            {EXPIRED: True},
            "system",
        )
    )
    notes.append(functools.partial(notifier.on_lobby_expired, game.id, outcome_of(game, out)))

"""Lobby expiry: a lobby nobody starts is abandoned ``LOBBY_EXPIRE_HOURS`` after its last change.

A lobby has one ``lobby`` timer row (:class:`~bot.manager.timer_rows.LobbyWatch`), written in the transaction that
creates it (:func:`first_rows`) and given at start-up to a lobby that lacks it (:meth:`LiveGame.lobby_work`,
through ``TurnTimers.sweep``). Joins, departures, AI seats and settings do NOT rewrite it (a lobby change
costs no timer write): when it fires (:func:`fire`, from the one dispatcher in :mod:`bot.manager.timers`,
under the game's lock, after the row was found still stored), it is re-armed for one delay after the lobby's
last change, or, when the lobby saw no change for the whole delay, the lobby is abandoned (its rows go in the
same transaction, but the notice's, below) and the notifier hears ``on_lobby_expired``. Starting the game or abandoning it clears the
row with the change (:meth:`LiveGame.due_work`).

Across processes the row is served once: it is claimed with a lease, checked again under the lock, and the
abandonment is written under the game's version guard (a process that lost the race writes nothing and the
row, or what is left of it, is served again from the stored game).

The notice is durable work too (bot.manager.tell): the abandonment notes the delay (``lobby_expired``) and
writes, in the same transaction, a ``notice`` row claimed by this process for a lease; the notifier is told
after the commit (:meth:`TurnTimers.announce_expiry`), and the bot's ``expiry_told`` note, written once
Discord acknowledged the notice, clears the row. A process that dies before that note leaves the row: any
process posts the notice once its lease ends (:func:`notice_owed`, :func:`expired_outcome`). A kill between
the acknowledgement and the note posts it twice, as for a turn message (one database write long).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.manager.clock import Clock
from bot.manager.events import Abandoned, GameEvent
from bot.manager.moves import Collector
from bot.manager.read import Outcome, outcome_of
from bot.manager.store import GameStore, LiveGame
from bot.manager.tell import EXPIRY_TOLD, LOBBY_EXPIRED
from bot.manager.timer_rows import LobbyWatch, TimerKind
from bot.storage import GameStatus, Timer, TimerChange

__all__ = ["EXPIRED", "expired_outcome", "expiry_of", "fire", "first_rows", "hours_text", "notice_owed"]

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


def _noted_hours(note: object) -> float:
    """The delay noted as ``lobby_expired`` (``hours_text``: "24", "1.5"), as a number the catalogue writes in
    the reader's language ("1,5" in French); 0 when the note is missing or unreadable."""
    try:
        return float(str(note))
    except ValueError:
        return 0.0


def first_rows(now: datetime, expiry: timedelta | None) -> TimerChange:
    """The rows a new lobby is created with (in the same transaction): its expiry, when lobbies expire."""
    return TimerChange() if expiry is None else TimerChange(add=(LobbyWatch().row(now + expiry),))


async def fire(
    store: GameStore,
    clock: Clock,
    announce: Callable[[str, Outcome], Awaitable[None]],
    game: LiveGame,
    timer: Timer,
    notes: list[Callable[[], Awaitable[None]]],
) -> None:
    """Serve the ``lobby`` row `timer` of `game` (held under its lock, the row found still stored): re-arm it
    from the lobby's last change, expire the lobby, or drop a row that has nothing left to watch. The notice
    of an expiry goes to `notes` (``announce``, called outside the lock)."""
    expiry = store.lobby_expiry
    if game.status != GameStatus.LOBBY or expiry is None:  # started, over, or expiry turned off since
        change = game.due_work(clock.now())
        await store.change_timers(game, change or TimerChange(clear=(timer.kind,)))
        return
    now = clock.now()
    due = game.last_move_at + expiry
    if due > now:  # something happened in the lobby since the row was armed: wait from then
        await store.change_timers(game, TimerChange(clear=(TimerKind.LOBBY,), add=(LobbyWatch().row(due),)))
        return
    # the rows go with it, but the notice's, claimed by this process (LiveGame.due_work)
    noted = {**game.raw_settings, LOBBY_EXPIRED: hours_text(expiry)}
    await store.update(game, status=GameStatus.ABANDONED, settings=noted)
    log.info("game %s: lobby expired after %s h without a change", game.id, hours_text(expiry))
    notes.append(functools.partial(announce, game.id, expired_outcome(game)))


def notice_owed(game: LiveGame) -> bool:
    """The game is a lobby that expired and the notice saying so is not posted yet."""
    notes = game.raw_settings
    return game.status == GameStatus.ABANDONED and LOBBY_EXPIRED in notes and not notes.get(EXPIRY_TOLD)


def expired_outcome(game: LiveGame) -> Outcome:
    """What the notice of the expired lobby `game` tells (the same after a restart: the delay is noted)."""
    out = Collector(game.id)
    expired = Abandoned("expired", hours=_noted_hours(game.raw_settings.get(LOBBY_EXPIRED)))
    out.events.append(GameEvent(game.id, 0, "abandoned", None, {EXPIRED: True}, "system", change=expired))
    return outcome_of(game, out)

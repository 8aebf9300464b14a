"""Messages owed as durable work: rows written with the change that owes the message, claimed by the writing
process for a lease, and cleared by a note the bot writes once Discord acknowledged the post.

* The turn message owed by moves nobody clicked (AI seats, the absent-player policy): a ``tell`` row, written
  with the move (the final scores too, when such a move ended the game), cleared by the ``told_through`` note
  (bot.play.thread).
* The notice of a lobby that expired (bot.manager.lobbies): a ``notice`` row, written with the abandonment
  (which notes ``lobby_expired``: the delay), cleared by the ``expiry_told`` note (bot.play.lobby).
* A reminder (1 or 2) to a player who must act: a ``remind`` row per seat, written with the re-arm of the
  game's ``turn`` row that passes that stage, carrying what to send (:func:`reminder`); deleted by the
  manager once the notifier returned (no note). Dropped unsent when the wait it was written for is over.
* The absent-player announcement: an ``absent`` row per seat (:func:`absent`), written with the first move
  the ``ai`` or ``skip`` policy makes for that seat (announced exactly when that move is made), or, under the
  ``wait`` policy, with the re-arm that parks the ``turn`` row (dropped unsent when the wait is over); deleted
  once the notifier returned.

See bot.manager.timers for who serves the rows (the dispatcher, under lease, after a crash)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.manager.timer_rows import HELD_KINDS, Absent, Notice, Remind, Tell, TimerKind
from bot.storage import NewTimer, Timer, TimerChange
from engine.state import GameState

#: the note of the log position the last posted turn message told (written by bot.play.thread)
TOLD_THROUGH = "told_through"
LOBBY_EXPIRED = "lobby_expired"  # the note of an expired lobby: the delay, in hours as players read it
EXPIRY_TOLD = "expiry_told"  # the note written once the expiry notice is posted (bot.play.lobby)


def reminder(now: datetime, key: str, seat: int, user_id: int, n: int) -> NewTimer:
    """The ``remind`` row of reminder `n` to `seat` (`user_id`), owed for the wait `key`, due `now` (the
    process writing it holds it for a lease, :func:`held`)."""
    return Remind(key, seat, user_id, n).row(now)


def absent(now: datetime, key: str, seat: int, user_id: int | None, policy: str) -> NewTimer:
    """The ``absent`` row announcing that `policy` is applied to `seat` (`user_id`) in the wait `key`, due
    `now`."""
    return Absent(key, seat, user_id, policy).row(now)


def owed_position(
    state: GameState | None, notes: Mapping[str, Any], timers: Sequence[Timer], automatic: bool = False
) -> int | None:
    """The log position a turn message owes (None: nothing owed): a move nobody clicked that passed the turn or
    ended the game (`automatic`, or a ``tell`` row owing it) and that no posted turn message told yet (the
    ``told_through`` note among the game's `notes`, written once the message is posted)."""
    if state is None:
        return None
    entries = len(state.history)
    told = int(notes.get(TOLD_THROUGH) or 0)
    if entries <= told:
        return None
    rows_owe = any(_through(t, entries) > told for t in timers if t.kind == TimerKind.TELL)
    return entries if automatic or rows_owe else None


def _through(row: Timer, entries: int) -> int:
    """The log position the ``tell`` row `row` owes a message up to (a row without one: `entries`, the log)."""
    through = Tell.of(row).through
    return entries if through is None else through


def tell_rows(
    timers: Sequence[Timer], owed: int | None, due: datetime, clear: list[str], add: list[NewTimer]
) -> None:
    """Adds to `clear` and `add` what makes the game's ``tell`` rows one row owing log position `owed` (due at
    `due`, or when the row it replaces was), or none."""
    rows = [t for t in timers if t.kind == TimerKind.TELL]
    if owed is not None:
        if len(rows) != 1 or Tell.of(rows[0]).through != owed:
            clear.extend([TimerKind.TELL] if rows else [])
            add.append(Tell(owed).row(min((t.due_at for t in rows), default=due)))
    elif rows:
        clear.append(TimerKind.TELL)


def over_rows(timers: Sequence[Timer], owed: int | None, due: datetime) -> TimerChange:
    """The rows of a game over: one ``tell`` row while its final scores are owed (log position `owed`, due at
    `due` or when the row it replaces was), and its ``absent`` rows (the announcement of the absent-player move
    that ended it, maybe: deleted once posted); none else."""
    if owed is None and not any(t.kind == TimerKind.ABSENT for t in timers):
        return TimerChange(clear_all=True) if timers else TimerChange()
    clear = sorted({t.kind for t in timers if t.kind not in (TimerKind.TELL, TimerKind.ABSENT)})
    add: list[NewTimer] = []
    tell_rows(timers, owed, due, clear, add)
    return TimerChange(clear=tuple(clear), add=tuple(add))


def notice_rows(notes: Mapping[str, Any], timers: Sequence[Timer], now: datetime) -> TimerChange:
    """The rows of an abandoned game: one ``notice`` row while the notice of its expiry is owed (the lobby
    expired, `notes` hold ``lobby_expired`` and no ``expiry_told``), none otherwise."""
    if notes.get(LOBBY_EXPIRED) is None or notes.get(EXPIRY_TOLD):
        return TimerChange(clear_all=True) if timers else TimerChange()
    rows = [t for t in timers if t.kind == TimerKind.NOTICE]
    if len(rows) == 1 and len(timers) == 1:
        return TimerChange()
    due = min((t.due_at for t in rows), default=now)
    return TimerChange(clear_all=bool(timers), add=(Notice().row(due),))


def held(change: TimerChange, holder: tuple[str, float] | None, now: datetime) -> TimerChange:
    """`change` with its new ``tell`` or ``notice`` row claimed by `holder` (process id, lease seconds) for a
    lease, due now: the process that made a message owed posts it (its note clears the row); if it dies first,
    any process serves the row once the lease ends. Without a dispatcher (no holder) the row keeps its due
    time."""
    if holder is None or not any(n.kind in HELD_KINDS for n in change.add):
        return change
    owner, lease = holder
    until = now + timedelta(seconds=lease)
    add = tuple(
        dataclasses.replace(n, due_at=now, held_by=owner, held_until=until) if n.kind in HELD_KINDS else n
        for n in change.add
    )
    return dataclasses.replace(change, add=add)

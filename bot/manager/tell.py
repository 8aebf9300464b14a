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

from bot.storage import NewTimer, Timer, TimerChange
from engine.state import GameState

TELL_TIMER = "tell"  # a turn message owed after automatic moves (served by the dispatcher if nobody posts it)
#: the note of the log position the last posted turn message told (written by bot.play.thread)
TOLD_THROUGH = "told_through"
NOTICE_TIMER = "notice"  # the notice of an expired lobby, owed until posted (kept with the abandoned game)
LOBBY_EXPIRED = "lobby_expired"  # the note of an expired lobby: the delay, in hours as players read it
EXPIRY_TOLD = "expiry_told"  # the note written once the expiry notice is posted (bot.play.lobby)
REMIND_TIMER = "remind"  # a reminder owed to one seat: {"key", "seat", "user", "n"}
ABSENT_TIMER = "absent"  # an absent-player announcement owed: {"key", "seat", "user", "policy"}
#: the rows cleared by the note the bot writes once their message is posted
NOTED_KINDS = (TELL_TIMER, NOTICE_TIMER)
#: the announcements deleted by the manager once the notifier returned (one row per seat)
ANNOUNCE_KINDS = (REMIND_TIMER, ABSENT_TIMER)
#: the rows a process claims for a lease as it writes them (it is about to post their message)
HELD_KINDS = (*NOTED_KINDS, *ANNOUNCE_KINDS)


def reminder(now: datetime, key: str, seat: int, user_id: int, n: int) -> NewTimer:
    """The ``remind`` row of reminder `n` to `seat` (`user_id`), owed for the wait `key`, due `now` (the
    process writing it holds it for a lease, :func:`held`)."""
    return NewTimer(REMIND_TIMER, now, {"key": key, "seat": seat, "user": user_id, "n": n})


def absent(now: datetime, key: str, seat: int, user_id: int | None, policy: str) -> NewTimer:
    """The ``absent`` row announcing that `policy` is applied to `seat` (`user_id`) in the wait `key`, due
    `now`."""
    return NewTimer(ABSENT_TIMER, now, {"key": key, "seat": seat, "user": user_id, "policy": policy})


def owed_position(
    state: GameState | None, notes: Mapping[str, Any], timers: Sequence[Timer], automatic: bool = False
) -> int | None:
    """The log position a turn message owes (None: nothing owed): a move nobody clicked that passed the turn or
    ended the game (`automatic`, or a ``tell`` row owing it) and that no posted turn message told yet (the
    ``told_through`` note among the game's `notes`, written once the message is posted)."""
    if state is None:
        return None
    log = state.derived.get("history_json") if state._history is None else None
    entries = len(log) if log is not None else len(state.history)
    told = int(notes.get(TOLD_THROUGH) or 0)
    if entries <= told:
        return None
    rows_owe = any(int(t.payload.get("through", entries)) > told for t in timers if t.kind == TELL_TIMER)
    return entries if automatic or rows_owe else None


def tell_rows(
    timers: Sequence[Timer], owed: int | None, due: datetime, clear: list[str], add: list[NewTimer]
) -> None:
    """Adds to `clear` and `add` what makes the game's ``tell`` rows one row owing log position `owed` (due at
    `due`, or when the row it replaces was), or none."""
    rows = [t for t in timers if t.kind == TELL_TIMER]
    if owed is not None:
        if len(rows) != 1 or rows[0].payload.get("through") != owed:
            clear.extend([TELL_TIMER] if rows else [])
            add.append(NewTimer(TELL_TIMER, min((t.due_at for t in rows), default=due), {"through": owed}))
    elif rows:
        clear.append(TELL_TIMER)


def over_rows(timers: Sequence[Timer], owed: int | None, due: datetime) -> TimerChange:
    """The rows of a game over: one ``tell`` row while its final scores are owed (log position `owed`, due at
    `due` or when the row it replaces was), and its ``absent`` rows (the announcement of the absent-player move
    that ended it, maybe: deleted once posted); none else."""
    if owed is None and not any(t.kind == ABSENT_TIMER for t in timers):
        return TimerChange(clear_all=True) if timers else TimerChange()
    clear = sorted({t.kind for t in timers if t.kind not in (TELL_TIMER, ABSENT_TIMER)})
    add: list[NewTimer] = []
    tell_rows(timers, owed, due, clear, add)
    return TimerChange(clear=tuple(clear), add=tuple(add))


def notice_rows(notes: Mapping[str, Any], timers: Sequence[Timer], now: datetime) -> TimerChange:
    """The rows of an abandoned game: one ``notice`` row while the notice of its expiry is owed (the lobby
    expired, `notes` hold ``lobby_expired`` and no ``expiry_told``), none otherwise."""
    if notes.get(LOBBY_EXPIRED) is None or notes.get(EXPIRY_TOLD):
        return TimerChange(clear_all=True) if timers else TimerChange()
    rows = [t for t in timers if t.kind == NOTICE_TIMER]
    if len(rows) == 1 and len(timers) == 1:
        return TimerChange()
    due = min((t.due_at for t in rows), default=now)
    return TimerChange(clear_all=bool(timers), add=(NewTimer(NOTICE_TIMER, due, {}),))


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

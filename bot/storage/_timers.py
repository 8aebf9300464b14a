"""The timer rows' queries, written once for both databases and mixed into
:class:`~bot.storage._repository.SQLRepository`: the rows a change writes (in its own transaction), the due
ones, and the leases under which one process of several serves a row.

Claiming a due row is one statement: ``UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING``
on PostgreSQL, so two processes claiming at the same moment get disjoint rows and neither waits for the other.
SQLite's write transaction already shuts out every other writer (and only one process may use a file).
A claim lasts ``lease`` seconds: the row is replaced or deleted by the change that serves it (in the game's
transaction), so a lease only matters when its process died or gave up; the row is due again once the lease
ends, for any process. A process serving its rows renews their leases (:meth:`TimerQueries.renew_leases`), and
a change may be fenced by the claim (``change_timers(fence=...)``): it is written only while the process still
holds the row, so a process whose lease ended (a stalled event loop) never completes a row another took over.
A row may be inserted already claimed (``NewTimer.held_by``) by the process that is doing its work now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from . import _common as c
from ._dialect import Dialect, Row, Tx
from .base import (
    GameNotFound,
    LeaseLost,
    NewTimer,
    StorageError,
    Timer,
    TimerChange,
    VersionConflict,
    require_aware,
)

_TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at"
#: a row is free when nobody claimed it or its lease has ended
_FREE = "(lease_until IS NULL OR lease_until <= ?)"
#: when a row can next be served: when it is due, or when its lease ends if that is later
_SERVABLE_AT = "CASE WHEN lease_until IS NOT NULL AND lease_until > due_at THEN lease_until ELSE due_at END"


class TimerQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    if TYPE_CHECKING:  # what the repository provides (declared here for the type checker only)

        def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

        async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

        def _now(self) -> datetime: ...

    async def _bump_version(self, tx: Tx, game_id: str, expected: int) -> None:
        """Inside a write: the game is at ``expected``, and its version moves on by one (its row locked until
        the commit on PostgreSQL). A guarded timer-only write changes the version as a move does: a process
        holding the game with its old rows sees it changed (``game_version``) and reads them again, and its
        write from the old rows meets the version guard. (``updated_at``, when the current wait began, stays.)"""
        rows = await tx.fetch(
            "UPDATE games SET version = version + 1 WHERE id = ? AND version = ? RETURNING version",
            (game_id, expected),
        )
        if rows:
            return
        stored = await tx.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        if not stored:
            raise GameNotFound(game_id)
        raise VersionConflict(game_id, expected, int(stored[0]["version"]))

    # ------------------------------------------------------------------ timers

    async def add_timer(
        self, game_id: str, kind: str, due_at: datetime, payload: Mapping[str, Any] | None = None
    ) -> Timer:
        change = TimerChange(add=(NewTimer(kind, due_at, c.as_dict(payload, "payload")),))
        return (await self.change_timers(game_id, change))[0]

    async def _write_timers(self, tx: Tx, game_id: str, change: TimerChange, now_db: Any) -> list[Timer]:
        """Apply ``change`` inside the caller's transaction; returns the rows inserted."""
        if change.clear_all:
            await tx.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        elif change.clear:
            await tx.execute(
                f"DELETE FROM timers WHERE game_id = ? AND kind IN ({', '.join('?' * len(change.clear))})",
                (game_id, *change.clear),
            )
        added, created = [], self.dialect.time_from_db(now_db)
        for new in change.add:
            due, payload = require_aware(new.due_at, "due_at"), c.as_dict(new.payload, "payload")
            until = None
            if new.held_by is not None:
                held = require_aware(new.held_until, "held_until") if new.held_until is not None else due
                until = self.dialect.time_to_db(held)
            rows = await tx.fetch(
                "INSERT INTO timers (game_id, kind, due_at, payload, created_at, claimed_by, lease_until)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    game_id,
                    new.kind,
                    self.dialect.time_to_db(due),
                    c.dumps(payload),
                    now_db,
                    new.held_by,
                    until,
                ),
            )
            added.append(Timer(int(rows[0]["id"]), game_id, new.kind, due, payload, created))
        return added

    async def change_timers(
        self,
        game_id: str,
        change: TimerChange,
        *,
        expected_version: int | None = None,
        fence: tuple[int, str] | None = None,
    ) -> list[Timer]:
        if not change:
            return []
        now_db = self.dialect.time_to_db(self._now())
        try:
            async with self._write("change timers") as tx:
                if expected_version is not None:
                    await self._bump_version(tx, game_id, expected_version)
                if fence is not None:
                    await self._check_held(tx, *fence)
                return await self._write_timers(tx, game_id, change, now_db)
        except StorageError as exc:
            if isinstance(exc.__cause__, self.dialect.missing_game):
                raise GameNotFound(game_id) from exc
            raise

    async def due_timers(self, now: datetime | None = None, *, limit: int = 100) -> list[Timer]:
        c.check_limit(limit, 100_000)
        moment = require_aware(now, "now") if now is not None else self._now()
        rows = await self._read(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
            (self.dialect.time_to_db(moment), limit),
        )
        return [c.timer_from_row(r, self.dialect.time_from_db) for r in rows]

    async def next_timer_due(self) -> datetime | None:
        rows = await self._read("SELECT MIN(due_at) AS due FROM timers")
        due = rows[0]["due"] if rows else None
        return None if due is None else self.dialect.time_from_db(due)

    async def timers_for_game(self, game_id: str, kind: str | None = None) -> list[Timer]:
        of_kind, args = ("", (game_id,)) if kind is None else (" AND kind = ?", (game_id, kind))
        rows = await self._read(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ?{of_kind} ORDER BY due_at, id", args
        )
        return [c.timer_from_row(r, self.dialect.time_from_db) for r in rows]

    async def delete_timer(self, timer_id: int, *, owner: str | None = None) -> bool:
        held, args = ("", (timer_id,)) if owner is None else (" AND claimed_by = ?", (timer_id, owner))
        async with self._write("delete timer") as tx:
            rows = await tx.fetch(f"DELETE FROM timers WHERE id = ?{held} RETURNING id", args)
        return bool(rows)

    async def delete_timers(self, game_id: str, kind: str | None = None) -> int:
        of_kind, args = ("", (game_id,)) if kind is None else (" AND kind = ?", (game_id, kind))
        async with self._write("delete timers") as tx:
            rows = await tx.fetch(f"DELETE FROM timers WHERE game_id = ?{of_kind} RETURNING id", args)
        return len(rows)

    # ------------------------------------------------------------------ timer leases

    async def claim_due_timers(
        self, owner: str, now: datetime | None = None, *, lease: float = 30.0, limit: int = 100
    ) -> list[Timer]:
        """Claim up to ``limit`` timer rows due by ``now`` that nobody holds, for ``lease`` seconds; returns
        them in due order. Two processes never get the same row while its lease runs."""
        c.check_limit(limit, 100_000)
        moment = now if now is not None else self._now()
        at = self.dialect.time_to_db(moment)
        until = self.dialect.time_to_db(moment + timedelta(seconds=lease))
        skip_locked = " FOR UPDATE SKIP LOCKED" if self.dialect.name == "postgres" else ""
        async with self._write("claim due timers") as tx:
            rows = await tx.fetch(
                f"UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN ("
                f"SELECT id FROM timers WHERE due_at <= ? AND {_FREE} ORDER BY due_at, id LIMIT ?{skip_locked}"
                f") RETURNING {_TIMER_COLUMNS}",
                (owner, until, at, at, limit),
            )
        timers = [c.timer_from_row(r, self.dialect.time_from_db) for r in rows]
        timers.sort(key=lambda t: (t.due_at, t.id))
        return timers

    async def release_timer(self, timer_id: int, owner: str) -> bool:
        """Give a claimed row back (served later, by anyone) if ``owner`` still holds it."""
        async with self._write("release timer") as tx:
            rows = await tx.fetch(
                "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE id = ? AND claimed_by = ? "
                "RETURNING id",
                (timer_id, owner),
            )
        return bool(rows)

    async def _check_held(self, tx: Tx, timer_id: int, owner: str) -> None:
        """Inside a write: ``owner`` still holds the row (locked until the commit on PostgreSQL, so no claim
        slips in between); LeaseLost else."""
        lock = " FOR UPDATE" if self.dialect.name == "postgres" else ""
        rows = await tx.fetch(
            f"SELECT id FROM timers WHERE id = ? AND claimed_by = ?{lock}", (timer_id, owner)
        )
        if not rows:
            raise LeaseLost(timer_id, owner)

    async def holds_timer(self, timer_id: int, owner: str) -> bool:
        rows = await self._read("SELECT id FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, owner))
        return bool(rows)

    async def renew_leases(self, owner: str, until: datetime, ids: Sequence[int] | None = None) -> int:
        if ids is not None and not ids:
            return 0
        only = "" if ids is None else f" AND id IN ({', '.join('?' * len(ids))})"
        async with self._write("renew timer leases") as tx:
            rows = await tx.fetch(
                f"UPDATE timers SET lease_until = ? WHERE claimed_by = ?{only} RETURNING id",
                (self.dialect.time_to_db(require_aware(until, "until")), owner, *(ids or ())),
            )
        return len(rows)

    async def next_timer_servable(self) -> datetime | None:
        """When the next timer row can be claimed: its due time, or the end of its lease if later."""
        rows = await self._read(f"SELECT MIN({_SERVABLE_AT}) AS due FROM timers")
        due = rows[0]["due"] if rows else None
        return None if due is None else self.dialect.time_from_db(due)

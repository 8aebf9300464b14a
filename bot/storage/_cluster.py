"""The cluster's queries (timer leases, heartbeat rows, status), written once for both databases and mixed into
:class:`~bot.storage._repository.SQLRepository` (which stays under 600 lines).

Claiming a due timer is one statement: ``UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING``
on PostgreSQL, so two processes claiming at the same moment get disjoint rows and neither waits for the other.
SQLite's write transaction already shuts out every other writer (and only one process may use a file).
A claim lasts ``lease`` seconds: the row is replaced or deleted by the change that serves it (in the game's
transaction), so a lease only matters when its process died or gave up, and then the row is due again once
the lease ends, for any process.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, ClassVar

from . import _common as c
from ._dialect import Dialect, Row, Tx
from .base import GameNotFound, Timer, VersionConflict
from .cluster import ClusterStatus, ProcessBeat

_TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at"
#: a row is free when nobody claimed it or its lease has ended
_FREE = "(lease_until IS NULL OR lease_until <= ?)"
#: when a row can next be served: when it is due, or when its lease ends if that is later
_SERVABLE_AT = "CASE WHEN lease_until IS NOT NULL AND lease_until > due_at THEN lease_until ELSE due_at END"


class ClusterQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]:  # pragma: no cover - the repository's
        raise NotImplementedError

    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:  # pragma: no cover
        raise NotImplementedError

    def _now(self) -> datetime:  # pragma: no cover
        raise NotImplementedError

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

    async def next_timer_servable(self) -> datetime | None:
        """When the next timer row can be claimed: its due time, or the end of its lease if later."""
        rows = await self._read(f"SELECT MIN({_SERVABLE_AT}) AS due FROM timers")
        due = rows[0]["due"] if rows else None
        return None if due is None else self.dialect.time_from_db(due)

    # ------------------------------------------------------------------ the cache's check

    async def game_version(self, game_id: str) -> int | None:
        """The stored version of a game (None: no such game): is a cached copy still the newest?"""
        rows = await self._read("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0]["version"]) if rows else None

    async def _check_version(self, tx: Tx, game_id: str, expected: int) -> None:
        """Inside a write: the game is at ``expected`` (its row locked until the commit on PostgreSQL)."""
        lock = " FOR UPDATE" if self.dialect.name == "postgres" else ""
        rows = await tx.fetch(f"SELECT version FROM games WHERE id = ?{lock}", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        if int(rows[0]["version"]) != expected:
            raise VersionConflict(game_id, expected, int(rows[0]["version"]))

    # ------------------------------------------------------------------ heartbeat rows

    async def beat(self, process: ProcessBeat) -> None:
        """Write (or refresh) a process's heartbeat row."""
        t = self.dialect.time_to_db
        async with self._write("heartbeat") as tx:
            await tx.execute(
                "INSERT INTO cluster_processes (process_id, host, pid, shard_ids, shard_count, started_at, "
                "last_seen) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (process_id) DO UPDATE SET "
                "last_seen = excluded.last_seen, shard_ids = excluded.shard_ids, "
                "shard_count = excluded.shard_count",
                (
                    process.process_id,
                    process.host,
                    process.pid,
                    process.shard_ids,
                    process.shard_count,
                    t(process.started_at),
                    t(process.last_seen),
                ),
            )

    async def forget_process(self, process_id: str, *, release_claims: bool = True) -> None:
        """A process that stops cleanly: its row goes, and the rows it claimed are free at once."""
        async with self._write("forget process") as tx:
            await tx.execute("DELETE FROM cluster_processes WHERE process_id = ?", (process_id,))
            if release_claims:
                await tx.execute(
                    "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?",
                    (process_id,),
                )

    async def processes_seen(self, since: datetime) -> list[ProcessBeat]:
        """The processes whose heartbeat is at or after ``since``, oldest start first."""
        rows = await self._read(
            "SELECT process_id, host, pid, shard_ids, shard_count, started_at, last_seen "
            "FROM cluster_processes WHERE last_seen >= ? ORDER BY started_at, process_id",
            (self.dialect.time_to_db(since),),
        )
        f = self.dialect.time_from_db
        return [
            ProcessBeat(
                r["process_id"],
                r["host"],
                int(r["pid"]),
                r["shard_ids"],
                None if r["shard_count"] is None else int(r["shard_count"]),
                f(r["started_at"]),
                f(r["last_seen"]),
            )
            for r in rows
        ]

    async def cluster_status(
        self, now: datetime | None = None, *, seen_within: float = 60.0
    ) -> ClusterStatus:
        moment = now if now is not None else self._now()
        at = self.dialect.time_to_db(moment)
        processes = await self.processes_seen(moment - timedelta(seconds=seen_within))
        rows = await self._read("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
        by_status = {str(r["status"]): int(r["n"]) for r in rows}
        rows = await self._read(
            f"SELECT SUM(CASE WHEN due_at <= ? AND {_FREE} THEN 1 ELSE 0 END) AS due, "
            "SUM(CASE WHEN lease_until IS NOT NULL AND lease_until > ? THEN 1 ELSE 0 END) AS claimed, "
            "SUM(CASE WHEN due_at > ? THEN 1 ELSE 0 END) AS later "
            "FROM timers",
            (at, at, at, at),
        )
        row = rows[0]
        return ClusterStatus(
            processes,
            by_status,
            int(row["due"] or 0),
            int(row["claimed"] or 0),
            int(row["later"] or 0),
            await self.next_timer_servable(),
        )

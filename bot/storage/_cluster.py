"""The cluster's queries (heartbeat rows, a game's stored version, what ``ttr cluster-status`` shows), written
once for both databases and mixed into :class:`~bot.storage._repository.SQLRepository`. The timer leases are in
``_timers.py``."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from ._dialect import Dialect, Row, Tx
from .cluster import ClusterStatus, ProcessBeat

#: a row is free when nobody claimed it or its lease has ended
_FREE = "(lease_until IS NULL OR lease_until <= ?)"


class ClusterQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    if TYPE_CHECKING:  # what the repository provides (declared here for the type checker only)

        def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

        async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

        def _now(self) -> datetime: ...

        async def next_timer_servable(self) -> datetime | None: ...

    # ------------------------------------------------------------------ the cache's check

    async def game_version(self, game_id: str) -> int | None:
        """The stored version of a game (None: no such game): is a cached copy still the newest?"""
        rows = await self._read("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0]["version"]) if rows else None

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

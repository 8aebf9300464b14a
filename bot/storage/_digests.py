"""The daily digest's rows (issue 33, item 4; bot.manager.digests): one per player who wants it, with the minute of
their day it is sent at and the moment the next one is owed. Sent once a day whichever process looks: the process
that moves ``due_at`` on from the value it read (a compare-and-set) is the one that sends it. Mixed into
:class:`~bot.storage._repository.SQLRepository`, written once for both databases."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from ._dialect import Dialect, Row, Tx
from .base import Digest


class DigestQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    if TYPE_CHECKING:  # what the repository provides (declared here for the type checker only)

        def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

        async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

        def _now(self) -> datetime: ...

    def _digest(self, row: Row) -> Digest:
        return Digest(int(row["user_id"]), int(row["at_minute"]), self.dialect.time_from_db(row["due_at"]))

    async def load_digest(self, user_id: int) -> Digest | None:
        rows = await self._read(
            "SELECT user_id, at_minute, due_at FROM digests WHERE user_id = ?", (user_id,)
        )
        return self._digest(rows[0]) if rows else None

    async def save_digest(self, user_id: int, at_minute: int | None, due: datetime | None) -> None:
        """The player's digest at `at_minute` of their day, next owed at `due`; None: off (the row deleted)."""
        async with self._write("save a daily digest") as tx:
            if at_minute is None or due is None:
                await tx.execute("DELETE FROM digests WHERE user_id = ?", (user_id,))
                return
            await tx.execute(
                "INSERT INTO digests (user_id, at_minute, due_at, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET at_minute = excluded.at_minute,"
                " due_at = excluded.due_at, updated_at = excluded.updated_at",
                (user_id, at_minute, self.dialect.time_to_db(due), self.dialect.time_to_db(self._now())),
            )

    async def due_digests(self, now: datetime, limit: int = 100) -> list[Digest]:
        rows = await self._read(
            "SELECT user_id, at_minute, due_at FROM digests WHERE due_at <= ? ORDER BY due_at LIMIT ?",
            (self.dialect.time_to_db(now), limit),
        )
        return [self._digest(r) for r in rows]

    async def move_digest(self, user_id: int, was: datetime, due: datetime) -> bool:
        """Move the player's digest from `was` (as read) to `due`: False when another process moved it first
        (or it was turned off meanwhile)."""
        async with self._write("move a daily digest on") as tx:
            rows = await tx.fetch(
                "UPDATE digests SET due_at = ? WHERE user_id = ? AND due_at = ? RETURNING user_id",
                (self.dialect.time_to_db(due), user_id, self.dialect.time_to_db(was)),
            )
        return bool(rows)

    async def next_digest_due(self) -> datetime | None:
        rows = await self._read("SELECT MIN(due_at) AS due FROM digests")
        due = rows[0]["due"] if rows else None
        return None if due is None else self.dialect.time_from_db(due)

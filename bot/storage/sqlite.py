"""SQLite backend: one file in WAL mode, one writer connection behind an asyncio lock, one reader.

The queries are shared with PostgreSQL (``_repository.py``); this module holds the connections, the
transactions, the migrations and the error mapping.

* Every write is ``BEGIN IMMEDIATE ... COMMIT`` on the writer connection while holding the lock, so
  writes from this process never interleave and the database-level write lock is taken up front
  (no deadlock-prone lock upgrade). Another process holding the write lock makes us wait up to
  ``busy_timeout`` ms, then :class:`StorageUnavailable` is raised after a rollback: nothing written.
* Reads go to a second connection; WAL lets them run while a write is in progress. For
  ``:memory:`` there is a single connection (a second one would be another database) and reads
  take the writer lock so that they never see a half-done transaction.
* aiosqlite runs each connection on a non-daemon thread: a connection left open keeps the
  interpreter from exiting. :meth:`close` closes both in all cases, ``connect`` closes what it
  opened when it fails, and as a safety net our threads are marked daemon before they start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite

from . import _common as c
from ._dialect import Dialect, Row
from ._repository import SQLRepository
from .base import StorageBroken, StorageBug, StorageDown, StorageError, StorageUnavailable, utcnow

__all__ = ["SQLiteRepository", "check_database_file"]

_UNAVAILABLE_CODES = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PROTOCOL,
    sqlite3.SQLITE_NOLFS,
}


#: Times are ISO text; the write transaction (BEGIN IMMEDIATE) already shuts out every other writer.
SQLITE = Dialect(
    name="sqlite",
    time_to_db=c.utc_text,
    time_from_db=datetime.fromisoformat,
    duplicate_key=(sqlite3.IntegrityError,),
    missing_game=(sqlite3.IntegrityError,),
    place_lock=None,
)


#: Faults no retry can fix, and what the host must do about them ({path}: the database file).
_BROKEN_CODES = {
    sqlite3.SQLITE_FULL: "free disk space on the disk holding {path}",
    sqlite3.SQLITE_READONLY: "make {path}, its -wal and -shm files and its folder writable by the bot's user",
    sqlite3.SQLITE_PERM: "give the bot's user read and write access to {path} and its folder",
    sqlite3.SQLITE_CORRUPT: "{path} is damaged: stop the bot and restore a backup (or recover it with sqlite3 .recover)",
    sqlite3.SQLITE_NOTADB: "{path} is not an SQLite database: point DATABASE_URL at the right file or restore a backup",
    sqlite3.SQLITE_IOERR: "the disk holding {path} reports input/output errors: check it, then restart the bot",
}


#: The bot's own statement is wrong (a bug): SQL it does not understand, a constraint or a value it breaks.
_BUG_CODES = {sqlite3.SQLITE_ERROR, sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_RANGE}
_MISSING_TABLES = "the bot's tables are missing from {path}: restore a backup, or start on a new file"


def _map_error(exc: sqlite3.Error, doing: str, path: str = "the database file") -> StorageError:
    """One classification of SQLite's errors (as PostgreSQL's, bot.storage.postgres): retry now
    (StorageUnavailable), the host must act (StorageBroken), a bug (StorageBug); anything else counts as
    unavailable for now (StorageDown), never as a missing game."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    message = str(exc).lower()
    said = f"sqlite: {doing}: {exc}"
    if (
        primary in _UNAVAILABLE_CODES
        or "locked" in message
        or "unable to open" in message
        or "closed" in message
    ):
        # ("closed": the repository is being closed, at a stop: nothing for the host to do)
        return StorageUnavailable(said)
    if primary in _BROKEN_CODES:
        return StorageBroken(said, advice=_BROKEN_CODES[primary].format(path=path))
    if "no such table" in message:
        return StorageBroken(said, advice=_MISSING_TABLES.format(path=path))
    if primary in _BUG_CODES or isinstance(exc, (sqlite3.ProgrammingError, sqlite3.IntegrityError)):
        return StorageBug(said)
    return StorageDown(f"{said} (an error the bot does not classify: counted as unavailable)")


class _Tx:
    """The shared queries' view of the writer connection inside ``BEGIN IMMEDIATE``."""

    __slots__ = ("conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.execute_fetchall(sql, args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        await self.conn.execute(sql, args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)


class SQLiteRepository(SQLRepository):
    """:class:`~bot.storage.base.GameRepository` on one SQLite file (or ``:memory:``)."""

    dialect: ClassVar[Dialect] = SQLITE

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: str = "NORMAL",
        clock: Callable[[], datetime] = utcnow,
        url: str | None = None,
        migrate_to: int | None = None,
    ) -> None:
        self.path = str(path)
        self.url = url or f"sqlite:///{self.path}"
        self.busy_timeout_ms = int(busy_timeout_ms)
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, got {synchronous!r}")
        self.synchronous = synchronous.upper()
        self._clock = clock
        self._migrate_to = migrate_to
        self._memory = self.path == ":memory:" or self.path == ""
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._connect_lock = asyncio.Lock()

    def __repr__(self) -> str:
        state = "open" if self._writer is not None else "closed"
        return f"<SQLiteRepository {self.path!r} {state}>"

    # ------------------------------------------------------------------ lifecycle

    async def _open_connection(self) -> aiosqlite.Connection:
        conn = aiosqlite.connect(
            self.path, timeout=self.busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False
        )
        # Safety net (see module doc): a forgotten connection must not hang interpreter exit.
        thread = getattr(conn, "_thread", None)
        if thread is not None and not thread.is_alive():
            thread.daemon = True
        try:
            await conn
        except sqlite3.Error as exc:
            # aiosqlite then stops its worker thread, which reports back to this event loop: wait for it while the
            # loop still runs (else the thread may find the loop closed and die with a RuntimeError)
            for _ in range(500):
                if thread is None or not thread.is_alive():
                    break
                await asyncio.sleep(0.002)
            raise _map_error(exc, f"open {self.path}", self.path) from exc
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise _map_error(exc, f"configure {self.path}", self.path) from exc
            raise
        return conn

    async def connect(self) -> None:
        async with self._connect_lock:
            if self._writer is not None:
                return
            try:
                self._writer = await self._open_connection()
                if not self._memory:
                    try:
                        rows = await self._writer.execute_fetchall("PRAGMA journal_mode = WAL")
                    except sqlite3.Error as exc:
                        raise _map_error(exc, "switch to WAL", self.path) from exc
                    mode = next(iter(rows))[0] if rows else None
                    if str(mode).lower() != "wal":
                        raise StorageError(f"sqlite: could not switch {self.path} to WAL (got {mode!r})")
                    # the WAL file is truncated back to this after a checkpoint instead of staying at its peak
                    await self._writer.execute("PRAGMA journal_size_limit = 67108864")
                await self._migrate(self._writer)
                self._reader = self._writer if self._memory else await self._open_connection()
            except BaseException:
                await self._close_connections()
                raise

    async def close(self) -> None:
        # waits for a write in flight, so that it commits or rolls back before the connection goes
        async with self._connect_lock, self._lock:
            await self._close_connections()

    async def _close_connections(self) -> None:
        writer, reader = self._writer, self._reader
        self._writer = self._reader = None
        if writer is not None:
            with contextlib.suppress(sqlite3.Error, ValueError):
                await writer.execute("PRAGMA optimize")  # refresh planner statistics where useful
        errors: list[BaseException] = []
        for conn in (reader, writer) if reader is not writer else (writer,):
            if conn is None:
                continue
            try:
                await conn.close()
            except BaseException as exc:  # keep closing the other one; report afterwards
                errors.append(exc)
        if errors:
            raise errors[0]

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        migrations = c.load_migrations(self.dialect.name)
        target = self._migrate_to if self._migrate_to is not None else len(migrations)
        try:
            await conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _map_error(exc, "lock for migration", self.path) from exc
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            current = int(next(iter(rows))[0])
            if current > len(migrations):
                raise StorageError(
                    f"database {self.path} is at schema version {current}, newer than this code "
                    f"({len(migrations)}): refusing to run against it"
                )
            now = c.utc_text(self._clock())
            for migration in migrations[current:target]:
                for statement in c.split_sql(migration.sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, now),
                )
            await conn.execute("COMMIT")
        except BaseException as exc:
            await self._rollback(conn)
            if isinstance(exc, sqlite3.Error):
                raise _map_error(exc, "migrate", self.path) from exc
            raise

    # ------------------------------------------------------------------ plumbing

    def _conn(self, conn: aiosqlite.Connection | None) -> aiosqlite.Connection:
        if conn is None:
            raise StorageError("repository is not connected (use `async with` or `await repo.connect()`)")
        return conn

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        # no transaction open (BEGIN failed, or it was already rolled back), or already closed
        with contextlib.suppress(sqlite3.Error, ValueError):
            await conn.execute("ROLLBACK")

    @asynccontextmanager
    async def _write(self, doing: str) -> AsyncIterator[_Tx]:
        """One write transaction on the single writer; nothing is half-applied on any error."""
        async with self._lock:
            conn = self._conn(self._writer)
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _map_error(exc, doing, self.path) from exc
            except BaseException:
                # cancelled while waiting for the lock: BEGIN still runs on the connection's thread,
                # so queue a ROLLBACK behind it (statements run in order) before letting others in.
                # The cancelled caller thus returns once the lock came or busy_timeout expired.
                await self._rollback(conn)
                raise
            try:
                yield _Tx(conn)
                await conn.execute("COMMIT")
            except sqlite3.Error as exc:
                await self._rollback(conn)
                raise _map_error(exc, doing, self.path) from exc
            except BaseException:
                await self._rollback(conn)
                raise

    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        try:
            if self._memory:
                async with self._lock:
                    rows = await self._conn(self._reader).execute_fetchall(sql, args)
            else:
                rows = await self._conn(self._reader).execute_fetchall(sql, args)
        except sqlite3.Error as exc:
            raise _map_error(exc, "read", self.path) from exc
        return list(rows)


def check_database_file(path: str | Path) -> None:
    """Start-up check of a database file, before anything opens it for writing: raises StorageBroken (with what
    the host must do) for a file that cannot be used (a folder, unreadable, read-only, not a database, corrupt) or
    that would silently become an empty database: a 0-byte file. A new database is one whose file does not
    exist yet (it is then created); an existing file of 0 bytes is never taken for one, since a database the bot
    has opened once holds its tables (a file truncated by a failed copy or a full disk would otherwise start
    afresh and lose every game)."""
    file = Path(path)
    if not file.exists():
        return
    shown = str(file)
    if file.is_dir():
        raise StorageBroken(f"{shown} is a folder", advice="point DATABASE_URL at a file in it")
    if not os.access(file, os.R_OK):
        raise StorageBroken(
            f"{shown} cannot be read", advice=_BROKEN_CODES[sqlite3.SQLITE_PERM].format(path=shown)
        )
    if not os.access(file, os.W_OK) or not os.access(file.parent, os.W_OK):
        raise StorageBroken(
            f"{shown} is read-only", advice=_BROKEN_CODES[sqlite3.SQLITE_READONLY].format(path=shown)
        )
    if file.stat().st_size == 0:
        raise StorageBroken(
            f"{shown} is empty (0 bytes) where a database was expected",
            advice="restore it from a backup; to start a new database on purpose, delete the empty file (a file"
            " that does not exist yet is created)",
        )
    try:
        conn = sqlite3.connect(file)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        mapped = _map_error(exc, "check", shown)
        if isinstance(mapped, StorageBroken):
            raise mapped from None
        if isinstance(mapped, StorageUnavailable):
            return  # busy (another process writes): the bot's own opening will wait or say so
        raise StorageBroken(f"{shown}: {exc}", advice="check the file, or restore a backup") from None
    if [tuple(r) for r in rows] != [("ok",)]:
        problems = "; ".join(str(r[0]) for r in rows[:3])
        raise StorageBroken(
            f"{shown} is corrupt ({problems})",
            advice=_BROKEN_CODES[sqlite3.SQLITE_CORRUPT].format(path=shown),
        )

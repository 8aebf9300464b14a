"""PostgreSQL backend on an asyncpg pool.

The queries are shared with SQLite (``_repository.py``); this module holds the pool, the
transactions, the migrations, the error mapping and the one-statement append.

* Each write is one transaction on one pooled connection (READ COMMITTED). The version guard is the
  ``UPDATE ... WHERE id = ? AND version = ?``: two writers with the same expected version queue on
  the row lock and the second one re-checks the WHERE clause against the committed row, matches
  nothing, and gets :class:`VersionConflict`.
* ``schema=NAME`` (constructor or ``?schema=`` in the URL) puts every table in that schema through
  the connections' search_path; it is created if missing. Tests use one schema per test.
* Connection failures (a connection killed on the server side, a server not accepting connections), pool
  timeouts, lock timeouts, deadlocks and serialisation failures are :class:`StorageUnavailable`: a connection
  that failed is thrown away and the pool's others are replaced, so the caller's retry runs on a fresh one
  (reads are retried once here). Faults no retry can fix (disk full, read-only server, corruption, no
  permission) are :class:`StorageBroken`, with what the host must do. One case is ambiguous in any client/server database: the connection
  dying while COMMIT is in flight. It is reported as StorageUnavailable too; retrying with the same
  expected version is still safe because of the version guard (it either applies or conflicts).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, ClassVar

import asyncpg

from . import _common as c
from ._dialect import Dialect, Row, Tx, numbered_placeholders
from ._repository import VERSION_GUARD, SQLRepository
from .base import (
    ChangeFeed,
    SeatResult,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageError,
    StorageUnavailable,
    TimerChange,
    require_aware,
    utcnow,
)
from .pg_changes import PgChanges

__all__ = ["PostgresRepository"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


def _same_time(value: datetime) -> datetime:
    return value


#: Times are timestamptz; "one open game per place" takes a transaction-scoped advisory lock on the place.
POSTGRES = Dialect(
    name="postgres",
    time_to_db=_same_time,
    time_from_db=_same_time,
    duplicate_key=(asyncpg.exceptions.UniqueViolationError,),
    missing_game=(asyncpg.exceptions.ForeignKeyViolationError,),
    place_lock="SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
)

_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # reset, unreachable (ConnectionError is a subclass; a refused connection is _DOWN)
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.QueryCanceledError,  # statement_timeout / lock_timeout
    asyncpg.exceptions.AdminShutdownError,  # this connection was terminated (pg_terminate_backend): a new one
    asyncpg.exceptions.CrashShutdownError,
)

#: The server refuses connections for now: not listening, starting, shutting down or in recovery, or the database
#: not accepting connections (``ALLOW_CONNECTIONS false``: maintenance, a restore). Told as "try again later".
_DOWN: tuple[type[BaseException], ...] = (
    ConnectionRefusedError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.ObjectNotInPrerequisiteStateError,
)

#: The connection itself is gone or wedged (killed on the server side, network cut): the driver says "connection
#: is closed", "another operation is in progress" (the protocol lost track after the kill) or "does not exist".
#: Nothing of the statement in flight can be trusted to be done; the connection is thrown away and the pool's
#: others are replaced on their next use (a server that killed one may have killed them all), so a retry runs on
#: a fresh one.
_CONNECTION_LOST: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    ConnectionError,
)

#: Faults no retry can fix: the host must act (free disk space, fix permissions, repair the database).
_BROKEN: dict[type[BaseException], str] = {
    asyncpg.exceptions.DiskFullError: "free disk space on the PostgreSQL server",
    asyncpg.exceptions.InsufficientResourcesError: "give the PostgreSQL server more resources (disk, memory)",
    asyncpg.exceptions.ReadOnlySQLTransactionError: "point DATABASE_URL at a writable server (this one is read-only"
    " or a standby)",
    asyncpg.exceptions.InsufficientPrivilegeError: "grant the database user rights on the bot's tables",
    asyncpg.exceptions.DataCorruptedError: "repair the database (data corrupted) or restore a backup",
    asyncpg.exceptions.IndexCorruptedError: "rebuild the corrupted index (REINDEX) or restore a backup",
    asyncpg.exceptions.UndefinedTableError: "the bot's tables are missing: restore the database or start on an"
    " empty one",
    asyncpg.exceptions.InvalidAuthorizationSpecificationError: "the server refuses DATABASE_URL's user or password:"
    " fix DATABASE_URL, or the role and its password on the server",
    asyncpg.exceptions.InvalidCatalogNameError: "the database named in DATABASE_URL does not exist (dropped?):"
    " restore it, or fix DATABASE_URL",
}

#: The server refused the bot's own statement (SQL it does not understand, a value or a constraint it rejects):
#: a bug in the bot. (After _BROKEN: a missing table or a missing right is the host's to fix.)
_BUG: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.SyntaxOrAccessError,
    asyncpg.exceptions.DataError,
    asyncpg.exceptions.IntegrityConstraintViolationError,
)

#: what the driver and the network raise; anything else is a bug and propagates as it is
_DB_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.PostgresError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


def _map_error(exc: BaseException, doing: str) -> StorageError:
    """One classification of the driver's errors (as SQLite's, bot.storage.sqlite): retry now
    (StorageUnavailable), retry later (StorageDown), the host must act (StorageBroken), a bug (StorageBug);
    anything else counts as unavailable for now (StorageDown), never as a missing game."""
    message = f"postgres: {doing}: {type(exc).__name__}: {exc}"
    if isinstance(exc, _DOWN):
        return StorageDown(message)
    if isinstance(exc, (*_UNAVAILABLE, *_CONNECTION_LOST)):
        return StorageUnavailable(message)
    for kind, advice in _BROKEN.items():
        if isinstance(exc, kind):
            return StorageBroken(message, advice=advice)
    if isinstance(exc, _BUG):
        return StorageBug(message)
    return StorageDown(f"{message} (an error the bot does not classify: counted as unavailable)")


class _Tx:
    """The shared queries' view of a connection in a transaction (or of the pool, for one statement):
    their ``?`` placeholders become ``$1, $2 ...``."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection | asyncpg.Pool) -> None:
        self.conn = conn

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered_placeholders(sql), *args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        await self.conn.execute(numbered_placeholders(sql), *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered_placeholders(sql), rows)


class PostgresRepository(SQLRepository):
    """:class:`~bot.storage.base.GameRepository` on PostgreSQL (asyncpg pool)."""

    dialect: ClassVar[Dialect] = POSTGRES

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        command_timeout: float | None = 30.0,
        lock_timeout_ms: int = 5000,
        connect_timeout: float = 10.0,
        application_name: str = "ttr-discord",
        clock: Callable[[], datetime] = utcnow,
        url: str | None = None,
        migrate_to: int | None = None,
    ) -> None:
        if schema is not None and not _IDENT.match(schema):
            raise ValueError(f"schema must be a plain identifier, got {schema!r}")
        self.dsn = dsn
        self.url = url or dsn
        self.schema = schema
        self.min_size = min_size
        self.max_size = max_size
        self.command_timeout = command_timeout
        self.lock_timeout_ms = int(lock_timeout_ms)
        self.connect_timeout = connect_timeout
        self.application_name = application_name
        self._clock = clock
        self._migrate_to = migrate_to
        self._pool: asyncpg.Pool | None = None
        self._connect_lock = asyncio.Lock()

    def changes_elsewhere(
        self,
        on_change: Callable[[str, int], None],
        *,
        on_reconnect: Callable[[], None],
        on_lost: Callable[[StorageError], None],
        on_back: Callable[[], None],
    ) -> ChangeFeed:
        """LISTEN for the changes other processes commit (bot.storage.pg_changes), on a connection of its own."""
        return PgChanges(
            self.dsn,
            self.schema,
            on_change,
            on_reconnect=on_reconnect,
            on_lost=on_lost,
            on_back=on_back,
            classify=_map_error,
        )

    def __repr__(self) -> str:
        state = "open" if self._pool is not None else "closed"
        return f"<PostgresRepository schema={self.schema!r} {state}>"

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        async with self._connect_lock:
            if self._pool is not None:
                return
            # lock_timeout: a write stuck behind a lock held elsewhere gives up (StorageUnavailable,
            # nothing written) instead of hanging the game manager
            server_settings = {
                "application_name": self.application_name,
                "lock_timeout": f"{self.lock_timeout_ms}ms",
            }
            if self.schema is not None:
                server_settings["search_path"] = self.schema
            pool: asyncpg.Pool | None = None
            try:
                if self.schema is not None:
                    conn = await asyncpg.connect(self.dsn, timeout=self.connect_timeout)
                    try:
                        await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
                    finally:
                        await conn.close()
                pool = await asyncpg.create_pool(
                    self.dsn,
                    min_size=self.min_size,
                    max_size=self.max_size,
                    command_timeout=self.command_timeout,
                    timeout=self.connect_timeout,
                    server_settings=server_settings,
                )
                assert pool is not None
                async with pool.acquire() as conn:
                    await self._migrate(conn)
            except BaseException as exc:
                if pool is not None:
                    pool.terminate()
                if isinstance(exc, _DB_ERRORS):
                    raise _map_error(exc, "connect and migrate") from exc
                raise
            self._pool = pool

    async def close(self) -> None:
        async with self._connect_lock:
            pool, self._pool = self._pool, None
            if pool is None:
                return
            try:
                await asyncio.wait_for(pool.close(), timeout=10)
            except BaseException:
                pool.terminate()
                raise

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        migrations = c.load_migrations(self.dialect.name)
        target = self._migrate_to if self._migrate_to is not None else len(migrations)
        async with conn.transaction():
            # one migrator at a time per schema, across processes
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext('ttr-migrations:' || current_schema()))"
            )
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
            )
            current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
            if current > len(migrations):
                raise StorageError(
                    f"database is at schema version {current}, newer than this code ({len(migrations)}):"
                    " refusing to run against it"
                )
            now = require_aware(self._clock(), "clock()")
            for migration in migrations[current:target]:
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    now,
                )

    # ------------------------------------------------------------------ plumbing

    def _require_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("repository is not connected (use `async with` or `await repo.connect()`)")
        return self._pool

    async def _connection_lost(self, conn: asyncpg.Connection | None) -> None:
        """After a connection-level failure: that connection never goes back to the pool, and the others are
        replaced before their next use."""
        with contextlib.suppress(*_DB_ERRORS):  # it may be gone already, or back in the pool
            if conn is not None and not conn.is_closed():
                conn.terminate()
        if self._pool is not None:
            await self._pool.expire_connections()

    @asynccontextmanager
    async def _write(self, doing: str) -> AsyncIterator[Tx]:
        pool = self._require_pool()
        conn: asyncpg.Connection | None = None
        try:
            async with pool.acquire() as conn:
                try:
                    async with conn.transaction():
                        yield _Tx(conn)
                except _CONNECTION_LOST:
                    await self._connection_lost(conn)
                    raise
        except _CONNECTION_LOST as exc:
            await self._connection_lost(None)
            raise _map_error(exc, doing) from exc
        except _DB_ERRORS as exc:
            raise _map_error(exc, doing) from exc

    @asynccontextmanager
    async def _one_statement(self, doing: str) -> AsyncIterator[Tx]:
        """Statements straight on the pool: each one is its own transaction (one round trip)."""
        try:
            yield _Tx(self._require_pool())
        except _CONNECTION_LOST as exc:
            await self._connection_lost(None)
            raise _map_error(exc, doing) from exc
        except _DB_ERRORS as exc:
            raise _map_error(exc, doing) from exc

    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """One query; a read is safe to repeat, so a lost connection is retried once here, on a fresh one."""
        for attempt in (1, 2):
            try:
                return list(await self._require_pool().fetch(numbered_placeholders(sql), *args))
            except _CONNECTION_LOST as exc:
                await self._connection_lost(None)
                if attempt == 2:
                    raise _map_error(exc, "read") from exc
            except _DB_ERRORS as exc:
                raise _map_error(exc, "read") from exc
        raise AssertionError("unreachable")

    async def _append(
        self,
        game_id: str,
        expected_version: int,
        sets: str,
        args: Sequence[Any],
        log_row: tuple[int | None, str, Any],
        results: list[SeatResult] | None,
        timers: TimerChange | None = None,
        snapshot_j: str | None = None,
    ) -> tuple[int, int]:
        # The version guard, the counters, the log row and the saved position in one statement; without
        # results or timers to write it needs no explicit transaction: a single round trip, nothing half-applied.
        saved = ""
        after: tuple[Any, ...] = log_row
        if snapshot_j is not None:
            saved = (
                ", saved AS (INSERT INTO game_snapshots (game_id, seq, snapshot)"
                " SELECT id, action_count, ? FROM bumped"
                " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, snapshot = excluded.snapshot)"
            )
            after = (snapshot_j, *log_row)
        sql = (
            f"WITH bumped AS (UPDATE games SET {sets} {VERSION_GUARD} RETURNING id, version, action_count){saved}"
            " INSERT INTO actions (game_id, seq, seat, action, version, created_at)"
            " SELECT id, action_count, ?, ?, version, ? FROM bumped RETURNING seq, version"
        )
        scope = self._one_statement if results is None and not timers else self._write
        async with scope("append action") as tx:
            row = await self._guarded(tx, sql, args, game_id, expected_version, after)
            if results is not None:
                await self._write_results(tx, game_id, results)
            if timers:
                await self._write_timers(tx, game_id, timers, log_row[2])
        return int(row["version"]), int(row["seq"])

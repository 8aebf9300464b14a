"""PostgreSQL backend on an asyncpg pool.

* Each write is one transaction on one pooled connection (READ COMMITTED). The version guard is the
  ``UPDATE ... WHERE id = $1 AND version = $2``: two writers with the same expected version queue on
  the row lock and the second one re-checks the WHERE clause against the committed row, matches
  nothing, and gets :class:`VersionConflict`.
* ``schema=NAME`` (constructor or ``?schema=`` in the URL) puts every table in that schema through
  the connections' search_path; it is created if missing. Tests use one schema per test.
* Connection failures, pool timeouts, lock timeouts, deadlocks and serialisation failures are
  :class:`StorageUnavailable`. One case is ambiguous in any client/server database: the connection
  dying while COMMIT is in flight. It is reported as StorageUnavailable too; retrying with the same
  expected version is still safe because of the version guard (it either applies or conflicts).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import asyncpg

from . import _common as c
from .base import (
    UNSET,
    ActionRecord,
    GameNotFound,
    GameRecord,
    GameStatus,
    GameSummary,
    LeaderboardRow,
    Page,
    PlaceTaken,
    PlayerResult,
    PlayerStats,
    Seat,
    SeatResult,
    StorageError,
    StorageUnavailable,
    Timer,
    Unset,
    VersionConflict,
    normalise_statuses,
    require_aware,
    utcnow,
)

__all__ = ["PostgresRepository"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")

_SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, board, variant, options::text AS options, status,"
    " settings::text AS settings, seats::text AS seats, version, action_count, created_at, updated_at,"
    " finished_at"
)
_RECORD_COLUMNS = _SUMMARY_COLUMNS + ", snapshot::text AS snapshot"
_TIMER_COLUMNS = "id, game_id, kind, due_at, payload::text AS payload, created_at"
_OPEN = "('lobby', 'active')"

# The version guard, the snapshot, the counters and the action row in one statement.
# $5 status or NULL to keep it, $6 whether $5 closes the game (sets finished_at once).
_APPEND_SQL = """
WITH bumped AS (
    UPDATE games
       SET version = version + 1,
           action_count = action_count + 1,
           snapshot = $3::json,
           updated_at = $4,
           status = COALESCE($5::text, status),
           finished_at = CASE WHEN $5::text IS NULL THEN finished_at
                              WHEN $6::boolean THEN COALESCE(finished_at, $4)
                              ELSE NULL END
     WHERE id = $1 AND version = $2
 RETURNING id, version, action_count
)
INSERT INTO actions (game_id, seq, seat, action, version, created_at)
SELECT id, action_count, $7, $8::jsonb, version, $4 FROM bumped
RETURNING seq, version
"""

_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable (ConnectionError is a subclass)
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.QueryCanceledError,  # statement_timeout / lock_timeout
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
)


#: what the driver and the network raise; anything else is a bug and propagates as it is
_DB_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.PostgresError,
    asyncpg.exceptions.InterfaceError,
    OSError,
    asyncio.TimeoutError,
)


def _map_error(exc: BaseException, doing: str) -> StorageError:
    if isinstance(exc, _UNAVAILABLE):
        return StorageUnavailable(f"postgres: {doing}: {type(exc).__name__}: {exc}")
    return StorageError(f"postgres: {doing}: {type(exc).__name__}: {exc}")


def _summary_kwargs(row: asyncpg.Record) -> dict[str, Any]:
    return {
        "id": row["id"],
        "guild_id": row["guild_id"],
        "channel_id": row["channel_id"],
        "thread_id": row["thread_id"],
        "host_id": row["host_id"],
        "board": row["board"],
        "variant": row["variant"],
        "options": c.loads(row["options"]),
        "status": GameStatus(row["status"]),
        "settings": c.loads(row["settings"]),
        "seats": c.seats_from_json(row["seats"]),
        "version": row["version"],
        "action_count": row["action_count"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "finished_at": row["finished_at"],
    }


def _summary(row: asyncpg.Record) -> GameSummary:
    return GameSummary(**_summary_kwargs(row))


def _record(row: asyncpg.Record) -> GameRecord:
    return GameRecord(**_summary_kwargs(row), snapshot=c.loads(row["snapshot"]))


def _timer(row: asyncpg.Record) -> Timer:
    return Timer(
        row["id"], row["game_id"], row["kind"], row["due_at"], c.loads(row["payload"]), row["created_at"]
    )


def _cursor_key(value: datetime) -> str:
    return value.isoformat(timespec="microseconds")


def _open_here(
    channel_id: int | None, thread_id: int | None, columns: str = "id"
) -> tuple[str, tuple[Any, ...]]:
    """The open game of a place: the thread, else directly in the channel (the newest if several)."""
    args: tuple[Any, ...]
    if thread_id is not None:
        where, args = "thread_id = $1", (thread_id,)
    else:
        where, args = "channel_id = $1 AND thread_id IS NULL", (channel_id,)
    return (
        f"SELECT {columns} FROM games WHERE {where} AND status IN {_OPEN}"
        " ORDER BY updated_at DESC, id DESC LIMIT 1",
        args,
    )


class PostgresRepository:
    """:class:`~bot.storage.base.GameRepository` on PostgreSQL (asyncpg pool)."""

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
        self._clock = clock
        self._migrate_to = migrate_to
        self._pool: asyncpg.Pool | None = None
        self._connect_lock = asyncio.Lock()

    def __repr__(self) -> str:
        state = "open" if self._pool is not None else "closed"
        return f"<PostgresRepository schema={self.schema!r} {state}>"

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> PostgresRepository:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        async with self._connect_lock:
            if self._pool is not None:
                return
            # lock_timeout: a write stuck behind a lock held elsewhere gives up (StorageUnavailable,
            # nothing written) instead of hanging the game manager
            server_settings = {"application_name": "ttr-discord", "lock_timeout": f"{self.lock_timeout_ms}ms"}
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
        migrations = c.load_migrations("postgres")
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

    async def schema_version(self) -> int:
        return int(await self._fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    # ------------------------------------------------------------------ plumbing

    def _require_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("repository is not connected (use `async with` or `await repo.connect()`)")
        return self._pool

    @asynccontextmanager
    async def _write(self, doing: str) -> AsyncIterator[asyncpg.Connection]:
        pool = self._require_pool()
        try:
            async with pool.acquire() as conn, conn.transaction():
                yield conn
        except _DB_ERRORS as exc:
            raise _map_error(exc, doing) from exc

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        try:
            return list(await self._require_pool().fetch(sql, *args))
        except _DB_ERRORS as exc:
            raise _map_error(exc, "read") from exc

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        try:
            return await self._require_pool().fetchval(sql, *args)
        except _DB_ERRORS as exc:
            raise _map_error(exc, "read") from exc

    def _now(self) -> datetime:
        return require_aware(self._clock(), "clock()")

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        board: str,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] = (),
        snapshot: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        status: GameStatus | str = GameStatus.LOBBY,
        game_id: str | None = None,
        only_if_place_free: bool = False,
    ) -> GameRecord:
        status_v = GameStatus(status).value
        options_j = c.dumps(c.as_dict(options, "options"))
        settings_j = c.dumps(c.as_dict(settings, "settings"))
        seats_t = tuple(seats)
        seats_j = c.seats_json(seats_t)
        snapshot_j = None if snapshot is None else c.dumps(c.as_dict(snapshot, "snapshot"))
        now = self._now()
        finished = now if c.is_closed(status_v) else None
        for attempt in range(8):
            gid = game_id or c.new_game_id()
            try:
                async with self._write("create game") as conn:
                    if only_if_place_free:
                        # one creator per place at a time, in every process, until this transaction ends
                        place = (
                            f"ttr:place:t{thread_id}" if thread_id is not None else f"ttr:place:c{channel_id}"
                        )
                        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", place)
                        sql, args = _open_here(channel_id, thread_id)
                        taken = await conn.fetchval(sql, *args)
                        if taken is not None:
                            raise PlaceTaken(taken, channel_id=channel_id, thread_id=thread_id)
                    await conn.execute(
                        "INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, board, variant,"
                        " options, status, settings, seats, snapshot, version, action_count,"
                        " created_at, updated_at, finished_at)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11::jsonb, $12::json,"
                        " 0, 0, $13, $13, $14)",
                        gid, guild_id, channel_id, thread_id, host_id, board, variant, options_j, status_v,
                        settings_j, seats_j, snapshot_j, now, finished,
                    )  # fmt: skip
                    rows = c.player_rows(gid, seats_t)
                    if rows:
                        await conn.executemany(
                            "INSERT INTO game_players (game_id, seat, user_id) VALUES ($1, $2, $3)", rows
                        )
            except StorageError as exc:
                cause = exc.__cause__
                if (
                    isinstance(cause, asyncpg.exceptions.UniqueViolationError)
                    and game_id is None
                    and attempt < 7
                ):
                    continue
                raise
            return GameRecord(
                id=gid, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, host_id=host_id,
                board=board, variant=variant, options=c.loads(options_j), status=GameStatus(status_v),
                settings=c.loads(settings_j), seats=seats_t, version=0, action_count=0,
                created_at=now, updated_at=now, finished_at=finished, snapshot=c.loads(snapshot_j),
            )  # fmt: skip
        raise StorageError("could not draw a free game id")  # pragma: no cover

    async def find_game(self, game_id: str) -> GameRecord | None:
        rows = await self._fetch(f"SELECT {_RECORD_COLUMNS} FROM games WHERE id = $1", game_id)
        return _record(rows[0]) if rows else None

    async def load_game(self, game_id: str) -> GameRecord:
        record = await self.find_game(game_id)
        if record is None:
            raise GameNotFound(game_id)
        return record

    @staticmethod
    async def _guard_failed(
        conn: asyncpg.Connection | asyncpg.Pool, game_id: str, expected: int
    ) -> StorageError:
        actual = await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
        if actual is None:
            return GameNotFound(game_id)
        return VersionConflict(game_id, expected, int(actual))

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        *,
        status: GameStatus | str | None = None,
        settings: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] | None = None,
        options: Mapping[str, Any] | None = None,
        snapshot: Mapping[str, Any] | None = None,
        thread_id: int | None | Unset = UNSET,
        host_id: int | None = None,
        results: Sequence[SeatResult] | None = None,
    ) -> int:
        params: list[Any] = [game_id, expected_version, self._now()]
        sets = ["version = version + 1", "updated_at = $3"]

        def arg(value: Any) -> str:
            params.append(value)
            return f"${len(params)}"

        status_v = c.status_value(status)
        if status_v is not None:
            sets.append(f"status = {arg(status_v)}")
            if c.is_closed(status_v):
                sets.append("finished_at = COALESCE(finished_at, $3)")
            else:
                sets.append("finished_at = NULL")
        if settings is not None:
            sets.append(f"settings = {arg(c.dumps(c.as_dict(settings, 'settings')))}::jsonb")
        if options is not None:
            sets.append(f"options = {arg(c.dumps(c.as_dict(options, 'options')))}::jsonb")
        seats_t = None if seats is None else tuple(seats)
        if seats_t is not None:
            sets.append(f"seats = {arg(c.seats_json(seats_t))}::jsonb")
        if snapshot is not None:
            sets.append(f"snapshot = {arg(c.dumps(c.as_dict(snapshot, 'snapshot')))}::json")
        if not isinstance(thread_id, Unset):
            sets.append(f"thread_id = {arg(thread_id)}::bigint")
        if host_id is not None:
            sets.append(f"host_id = {arg(host_id)}")
        checked = None if results is None else c.check_results(results)
        async with self._write("update game") as conn:
            version = await conn.fetchval(
                f"UPDATE games SET {', '.join(sets)} WHERE id = $1 AND version = $2 RETURNING version",
                *params,
            )
            if version is None:
                raise await self._guard_failed(conn, game_id, expected_version)
            if seats_t is not None:
                await conn.execute("DELETE FROM game_players WHERE game_id = $1", game_id)
                rows = c.player_rows(game_id, seats_t)
                if rows:
                    await conn.executemany(
                        "INSERT INTO game_players (game_id, seat, user_id) VALUES ($1, $2, $3)", rows
                    )
            if checked is not None:
                await self._write_results(conn, game_id, checked)
            return int(version)

    async def append_action(
        self,
        game_id: str,
        expected_version: int,
        seat: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any],
        status: GameStatus | str | None = None,
        *,
        results: Sequence[SeatResult] | None = None,
    ) -> ActionRecord:
        action_d = c.as_dict(action, "action")
        action_j = c.dumps(action_d)
        snapshot_j = c.dumps(c.as_dict(new_snapshot, "new_snapshot"))
        status_v = c.status_value(status)
        checked = None if results is None else c.check_results(results)
        now = self._now()
        args = (game_id, expected_version, snapshot_j, now, status_v, bool(status_v and c.is_closed(status_v)),
                seat, action_j)  # fmt: skip
        if checked is None:
            # one statement is its own transaction: a single round trip, nothing half-applied
            try:
                pool = self._require_pool()
                row = await pool.fetchrow(_APPEND_SQL, *args)
                if row is None:
                    raise await self._guard_failed(pool, game_id, expected_version)
            except _DB_ERRORS as exc:
                raise _map_error(exc, "append action") from exc
        else:
            async with self._write("append action") as conn:
                row = await conn.fetchrow(_APPEND_SQL, *args)
                if row is None:
                    raise await self._guard_failed(conn, game_id, expected_version)
                await self._write_results(conn, game_id, checked)
        version, seq = int(row["version"]), int(row["seq"])
        return ActionRecord(game_id, seq, seat, action_d, version, now)

    async def load_actions(self, game_id: str, *, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT game_id, seq, seat, action::text AS action, version, created_at FROM actions"
            " WHERE game_id = $1 AND seq > $2 ORDER BY seq",
            game_id,
            after_seq,
        )
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], c.loads(r["action"]), r["version"], r["created_at"]
            )
            for r in rows
        ]

    async def delete_game(self, game_id: str) -> bool:
        async with self._write("delete game") as conn:
            deleted = await conn.fetchval("DELETE FROM games WHERE id = $1 RETURNING id", game_id)
        return deleted is not None

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameRecord | None:
        if thread_id is None and channel_id is None:
            raise ValueError("find_open_game needs channel_id or thread_id")
        sql, args = _open_here(channel_id, thread_id, _RECORD_COLUMNS)
        rows = await self._fetch(sql, *args)
        return _record(rows[0]) if rows else None

    async def list_games(
        self,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        limit: int = 50,
        after: str | None = None,
    ) -> Page:
        c.check_limit(limit)
        where: list[str] = []
        params: list[Any] = []
        statuses = normalise_statuses(status)
        if statuses is not None:
            where.append(f"status IN ({c.in_list(statuses)})")
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        if channel_id is not None:
            params.append(channel_id)
            where.append(f"(channel_id = ${len(params)} OR thread_id = ${len(params)})")
        if after is not None:
            key, last_id = c.decode_cursor(after)
            params += [datetime.fromisoformat(key), last_id]
            where.append(f"(created_at, id) < (${len(params) - 1}, ${len(params)})")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        params.append(limit + 1)
        rows = await self._fetch(
            f"SELECT {_SUMMARY_COLUMNS} FROM games {clause} ORDER BY created_at DESC, id DESC LIMIT ${len(params)}",
            *params,
        )
        items = [_summary(r) for r in rows[:limit]]
        cursor = None
        if len(rows) > limit:
            cursor = c.encode_cursor(_cursor_key(rows[limit - 1]["created_at"]), rows[limit - 1]["id"])
        return Page(items, cursor)

    async def iter_game_ids(
        self,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        batch_size: int = 1000,
    ) -> AsyncIterator[str]:
        c.check_limit(batch_size, 100_000)
        statuses = normalise_statuses(status)
        where = [f"status IN ({c.in_list(statuses)})"] if statuses is not None else []
        params: list[Any] = []
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        where.append(f"id > ${len(params) + 1}")
        sql = f"SELECT id FROM games WHERE {' AND '.join(where)} ORDER BY id LIMIT ${len(params) + 2}"
        last = ""
        while True:
            rows = await self._fetch(sql, *params, last, batch_size)
            for row in rows:
                yield row["id"]
            if len(rows) < batch_size:
                return
            last = rows[-1]["id"]

    async def games_for_player(
        self,
        user_id: int,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        limit: int = 50,
    ) -> list[GameSummary]:
        c.check_limit(limit)
        where = ["id IN (SELECT game_id FROM game_players WHERE user_id = $1)"]
        params: list[Any] = [user_id]
        statuses = normalise_statuses(status)
        if statuses is not None:
            where.append(f"status IN ({c.in_list(statuses)})")
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        params.append(limit)
        rows = await self._fetch(
            f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE {' AND '.join(where)}"
            f" ORDER BY updated_at DESC, id DESC LIMIT ${len(params)}",
            *params,
        )
        return [_summary(r) for r in rows]

    # ------------------------------------------------------------------ timers

    async def add_timer(
        self, game_id: str, kind: str, due_at: datetime, payload: Mapping[str, Any] | None = None
    ) -> Timer:
        due = require_aware(due_at, "due_at")
        payload_d = c.as_dict(payload, "payload")
        now = self._now()
        try:
            async with self._write("add timer") as conn:
                timer_id = await conn.fetchval(
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at)"
                    " VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id",
                    game_id, kind, due, c.dumps(payload_d), now,
                )  # fmt: skip
        except StorageError as exc:
            if isinstance(exc.__cause__, asyncpg.exceptions.ForeignKeyViolationError):
                raise GameNotFound(game_id) from exc
            raise
        return Timer(int(timer_id), game_id, kind, due, payload_d, now)

    async def due_timers(self, now: datetime | None = None, *, limit: int = 100) -> list[Timer]:
        c.check_limit(limit, 100_000)
        moment = require_aware(now, "now") if now is not None else self._now()
        rows = await self._fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE due_at <= $1 ORDER BY due_at, id LIMIT $2",
            moment,
            limit,
        )
        return [_timer(r) for r in rows]

    async def next_timer_due(self) -> datetime | None:
        value: datetime | None = await self._fetchval("SELECT MIN(due_at) FROM timers")
        return value

    async def timers_for_game(self, game_id: str, kind: str | None = None) -> list[Timer]:
        if kind is None:
            rows = await self._fetch(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due_at, id", game_id
            )
        else:
            rows = await self._fetch(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = $1 AND kind = $2 ORDER BY due_at, id",
                game_id,
                kind,
            )
        return [_timer(r) for r in rows]

    async def delete_timer(self, timer_id: int) -> bool:
        async with self._write("delete timer") as conn:
            deleted = await conn.fetchval("DELETE FROM timers WHERE id = $1 RETURNING id", timer_id)
        return deleted is not None

    async def delete_timers(self, game_id: str, kind: str | None = None) -> int:
        async with self._write("delete timers") as conn:
            if kind is None:
                rows = await conn.fetch("DELETE FROM timers WHERE game_id = $1 RETURNING id", game_id)
            else:
                rows = await conn.fetch(
                    "DELETE FROM timers WHERE game_id = $1 AND kind = $2 RETURNING id", game_id, kind
                )
        return len(rows)

    # ------------------------------------------------------------------ results and stats

    @staticmethod
    async def _write_results(conn: asyncpg.Connection, game_id: str, results: list[SeatResult]) -> None:
        game = await conn.fetchrow(
            "SELECT guild_id, board, COALESCE(finished_at, updated_at) AS finished FROM games WHERE id = $1",
            game_id,
        )
        if game is None:
            raise GameNotFound(game_id)
        await conn.execute("DELETE FROM game_results WHERE game_id = $1", game_id)
        if results:
            await conn.executemany(
                "INSERT INTO game_results (game_id, seat, guild_id, user_id, board, score, rank, won, finished_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    (game_id, r.seat, game["guild_id"], r.user_id, game["board"], r.score, r.rank, r.won,
                     game["finished"])
                    for r in results
                ],
            )  # fmt: skip

    async def record_results(self, game_id: str, results: Sequence[SeatResult]) -> None:
        checked = c.check_results(results)
        async with self._write("record results") as conn:
            await self._write_results(conn, game_id, checked)

    async def load_results(self, game_id: str) -> list[PlayerResult]:
        rows = await self._fetch(
            "SELECT game_id, guild_id, seat, user_id, board, score, rank, won, finished_at"
            " FROM game_results WHERE game_id = $1 ORDER BY rank, seat",
            game_id,
        )
        return [
            PlayerResult(
                r["game_id"],
                r["guild_id"],
                r["seat"],
                r["user_id"],
                r["board"],
                r["score"],
                r["rank"],
                r["won"],
                r["finished_at"],
            )  # fmt: skip
            for r in rows
        ]

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        sql = (
            "SELECT board, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins, SUM(score) AS total,"
            " MAX(score) AS best FROM game_results WHERE user_id = $1"
        )
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = $2"
            params.append(guild_id)
        rows = await self._fetch(sql + " GROUP BY board ORDER BY board", *params)
        return c.stats(
            guild_id, user_id, [(r["board"], r["games"], r["wins"], r["total"], r["best"]) for r in rows]
        )

    async def leaderboard(
        self, guild_id: int | None, board: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        c.check_limit(limit)
        where = ["user_id IS NOT NULL"]
        params: list[Any] = []
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        if board is not None:
            params.append(board)
            where.append(f"board = ${len(params)}")
        params.append(limit)
        rows = await self._fetch(
            "SELECT user_id, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins, SUM(score) AS total,"
            f" MAX(score) AS best FROM game_results WHERE {' AND '.join(where)} GROUP BY user_id"
            " ORDER BY wins DESC, SUM(score)::float8 / COUNT(*) DESC, games DESC, user_id"
            f" LIMIT ${len(params)}",
            *params,
        )
        return [
            LeaderboardRow(r["user_id"], r["games"], r["wins"], int(r["total"]) / r["games"], r["best"])
            for r in rows
        ]

"""SQLite backend: one file in WAL mode, one writer connection behind an asyncio lock, one reader.

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
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

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

__all__ = ["SQLiteRepository"]

_SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, board, variant, options, status, settings, seats, "
    "version, action_count, created_at, updated_at, finished_at"
)
_RECORD_COLUMNS = _SUMMARY_COLUMNS + ", snapshot"
_TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at"

_UNAVAILABLE_CODES = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PROTOCOL,
    sqlite3.SQLITE_NOLFS,
}


def _ts(value: datetime) -> str:
    """UTC, fixed width: these strings sort like the instants they stand for."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _dt_or_none(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _map_error(exc: sqlite3.Error, doing: str) -> StorageError:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    message = str(exc).lower()
    if primary in _UNAVAILABLE_CODES or "locked" in message or "unable to open" in message:
        return StorageUnavailable(f"sqlite: {doing}: {exc}")
    return StorageError(f"sqlite: {doing}: {exc}")


def _summary_kwargs(row: sqlite3.Row) -> dict[str, Any]:
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
        "created_at": _dt(row["created_at"]),
        "updated_at": _dt(row["updated_at"]),
        "finished_at": _dt_or_none(row["finished_at"]),
    }


def _summary(row: sqlite3.Row) -> GameSummary:
    return GameSummary(**_summary_kwargs(row))


def _record(row: sqlite3.Row) -> GameRecord:
    return GameRecord(**_summary_kwargs(row), snapshot=c.loads(row["snapshot"]))


def _timer(row: sqlite3.Row) -> Timer:
    return Timer(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        due_at=_dt(row["due_at"]),
        payload=c.loads(row["payload"]),
        created_at=_dt(row["created_at"]),
    )


def _open_here(
    channel_id: int | None, thread_id: int | None, columns: str = "id"
) -> tuple[str, tuple[Any, ...]]:
    """The open game of a place: the thread, else directly in the channel (the newest if several)."""
    params: tuple[Any, ...]
    if thread_id is not None:
        where, params = "thread_id = ?", (thread_id,)
    else:
        where, params = "channel_id = ? AND thread_id IS NULL", (channel_id,)
    return (
        f"SELECT {columns} FROM games WHERE {where} AND status IN ('lobby', 'active')"
        " ORDER BY updated_at DESC, id DESC LIMIT 1",
        params,
    )


class SQLiteRepository:
    """:class:`~bot.storage.base.GameRepository` on one SQLite file (or ``:memory:``)."""

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

    async def __aenter__(self) -> SQLiteRepository:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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
            raise _map_error(exc, f"open {self.path}") from exc
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise _map_error(exc, f"configure {self.path}") from exc
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
                        raise _map_error(exc, "switch to WAL") from exc
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
        migrations = c.load_migrations("sqlite")
        target = self._migrate_to if self._migrate_to is not None else len(migrations)
        try:
            await conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _map_error(exc, "lock for migration") from exc
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
            now = _ts(self._clock())
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
                raise _map_error(exc, "migrate") from exc
            raise

    async def schema_version(self) -> int:
        rows = await self._read("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version", ())
        return int(rows[0]["v"])

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
    async def _write(self, doing: str) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction on the single writer; nothing is half-applied on any error."""
        async with self._lock:
            conn = self._conn(self._writer)
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _map_error(exc, doing) from exc
            except BaseException:
                # cancelled while waiting for the lock: BEGIN still runs on the connection's thread,
                # so queue a ROLLBACK behind it (statements run in order) before letting others in.
                # The cancelled caller thus returns once the lock came or busy_timeout expired.
                await self._rollback(conn)
                raise
            try:
                yield conn
                await conn.execute("COMMIT")
            except sqlite3.Error as exc:
                await self._rollback(conn)
                raise _map_error(exc, doing) from exc
            except BaseException:
                await self._rollback(conn)
                raise

    async def _read(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        try:
            if self._memory:
                async with self._lock:
                    rows = await self._conn(self._reader).execute_fetchall(sql, params)
            else:
                rows = await self._conn(self._reader).execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            raise _map_error(exc, "read") from exc
        return list(rows)

    @staticmethod
    async def _fetch(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await conn.execute_fetchall(sql, params))

    def _now(self) -> str:
        return _ts(require_aware(self._clock(), "clock()"))

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
                    if only_if_place_free:  # BEGIN IMMEDIATE: no other writer, in any process, until COMMIT
                        sql, params = _open_here(channel_id, thread_id)
                        taken = await self._fetch(conn, sql, params)
                        if taken:
                            raise PlaceTaken(taken[0]["id"], channel_id=channel_id, thread_id=thread_id)
                    await conn.execute(
                        "INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, board, variant,"
                        " options, status, settings, seats, snapshot, version, action_count,"
                        " created_at, updated_at, finished_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?)",
                        (gid, guild_id, channel_id, thread_id, host_id, board, variant, options_j, status_v,
                         settings_j, seats_j, snapshot_j, now, now, finished),
                    )  # fmt: skip
                    await conn.executemany(
                        "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                        c.player_rows(gid, seats_t),
                    )
            except StorageError as exc:
                if isinstance(exc.__cause__, sqlite3.IntegrityError) and game_id is None and attempt < 7:
                    continue  # id collision: draw another
                raise
            return GameRecord(
                id=gid, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, host_id=host_id,
                board=board, variant=variant, options=c.loads(options_j), status=GameStatus(status_v),
                settings=c.loads(settings_j), seats=seats_t, version=0, action_count=0,
                created_at=_dt(now), updated_at=_dt(now), finished_at=_dt_or_none(finished),
                snapshot=c.loads(snapshot_j),
            )  # fmt: skip
        raise StorageError("could not draw a free game id")  # pragma: no cover

    async def find_game(self, game_id: str) -> GameRecord | None:
        rows = await self._read(f"SELECT {_RECORD_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _record(rows[0]) if rows else None

    async def load_game(self, game_id: str) -> GameRecord:
        record = await self.find_game(game_id)
        if record is None:
            raise GameNotFound(game_id)
        return record

    async def _guard_failed(self, conn: aiosqlite.Connection, game_id: str, expected: int) -> StorageError:
        rows = await self._fetch(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
        if not rows:
            return GameNotFound(game_id)
        return VersionConflict(game_id, expected, int(rows[0]["version"]))

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
        now = self._now()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        status_v = c.status_value(status)
        if status_v is not None:
            sets += ["status = ?", "finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE NULL END"]
            params += [status_v, c.is_closed(status_v), now]
        if settings is not None:
            sets.append("settings = ?")
            params.append(c.dumps(c.as_dict(settings, "settings")))
        if options is not None:
            sets.append("options = ?")
            params.append(c.dumps(c.as_dict(options, "options")))
        seats_t = None if seats is None else tuple(seats)
        if seats_t is not None:
            sets.append("seats = ?")
            params.append(c.seats_json(seats_t))
        if snapshot is not None:
            sets.append("snapshot = ?")
            params.append(c.dumps(c.as_dict(snapshot, "snapshot")))
        if not isinstance(thread_id, Unset):
            sets.append("thread_id = ?")
            params.append(thread_id)
        if host_id is not None:
            sets.append("host_id = ?")
            params.append(host_id)
        checked = None if results is None else c.check_results(results)
        async with self._write("update game") as conn:
            rows = await self._fetch(
                conn,
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING version",
                (*params, game_id, expected_version),
            )
            if not rows:
                raise await self._guard_failed(conn, game_id, expected_version)
            if seats_t is not None:
                await conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
                await conn.executemany(
                    "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                    c.player_rows(game_id, seats_t),
                )
            if checked is not None:
                await self._write_results(conn, game_id, checked)
            return int(rows[0]["version"])

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
        async with self._write("append action") as conn:
            if status_v is None:
                rows = await self._fetch(
                    conn,
                    "UPDATE games SET version = version + 1, action_count = action_count + 1,"
                    " snapshot = ?, updated_at = ?"
                    " WHERE id = ? AND version = ? RETURNING version, action_count",
                    (snapshot_j, now, game_id, expected_version),
                )
            else:
                rows = await self._fetch(
                    conn,
                    "UPDATE games SET version = version + 1, action_count = action_count + 1,"
                    " snapshot = ?, updated_at = ?, status = ?,"
                    " finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE NULL END"
                    " WHERE id = ? AND version = ? RETURNING version, action_count",
                    (snapshot_j, now, status_v, c.is_closed(status_v), now, game_id, expected_version),
                )
            if not rows:
                raise await self._guard_failed(conn, game_id, expected_version)
            version, seq = int(rows[0]["version"]), int(rows[0]["action_count"])
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, version, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, action_j, version, now),
            )
            if checked is not None:
                await self._write_results(conn, game_id, checked)
        return ActionRecord(game_id, seq, seat, action_d, version, _dt(now))

    async def load_actions(self, game_id: str, *, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._read(
            "SELECT game_id, seq, seat, action, version, created_at FROM actions"
            " WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], c.loads(r["action"]), r["version"], _dt(r["created_at"])
            )
            for r in rows
        ]

    async def delete_game(self, game_id: str) -> bool:
        async with self._write("delete game") as conn:
            rows = await self._fetch(conn, "DELETE FROM games WHERE id = ? RETURNING id", (game_id,))
        return bool(rows)

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameRecord | None:
        if thread_id is None and channel_id is None:
            raise ValueError("find_open_game needs channel_id or thread_id")
        sql, params = _open_here(channel_id, thread_id, _RECORD_COLUMNS)
        rows = await self._read(sql, params)
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
            where.append("guild_id = ?")
            params.append(guild_id)
        if channel_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            params += [channel_id, channel_id]
        if after is not None:
            key, last_id = c.decode_cursor(after)
            where.append("(created_at, id) < (?, ?)")
            params += [key, last_id]
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._read(
            f"SELECT {_SUMMARY_COLUMNS} FROM games {clause} ORDER BY created_at DESC, id DESC LIMIT ?",
            (*params, limit + 1),
        )
        items = [_summary(r) for r in rows[:limit]]
        cursor = (
            c.encode_cursor(rows[limit - 1]["created_at"], rows[limit - 1]["id"])
            if len(rows) > limit
            else None
        )
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
            where.append("guild_id = ?")
            params.append(guild_id)
        where.append("id > ?")
        sql = f"SELECT id FROM games WHERE {' AND '.join(where)} ORDER BY id LIMIT ?"
        last = ""
        while True:
            rows = await self._read(sql, (*params, last, batch_size))
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
        where = ["id IN (SELECT game_id FROM game_players WHERE user_id = ?)"]
        params: list[Any] = [user_id]
        statuses = normalise_statuses(status)
        if statuses is not None:
            where.append(f"status IN ({c.in_list(statuses)})")
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        rows = await self._read(
            f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE {' AND '.join(where)}"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [_summary(r) for r in rows]

    # ------------------------------------------------------------------ timers

    async def add_timer(
        self, game_id: str, kind: str, due_at: datetime, payload: Mapping[str, Any] | None = None
    ) -> Timer:
        due = _ts(require_aware(due_at, "due_at"))
        payload_d = c.as_dict(payload, "payload")
        now = self._now()
        try:
            async with self._write("add timer") as conn:
                rows = await self._fetch(
                    conn,
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at)"
                    " VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (game_id, kind, due, c.dumps(payload_d), now),
                )
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise GameNotFound(game_id) from exc
            raise
        return Timer(int(rows[0]["id"]), game_id, kind, _dt(due), payload_d, _dt(now))

    async def due_timers(self, now: datetime | None = None, *, limit: int = 100) -> list[Timer]:
        c.check_limit(limit, 100_000)
        moment = _ts(require_aware(now, "now")) if now is not None else self._now()
        rows = await self._read(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
            (moment, limit),
        )
        return [_timer(r) for r in rows]

    async def next_timer_due(self) -> datetime | None:
        rows = await self._read("SELECT MIN(due_at) AS due FROM timers", ())
        return _dt_or_none(rows[0]["due"]) if rows else None

    async def timers_for_game(self, game_id: str, kind: str | None = None) -> list[Timer]:
        if kind is None:
            rows = await self._read(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY due_at, id", (game_id,)
            )
        else:
            rows = await self._read(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? AND kind = ? ORDER BY due_at, id",
                (game_id, kind),
            )
        return [_timer(r) for r in rows]

    async def delete_timer(self, timer_id: int) -> bool:
        async with self._write("delete timer") as conn:
            rows = await self._fetch(conn, "DELETE FROM timers WHERE id = ? RETURNING id", (timer_id,))
        return bool(rows)

    async def delete_timers(self, game_id: str, kind: str | None = None) -> int:
        async with self._write("delete timers") as conn:
            if kind is None:
                rows = await self._fetch(
                    conn, "DELETE FROM timers WHERE game_id = ? RETURNING id", (game_id,)
                )
            else:
                rows = await self._fetch(
                    conn, "DELETE FROM timers WHERE game_id = ? AND kind = ? RETURNING id", (game_id, kind)
                )
        return len(rows)

    # ------------------------------------------------------------------ results and stats

    async def _write_results(
        self, conn: aiosqlite.Connection, game_id: str, results: list[SeatResult]
    ) -> None:
        rows = await self._fetch(
            conn, "SELECT guild_id, board, finished_at, updated_at FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            raise GameNotFound(game_id)
        game = rows[0]
        finished = game["finished_at"] or game["updated_at"]
        await conn.execute("DELETE FROM game_results WHERE game_id = ?", (game_id,))
        await conn.executemany(
            "INSERT INTO game_results (game_id, seat, guild_id, user_id, board, score, rank, won, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    r.seat,
                    game["guild_id"],
                    r.user_id,
                    game["board"],
                    r.score,
                    r.rank,
                    int(r.won),
                    finished,
                )
                for r in results
            ],
        )

    async def record_results(self, game_id: str, results: Sequence[SeatResult]) -> None:
        checked = c.check_results(results)
        async with self._write("record results") as conn:
            await self._write_results(conn, game_id, checked)

    async def load_results(self, game_id: str) -> list[PlayerResult]:
        rows = await self._read(
            "SELECT game_id, guild_id, seat, user_id, board, score, rank, won, finished_at"
            " FROM game_results WHERE game_id = ? ORDER BY rank, seat",
            (game_id,),
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
                bool(r["won"]),
                _dt(r["finished_at"]),
            )  # fmt: skip
            for r in rows
        ]

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        sql = (
            "SELECT board, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS total, MAX(score) AS best"
            " FROM game_results WHERE user_id = ?"
        )
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._read(sql + " GROUP BY board ORDER BY board", params)
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
            where.append("guild_id = ?")
            params.append(guild_id)
        if board is not None:
            where.append("board = ?")
            params.append(board)
        rows = await self._read(
            "SELECT user_id, COUNT(*) AS games, SUM(won) AS wins, SUM(score) AS total, MAX(score) AS best"
            f" FROM game_results WHERE {' AND '.join(where)} GROUP BY user_id"
            " ORDER BY wins DESC, CAST(SUM(score) AS REAL) / COUNT(*) DESC, games DESC, user_id LIMIT ?",
            (*params, limit),
        )
        return [
            LeaderboardRow(r["user_id"], r["games"], r["wins"], r["total"] / r["games"], r["best"])
            for r in rows
        ]

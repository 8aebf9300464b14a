"""The GameRepository's queries, written once for SQLite and PostgreSQL.

Every statement here runs on both databases as it is, with ``?`` placeholders; PostgreSQL's backend
numbers them ``$1, $2 ...`` (``_dialect.numbered_placeholders``), so no SQL in this module may hold a
literal ``?``. What truly differs lives in a :class:`Dialect` (how a time is stored, which driver
errors mean "duplicate id" or "no such game", the lock that makes "one open game per place" atomic)
and in each backend: connections and transactions, migrations, error mapping, and PostgreSQL's
one-statement append (:meth:`SQLRepository._append`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, ClassVar, Self

from . import _common as c
from ._cluster import ClusterQueries
from ._dialect import Dialect, Row, Tx
from ._digests import DigestQueries
from ._player_time import PlayerTimeQueries
from ._server_settings import ServerSettingsQueries
from ._social import SocialQueries, rate_game
from ._stats import StatsQueriesSQL, write_stats
from ._timers import TimerQueries
from .base import (
    UNSET,
    ActionRecord,
    ChangeFeed,
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
    TimerChange,
    Unset,
    VersionConflict,
    normalise_statuses,
    require_aware,
)

_SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, board, variant, options, status, settings, seats, "
    "version, action_count, created_at, updated_at, finished_at"
)
#: a game's saved position lives in game_snapshots (V006), read with the game
_RECORD_COLUMNS = (
    _SUMMARY_COLUMNS + ", (SELECT s.seq FROM game_snapshots s WHERE s.game_id = games.id) AS snapshot_seq,"
    " (SELECT s.snapshot FROM game_snapshots s WHERE s.game_id = games.id) AS snapshot"
)
#: writes a game's saved position at seq (`?`, `?`, `?`: game id, seq, snapshot JSON)
SAVE_POSITION = (
    "INSERT INTO game_snapshots (game_id, seq, snapshot) VALUES (?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, snapshot = excluded.snapshot"
)
_TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at"
_OPEN = "('lobby', 'active')"
#: The version guard of every change to a game: it matches no row once someone else wrote first.
VERSION_GUARD = "WHERE id = ? AND version = ?"


def _open_here(
    channel_id: int | None, thread_id: int | None, columns: str = "id"
) -> tuple[str, tuple[Any, ...]]:
    """The open game of a place: the thread, else directly in the channel (the newest if several)."""
    args: tuple[Any, ...]
    if thread_id is not None:
        where, args = "thread_id = ?", (thread_id,)
    else:
        where, args = "channel_id = ? AND thread_id IS NULL", (channel_id,)
    return (
        f"SELECT {columns} FROM games WHERE {where} AND status IN {_OPEN}"
        " ORDER BY updated_at DESC, id DESC LIMIT 1",
        args,
    )


def _status_and_guild(
    status: GameStatus | str | Iterable[GameStatus | str] | None, guild_id: int | None
) -> tuple[list[str], list[Any]]:
    """The WHERE conditions (and their arguments) the listings share."""
    where: list[str] = []
    args: list[Any] = []
    statuses = normalise_statuses(status)
    if statuses is not None:
        where.append(f"status IN ({c.in_list(statuses)})")  # validated names, no placeholders
    if guild_id is not None:
        where.append("guild_id = ?")
        args.append(guild_id)
    return where, args


def _status_sets(status: str | None, now: Any) -> tuple[list[str], list[Any]]:
    """SET clauses for a new status: a closing one stamps ``finished_at`` once, an open one clears it."""
    if status is None:
        return [], []
    if c.is_closed(status):
        return ["status = ?", "finished_at = COALESCE(finished_at, ?)"], [status, now]
    return ["status = ?", "finished_at = NULL"], [status]


class SQLRepository(
    SocialQueries,
    StatsQueriesSQL,
    TimerQueries,
    ClusterQueries,
    PlayerTimeQueries,
    DigestQueries,
    ServerSettingsQueries,
    ABC,
):
    """:class:`~bot.storage.base.GameRepository` on any database with a :class:`Dialect`; a backend
    adds its connections (:meth:`connect`, :meth:`close`), :meth:`_write` and :meth:`_read`."""

    dialect: ClassVar[Dialect]
    url: str
    _clock: Callable[[], datetime]

    # ------------------------------------------------------------------ what a backend provides

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    def changes_elsewhere(
        self,
        on_change: Callable[[str, int], None],
        *,
        on_reconnect: Callable[[], None],
        on_lost: Callable[[StorageError], None],
        on_back: Callable[[], None],
    ) -> ChangeFeed | None:
        """None: one process per database (SQLite); PostgreSQL listens (bot.storage.pg_changes)."""
        return None

    @abstractmethod
    def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]:
        """One write transaction; nothing is half-applied on any error, driver errors become StorageError."""

    @abstractmethod
    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Rows of one query outside any write transaction (driver errors become StorageError)."""

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
        """``UPDATE games SET {sets}`` (with ``args``) under the version guard, then the log row
        ``(seat, action JSON, created_at)``, the saved position after it (``snapshot_j``, when given), the
        results and the timer rows; returns the new (version, seq). PostgreSQL makes it one statement when there
        are no results and no timers to write."""
        async with self._write("append action") as tx:
            sql = f"UPDATE games SET {sets} {VERSION_GUARD} RETURNING version, action_count"
            row = await self._guarded(tx, sql, args, game_id, expected_version)
            version, seq = int(row["version"]), int(row["action_count"])
            seat, action_j, created_at = log_row
            await tx.execute(
                "INSERT INTO actions (game_id, seq, seat, action, version, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, action_j, version, created_at),
            )
            if snapshot_j is not None:
                await tx.execute(SAVE_POSITION, (game_id, seq, snapshot_j))
            if results is not None:
                await self._write_results(tx, game_id, results)
            if timers:
                await self._write_timers(tx, game_id, timers, created_at)
        return version, seq

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _now(self) -> datetime:
        return require_aware(self._clock(), "clock()")

    async def schema_version(self) -> int:
        rows = await self._read("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
        return int(rows[0]["v"])

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
        timers: TimerChange | None = None,
    ) -> GameRecord:
        status_v = GameStatus(status).value
        options_j = c.dumps(c.as_dict(options, "options"))
        settings_j = c.dumps(c.as_dict(settings, "settings"))
        seats_t = tuple(seats)
        seats_j = c.seats_json(seats_t)
        snapshot_j = None if snapshot is None else c.dumps(c.as_dict(snapshot, "snapshot"))
        now = self._now()
        now_db = self.dialect.time_to_db(now)
        finished = now if c.is_closed(status_v) else None
        finished_db = now_db if finished is not None else None
        for attempt in range(8):
            gid = game_id or c.new_game_id()
            try:
                async with self._write("create game") as tx:
                    if only_if_place_free:
                        await self._check_place_free(tx, channel_id, thread_id)
                    await tx.execute(
                        "INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, board, variant,"
                        " options, status, settings, seats, version, action_count,"
                        " created_at, updated_at, finished_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?)",
                        (gid, guild_id, channel_id, thread_id, host_id, board, variant, options_j, status_v,
                         settings_j, seats_j, now_db, now_db, finished_db),
                    )  # fmt: skip
                    await self._write_players(tx, gid, seats_t)
                    if snapshot_j is not None:
                        await tx.execute(SAVE_POSITION, (gid, 0, snapshot_j))
                    if timers:
                        await self._write_timers(tx, gid, timers, now_db)
            except StorageError as exc:
                if isinstance(exc.__cause__, self.dialect.duplicate_key) and game_id is None and attempt < 7:
                    continue  # id collision: draw another
                raise
            return GameRecord(
                id=gid, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, host_id=host_id,
                board=board, variant=variant, options=c.loads(options_j), status=GameStatus(status_v),
                settings=c.loads(settings_j), seats=seats_t, version=0, action_count=0,
                created_at=now, updated_at=now, finished_at=finished, snapshot=c.loads(snapshot_j),
                snapshot_seq=0,
            )  # fmt: skip
        raise StorageError("could not draw a free game id")  # pragma: no cover

    async def _check_place_free(self, tx: Tx, channel_id: int, thread_id: int | None) -> None:
        if self.dialect.place_lock is not None:
            # one creator per place at a time, in every process, until this transaction ends
            place = f"ttr:place:t{thread_id}" if thread_id is not None else f"ttr:place:c{channel_id}"
            await tx.execute(self.dialect.place_lock, (place,))
        sql, args = _open_here(channel_id, thread_id)
        taken = await tx.fetch(sql, args)
        if taken:
            raise PlaceTaken(taken[0]["id"], channel_id=channel_id, thread_id=thread_id)

    @staticmethod
    async def _write_players(tx: Tx, game_id: str, seats: Sequence[Seat]) -> None:
        rows = c.player_rows(game_id, seats)
        if rows:
            await tx.executemany("INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)", rows)

    async def find_game(self, game_id: str) -> GameRecord | None:
        rows = await self._read(f"SELECT {_RECORD_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return c.record_from_row(rows[0], self.dialect.time_from_db) if rows else None

    async def load_game(self, game_id: str) -> GameRecord:
        record = await self.find_game(game_id)
        if record is None:
            raise GameNotFound(game_id)
        return record

    @staticmethod
    async def _guarded(
        tx: Tx, sql: str, args: Sequence[Any], game_id: str, expected: int, after: Sequence[Any] = ()
    ) -> Row:
        """The first row of ``sql`` run with ``(*args, game_id, expected, *after)``, its ``VERSION_GUARD``
        taking the middle two; no row: :class:`GameNotFound` or :class:`VersionConflict`, nothing written."""
        rows = await tx.fetch(sql, (*args, game_id, expected, *after))
        if rows:
            return rows[0]
        stored = await tx.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        if not stored:
            raise GameNotFound(game_id)
        raise VersionConflict(game_id, expected, int(stored[0]["version"]))

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
        timers: TimerChange | None = None,
    ) -> int:
        now_db = self.dialect.time_to_db(self._now())
        sets, args = _status_sets(c.status_value(status), now_db)
        sets[:0], args[:0] = ["version = version + 1", "updated_at = ?"], [now_db]
        if settings is not None:
            sets.append("settings = ?")
            args.append(c.dumps(c.as_dict(settings, "settings")))
        if options is not None:
            sets.append("options = ?")
            args.append(c.dumps(c.as_dict(options, "options")))
        seats_t = None if seats is None else tuple(seats)
        if seats_t is not None:
            sets.append("seats = ?")
            args.append(c.seats_json(seats_t))
        snapshot_j = None if snapshot is None else c.dumps(c.as_dict(snapshot, "snapshot"))
        if not isinstance(thread_id, Unset):
            sets.append("thread_id = ?")
            args.append(thread_id)
        if host_id is not None:
            sets.append("host_id = ?")
            args.append(host_id)
        checked = None if results is None else c.check_results(results)
        async with self._write("update game") as tx:
            sql = f"UPDATE games SET {', '.join(sets)} {VERSION_GUARD} RETURNING version, action_count"
            row = await self._guarded(tx, sql, args, game_id, expected_version)
            if snapshot_j is not None:  # the position after the game's actions so far
                await tx.execute(SAVE_POSITION, (game_id, int(row["action_count"]), snapshot_j))
            if seats_t is not None:
                await tx.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
                await self._write_players(tx, game_id, seats_t)
            if checked is not None:
                await self._write_results(tx, game_id, checked)
            if timers:
                await self._write_timers(tx, game_id, timers, now_db)
            return int(row["version"])

    async def append_action(
        self,
        game_id: str,
        expected_version: int,
        seat: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any] | None,
        status: GameStatus | str | None = None,
        *,
        results: Sequence[SeatResult] | None = None,
        timers: TimerChange | None = None,
    ) -> ActionRecord:
        action_d = c.as_dict(action, "action")
        action_j = c.dumps(action_d)
        snapshot_j = None if new_snapshot is None else c.dumps(c.as_dict(new_snapshot, "new_snapshot"))
        checked = None if results is None else c.check_results(results)
        now = self._now()
        now_db = self.dialect.time_to_db(now)
        status_sets, status_args = _status_sets(c.status_value(status), now_db)
        sets = ", ".join(
            [
                "version = version + 1",
                "action_count = action_count + 1",
                "updated_at = ?",
                *status_sets,
            ]
        )
        version, seq = await self._append(
            game_id,
            expected_version,
            sets,
            [now_db, *status_args],
            (seat, action_j, now_db),
            checked,
            timers or None,
            snapshot_j,
        )
        return ActionRecord(game_id, seq, seat, action_d, version, now)

    async def load_actions(self, game_id: str, *, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._read(
            "SELECT game_id, seq, seat, action, version, created_at FROM actions"
            " WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        time = self.dialect.time_from_db
        return [
            ActionRecord(
                r["game_id"], r["seq"], r["seat"], c.loads(r["action"]), r["version"], time(r["created_at"])
            )
            for r in rows
        ]

    async def load_log(self, game_id: str) -> list[list[Any]]:
        rows = await self._read("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        # one JSON document for the whole log: one decode, and the actions' keys are shared (a cached game's memory)
        pairs = ",".join(f"[{'null' if r['seat'] is None else int(r['seat'])},{r['action']}]" for r in rows)
        return list(c.loads(f"[{pairs}]"))

    async def save_snapshot(self, game_id: str, seq: int, snapshot: Mapping[str, Any]) -> bool:
        snapshot_j = c.dumps(c.as_dict(snapshot, "snapshot"))
        async with self._write("save snapshot") as tx:
            rows = await tx.fetch(
                "INSERT INTO game_snapshots (game_id, seq, snapshot)"
                " SELECT id, ?, ? FROM games WHERE id = ? AND action_count >= ?"
                " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, snapshot = excluded.snapshot"
                " WHERE game_snapshots.seq < excluded.seq RETURNING seq",
                (seq, snapshot_j, game_id, seq),
            )
        return bool(rows)

    async def delete_game(self, game_id: str) -> bool:
        async with self._write("delete game") as tx:
            rows = await tx.fetch("DELETE FROM games WHERE id = ? RETURNING id", (game_id,))
        return bool(rows)

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameRecord | None:
        if thread_id is None and channel_id is None:
            raise ValueError("find_open_game needs channel_id or thread_id")
        sql, args = _open_here(channel_id, thread_id, _RECORD_COLUMNS)
        rows = await self._read(sql, args)
        return c.record_from_row(rows[0], self.dialect.time_from_db) if rows else None

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
        where, args = _status_and_guild(status, guild_id)
        if channel_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            args += [channel_id, channel_id]
        if after is not None:
            created_at, last_id = c.decode_cursor(after)
            where.append("(created_at, id) < (?, ?)")
            args += [self.dialect.time_to_db(created_at), last_id]
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._read(
            f"SELECT {_SUMMARY_COLUMNS} FROM games {clause} ORDER BY created_at DESC, id DESC LIMIT ?",
            (*args, limit + 1),
        )
        items = [c.summary_from_row(r, self.dialect.time_from_db) for r in rows[:limit]]
        cursor = None
        if len(rows) > limit:
            cursor = c.encode_cursor(items[-1].created_at, items[-1].id)
        return Page(items, cursor)

    async def iter_game_ids(
        self,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        batch_size: int = 1000,
    ) -> AsyncIterator[str]:
        c.check_limit(batch_size, 100_000)
        where, args = _status_and_guild(status, guild_id)
        where.append("id > ?")
        sql = f"SELECT id FROM games WHERE {' AND '.join(where)} ORDER BY id LIMIT ?"
        last = ""
        while True:
            rows = await self._read(sql, (*args, last, batch_size))
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
        where, args = _status_and_guild(status, guild_id)
        where.insert(0, "id IN (SELECT game_id FROM game_players WHERE user_id = ?)")
        args.insert(0, user_id)
        rows = await self._read(
            f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE {' AND '.join(where)}"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            (*args, limit),
        )
        return [c.summary_from_row(r, self.dialect.time_from_db) for r in rows]

    # ------------------------------------------------------------------ results and stats

    async def _write_results(self, tx: Tx, game_id: str, results: list[SeatResult]) -> None:
        if self.dialect.place_lock is not None:  # two writers of one game's results: one after the other
            await tx.execute(self.dialect.place_lock, (f"results:{game_id}",))
        rows = await tx.fetch(
            "SELECT guild_id, board, COALESCE(finished_at, updated_at) AS finished FROM games WHERE id = ?",
            (game_id,),
        )
        if not rows:
            raise GameNotFound(game_id)
        game = rows[0]
        await tx.execute("DELETE FROM game_results WHERE game_id = ?", (game_id,))
        if results:
            await tx.executemany(
                "INSERT INTO game_results (game_id, seat, guild_id, user_id, board, score, rank, won, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, r.seat, game["guild_id"], r.user_id, game["board"], r.score, r.rank, r.won,
                     game["finished"])
                    for r in results
                ],
            )  # fmt: skip
            await rate_game(
                tx, self.dialect, game_id, game["guild_id"], game["board"], results, game["finished"]
            )
        await write_stats(tx, game_id, game, results)

    async def record_results(self, game_id: str, results: Sequence[SeatResult]) -> None:
        checked = c.check_results(results)
        async with self._write("record results") as tx:
            await self._write_results(tx, game_id, checked)

    async def load_results(self, game_id: str) -> list[PlayerResult]:
        rows = await self._read(
            "SELECT game_id, guild_id, seat, user_id, board, score, rank, won, finished_at"
            " FROM game_results WHERE game_id = ? ORDER BY rank, seat",
            (game_id,),
        )
        time = self.dialect.time_from_db
        return [
            PlayerResult(r["game_id"], r["guild_id"], r["seat"], r["user_id"], r["board"], r["score"], r["rank"],
                         bool(r["won"]), time(r["finished_at"]))
            for r in rows
        ]  # fmt: skip

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        sql = (
            "SELECT board, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins, SUM(score) AS total,"
            " MAX(score) AS best FROM game_results WHERE user_id = ?"
        )
        args: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        rows = await self._read(sql + " GROUP BY board ORDER BY board", args)
        return c.stats(
            guild_id, user_id, [(r["board"], r["games"], r["wins"], r["total"], r["best"]) for r in rows]
        )

    async def leaderboard(
        self, guild_id: int | None, board: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        c.check_limit(limit)
        where = ["user_id IS NOT NULL"]
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if board is not None:
            where.append("board = ?")
            args.append(board)
        rows = await self._read(
            "SELECT user_id, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins, SUM(score) AS total,"
            f" MAX(score) AS best FROM game_results WHERE {' AND '.join(where)} GROUP BY user_id"
            " ORDER BY wins DESC, CAST(SUM(score) AS DOUBLE PRECISION) / COUNT(*) DESC, games DESC, user_id"
            " LIMIT ?",
            (*args, limit),
        )
        return [
            LeaderboardRow(
                r["user_id"], int(r["games"]), int(r["wins"]), int(r["total"]) / int(r["games"]), r["best"]
            )
            for r in rows
        ]

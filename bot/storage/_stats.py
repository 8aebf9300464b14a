"""The statistics of finished games, written once for SQLite and PostgreSQL (see ``_repository.py``).

A finished game's statistics rows are written in the transaction that writes its results, after its rating
(:func:`write_stats`), so each row carries the rating the seat reached. The numbers come from the manager
(``SeatResult.detail``: the engine's final score sheet and final position, and each seat's turns and their time
from the game's log, bot.manager.results); the storage counts nothing of the game. Reads aggregate these rows,
never a game's moves.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from . import _common as c
from ._dialect import Dialect, Row, Tx
from .base import SeatResult
from .people import (
    FameEntry,
    GroupRecord,
    GuildRecords,
    PlayerHistory,
    RouteCount,
    SeatStats,
    TicketLine,
)

_ALL_BOARDS = ""  # the rating over every board (as in _social.py)
# route_counts' keys beside a server and a player (see the migration)
_NO_GUILD, _EVERY_GUILD, _EVERY_PLAYER = 0, -1, 0

_STATS_COLUMNS = (
    "game_id, seat, guild_id, user_id, name, board, players, score, rank, won, tickets_done,"
    " tickets_done_points, tickets_failed, tickets_failed_points, longest_route, route_points, bonus_points,"
    " trains_left, turns, turn_seconds, rating, detail, finished_at"
)


async def write_stats(tx: Tx, game_id: str, game: Row, results: Sequence[SeatResult]) -> None:
    """The statistics rows of a finished game (again: written anew when its results are), when every seat's
    result carries its statistics (``SeatResult.detail``); else none."""
    await tx.execute("DELETE FROM seat_stats WHERE game_id = ?", (game_id,))
    earlier = await tx.fetch(
        "SELECT guild_id, user_id, board, city_a, city_b, n FROM claimed_routes WHERE game_id = ?", (game_id,)
    )
    if earlier:  # results written again: the counts forget this game's routes first
        await _count_routes(tx, [(r["guild_id"], r["user_id"], r["board"], r["city_a"], r["city_b"], -r["n"])
                                 for r in earlier])  # fmt: skip
        await tx.execute("DELETE FROM claimed_routes WHERE game_id = ?", (game_id,))
    detailed = [r for r in results if r.detail is not None]
    if not detailed or len(detailed) < len(results):  # statistics are a whole game's, or none
        return
    ratings: dict[int, float] = {}
    users = sorted({r.user_id for r in detailed if r.user_id is not None})
    if users and game["guild_id"] is not None:
        rows = await tx.fetch(
            f"SELECT user_id, ordinal FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND user_id IN ({', '.join('?' * len(users))})",
            (game["guild_id"], _ALL_BOARDS, *users),
        )
        rated = await tx.fetch("SELECT 1 AS one FROM rated_games WHERE game_id = ?", (game_id,))
        if rated:
            ratings = {int(r["user_id"]): float(r["ordinal"]) for r in rows}
    stat_rows: list[tuple[Any, ...]] = []
    route_rows: list[tuple[Any, ...]] = []
    for r in detailed:
        d = r.detail
        assert d is not None
        done = [t for t in d.tickets if t.done]
        failed = [t for t in d.tickets if not t.done]
        detail_j = json.dumps(
            {
                "routes_by_length": {str(k): v for k, v in d.routes_by_length().items()},
                "bonuses": dict(d.bonuses),
                "tickets": [[t.city_a, t.city_b, t.points, t.done] for t in d.tickets],
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )
        stat_rows.append(
            (game_id, r.seat, game["guild_id"], r.user_id, d.name, game["board"], d.players, r.score, r.rank,
             r.won, len(done), sum(t.points for t in done), len(failed), sum(t.points for t in failed),
             d.longest_route, d.route_points, d.bonus_points, d.trains_left, d.turns, d.turn_seconds,
             ratings.get(r.user_id) if r.user_id is not None else None, detail_j, game["finished"])
        )  # fmt: skip
        pairs: dict[tuple[str, str], tuple[int, int]] = {}
        for a, b, length in d.routes:
            key = (a, b) if a <= b else (b, a)
            n, _ = pairs.get(key, (0, length))
            pairs[key] = (n + 1, length)
        route_rows.extend(
            (game_id, r.seat, game["guild_id"], r.user_id, game["board"], a, b, length, n)
            for (a, b), (n, length) in pairs.items()
        )
    await tx.executemany(
        f"INSERT INTO seat_stats ({_STATS_COLUMNS}) VALUES ({', '.join('?' * 23)})", stat_rows
    )
    if route_rows:
        await tx.executemany(
            "INSERT INTO claimed_routes (game_id, seat, guild_id, user_id, board, city_a, city_b, length, n)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            route_rows,
        )
        await _count_routes(tx, [(g, u, board, a, b, n) for _, _, g, u, board, a, b, _, n in route_rows])


async def _count_routes(tx: Tx, claims: Sequence[tuple[int | None, int | None, str, str, str, int]]) -> None:
    """Add each claim (guild, user, board, cities, times; times < 0 to take a game's claims back) to the route
    counts: the server's (user 0), the player's in the server, the player's over every server (guild -1)."""
    totals: dict[tuple[int, int, str, str, str], int] = {}
    for guild, user, board, a, b, n in claims:
        where = _NO_GUILD if guild is None else guild
        keys = [(where, _EVERY_PLAYER, board, a, b)]
        if user is not None:
            keys += [(where, user, board, a, b), (_EVERY_GUILD, user, board, a, b)]
        for key in keys:
            totals[key] = totals.get(key, 0) + n
    # one order for every writer: two games finishing at once never wait on each other in a circle
    await tx.executemany(
        "INSERT INTO route_counts (guild_id, user_id, board, city_a, city_b, times) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id, board, city_a, city_b) DO UPDATE SET times = route_counts.times"
        " + excluded.times",
        [(*key, n) for key, n in sorted(totals.items())],
    )


def _stats(row: Row, time: Any) -> SeatStats:
    detail = json.loads(row["detail"])
    return SeatStats(
        game_id=row["game_id"], seat=int(row["seat"]), guild_id=row["guild_id"], user_id=row["user_id"],
        name=row["name"], board=row["board"], players=int(row["players"]), score=int(row["score"]),
        rank=int(row["rank"]), won=bool(row["won"]), tickets_done=int(row["tickets_done"]),
        tickets_done_points=int(row["tickets_done_points"]), tickets_failed=int(row["tickets_failed"]),
        tickets_failed_points=int(row["tickets_failed_points"]), longest_route=int(row["longest_route"]),
        route_points=int(row["route_points"]), bonus_points=int(row["bonus_points"]),
        trains_left=int(row["trains_left"]), turns=int(row["turns"]), turn_seconds=float(row["turn_seconds"]),
        rating=None if row["rating"] is None else float(row["rating"]), finished_at=time(row["finished_at"]),
        routes_by_length={int(k): int(v) for k, v in detail["routes_by_length"].items()},
        bonuses=dict(detail["bonuses"]),
        tickets=tuple(TicketLine(a, b, int(p), bool(done)) for a, b, p, done in detail["tickets"]),
    )  # fmt: skip


def _route(row: Row) -> RouteCount:
    return RouteCount(row["board"], row["city_a"], row["city_b"], int(row["times"]))


class StatsQueriesSQL(ABC):
    """The statistics part of :class:`~bot.storage._repository.SQLRepository`."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def game_stats(self, game_id: str) -> list[SeatStats]:
        rows = await self._read(
            f"SELECT {_STATS_COLUMNS} FROM seat_stats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_stats(r, self.dialect.time_from_db) for r in rows]

    async def player_history(self, user_id: int, guild_id: int | None, *, limit: int = 30) -> PlayerHistory:
        c.check_limit(limit)
        where, args = "user_id = ?", [user_id]
        if guild_id is not None:
            where, args = where + " AND guild_id = ?", [user_id, guild_id]
        time = self.dialect.time_from_db
        groups = await self._read(
            "SELECT board, players, COUNT(*) AS games, COUNT(*) FILTER (WHERE won) AS wins,"
            f" AVG(CAST(score AS DOUBLE PRECISION)) AS mean FROM seat_stats WHERE {where}"
            " GROUP BY board, players ORDER BY games DESC, board, players",
            args,
        )
        best = await self._read(
            f"SELECT {_STATS_COLUMNS} FROM seat_stats WHERE {where} ORDER BY score DESC, finished_at LIMIT 1",
            args,
        )
        recent = await self._read(
            f"SELECT {_STATS_COLUMNS} FROM seat_stats WHERE {where} ORDER BY finished_at DESC, game_id DESC"
            " LIMIT ?",
            (*args, limit),
        )
        routes = await self._read(
            "SELECT board, city_a, city_b, times FROM route_counts WHERE guild_id = ? AND user_id = ?"
            " AND times > 0 ORDER BY times DESC, board, city_a, city_b LIMIT 5",
            (_EVERY_GUILD if guild_id is None else guild_id, user_id),
        )
        last = [_stats(r, time) for r in recent]
        return PlayerHistory(
            groups=tuple(
                GroupRecord(g["board"], int(g["players"]), int(g["games"]), int(g["wins"]), float(g["mean"]))
                for g in groups
            ),
            best=_stats(best[0], time) if best else None,
            last=last[0] if last else None,
            favourite_routes=tuple(_route(r) for r in routes),
            ratings=tuple((s.finished_at, s.rating) for s in reversed(last) if s.rating is not None),
        )

    async def guild_records(self, guild_id: int, *, limit: int = 5) -> GuildRecords:
        c.check_limit(limit)
        boards = await self._read(
            "SELECT board, COUNT(*) AS games FROM seat_stats WHERE guild_id = ? AND seat = 0 GROUP BY board"
            " ORDER BY games DESC, board",
            (guild_id,),
        )
        routes = await self._read(
            "SELECT board, city_a, city_b, times FROM route_counts WHERE guild_id = ? AND user_id = ?"
            " AND times > 0 ORDER BY times DESC, board, city_a, city_b LIMIT ?",
            (guild_id, _EVERY_PLAYER, limit),
        )
        fame: list[FameEntry] = []
        for record in ("score", "longest_route", "tickets_done"):
            rows = await self._read(
                f"SELECT user_id, {record} AS value, game_id FROM seat_stats WHERE guild_id = ?"
                f" AND user_id IS NOT NULL ORDER BY {record} DESC, finished_at, game_id LIMIT 1",
                (guild_id,),
            )
            fame.extend(FameEntry(record, int(r["user_id"]), int(r["value"]), r["game_id"]) for r in rows)
        return GuildRecords(
            {r["board"]: int(r["games"]) for r in boards}, tuple(_route(r) for r in routes), tuple(fame)
        )

    async def export_stats(
        self, guild_id: int, *, after: tuple[datetime, str] | None = None, limit: int = 500
    ) -> list[SeatStats]:
        c.check_limit(limit)
        where, args = "guild_id = ?", list[Any]([guild_id])
        if after is not None:
            at = self.dialect.time_to_db(after[0])
            where += " AND (finished_at > ? OR (finished_at = ? AND game_id > ?))"
            args += [at, at, after[1]]
        games = await self._read(
            f"SELECT game_id FROM seat_stats WHERE {where} AND seat = 0 ORDER BY finished_at, game_id LIMIT ?",
            (*args, limit),
        )
        if not games:
            return []
        ids = [g["game_id"] for g in games]
        rows = await self._read(
            f"SELECT {_STATS_COLUMNS} FROM seat_stats WHERE game_id IN ({', '.join('?' * len(ids))})"
            " ORDER BY finished_at, game_id, seat",
            ids,
        )
        return [_stats(r, self.dialect.time_from_db) for r in rows]

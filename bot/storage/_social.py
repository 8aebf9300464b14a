"""Ratings and player preferences, written once for SQLite and PostgreSQL (see ``_repository.py``).

A finished game is rated in the transaction that writes its results (:func:`rate_game`), and only the first
time: ``rated_games`` holds its id, so results written again (a retried finish, a second process) leave the
ratings alone. Each game with two humans or more updates two ratings per player in its server: the one over
every board (``board`` empty) and the one of its board, so a board's leaderboard ranks players by how they
play that board rather than by their overall rating. AI seats (no user) are left out; several seats of one
person count once, with their best score. Games outside a server are not rated.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, ClassVar

from . import _common as c
from ._dialect import Dialect, Row, Tx
from .base import PlayerPrefs, Rating, SeatResult
from .rating import Skill, rate

#: the key of a rating over every board, and of the preferences of a player outside any server
ALL_BOARDS = ""
NO_GUILD = 0

_RATING_COLUMNS = "user_id, board, mu, sigma, ordinal, games"


async def rate_game(
    tx: Tx,
    dialect: Dialect,
    game_id: str,
    guild_id: int | None,
    board: str,
    results: Sequence[SeatResult],
    now: Any,
) -> bool:
    """Rate a finished game once (see the module's docstring); whether this call rated it."""
    best: dict[int, int] = {}
    for r in results:
        if r.user_id is not None:
            best[r.user_id] = max(best.get(r.user_id, r.score), r.score)
    if guild_id is None or len(best) < 2:
        return False
    if dialect.place_lock is not None:  # one rater per server at a time: no lost update of a shared player
        await tx.execute(dialect.place_lock, (f"ratings:{guild_id}",))
    claimed = await tx.fetch(
        "INSERT INTO rated_games (game_id, guild_id, rated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
        (game_id, guild_id, now),
    )
    if not claimed:
        return False
    users = sorted(best)
    for key in (ALL_BOARDS, board):
        rows = await tx.fetch(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND user_id IN ({', '.join('?' * len(users))})",
            (guild_id, key, *users),
        )
        known = {int(r["user_id"]): (Skill(float(r["mu"]), float(r["sigma"])), int(r["games"])) for r in rows}
        before = [known.get(u, (Skill(), 0)) for u in users]
        after = rate([skill for skill, _ in before], [best[u] for u in users])
        await tx.executemany(
            "INSERT INTO ratings (guild_id, board, user_id, mu, sigma, ordinal, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, board, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
            " updated_at = excluded.updated_at",
            [
                (guild_id, key, u, s.mu, s.sigma, s.ordinal, games + 1, now)
                for u, s, (_, games) in zip(users, after, before, strict=True)
            ],
        )
    return True


def _rating(row: Row) -> Rating:
    return Rating(
        int(row["user_id"]),
        row["board"],
        float(row["mu"]),
        float(row["sigma"]),
        float(row["ordinal"]),
        int(row["games"]),
        int(row["rank"]),
    )


class SocialQueries(ABC):
    """The ratings and preferences part of :class:`~bot.storage._repository.SQLRepository`."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    def _now(self) -> datetime: ...

    async def rating(self, guild_id: int, user_id: int, board: str = ALL_BOARDS) -> Rating | None:
        rows = await self._read(
            f"SELECT {_RATING_COLUMNS}, 1 + (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id"
            " AND o.board = r.board AND o.ordinal > r.ordinal) AS rank"
            " FROM ratings r WHERE guild_id = ? AND board = ? AND user_id = ?",
            (guild_id, board, user_id),
        )
        return _rating(rows[0]) if rows else None

    async def ratings(self, guild_id: int, board: str = ALL_BOARDS, limit: int = 10) -> list[Rating]:
        c.check_limit(limit)
        rows = await self._read(
            f"SELECT {_RATING_COLUMNS}, RANK() OVER (ORDER BY ordinal DESC) AS rank"
            " FROM ratings WHERE guild_id = ? AND board = ? ORDER BY ordinal DESC, games DESC, user_id LIMIT ?",
            (guild_id, board, limit),
        )
        return [_rating(r) for r in rows]

    async def is_rated(self, game_id: str) -> bool:
        return bool(await self._read("SELECT 1 AS one FROM rated_games WHERE game_id = ?", (game_id,)))

    async def load_prefs(self, user_id: int, guild_id: int | None) -> PlayerPrefs:
        rows = await self._read(
            "SELECT notify, confirm_claims FROM player_prefs WHERE user_id = ? AND guild_id = ?",
            (user_id, NO_GUILD if guild_id is None else guild_id),
        )
        if not rows:
            return PlayerPrefs()
        return PlayerPrefs(rows[0]["notify"], bool(rows[0]["confirm_claims"]))

    async def save_prefs(self, user_id: int, guild_id: int | None, prefs: PlayerPrefs) -> None:
        now = self.dialect.time_to_db(self._now())
        async with self._write("save preferences") as tx:
            await tx.execute(
                "INSERT INTO player_prefs (user_id, guild_id, notify, confirm_claims, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, guild_id) DO UPDATE SET notify = excluded.notify,"
                " confirm_claims = excluded.confirm_claims, updated_at = excluded.updated_at",
                (
                    user_id,
                    NO_GUILD if guild_id is None else guild_id,
                    prefs.notify,
                    prefs.confirm_claims,
                    now,
                ),
            )

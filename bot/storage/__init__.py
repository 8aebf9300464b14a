"""Storage of games, their action logs, durable timers and player statistics.

Pick a backend by URL and use it as an async context manager::

    async with open_repository("sqlite:///data/ttr.db") as repo:
        game = await repo.create_game(guild_id=..., channel_id=..., host_id=..., board="europe")

URLs
    ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (SQLAlchemy's convention: the
    path is what follows the third slash), ``sqlite:///:memory:``; query options ``busy_timeout``
    (milliseconds, default 5000) and ``synchronous`` (NORMAL by default: durable across a crash of
    the bot, not across a power cut; FULL for that).

    ``postgresql://user@host:5432/dbname`` (or ``postgres://``); query options ``schema`` (tables
    go in that schema, created if missing), ``min_size`` and ``max_size`` (pool),
    ``lock_timeout_ms`` (default 5000: a write waiting longer on a row lock raises StorageUnavailable).
    Other query parameters are passed to asyncpg, which sends unknown ones as server settings:
    ``?synchronous_commit=off`` trades the last few hundred milliseconds of commits in a server crash
    for append latency (about 4 ms -> 1.2 ms per append on a disk with slow fsync).

This package imports neither discord nor the engine: snapshots and actions are opaque JSON dicts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from .base import (
    CLOSED_STATUSES,
    OPEN_STATUSES,
    UNSET,
    ActionRecord,
    BoardStats,
    GameNotFound,
    GameRecord,
    GameRepository,
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
)

__all__ = [
    "CLOSED_STATUSES",
    "OPEN_STATUSES",
    "UNSET",
    "ActionRecord",
    "BoardStats",
    "GameNotFound",
    "GameRecord",
    "GameRepository",
    "GameStatus",
    "GameSummary",
    "LeaderboardRow",
    "Page",
    "PlaceTaken",
    "PlayerResult",
    "PlayerStats",
    "Seat",
    "SeatResult",
    "StorageError",
    "StorageUnavailable",
    "Timer",
    "Unset",
    "VersionConflict",
    "open_repository",
]


def open_repository(url: str, **kwargs: Any) -> GameRepository:
    """A repository for ``url``, not yet connected: ``async with`` it, or ``await repo.connect()``
    and later ``await repo.close()``. Keyword arguments go to the backend's constructor."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower().split("+")[0]  # "postgresql+asyncpg" and "sqlite+aiosqlite" are accepted
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    if scheme == "sqlite":
        from .sqlite import SQLiteRepository

        if parts.netloc:
            raise ValueError(
                f"sqlite URLs have no host: use sqlite:///relative.db or sqlite:////abs.db, got {url!r}"
            )
        path = unquote(parts.path)
        path = path[1:] if path.startswith("/") else path
        if not path:
            raise ValueError(f"sqlite URL has no path: {url!r}")
        options: dict[str, Any] = {}
        if "busy_timeout" in query:
            options["busy_timeout_ms"] = int(query.pop("busy_timeout"))
        if "synchronous" in query:
            options["synchronous"] = query.pop("synchronous")
        if query:
            raise ValueError(f"unknown sqlite URL options: {sorted(query)}")
        return SQLiteRepository(path, url=url, **{**options, **kwargs})
    if scheme in {"postgres", "postgresql"}:
        from .postgres import PostgresRepository

        pg_options: dict[str, Any] = {}
        if "schema" in query:
            pg_options["schema"] = query.pop("schema")
        for key in ("min_size", "max_size", "lock_timeout_ms"):
            if key in query:
                pg_options[key] = int(query.pop(key))
        dsn = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(query), parts.fragment))
        return PostgresRepository(dsn, url=url, **{**pg_options, **kwargs})
    raise ValueError(f"unsupported storage URL scheme {parts.scheme!r} in {url!r} (use sqlite or postgresql)")

"""Storage of games, their action logs, durable timers and player statistics.

Pick a backend by URL and use it as an async context manager::

    async with open_repository("sqlite:///data/ttr.db") as repo:
        game = await repo.create_game(guild_id=..., channel_id=..., host_id=..., board="europe")

URLs (``sqlite:///path.db``, ``sqlite:///:memory:``, ``postgresql://user@host/db``, options in the query
string) have one parser, :func:`parse_database_url` in ``bot/database_url.py`` (beside the settings), which
documents them.

This package imports neither discord nor the engine: snapshots and actions are opaque JSON dicts.
"""

from __future__ import annotations

from typing import Any

from bot.database_url import DatabaseURL, parse_database_url, redact_url

from .base import (
    CLOSED_STATUSES,
    MAX_LISTED,
    NOTIFY_MODES,
    OPEN_STATUSES,
    UNSET,
    ActionRecord,
    BoardStats,
    ChangeFeed,
    Digest,
    GameNotFound,
    GameRecord,
    GameRepository,
    GameStatus,
    GameSummary,
    LeaderboardRow,
    LeaseLost,
    NewTimer,
    Page,
    PlaceTaken,
    PlayerPrefs,
    PlayerResult,
    PlayerStats,
    PlayerTime,
    Rating,
    Seat,
    SeatResult,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageError,
    StorageUnavailable,
    Timer,
    TimerChange,
    Unset,
    VersionConflict,
)
from .cluster import ClusterStatus, ProcessBeat

__all__ = [
    "CLOSED_STATUSES",
    "MAX_LISTED",
    "ClusterStatus",
    "ProcessBeat",
    "OPEN_STATUSES",
    "UNSET",
    "ActionRecord",
    "BoardStats",
    "ChangeFeed",
    "DatabaseURL",
    "GameNotFound",
    "GameRecord",
    "GameRepository",
    "GameStatus",
    "GameSummary",
    "LeaderboardRow",
    "LeaseLost",
    "NOTIFY_MODES",
    "NewTimer",
    "Page",
    "PlaceTaken",
    "PlayerPrefs",
    "PlayerResult",
    "PlayerStats",
    "PlayerTime",
    "Digest",
    "Rating",
    "Seat",
    "SeatResult",
    "StorageBroken",
    "StorageBug",
    "StorageDown",
    "StorageError",
    "StorageUnavailable",
    "Timer",
    "TimerChange",
    "Unset",
    "VersionConflict",
    "check_database_file",
    "open_repository",
    "parse_database_url",
    "redact_url",
]


def open_repository(url: str, **kwargs: Any) -> GameRepository:
    """A repository for ``url``, not yet connected: ``async with`` it, or ``await repo.connect()``
    and later ``await repo.close()``. Keyword arguments go to the backend's constructor."""
    parsed = parse_database_url(url)
    if parsed.backend == "sqlite":
        from .sqlite import SQLiteRepository

        return SQLiteRepository(parsed.path, url=url, **{**parsed.options, **kwargs})
    from .postgres import PostgresRepository

    return PostgresRepository(parsed.dsn, url=url, **{**parsed.options, **kwargs})


def check_database_file(path: str) -> None:
    """Start-up check of an SQLite database file (see :func:`bot.storage.sqlite.check_database_file`)."""
    from .sqlite import check_database_file as check

    check(path)

"""The storage layer's one error family, and its one classification of database faults (both stores map their
driver's errors to it: bot.storage.sqlite, bot.storage.postgres) by what the player and the host can do:

* :class:`StorageUnavailable`: retry now (a lock, a killed connection, a timeout); the manager retries at once.
* :class:`StorageDown`: retry later (connections refused, maintenance, or an error nobody classified): the
  player hears "cannot be reached right now; nothing was changed", the host one error line naming the cause.
* :class:`StorageBroken`: the host must act (disk full, read-only, a refused login, a missing database), with
  ``advice``; :class:`StorageBug`: the bot's own statement was refused (a bug).

Never "no such game": that is :class:`GameNotFound` alone.
"""

from __future__ import annotations

__all__ = [
    "GameNotFound",
    "LeaseLost",
    "PlaceTaken",
    "StorageBroken",
    "StorageBug",
    "StorageDown",
    "StorageError",
    "StorageUnavailable",
    "VersionConflict",
]


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class VersionConflict(StorageError):
    """Optimistic concurrency lost: the stored version is not the expected one. Nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored version is {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameNotFound(StorageError):
    """No game with that id. Nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r}")
        self.game_id = game_id


class PlaceTaken(StorageError):
    """An open game (lobby or active) already lives in that channel or thread. Nothing was written."""

    def __init__(self, game_id: str, *, channel_id: int, thread_id: int | None) -> None:
        where = f"thread {thread_id}" if thread_id is not None else f"channel {channel_id}"
        super().__init__(f"game {game_id} is already open in {where}")
        self.game_id = game_id
        self.channel_id = channel_id
        self.thread_id = thread_id


class LeaseLost(StorageError):
    """A change fenced by a timer row's claim was not written: the row is gone (served) or another process
    claimed it after the lease ended. Nothing was written."""

    def __init__(self, timer_id: int, owner: str) -> None:
        super().__init__(f"timer {timer_id} is no longer held by {owner}")
        self.timer_id = timer_id
        self.owner = owner


class StorageUnavailable(StorageError):
    """The database is locked, busy or unreachable, or the connection broke. Nothing was written (or, when the
    connection broke during COMMIT, maybe it was: the version guard makes a retry safe); retry later."""


class StorageDown(StorageUnavailable):
    """The database cannot be reached for now and an immediate retry is unlikely to help: connections refused,
    the server starting, shutting down or in recovery, the database not accepting connections (maintenance, a
    restore), or a driver error nobody classified. Nothing was written; the player is told to try again later
    and the host gets one error line naming the cause."""


class StorageBroken(StorageError):
    """The database cannot take writes (or reads) until its host acts: disk full, read-only or unreadable file,
    corruption, no permission, a refused login, a missing database. Nothing was written; a retry cannot help.
    ``advice`` says what the host must do."""

    def __init__(self, message: str, *, advice: str) -> None:
        super().__init__(message)
        self.advice = advice


class StorageBug(StorageBroken):
    """The database refused a statement of the bot itself (SQL it does not understand, a value or constraint it
    rejects): a bug, not a fault of the database. Nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message, advice="this is a bug in the bot: please report this line")

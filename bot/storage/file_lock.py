"""One bot process per SQLite file, by a lock the operating system releases when the process dies.

The bot process takes an exclusive ``flock`` on ``<database file>.lock`` at start and holds it until it exits;
a second process on the same file cannot take it and is refused. A process killed with ``kill -9`` (an OOM
kill, a power loss, a container restart) loses the lock with its file descriptors, so the next start always
succeeds: no pid test (pids are reused after a restart), no heartbeat to wait for. (``flock``, not ``fcntl``'s
record locks: those belong to the process and would be dropped when SQLite closes any descriptor of a file; the
lock file is not the database file anyway.) The holder's pid is written in the file, for the refusal's message.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

__all__ = ["FileLocked", "hold_database_lock", "lock_holder", "lock_path", "release_database_lock"]

#: lock files this process holds, by path: held until the process exits (closing one releases it)
_HELD: dict[Path, int] = {}


class FileLocked(Exception):
    """Another live process holds the database file's lock."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path} is locked by {holder}")
        self.path = path
        self.holder = holder


def lock_path(database: str | Path) -> Path:
    return Path(f"{database}.lock")


def hold_database_lock(database: str | Path) -> Path:
    """Take (or keep: this process holds it already) the lock of the SQLite file `database`, for the rest of
    this process's life; FileLocked when another live process holds it. Returns the lock file's path."""
    path = lock_path(database).resolve()
    if path in _HELD:
        return path
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = b""
        with contextlib.suppress(OSError):
            holder = os.pread(fd, 64, 0)
        os.close(fd)
        text = holder.decode("ascii", "replace").strip()
        raise FileLocked(path, f"process {text}" if text else "another process") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    _HELD[path] = fd
    return path


def release_database_lock(database: str | Path) -> None:
    """Give the lock back (tests; a process that stops holding the file before it exits)."""
    fd = _HELD.pop(lock_path(database).resolve(), None)
    if fd is not None:
        os.close(fd)


def lock_holder(database: str | Path) -> int | None:
    """The pid of the process holding the SQLite file's lock (None: nobody; ``ttr cluster-status``). Read with
    a shared lock tried and dropped at once: a bot starting in that instant would be refused once, never two
    bots let in."""
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            return int(text) if text.isdigit() else -1
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)

"""One bot process per SQLite file, by a lock on the database file itself that the operating system releases when
the process dies.

The lock belongs to the file, not to its name: whatever path reaches it (a symlink, a hard link, a relative path,
``..``), it is the same inode, so the same lock, as SQLite's own locks are (they are taken on the database file,
and SQLite keeps its bookkeeping of them by device and inode). No lock file is involved: deleting a file next to
the database lets nobody in.

How: an exclusive open-file-description lock (Linux's ``F_OFD_SETLK``) on one byte of the database file, far past
the bytes SQLite locks (its lock bytes start at 1 GiB: ``PENDING_BYTE``, ``RESERVED_BYTE`` and the 510 shared
bytes), so it never meets SQLite's own locks, in this process or another. Unlike ``flock`` (emulated as a
whole-file lock on NFS, where it would block SQLite) it is an ordinary record lock everywhere; unlike classic
``fcntl`` record locks it belongs to its open descriptor, not to the process, so SQLite closing one of its own
descriptors of the file does not drop it. A process killed with ``kill -9`` (an OOM kill, a power loss, a
container restart) loses it with its descriptors, so the next start always succeeds: no pid test (pids are
reused), no heartbeat to wait for.

Where the system has no such locks (not Linux: macOS, the BSDs), the lock is the older, weaker one: an ``flock``
on ``<real file>.lock`` (its name with symlinks resolved: a hard link or a deleted lock file get round it there).
Not ``flock`` on the database file: on the BSDs it meets SQLite's own record locks, and would block the bot's
own connections.

The holder's pid, for the refusal's message, is told by the lock itself: the holder also locks the byte
``PID_BASE + pid``, and a refused process asks where the lock in that range is (``F_OFD_GETLK`` answers with its
position). Nothing is written anywhere, so there is no note to delete or to go stale (the fallback writes it in
its lock file).

The descriptor stays open until the process exits: closing any descriptor of the file would drop this process's
classic record locks on it, SQLite's included (so :func:`release_database_lock` is for tests and for a process
whose connections to the file are closed, and :func:`lock_holder` for processes with none open). A new database
file is created as SQLite creates one (a valid, empty database) before it is locked: never a 0-byte file, which
the start-up check refuses (bot.storage.sqlite.check_database_file).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import struct
from pathlib import Path

__all__ = ["FileLocked", "hold_database_lock", "lock_holder", "release_database_lock"]

#: The byte locked: far past SQLite's lock bytes (1 GiB to 1 GiB + 512), and past any real file's end.
LOCK_OFFSET = 1 << 62
#: The holder also locks ``PID_BASE + its pid`` (pids are below 2**22 on Linux): its name, read by those refused.
PID_BASE = LOCK_OFFSET + 1
PID_SPAN = 1 << 23
#: ``struct flock`` on Linux (LP64): l_type, l_whence, (padding), l_start, l_len, l_pid, (padding).
_FLOCK = "hhqqi4x"
_OFD_SETLK: int | None = getattr(fcntl, "F_OFD_SETLK", None)
_OFD_GETLK: int | None = getattr(fcntl, "F_OFD_GETLK", None)

#: the database files this process holds, by (device, inode): their descriptors and resolved paths
_HELD: dict[tuple[int, int], tuple[int, Path]] = {}


class FileLocked(Exception):
    """Another live process holds the database file's lock."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path} is locked by {holder}")
        self.path = path
        self.holder = holder


def _create(path: Path) -> None:
    """A new database file, as SQLite makes one (its header written: switching to WAL writes it)."""
    if path.exists():
        return
    try:
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise OSError(f"cannot create the database file {path}: {exc}") from None


def _ofd(fd: int, command: int, start: int, length: int) -> tuple[int, int]:
    """An open-file-description lock call (a write lock on `length` bytes from `start`): (type, start) back."""
    answer = fcntl.fcntl(fd, command, struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, start, length, 0))
    kind, _whence, at, _length, _pid = struct.unpack(_FLOCK, answer)
    return kind, at


def _open(real: Path, *, write: bool) -> int:
    """The descriptor the lock is taken on (or asked about): the database file itself; without OFD locks, the
    fallback's lock file next to it."""
    if _OFD_SETLK is not None:
        return os.open(real, (os.O_RDWR if write else os.O_RDONLY) | os.O_CLOEXEC)
    flags = os.O_RDWR | os.O_CREAT if write else os.O_RDONLY
    return os.open(f"{real}.lock", flags | os.O_CLOEXEC, 0o644)


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on `fd`'s file at once (and the byte naming this process); False when another
    descriptor holds it."""
    try:
        if _OFD_SETLK is None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            return True
        _ofd(fd, _OFD_SETLK, LOCK_OFFSET, 1)
    except (BlockingIOError, PermissionError):  # (EAGAIN or EACCES: held by another)
        return False
    if os.getpid() < PID_SPAN:
        _ofd(fd, _OFD_SETLK, PID_BASE + os.getpid(), 1)
    return True


def _is_locked(fd: int) -> bool:
    """Whether another descriptor holds the lock of `fd`'s file (asked without taking it)."""
    if _OFD_GETLK is not None:
        return _ofd(fd, _OFD_GETLK, LOCK_OFFSET, 1)[0] != fcntl.F_UNLCK
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def _holder_pid(fd: int) -> int | None:
    """The pid the holder of `fd`'s file's lock gave by the byte it locks (None: not told)."""
    if _OFD_GETLK is None:
        text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    kind, at = _ofd(fd, _OFD_GETLK, PID_BASE, PID_SPAN)
    return at - PID_BASE if kind != fcntl.F_UNLCK else None


def hold_database_lock(database: str | Path) -> Path:
    """Take (or keep: this process holds it already) the lock of the SQLite file `database` (created if it does
    not exist yet), for the rest of this process's life; FileLocked when another live process holds it, by any
    name of the file. Returns the database file's real path."""
    real = Path(database).resolve()
    _create(real)
    held = _held(real)
    if held is not None:  # (before opening another descriptor, whose closing would drop SQLite's locks)
        return held
    identity = _identity(os.stat(real))
    fd = _open(real, write=True)
    try:
        if not _try_lock(fd):
            holder = _holder_pid(fd)
            raise FileLocked(real, f"process {holder}" if holder is not None else "another process")
    except BaseException:
        os.close(fd)
        raise
    _HELD[identity] = (fd, real)
    return real


def release_database_lock(database: str | Path) -> None:
    """Give the lock back (tests; a process whose connections to the file are closed, see the module's doc)."""
    real = Path(database).resolve()
    try:
        identity: tuple[int, int] | None = _identity(os.stat(real))
    except OSError:  # the file is gone: its lock by the path it had
        identity = next((key for key, (_, path) in _HELD.items() if path == real), None)
    held = _HELD.pop(identity, None) if identity is not None else None
    if held is not None:
        os.close(held[0])


def lock_holder(database: str | Path) -> int | None:
    """The pid of the process holding the SQLite file's lock (None: nobody; -1: a process that does not tell
    its pid; ``ttr cluster-status``). Opens the file: call it with no SQLite connection to it open."""
    real = Path(database).resolve()
    if _held(real) is not None:
        return os.getpid()
    try:
        fd = _open(real, write=False)
    except FileNotFoundError:
        return None
    try:
        if not _is_locked(fd):
            return None
        holder = _holder_pid(fd)
    finally:
        os.close(fd)
    return -1 if holder is None else holder


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


def _held(real: Path) -> Path | None:
    """The real path under which this process holds `real`'s file (by its identity), else None."""
    try:
        held = _HELD.get(_identity(os.stat(real)))
    except OSError:
        return None
    return None if held is None else held[1]

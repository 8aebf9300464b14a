"""``ttr backup`` and ``ttr restore``: a consistent copy of a running SQLite bot, and putting one back.

The copy is SQLite's online backup API (``sqlite3.Connection.backup``) in one step: it reads the whole database
inside one read transaction, so it is one moment of the database while the bot goes on writing (WAL mode:
readers never block the writer). Every move is one transaction (``append_action`` writes the action row, the
snapshot, the version and the timer rows together; ``bot.storage._repository``), so a game mid-move is in the
copy whole or not at all. The copy is written next to its destination, checked (``PRAGMA integrity_check``,
``foreign_key_check``) and only then renamed into place.

A restore refuses to run over a live bot: the bot holds ``<file>.lock`` (bot.storage.file_lock) for as long as
it runs, and the restore holds it while it writes, so no bot starts meanwhile. PostgreSQL has its own tools
(``pg_dump``/``pg_restore``: the README's procedure).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage import parse_database_url
from bot.storage.file_lock import FileLocked, hold_database_lock, lock_holder, release_database_lock


class BackupError(RuntimeError):
    """The backup or restore cannot be made; the message says why and what to do."""


@dataclass(frozen=True)
class Copied:
    path: Path
    bytes: int
    seconds: float
    games: int


def sqlite_path(database_url: str) -> Path:
    """The SQLite file of `database_url`; BackupError for PostgreSQL or an in-memory database."""
    try:
        url = parse_database_url(database_url)
    except ValueError as exc:
        raise BackupError(f"DATABASE_URL: {exc}") from None
    if url.backend != "sqlite":
        raise BackupError(
            "DATABASE_URL is PostgreSQL: back it up with pg_dump and restore with pg_restore (README: Running it as "
            "a service, Backups)"
        )
    if url.in_memory:
        raise BackupError("DATABASE_URL is an in-memory database: there is nothing to back up")
    return Path(url.path)


def check_copy(path: Path) -> int:
    """Raise BackupError unless `path` is a whole, consistent database of this bot; returns its number of games."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
            keys = conn.execute("PRAGMA foreign_key_check").fetchall()
            games = int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{path} is not a database of this bot ({exc})") from None
    if problems != ["ok"]:
        raise BackupError(f"{path} is corrupt: {'; '.join(problems[:3])}")
    if keys:
        raise BackupError(f"{path}: {len(keys)} rows point at rows that are not there")
    return games


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of `source` into a new file `target` (one step: one consistent moment)."""
    src = sqlite3.connect(source, timeout=30.0)  # (read-write: a read-only one cannot read a WAL database
    # whose -shm file is missing)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        finally:
            dst.close()
    finally:
        src.close()


def _temporary(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.partial")


def backup(database_url: str, destination: str | Path) -> Copied:
    """Copy the (running or stopped) SQLite bot of `database_url` into the file `destination`, atomically."""
    source = sqlite_path(database_url)
    target = Path(destination)
    if not source.is_file():
        raise BackupError(f"{source} does not exist")
    if target.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database")
    if not target.parent.is_dir():
        raise BackupError(f"folder {target.parent} does not exist")
    partial = _temporary(target)
    started = time.perf_counter()
    try:
        partial.unlink(missing_ok=True)
        _copy(source, partial)
        games = check_copy(partial)
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Copied(target, target.stat().st_size, time.perf_counter() - started, games)


def restore(backup_file: str | Path, database_url: str) -> Copied:
    """Put the backup `backup_file` in place of the SQLite database of `database_url`. Refused while a bot runs
    on it (its lock); the lock is held meanwhile, so no bot starts on a half-written file."""
    source = Path(backup_file)
    target = sqlite_path(database_url)
    if not source.is_file():
        raise BackupError(f"{source} does not exist")
    check_copy(source)
    holder = lock_holder(target)
    if holder is not None:
        raise BackupError(
            f"a bot process ({'pid ' + str(holder) if holder > 0 else 'another process'}) runs on {target}: stop it "
            "first (a restore replaces the whole database)"
        )
    try:
        hold_database_lock(target)
    except FileLocked as exc:
        raise BackupError(f"a bot process runs on {target} ({exc.holder}): stop it first") from None
    partial = _temporary(target)
    started = time.perf_counter()
    try:
        partial.unlink(missing_ok=True)
        _copy(source, partial)
        games = check_copy(partial)
        for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):  # the old database's, not the backup's
            stale.unlink(missing_ok=True)
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot restore {source}: {exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        release_database_lock(target)
    return Copied(target, target.stat().st_size, time.perf_counter() - started, games)

"""One bot process per SQLite file, however the file is named (issue 28): the lock is the database file's own (its
device and inode), so a second bot reaching the same file through a symlink or a hard link is refused, and
no file next to the database is involved: deleting the old ``<file>.lock``, or renaming the database, lets
nobody in. Real processes:
a holder started as ``ttr bot`` starts (bot.wiring.open_database, by bot.launch), then a second start, refused or not.
SQLite itself keeps working under the lock, in the holder and in other processes (the lock's byte is none of
SQLite's)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage.file_lock import lock_holder

ROOT = Path(__file__).resolve().parents[2]

#: `ttr bot`'s first step on the database, then a write through SQLite, then it stays up (killed by the test).
#: (FALLBACK set: as on a system without open-file-description locks, macOS or the BSDs)
WITHOUT_OFD = """
import os
import bot.storage.file_lock as file_lock
if os.environ.get("FALLBACK"):
    file_lock._OFD_SETLK = file_lock._OFD_GETLK = None
"""

HOLDER = WITHOUT_OFD + textwrap.dedent(
    """
    import sqlite3, sys, time
    from bot.config import Settings
    from bot.wiring import open_database

    open_database(Settings(database_url=f"sqlite:///{sys.argv[1]}"))
    conn = sqlite3.connect(sys.argv[1])
    conn.execute("CREATE TABLE IF NOT EXISTS held (n INTEGER)")
    conn.execute("INSERT INTO held VALUES (1)")
    conn.commit()
    print("ready", flush=True)
    time.sleep(60)
    """
)

#: A second start on the file: prints "started" or the start-up's refusal.
SECOND = WITHOUT_OFD + textwrap.dedent(
    """
    import sys
    from bot.config import Settings
    from bot.wiring import StartupError, open_database

    try:
        open_database(Settings(database_url=f"sqlite:///{sys.argv[1]}"))
    except StartupError as exc:
        print(f"refused: {exc}", flush=True)
    else:
        print("started", flush=True)
    """
)


def _env(fallback: bool = False) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TTR_PURE_PYTHON": "1",
        "FALLBACK": "1" if fallback else "",
    }


@pytest.fixture
def holder(tmp_path: Path, fallback: bool) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A bot process holding ``ttr.db`` (reached by its plain path)."""
    db = tmp_path / "real" / "ttr.db"
    db.parent.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(fallback),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
        yield db, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


@pytest.fixture
def fallback() -> bool:
    return False


def _second_start(path: Path, *, fallback: bool = False) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SECOND, str(path)],
        capture_output=True,
        text=True,
        env=_env(fallback),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _refused_by(answer: str, proc: subprocess.Popen[str]) -> None:
    assert answer.startswith("refused: "), answer
    assert "another bot process uses this SQLite file" in answer and f"process {proc.pid}" in answer


@pytest.mark.cluster  # real processes
def test_a_symlink_to_the_database_is_the_same_file(
    holder: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    db, proc = holder
    link = tmp_path / "elsewhere.db"
    link.symlink_to(db)
    _refused_by(_second_start(link), proc)
    relative = Path(os.path.relpath(link, Path.cwd()))  # any spelling of the name
    _refused_by(_second_start(relative), proc)
    folder = tmp_path / "linked-folder"
    folder.symlink_to(db.parent, target_is_directory=True)
    _refused_by(_second_start(folder / "ttr.db"), proc)


@pytest.mark.cluster  # real processes
def test_a_hard_link_to_the_database_is_the_same_file(
    holder: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    db, proc = holder
    other = tmp_path / "hard.db"
    os.link(db, other)
    _refused_by(_second_start(other), proc)


@pytest.mark.cluster  # real processes
def test_a_deleted_lock_file_or_a_renamed_database_lets_nobody_in(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    db, proc = holder
    stale = Path(f"{db}.lock")  # what the lock was before (a file of its own): made, then deleted
    stale.touch()
    _refused_by(_second_start(db), proc)
    stale.unlink()
    _refused_by(_second_start(db), proc)
    assert sorted(p.name for p in db.parent.iterdir()) == ["ttr.db", "ttr.db-shm", "ttr.db-wal"]
    moved = db.with_name("moved.db")  # the lock is the file's, under any name it takes
    db.rename(moved)
    _refused_by(_second_start(moved), proc)
    assert lock_holder(moved) == proc.pid


@pytest.mark.cluster  # real processes
def test_sqlite_works_under_the_lock_and_a_killed_holder_frees_the_file(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    db, proc = holder
    assert lock_holder(db) == proc.pid
    conn = sqlite3.connect(db, timeout=5)  # another process reads and writes through SQLite meanwhile
    try:
        conn.execute("INSERT INTO held VALUES (2)")
        conn.commit()
        assert conn.execute("SELECT count(*) FROM held").fetchone() == (2,)
    finally:
        conn.close()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert lock_holder(db) is None
    assert _second_start(db) == "started"


@pytest.mark.cluster  # real processes
@pytest.mark.parametrize("fallback", [True])
def test_without_ofd_locks_a_lock_file_on_the_resolved_name_stands_in(
    holder: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    """Where the system has no open-file-description locks: the older lock (a symlink still holds; a hard link
    or a deleted lock file would not, there), SQLite untouched by it."""
    db, proc = holder
    link = tmp_path / "elsewhere.db"
    link.symlink_to(db)
    _refused_by(_second_start(link, fallback=True), proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert _second_start(link, fallback=True) == "started"

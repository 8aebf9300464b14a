"""SQLite specifics: a database locked by another connection, WAL, URLs, and clean process exit."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import GameRecord, GameRepository, Seat, StorageError, StorageUnavailable, open_repository
from bot.storage._common import load_migrations
from bot.storage.sqlite import SQLiteRepository

# aiosqlite's worker threads must never outlive the event loop they report to (a failed open used to)
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


async def new_game(repo: GameRepository, **overrides: object) -> GameRecord:
    fields: dict[str, object] = {"guild_id": 1, "channel_id": 10, "host_id": 101, "board": "europe"}
    fields["seats"] = (Seat("Ada", user_id=101), Seat("Bob", user_id=102))
    fields.update(overrides)
    return await repo.create_game(**fields)  # type: ignore[arg-type]


async def test_locked_database_gives_storage_unavailable_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    async with open_repository(f"sqlite:///{path}?busy_timeout=200") as repo:
        game = await new_game(repo, snapshot={"turn": 0})
        blocker = sqlite3.connect(path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")  # another process holding the write lock
            with pytest.raises(StorageUnavailable):
                await repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1})
            with pytest.raises(StorageUnavailable):
                await repo.add_timer(game.id, "remind", datetime.now(UTC))
            # reads are not blocked by a writer in WAL mode
            assert (await repo.load_game(game.id)).version == 0
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        loaded = await repo.load_game(game.id)
        assert loaded.version == 0 and loaded.snapshot == {"turn": 0}
        assert await repo.load_actions(game.id) == []
        assert await repo.timers_for_game(game.id) == []
        # the writer is usable again: the failed transaction left nothing open
        assert (await repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1})).seq == 1


async def test_locked_database_waits_then_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "wait.db"
    async with open_repository(f"sqlite:///{path}?busy_timeout=5000") as repo:
        game = await new_game(repo)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            task = asyncio.create_task(repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1}))
            await asyncio.sleep(0.3)
            assert not task.done()  # waiting on the busy handler
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        record = await asyncio.wait_for(task, timeout=10)
        assert record.seq == 1
        assert (await repo.load_game(game.id)).version == 1


async def test_wal_mode_and_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    async with open_repository(f"sqlite:///{path}?synchronous=full") as repo:
        assert isinstance(repo, SQLiteRepository)
        await new_game(repo)
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert [r[0] for r in check.execute("SELECT version FROM schema_version ORDER BY version")] == list(
            range(1, len(load_migrations("sqlite")) + 1)
        )
    finally:
        check.close()


def test_url_parsing(tmp_path: Path) -> None:
    relative = open_repository("sqlite:///data/games.db")
    assert isinstance(relative, SQLiteRepository) and relative.path == "data/games.db"
    absolute = open_repository(f"sqlite:///{tmp_path}/g.db?busy_timeout=1234")
    assert isinstance(absolute, SQLiteRepository)
    assert absolute.path == f"{tmp_path}/g.db" and absolute.busy_timeout_ms == 1234
    assert open_repository("sqlite+aiosqlite:///ttr.db").path == "ttr.db"  # type: ignore[attr-defined]
    memory = open_repository("sqlite:///:memory:")
    assert isinstance(memory, SQLiteRepository) and memory.path == ":memory:"
    with pytest.raises(ValueError):
        open_repository("sqlite:///x.db?bogus=1")
    with pytest.raises(ValueError):
        open_repository("sqlite://host/x.db")
    with pytest.raises(ValueError):
        open_repository("mysql://x/y")
    with pytest.raises(ValueError):
        open_repository("sqlite:///x.db?synchronous=sometimes")


async def test_unopenable_file_is_unavailable_and_leaves_nothing_open(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path}/no/such/dir/x.db")
    with pytest.raises(StorageUnavailable):
        await repo.connect()
    with pytest.raises(StorageError):
        await repo.find_game("x")
    await repo.close()


@pytest.mark.parametrize("close", [True, False], ids=["closed", "forgotten"])
def test_process_exits_promptly(tmp_path: Path, close: bool) -> None:
    """aiosqlite runs each connection on a non-daemon thread: a connection left open used to keep
    the interpreter alive forever. Closed properly or forgotten, the process must exit."""
    script = textwrap.dedent(
        f"""
        import asyncio
        from bot.storage import open_repository

        KEEP = []

        async def main():
            repo = open_repository("sqlite:///{tmp_path}/exit.db")
            await repo.connect()
            game = await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="europe")
            await repo.append_action(game.id, 0, 0, {{"a": 1}}, {{"s": 1}})
            if {close}:
                await repo.close()
            else:
                KEEP.append(repo)  # still referenced at exit: only the daemon safety net saves us

        asyncio.run(main())
        print("done")
        """
    )
    result = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"


async def test_cancelled_while_waiting_for_the_lock_leaves_the_writer_clean(tmp_path: Path) -> None:
    path = tmp_path / "cancel.db"
    async with open_repository(f"sqlite:///{path}?busy_timeout=5000") as repo:
        game = await new_game(repo)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            task = asyncio.create_task(repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1}))
            await asyncio.sleep(0.2)
            task.cancel()
            await asyncio.sleep(0.1)
            # the cancelled task finishes once its connection is clean (BEGIN done, then rolled back),
            # i.e. when the other process lets go or busy_timeout expires
            assert not task.done()
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=10)
        # the cancelled BEGIN completed on the worker thread and was rolled back behind it
        record = await asyncio.wait_for(repo.append_action(game.id, 0, 1, {"b": 2}, {"turn": 2}), timeout=10)
        assert (record.seq, record.version) == (1, 1)
        assert [a.action for a in await repo.load_actions(game.id)] == [{"b": 2}]

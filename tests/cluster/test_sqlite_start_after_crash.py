"""A bot on SQLite starts again after any crash: one bot process per file is kept by a lock the operating system
releases when the process dies (bot.storage.file_lock), not by a pid test. Before, a process killed with
``kill -9`` left its heartbeat row, and the next start counted it as a live bot whenever its old pid belonged to
any process by then (pids are reused after a restart): "another bot process uses this SQLite file" with
nothing to stop."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import Settings
from bot.storage import open_repository
from bot.storage.file_lock import release_database_lock
from bot.wiring import StartupError, open_database

ROOT = Path(__file__).resolve().parents[2]

BOT = textwrap.dedent(
    """
    import asyncio, os, sys, time
    from datetime import UTC, datetime
    from bot.config import Settings
    from bot.wiring import open_database
    from bot.manager.cluster import Member
    from bot.storage import open_repository

    url = sys.argv[1]
    open_database(Settings(database_url=url))  # what `ttr bot` does first

    async def beat() -> None:  # the manager's heartbeat row, written at start
        async with open_repository(url) as repo:
            await repo.beat(Member().beat_row(datetime.now(UTC)))

    asyncio.run(beat())
    print("ready", flush=True)
    time.sleep(60)
    """
)


def _start_bot(url: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", BOT, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
    return proc


async def _rows(url: str) -> list[tuple[str, int]]:
    async with open_repository(url) as repo:
        return [(b.host, b.pid) for b in await repo.processes_seen(datetime(2000, 1, 1, tzinfo=UTC))]


async def _give_row_pid(url: str, pid: int) -> None:
    async with open_repository(url) as repo, repo._write("test") as tx:  # type: ignore[attr-defined]
        await tx.execute("UPDATE cluster_processes SET pid = ?", (pid,))


@pytest.mark.cluster  # a real process killed with SIGKILL
def test_killed_bot_whose_pid_another_process_took_starts_again(tmp_path: Path) -> None:
    db = tmp_path / "ttr.db"
    url = f"sqlite:///{db}"
    first = _start_bot(url)
    sleeper = None
    try:
        with pytest.raises(StartupError, match="another bot process uses this SQLite file") as err:
            open_database(Settings(database_url=url))  # while it runs: refused, naming the holder
        assert str(first.pid) in str(err.value)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        # its heartbeat row stays; its pid now belongs to another live process (a reused pid)
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        asyncio.run(_give_row_pid(url, sleeper.pid))
        assert asyncio.run(_rows(url)) == [(socket.gethostname(), sleeper.pid)]
        open_database(Settings(database_url=url))  # the bot starts
        assert asyncio.run(_rows(url)) == []  # and the dead process's row is gone
    finally:
        release_database_lock(db)
        for proc in (first, sleeper):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)

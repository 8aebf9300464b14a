"""`ttr cluster-status` tells a stopped or dead process from a late one: a clean stop removes its row; a row
without a beat for two beats is ``late``, for a whole lease ``gone`` (its claims have ended: the others serve its
rows); only ``up`` rows are beating. On SQLite a process is up while it holds the file's lock."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.pg_schema import fresh_pg_schema

from bot.cli import cluster_status_text
from bot.manager import GameManager
from bot.manager.cluster import liveness
from bot.storage import ProcessBeat, open_repository
from bot.storage.file_lock import hold_database_lock, release_database_lock


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_pg_schema() as (url, _schema):
        yield url


def _state_of(text: str, process_id: str) -> str | None:
    for line in text.splitlines():
        if process_id in line:
            return line.split()[0]
    return None


def test_liveness_by_the_age_of_the_heartbeat() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    ages = [0, 10, 20, 21, 29, 30, 45, 59]
    states = [liveness(now - timedelta(seconds=a), now, every=10, lease=30) for a in ages]
    assert states == ["up", "up", "up", "late", "late", "gone", "gone", "gone"]


async def test_a_clean_stop_removes_its_row_and_a_dead_process_shows_gone(pg_url: str) -> None:
    async with open_repository(pg_url) as repo:
        running = GameManager(repo)
        stopping = GameManager(repo)
        await running.join_cluster(shard_ids="0", shard_count=2)
        await stopping.join_cluster(shard_ids="1", shard_count=2)
        now = datetime.now(UTC)
        for pid, age in ((4242, 45), (4343, 25)):  # killed 45 s ago; killed (or stalled) 25 s ago
            seen = now - timedelta(seconds=age)
            await repo.beat(ProcessBeat(f"dead:{pid}", socket.gethostname(), pid, "1", 2, seen, seen))
        stopped_id = stopping.timers.member.process_id
        text = await cluster_status_text(pg_url)
        assert _state_of(text, stopped_id) == "up"
        await stopping.close()  # SIGTERM: the bot closes its manager
        text = await cluster_status_text(pg_url)
        assert stopped_id not in text  # stopped: no row
        assert _state_of(text, running.timers.member.process_id) == "up"
        assert _state_of(text, "dead:4242") == "gone"
        assert _state_of(text, "dead:4343") == "late"
        await running.close()


async def test_on_sqlite_a_process_is_up_while_it_holds_the_files_lock(tmp_path: Path) -> None:
    db = tmp_path / "ttr.db"
    url = f"sqlite:///{db}"
    long_ago = datetime.now(UTC) - timedelta(hours=3)  # (on SQLite the row is written once, at start)
    async with open_repository(url) as repo:
        await repo.beat(ProcessBeat("me", socket.gethostname(), os.getpid(), "all", None, long_ago, long_ago))
        await repo.beat(ProcessBeat("killed", socket.gethostname(), 1, "all", None, long_ago, long_ago))
    hold_database_lock(db)
    try:
        text = await cluster_status_text(url)
        assert (_state_of(text, " me "), _state_of(text, "killed")) == ("up", "gone")
    finally:
        release_database_lock(db)
    assert _state_of(await cluster_status_text(url), " me ") == "gone"

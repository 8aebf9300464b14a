"""The README's PostgreSQL procedure, once, on the real server: ``pg_dump -Fc`` taken during a flood of moves,
``pg_restore`` into a new database, which plays on. Both databases are this test's own, created and dropped here."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
from backup_games import START, flood_during, plays_on, start_games
from helpers.manager_games import RecordingNotifier, random_ai
from helpers.pg_schema import PG_URL, postgres_reason

from bot.manager import GameManager, ManualClock
from bot.storage import open_repository


@asynccontextmanager
async def own_database() -> AsyncIterator[str]:
    """The URL of a new database of this test's own, dropped on exit."""
    name = f"ttr_ops_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(PG_URL, timeout=5)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(urlsplit(PG_URL)._replace(path=f"/{name}"))
    finally:
        admin = await asyncpg.connect(PG_URL, timeout=5)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def run(*command: str) -> None:
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate()
    assert process.returncode == 0, (command[0], err.decode())


@pytest.mark.slow
async def test_pg_dump_during_a_flood_of_moves_restores_and_plays_on(tmp_path: Path) -> None:
    reason = await postgres_reason()
    if reason:
        pytest.skip(reason)
    dump = tmp_path / "ttr.dump"
    async with own_database() as live, own_database() as restored:
        clock = ManualClock(START)
        async with open_repository(live, clock=clock.now) as repo:
            manager = GameManager(
                repo, clock=clock, notifier=RecordingNotifier(), ai=random_ai, retry_delays=(0.01,)
            )
            await manager.start(dispatcher=False)
            try:
                game_ids = await start_games(manager, 4)
                during = await flood_during(
                    manager,
                    game_ids,
                    lambda _moved: run("pg_dump", "--format=custom", f"--file={dump}", live),
                )
            finally:
                await manager.close()
        assert during > 0
        await run("pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump))
        notifier = await plays_on(restored, game_ids)
        assert notifier.turns

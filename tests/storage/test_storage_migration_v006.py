"""V006 on games stored by the code before it (``fixtures/v005_games.sql``: every move rewrote the whole snapshot,
its history inside): each game loads exactly as it was stored, its history now from its log, and plays on."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from helpers.manager_games import play_random, random_ai
from helpers.stored_games import assert_stored_is_log_replayed

from bot.manager import GameManager, ManualClock
from bot.manager.positions import stored_state
from bot.storage import GameStatus, open_repository

from .conftest import PG_URL, fresh_pg_schema
from .test_storage_migrations import LATEST, V001Database

FIXTURE = Path(__file__).parent / "fixtures" / "v005_games.sql"


@pytest.fixture(params=["sqlite", "postgres"])
async def v005(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[V001Database]:
    """A database at V005 holding the fixture's games, as today's code stored them."""
    if request.param == "sqlite":
        path = tmp_path / "v005.db"
        db = V001Database(f"sqlite:///{path}", "sqlite", path=path)
        async with db.repository_at(5) as repo:
            assert await repo.schema_version() == 5
        await db.execute(FIXTURE.read_text(encoding="utf-8"))
        yield db
    else:
        async with fresh_pg_schema() as (url, schema):
            db = V001Database(url, "postgres", schema=schema)
            async with db.repository_at(5) as repo:
                assert await repo.schema_version() == 5
            await db.execute(FIXTURE.read_text(encoding="utf-8"))
            yield db


async def old_snapshots(db: V001Database) -> dict[str, tuple[int, Any]]:
    """Game id -> (action count, whole snapshot) as V005 stored them."""
    sql = "SELECT id, action_count, snapshot FROM games WHERE snapshot IS NOT NULL"
    if db.path is not None:
        conn = sqlite3.connect(db.path)
        try:
            rows = conn.execute(sql).fetchall()
        finally:
            conn.close()
    else:
        pg = await asyncpg.connect(PG_URL, server_settings={"search_path": db.schema or "public"})
        try:
            rows = [tuple(r) for r in await pg.fetch(sql)]
        finally:
            await pg.close()
    return {gid: (count, json.loads(text)) for gid, count, text in rows}


async def test_v005_games_migrate_load_as_stored_and_play_on(v005: V001Database) -> None:
    before = await old_snapshots(v005)
    assert set(before) == {"fixeur01", "fixusa01", "fixjap01"} and before["fixeur01"][0] == 60
    async with open_repository(v005.url) as repo:
        assert await repo.schema_version() == LATEST
        for gid, (count, whole) in before.items():
            rec = await repo.load_game(gid)
            # the position is the old snapshot without its history, saved at the game's action count
            assert rec.snapshot_seq == count == rec.action_count
            assert rec.snapshot == {k: v for k, v in whole.items() if k != "history"}
            state = await stored_state(repo, gid)
            assert state is not None and json.loads(state.to_json()) == whole
        lobby = await repo.load_game("fixlob01")
        assert lobby.snapshot is None and lobby.status is GameStatus.LOBBY

        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01,))
        await manager.start(dispatcher=False)
        assert {"fixeur01", "fixjap01", "fixlob01"} <= manager.open_game_ids
        rng = random.Random(5)
        for gid in ("fixeur01", "fixjap01"):
            assert await play_random(manager, gid, rng, moves=45) == 45
        await manager.start_game("fixlob01", 1000, seed=3)
        assert await play_random(manager, "fixlob01", rng, moves=5) == 5
        played = await play_random(manager, "fixeur01", rng)  # to its end
        assert (await manager.status("fixeur01")).status == GameStatus.FINISHED and played > 0
        for gid in ("fixeur01", "fixjap01", "fixlob01", "fixusa01"):
            await assert_stored_is_log_replayed(repo, gid, await manager.export_record(gid))
        await manager.close()

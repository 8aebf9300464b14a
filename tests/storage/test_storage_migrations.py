"""Forward migration: a database built by V001 only, holding data, opened by the current code."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot.storage import GameStatus, PlayerPrefs, SeatResult, StorageError, open_repository
from bot.storage._common import load_migrations, split_sql
from bot.storage.postgres import PostgresRepository
from bot.storage.sqlite import SQLiteRepository

from .conftest import PG_URL, fresh_pg_schema

#: the schema version of this code (each test below starts from V001)
LATEST = len(load_migrations("sqlite"))

# Data as the V001 schema knew it. Plain literals only, so the same text runs on both backends.
V001_DATA = """
INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, board, variant, options, status, settings,
                   seats, snapshot, version, action_count, created_at, updated_at)
VALUES
 ('old00fin', 1, 10, NULL, 101, 'europe', 'standard', '{"x":1}', 'finished', '{"absent":"skip"}',
  '[{"user_id":101,"name":"Ada","ai_level":null},{"user_id":null,"name":"Bot","ai_level":"easy"}]',
  '{"turn":9}', 3, 2, '2026-01-01T10:00:00.000000+00:00', '2026-01-02T11:00:00.000000+00:00'),
 ('old00act', 1, 11, 12, 102, 'usa', 'standard', '{}', 'active', '{}',
  '[{"user_id":102,"name":"Bob","ai_level":null},{"user_id":101,"name":"Ada","ai_level":null}]',
  '{"turn":1}', 1, 1, '2026-01-03T10:00:00.000000+00:00', '2026-01-03T10:05:00.000000+00:00');
INSERT INTO game_players (game_id, seat, user_id) VALUES
 ('old00fin', 0, 101), ('old00act', 0, 102), ('old00act', 1, 101);
INSERT INTO actions (game_id, seq, seat, action, version, created_at) VALUES
 ('old00fin', 1, 0, '{"type":"draw"}', 1, '2026-01-01T10:01:00.000000+00:00'),
 ('old00fin', 2, 1, '{"type":"claim","route":"a-b"}', 3, '2026-01-02T11:00:00.000000+00:00'),
 ('old00act', 1, 0, '{"type":"draw"}', 1, '2026-01-03T10:05:00.000000+00:00');
INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES
 ('old00act', 'remind', '2026-01-04T10:05:00.000000+00:00', '{"seat":1}', '2026-01-03T10:05:00.000000+00:00');
"""


@dataclass
class V001Database:
    url: str
    backend: str
    path: Path | None = None
    schema: str | None = None

    async def execute(self, sql: str) -> None:
        if self.path is not None:
            conn = sqlite3.connect(self.path)
            try:
                conn.executescript(sql)
            finally:
                conn.close()
        else:
            pg = await asyncpg.connect(PG_URL, server_settings={"search_path": self.schema or "public"})
            try:
                await pg.execute(sql)
            finally:
                await pg.close()

    def repository_at(self, version: int) -> SQLiteRepository | PostgresRepository:
        if self.path is not None:
            return SQLiteRepository(self.path, migrate_to=version)
        return PostgresRepository(PG_URL, schema=self.schema, migrate_to=version)


@pytest.fixture(params=["sqlite", "postgres"])
async def v001(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[V001Database]:
    if request.param == "sqlite":
        path = tmp_path / "v001.db"
        db = V001Database(f"sqlite:///{path}", "sqlite", path=path)
        async with db.repository_at(1) as repo:
            assert await repo.schema_version() == 1
        await db.execute(V001_DATA)
        yield db
    else:
        async with fresh_pg_schema() as (url, schema):
            db = V001Database(url, "postgres", schema=schema)
            async with db.repository_at(1) as repo:
                assert await repo.schema_version() == 1
            await db.execute(V001_DATA)
            yield db


async def test_v001_database_migrates_forward_and_keeps_its_data(v001: V001Database) -> None:
    async with open_repository(v001.url) as repo:
        assert await repo.schema_version() == LATEST

        finished = await repo.load_game("old00fin")
        assert finished.status is GameStatus.FINISHED
        assert finished.version == 3 and finished.action_count == 2
        assert finished.options == {"x": 1} and finished.settings == {"absent": "skip"}
        assert finished.snapshot == {"turn": 9}
        assert finished.seats[1].ai_level == "easy"
        # V002 backfilled finished_at from updated_at for games already over
        assert finished.finished_at == datetime(2026, 1, 2, 11, 0, tzinfo=UTC) == finished.updated_at

        active = await repo.load_game("old00act")
        assert active.finished_at is None and active.thread_id == 12
        assert [a.action for a in await repo.load_actions("old00fin")] == [
            {"type": "draw"},
            {"type": "claim", "route": "a-b"},
        ]
        assert [t.payload for t in await repo.timers_for_game("old00act")] == [{"seat": 1}]
        assert {g.id for g in await repo.games_for_player(101)} == {"old00fin", "old00act"}
        assert (await repo.find_open_game(thread_id=12)).id == "old00act"  # type: ignore[union-attr]

        # the new table works on old games, and old games keep taking actions
        await repo.record_results(
            "old00fin", [SeatResult(0, 101, 77, 2, False), SeatResult(1, None, 90, 1, True)]
        )
        assert (await repo.player_stats(1, 101)).mean_score == 77
        # V003: one person's game is not rated; preferences start at their defaults
        assert not await repo.is_rated("old00fin") and await repo.ratings(1) == []
        assert await repo.load_prefs(101, 1) == PlayerPrefs()
        action = await repo.append_action("old00act", 1, 1, {"type": "draw"}, {"turn": 2})
        assert (action.seq, action.version) == (2, 2)

    # reopening applies nothing twice
    async with open_repository(v001.url) as repo:
        assert await repo.schema_version() == LATEST


async def test_failed_migration_rolls_back_whole(v001: V001Database) -> None:
    # an object in the way makes V002 fail halfway (after its ALTER TABLE and UPDATE)
    await v001.execute("CREATE TABLE game_results (x integer);")
    with pytest.raises(StorageError):
        async with open_repository(v001.url):
            pass
    async with v001.repository_at(1) as repo:
        assert await repo.schema_version() == 1
    # V002's ALTER TABLE (before the failing CREATE TABLE) was rolled back with the rest
    if v001.path is not None:
        conn = sqlite3.connect(v001.path)
        try:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        finally:
            conn.close()
    else:
        pg = await asyncpg.connect(PG_URL)
        try:
            columns = [
                r["column_name"]
                for r in await pg.fetch(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'games'",
                    v001.schema,
                )
            ]
        finally:
            await pg.close()
    assert "finished_at" not in columns and "status" in columns


async def test_database_newer_than_code_is_refused(v001: V001Database) -> None:
    async with open_repository(v001.url) as repo:
        assert await repo.schema_version() == LATEST
    await v001.execute(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'future', '2030-01-01T00:00:00+00:00');"
    )
    with pytest.raises(StorageError, match="newer than this code"):
        async with open_repository(v001.url):
            pass


def test_migration_files_are_numbered_and_headed() -> None:
    for dialect in ("sqlite", "postgres"):
        migrations = load_migrations(dialect)
        assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
        assert len(migrations) >= 2
        for m in migrations:
            head = m.sql.splitlines()[:4]
            assert head[0].startswith(f"-- V{m.version:03d}__{m.name}.sql")
            assert head[1].startswith("-- Follows: ")
            assert head[2].startswith("-- Date: ")
            assert any(line.startswith("-- Why: ") for line in m.sql.splitlines()[:8])
            assert split_sql(m.sql), m.name
    assert [m.name for m in load_migrations("sqlite")] == [m.name for m in load_migrations("postgres")]


def test_split_sql_keeps_triggers_whole() -> None:
    script = """
    -- a comment
    CREATE TABLE t (a INTEGER);
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        UPDATE t SET a = a + 1; -- inner semicolon
    END;
    INSERT INTO t VALUES (';');
    """
    statements = split_sql(script)
    assert len(statements) == 3
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")

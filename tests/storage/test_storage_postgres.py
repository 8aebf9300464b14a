"""PostgreSQL specifics: unreachable server, a row locked by another session, URL options."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import GameRecord, GameRepository, Seat, StorageError, StorageUnavailable, open_repository
from bot.storage.postgres import PostgresRepository

from .conftest import PG_URL, fresh_pg_schema


async def new_game(repo: GameRepository) -> GameRecord:
    return await repo.create_game(
        guild_id=1,
        channel_id=10,
        host_id=101,
        board="europe",
        seats=(Seat("Ada", 101),),
        snapshot={"turn": 0},
    )


def test_url_options() -> None:
    repo = open_repository("postgresql://u@db.example:5433/ttr?schema=games&max_size=4&lock_timeout_ms=250")
    assert isinstance(repo, PostgresRepository)
    assert (repo.schema, repo.max_size, repo.lock_timeout_ms) == ("games", 4, 250)
    assert repo.dsn == "postgresql://u@db.example:5433/ttr"
    assert isinstance(open_repository("postgres://u@h/db"), PostgresRepository)
    with_driver = open_repository("postgresql+asyncpg://u@h/db")
    assert isinstance(with_driver, PostgresRepository) and with_driver.dsn == "postgresql://u@h/db"
    with pytest.raises(ValueError):
        open_repository("postgresql://u@h/db?schema=bad;name")


async def test_unreachable_server_is_unavailable() -> None:
    repo = open_repository("postgresql://postgres@127.0.0.1:1/test", connect_timeout=2)
    with pytest.raises(StorageUnavailable):
        await repo.connect()
    with pytest.raises(StorageError):
        await repo.find_game("x")
    await repo.close()


async def test_row_locked_elsewhere_gives_unavailable_then_works() -> None:
    async with fresh_pg_schema() as (url, schema), open_repository(url, lock_timeout_ms=200) as repo:
        game = await new_game(repo)
        other = await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            with pytest.raises(StorageUnavailable):
                await repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1})
            # reads do not wait for row locks
            assert (await repo.load_game(game.id)).version == 0
            await tx.rollback()
        finally:
            await other.close()
        loaded = await repo.load_game(game.id)
        assert loaded.version == 0 and loaded.snapshot == {"turn": 0}
        assert await repo.load_actions(game.id) == []
        assert (await repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1})).seq == 1


async def test_row_locked_briefly_waits_then_succeeds() -> None:
    async with fresh_pg_schema() as (url, schema), open_repository(url, lock_timeout_ms=5000) as repo:
        game = await new_game(repo)
        other = await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            task = asyncio.create_task(repo.append_action(game.id, 0, 0, {"a": 1}, {"turn": 1}))
            await asyncio.sleep(0.3)
            assert not task.done()
            await tx.rollback()
            assert (await asyncio.wait_for(task, timeout=10)).seq == 1
        finally:
            await other.close()


async def test_other_url_parameters_become_server_settings() -> None:
    async with (
        fresh_pg_schema() as (url, _schema),
        open_repository(f"{url}&synchronous_commit=off") as repo,
    ):
        assert isinstance(repo, PostgresRepository)
        assert repo._pool is not None
        assert await repo._pool.fetchval("SHOW synchronous_commit") == "off"
        assert await repo._pool.fetchval("SHOW lock_timeout") == "5s"
        await new_game(repo)

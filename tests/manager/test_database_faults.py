"""One classification of database faults, for both stores, by what the player and the host can do: retry now
(the player hears nothing, the retry works), retry later (``storage_down``: "cannot be reached right now;
nothing was changed"), the host must act (``storage_unavailable``, with one ERROR line saying what to do), a bug.
Never "no such game" for a fault of the database. Tried on a real PostgreSQL (a database of its own per test:
refusing connections, dropped, a login refused, connections killed) and on SQLite."""

from __future__ import annotations

import logging
import random
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from helpers.manager_games import HUMANS, play_random, random_ai, started_game
from helpers.pg_schema import PG_URL, postgres_reason

from bot.manager import GameManager, ManualClock, Refused
from bot.storage import (
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageUnavailable,
    open_repository,
)
from bot.storage.sqlite import _map_error as sqlite_error
from engine.actions import DrawBlind

ANN = HUMANS[0][0]


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PG_URL, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
async def own_database() -> AsyncIterator[tuple[str, str]]:
    """(url, name) of a database of this test's own (it is refused, dropped...), dropped afterwards."""
    reason = await postgres_reason()
    if reason:
        pytest.skip(reason)
    name = f"ttr_faults_{uuid.uuid4().hex[:10]}"
    await _admin(f'CREATE DATABASE "{name}"')
    base = PG_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}", name
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _kill_connections(name: str) -> None:
    await _admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")


async def _in_play(manager: GameManager) -> str:
    gid, _ = await started_game(manager, humans=2, seed=9)
    await play_random(manager, gid, random.Random(9), moves=2)
    return gid


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_database_refusing_connections_is_unavailable_not_a_missing_game(
    own_database: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, name = own_database
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01,))
        gid = await _in_play(manager)
        before = await repo.load_game(gid)
        manager._store.evict(gid)  # (a game not cached: what a restart or a busy cache gives)
        await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')  # maintenance, a restore
        await _kill_connections(name)
        try:
            caplog.clear()
            for call in (lambda: manager.status(gid), lambda: manager.act(gid, ANN, DrawBlind())):
                with caplog.at_level(logging.INFO), pytest.raises(Refused) as err:
                    await call()
                assert err.value.code == "storage_down"
            (error,) = _errors(caplog)  # one line for the host per outage, not one per request
            assert "not currently accepting connections" in error
        finally:
            await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        info = await manager.status(gid)  # back: the game as it was, nothing changed
        assert info.game_id == gid and (await repo.load_game(gid)).version == before.version
        assert (await manager.act(gid, ANN, DrawBlind())).seqs == (before.action_count + 1,)


async def test_a_dropped_database_is_the_hosts_to_fix(
    own_database: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, name = own_database
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01,))
        gid = await _in_play(manager)
        manager._store.evict(gid)
        await _admin(f'DROP DATABASE "{name}" WITH (FORCE)')
        caplog.clear()
        with caplog.at_level(logging.INFO), pytest.raises(Refused) as err:
            await manager.status(gid)
        assert err.value.code == "storage_unavailable"
        (error,) = _errors(caplog)
        assert "does not exist" in error and "DATABASE_URL" in error


async def test_a_refused_login_is_the_hosts_to_fix(own_database: tuple[str, str]) -> None:
    """(The test server trusts every login: a role that does not exist is refused the way a wrong password
    is, with the same family of errors, InvalidAuthorizationSpecification.)"""
    url, _name = own_database
    bad = url.replace("://postgres@", "://ttr_nobody_here@").replace("://root@", "://ttr_nobody_here@")
    assert bad != url
    with pytest.raises(StorageBroken) as err:
        async with open_repository(bad):
            pass
    assert "DATABASE_URL" in err.value.advice and "password" in err.value.advice


async def test_killed_connections_are_retried_at_once_unseen(own_database: tuple[str, str]) -> None:
    url, name = own_database
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01, 0.05))
        gid = await _in_play(manager)
        count = (await repo.load_game(gid)).action_count
        for _ in range(3):
            await _kill_connections(name)
            info = await manager.status(gid)
            assert info.game_id == gid
        await _kill_connections(name)
        assert (await manager.act(gid, ANN, DrawBlind())).seqs == (count + 1,)


def _sqlite_error(kind: type[sqlite3.Error], code: int, text: str) -> sqlite3.Error:
    exc = kind(text)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (
            _sqlite_error(sqlite3.OperationalError, sqlite3.SQLITE_BUSY, "database is locked"),
            StorageUnavailable,
        ),
        (
            _sqlite_error(sqlite3.OperationalError, sqlite3.SQLITE_FULL, "database or disk is full"),
            StorageBroken,
        ),
        (
            _sqlite_error(sqlite3.OperationalError, sqlite3.SQLITE_ERROR, "no such table: games"),
            StorageBroken,
        ),
        (
            _sqlite_error(sqlite3.OperationalError, sqlite3.SQLITE_ERROR, 'near "SELEC": syntax error'),
            StorageBug,
        ),
        (
            _sqlite_error(sqlite3.IntegrityError, sqlite3.SQLITE_CONSTRAINT, "CHECK constraint failed"),
            StorageBug,
        ),
        (_sqlite_error(sqlite3.OperationalError, sqlite3.SQLITE_INTERRUPT, "interrupted"), StorageDown),
    ],
)
def test_sqlite_errors_are_classified_like_postgres_ones(error: sqlite3.Error, kind: type[Exception]) -> None:
    mapped = sqlite_error(error, "read")
    assert type(mapped) is kind


async def test_sqlite_missing_tables_and_unknown_errors_are_never_a_missing_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.db"
    async with open_repository(f"sqlite:///{path}") as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=random_ai, retry_delays=(0.01,))
        gid = await _in_play(manager)
        manager._store.evict(gid)
        await repo._writer.execute("PRAGMA foreign_keys = OFF")  # type: ignore[attr-defined]
        await repo._writer.execute("ALTER TABLE games RENAME TO games_gone")  # type: ignore[attr-defined]
        caplog.clear()
        with caplog.at_level(logging.INFO), pytest.raises(Refused) as err:
            await manager.status(gid)
        assert err.value.code == "storage_unavailable"
        (error,) = _errors(caplog)
        assert "tables are missing" in error

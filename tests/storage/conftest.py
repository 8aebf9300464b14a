"""Fixtures for the storage contract: every test gets a fresh database on each backend.

PostgreSQL: each test gets its own schema in the database of ``TTR_TEST_POSTGRES_URL`` (default
postgresql://postgres@127.0.0.1:5432/test), dropped afterwards. The postgres parameter is skipped,
with the reason, only when the server cannot be reached; any other failure fails the test.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.storage import GameRepository, open_repository

PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite-file", "sqlite-memory", "postgres"]

_pg_unreachable: list[str] = []  # cached reason, filled at most once per session
_pg_checked = False


async def _postgres_reason() -> str | None:
    global _pg_checked
    if not _pg_checked:
        _pg_checked = True
        try:
            conn = await asyncpg.connect(PG_URL, timeout=5)
        except (TimeoutError, OSError, asyncpg.exceptions.CannotConnectNowError) as exc:
            _pg_unreachable.append(f"PostgreSQL unreachable at {PG_URL}: {type(exc).__name__}: {exc}")
        else:
            await conn.close()
    return _pg_unreachable[0] if _pg_unreachable else None


@asynccontextmanager
async def fresh_pg_schema() -> AsyncIterator[tuple[str, str]]:
    """(url with ?schema=..., schema name) of a fresh schema, dropped on exit; skips if unreachable."""
    reason = await _postgres_reason()
    if reason:
        pytest.skip(reason)
    schema = f"ttr_test_{uuid.uuid4().hex[:12]}"
    try:
        yield f"{PG_URL}?schema={schema}", schema
    finally:
        conn = await asyncpg.connect(PG_URL, timeout=5)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()


@pytest.fixture(params=BACKENDS)
async def repo_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    backend = request.param
    if backend == "sqlite-file":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    elif backend == "sqlite-memory":
        yield "sqlite:///:memory:"
    else:
        async with fresh_pg_schema() as (url, _schema):
            yield url


@pytest.fixture
async def repo(repo_url: str) -> AsyncIterator[GameRepository]:
    async with open_repository(repo_url) as repository:
        yield repository

"""Fixtures for the storage contract: every test gets a fresh database on each backend.

PostgreSQL: each test gets its own schema in the database of ``TTR_TEST_POSTGRES_URL`` (default
postgresql://postgres@127.0.0.1:5432/test), dropped afterwards. The postgres parameter is skipped,
with the reason, only when the server cannot be reached; any other failure fails the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.pg_schema import PG_URL, fresh_pg_schema

from bot.storage import GameRepository, open_repository

__all__ = ["BACKENDS", "PG_URL", "fresh_pg_schema"]

BACKENDS = ["sqlite-file", "sqlite-memory", "postgres"]


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

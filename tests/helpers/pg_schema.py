"""A fresh PostgreSQL schema per test, shared by the storage and manager tests (`from helpers.pg_schema import
fresh_pg_schema`). The server is ``TTR_TEST_POSTGRES_URL`` (default postgresql://postgres@127.0.0.1:5432/test);
tests skip, with the reason, only when it cannot be reached."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")

_pg_unreachable: list[str] = []  # cached reason, filled at most once per session
_pg_checked = False


async def postgres_reason() -> str | None:
    """Why PostgreSQL cannot be used here, or None."""
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
    reason = await postgres_reason()
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

"""The host's lines about a database outage (bot.manager.outage): one ERROR when it begins, whatever the number
of requests refused meanwhile, one WARNING when it ends; a fault the host must fix (a read-only file) ends only
when a write works again, so reads that still work do not make it flap; a bug is no outage (logged each time)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.manager import GameManager, ManualClock, Refused
from bot.manager.outage import Outage
from bot.manager.retries import broken_refusal, gave_up
from bot.manager.store import GameStore
from bot.storage import StorageBroken, StorageBug, StorageDown, StorageUnavailable


def _lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


def test_one_error_per_outage_and_one_warning_when_it_ends(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    outage = Outage(clock=lambda: now[0])
    caplog.set_level(logging.DEBUG)
    for _ in range(50):  # fifty requests refused
        assert gave_up(StorageDown("postgres: connect: connection refused"), outage).code == "storage_down"
        outage.retrying(StorageDown("again"))  # (the retries of each request: DEBUG during the outage)
    assert outage.down
    (error,) = _lines(caplog, logging.ERROR)
    assert "cannot be reached" in error and "connection refused" in error
    assert _lines(caplog, logging.WARNING) == []
    now[0] = 190.0
    outage.recovered()
    (back,) = _lines(caplog, logging.WARNING)
    assert "works again after 90 s" in back and "50 refusals" in back
    outage.recovered()  # (nothing more to say)
    assert gave_up(StorageUnavailable("database is locked"), outage).code == "storage"  # busy: no outage
    assert not outage.down
    gave_up(StorageDown("down again"), outage)  # a second outage: a second line
    assert len(_lines(caplog, logging.ERROR)) == 2


def test_a_fault_of_writes_ends_with_a_write_and_a_bug_is_logged_each_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outage = Outage()
    readonly = StorageBroken("sqlite: write: attempt to write a readonly database", advice="make it writable")
    for _ in range(3):
        assert broken_refusal(readonly, outage).code == "storage_unavailable"
        outage.recovered()  # a read worked meanwhile
    (error,) = _lines(caplog, logging.ERROR)
    assert "make it writable" in error and _lines(caplog, logging.WARNING) == []
    outage.recovered(wrote=True)
    assert not outage.down and len(_lines(caplog, logging.WARNING)) == 1
    for _ in range(2):
        broken_refusal(StorageBug('near "SELEC": syntax error'), outage)
    assert len(_lines(caplog, logging.ERROR)) == 3 and not outage.down


async def test_a_known_outage_is_answered_at_once_not_after_every_retry() -> None:
    store = GameStore(None, ManualClock(), retry_delays=(0.01, 0.01, 0.01))  # type: ignore[arg-type]
    tries = 0

    async def refused() -> None:
        nonlocal tries
        tries += 1
        raise StorageDown("postgres: connect: connection refused")

    with pytest.raises(Refused) as err:
        await store.storage(refused)
    assert err.value.code == "storage_down" and tries == 4  # the first time: every retry
    with pytest.raises(Refused):
        await store.storage(refused)
    assert tries == 5  # then once: the database is known to be down

    async def busy() -> None:
        nonlocal tries
        tries += 1
        raise StorageUnavailable("database is locked")

    with pytest.raises(Refused):
        await store.storage(busy)
    assert tries == 9  # (a busy database is still retried: it may free itself in a moment)

    async def works() -> str:
        return "ok"

    assert await store.storage(works) == "ok" and not store.outage.down


async def test_the_change_listener_says_one_line_per_outage(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ttr web` on PostgreSQL listens for other processes' changes: while the database cannot be reached it tries
    again every moment, and the host reads one ERROR for the outage, not one line per attempt."""
    from bot.storage import pg_changes
    from bot.storage.postgres import PostgresRepository

    monkeypatch.setattr(pg_changes, "RETRY_EVERY", 0.01)
    caplog.set_level(logging.INFO)
    manager = GameManager(PostgresRepository("postgresql://ttr@127.0.0.1:1/nowhere"), clock=ManualClock())
    heard: list[tuple[str, int]] = []
    feed = await manager.follow_other_processes(lambda g, v: heard.append((g, v)), on_reconnect=lambda: None)
    assert feed is not None
    attempts = 0
    real_connect = pg_changes.asyncpg.connect

    async def counted(*args: object, **kwargs: object) -> object:
        nonlocal attempts
        attempts += 1
        return await real_connect(*args, **kwargs)

    monkeypatch.setattr(pg_changes.asyncpg, "connect", counted)
    try:
        while attempts < 5:
            await asyncio.sleep(0.01)
    finally:
        await feed.close()
    (error,) = _lines(caplog, logging.ERROR)
    assert "storage cannot be reached" in error and not _lines(caplog, logging.WARNING) and not heard

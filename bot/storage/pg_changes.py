"""Changes of games made by other processes, on PostgreSQL: LISTEN on ``ttr_game_changed`` (the trigger of
migration V005 announces every new version of a game row at commit) with asyncpg's ``add_listener``. The
repository hands it out (:meth:`~bot.storage.base.GameRepository.changes_elsewhere`); the manager wires it.

The payload is "<schema> <game id> <version>" and nothing else; a notice of another schema (another
installation, another test) is ignored. The connection is its own (a pooled one would lose the LISTEN); when
it drops, it is opened again after a short pause, and every watched game is re-read then (a notice sent while
deaf is not replayed by PostgreSQL). Its faults are told to ``on_lost`` (classified as every storage fault: `classify`,
bot.storage.postgres's) and its return to ``on_back``: the host's lines about them are the caller's (one per
outage, bot.manager.outage), not one per attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from bot.storage.base import StorageError

log = logging.getLogger(__name__)

CHANNEL = "ttr_game_changed"

#: seconds between two attempts to listen again
RETRY_EVERY = 2.0


class PgChanges:
    """Calls ``on_change(game_id, version)`` for each change announced in `schema` of the database `dsn`."""

    def __init__(
        self,
        dsn: str,
        schema: str | None,
        on_change: Callable[[str, int], None],
        *,
        on_reconnect: Callable[[], None],
        on_lost: Callable[[StorageError], None],
        on_back: Callable[[], None],
        classify: Callable[[BaseException, str], StorageError],
    ) -> None:
        self._dsn = dsn
        self._schema = schema or "public"
        self._on_change = on_change
        self._on_reconnect = on_reconnect
        self._on_lost = on_lost
        self._on_back = on_back
        self._classify = classify
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Listen (returns once listening, or after the first failure is told)."""
        self._task = asyncio.create_task(self._run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._disconnect()

    async def _disconnect(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            with contextlib.suppress(Exception):
                await conn.close(timeout=2)

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        schema, _, rest = payload.partition(" ")
        game_id, _, version = rest.partition(" ")
        if schema != self._schema or not game_id or not version.isdigit():
            return
        self._on_change(game_id, int(version))

    async def _run(self) -> None:
        first, lost = True, False
        while True:
            try:
                self._conn = await asyncpg.connect(self._dsn, timeout=10)
                await self._conn.add_listener(CHANNEL, self._heard)
                self._ready.set()
                if lost:
                    self._on_back()
                    lost = False
                if not first:
                    self._on_reconnect()
                first = False
                while not self._conn.is_closed():
                    await asyncio.sleep(1.0)
            except asyncio.CancelledError:
                raise
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                lost = True
                self._on_lost(self._classify(exc, "listening for changes of games"))
                self._ready.set()
            await self._disconnect()
            await asyncio.sleep(RETRY_EVERY)

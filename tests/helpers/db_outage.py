"""A database that goes down under a running bot, for the outage tests: a TCP proxy in front of PostgreSQL that the
test cuts (every open connection dropped, new ones refused: what a stopped or restarting server does to its
clients) and restores, without touching the shared server; and the count of the host's ERROR lines."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.manager import GameManager
from bot.storage import StorageDown
from helpers.pg_schema import fresh_pg_schema


class PostgresProxy:
    """Forwards 127.0.0.1:<port> to the PostgreSQL server of `url`; :meth:`cut` drops every connection and
    closes the port (connections are then refused), :meth:`restore` listens on the same port again."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._url = url
        self._target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        """`url` through the proxy."""
        parts = urlsplit(self._url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """The server is gone: open connections reset, new ones refused."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            await server.wait_closed()
        for writer in list(self._pipes):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._pipes.clear()

    async def restore(self) -> None:
        await self.start()

    async def close(self) -> None:
        await self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._target)
        except OSError:
            writer.transport.abort()
            return
        self._pipes |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self._pipes.discard(sink)
            with contextlib.suppress(Exception):
                sink.transport.abort()


@contextlib.asynccontextmanager
async def proxied_postgres() -> AsyncIterator[PostgresProxy]:
    """A fresh PostgreSQL schema reached through a proxy the test may cut (skips when PostgreSQL is missing)."""
    async with fresh_pg_schema() as (url, _schema):
        proxy = PostgresProxy(url)
        await proxy.start()
        try:
            yield proxy
        finally:
            await proxy.close()


def host_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The ERROR lines (and worse) the host read, tracebacks marked."""
    return [
        r.getMessage() + (" [traceback]" if r.exc_info else "")
        for r in caplog.records
        if r.levelno >= logging.ERROR
    ]


@contextlib.contextmanager
def storage_refusing(manager: GameManager) -> Iterator[None]:
    """The manager's repository raising, for every call, what the SQLite store raises for a file it cannot
    open (bot.storage.sqlite: an error it does not classify is StorageDown too)."""
    repo = manager.repository
    names = [n for n in dir(type(repo)) if not n.startswith("_") and callable(getattr(type(repo), n))]

    def refusing(name: str) -> Callable[..., Any]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            raise StorageDown(f"sqlite: {name}: unable to open database file (the disk went away)")

        def iterate(*args: Any, **kwargs: Any) -> Any:
            raise StorageDown(f"sqlite: {name}: unable to open database file (the disk went away)")

        return iterate if name.startswith("iter") else call

    saved = {n: repo.__dict__.get(n) for n in names}
    for name in names:
        if name not in ("connect", "close"):
            setattr(repo, name, refusing(name))
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                repo.__dict__.pop(name, None)
            else:
                setattr(repo, name, old)

"""``/readyz`` follows the database: unready while PostgreSQL cannot be reached (a TCP proxy of this test stopped:
the shared server is never touched), ready again when it returns. A render worker killed counts a restart."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from urllib.parse import urlsplit, urlunsplit

import pytest
from helpers.pg_schema import fresh_pg_schema
from ops_net import free_port, get

from bot.config import Settings
from bot.ops.endpoints import OpsServer
from bot.ops.operations import Operations
from bot.storage import open_repository


class TcpProxy:
    """Forwards a local port to PostgreSQL; :meth:`stop` cuts every connection and stops listening."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.pipes: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for writer in list(self.pipes):
            writer.transport.abort()
        self.pipes.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.pipes.update({writer, up_writer})

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


async def ready(port: int) -> tuple[int, dict[str, bool]]:
    status, body = await get(port, "/readyz")
    return status, json.loads(body)["checks"]


async def wait_status(port: int, wanted: int, seconds: float = 20.0) -> dict[str, bool]:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while True:
        status, checks = await ready(port)
        if status == wanted or loop.time() > end:
            assert status == wanted, checks
            return checks
        await asyncio.sleep(0.2)


@pytest.mark.cluster
async def test_readyz_turns_unready_while_postgresql_is_unreachable_and_ready_when_it_returns() -> None:
    async with fresh_pg_schema() as (url, _schema):
        parts = urlsplit(url)
        proxy = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
        await proxy.start()
        proxied = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
        port = free_port()
        ops = Operations(Settings(database_url=proxied, metrics_port=port))
        await ops.start()
        try:
            async with open_repository(proxied) as repo:
                ops.watch_repository(repo)
                assert (await wait_status(port, 200))["database"] is True

                await proxy.stop()
                checks = await wait_status(port, 503)
                assert checks == {"database": False}

                await proxy.start()
                assert (await wait_status(port, 200))["database"] is True
        finally:
            await proxy.stop()
            await ops.stop()


@pytest.mark.cluster
async def test_a_killed_render_worker_counts_a_restart_and_the_pool_stays_ready() -> None:
    from bot.play.pictures import PoolPictures

    pictures = PoolPictures(1)
    ops = Operations(Settings())
    ops.watch_pictures(pictures)
    server = OpsServer(ops.metrics, ops.readiness, free_port(), host="127.0.0.1")
    await server.start()
    try:
        pool = pictures.pool
        pool.start()
        for _ in range(200):
            if pool.worker_pids():
                break
            await asyncio.sleep(0.05)
        await ops.metrics.scrape()
        assert ops.metrics.value("ttr_render_worker_restarts_total") == 0
        # the picture worker, and the GIF's own background worker once it has started
        assert ops.metrics.value("ttr_render_workers_up") in (1, 2)
        assert (await ready(server.port))[0] == 200

        os.kill(pool.worker_pids()[0], signal.SIGKILL)
        png = await pool.render_board(
            "usa", None, width=200
        )  # (the dead worker is replaced, the picture drawn)
        assert png[:4] == b"\x89PNG"
        await ops.metrics.scrape()
        assert ops.metrics.value("ttr_render_worker_restarts_total") == 1
        assert (await ready(server.port))[0] == 200
    finally:
        await server.stop()
        pictures.close()

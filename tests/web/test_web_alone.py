"""`ttr web`: the live map's server alone, over PostgreSQL, serving no timer; refused in one line without its
settings or on an SQLite file."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from pg_schema import fresh_pg_schema

from bot.config import Settings
from bot.web.alone import problem, serve


def test_ttr_web_says_what_it_needs() -> None:
    assert "WEB_PORT" in (problem(Settings()) or "")
    sqlite = Settings(web_port=8080, public_url="https://x.org", web_secret="k" * 32)
    assert "PostgreSQL" in (problem(sqlite) or "")


async def test_ttr_web_serves_the_map_over_postgresql_until_stopped() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    async with fresh_pg_schema() as (url, _schema):
        settings = Settings(
            database_url=url,
            web_port=port,
            public_url="https://x.org",
            web_secret="k" * 32,
            discord_client_id="77",
        )
        assert problem(settings) is None
        stop = asyncio.Event()
        task = asyncio.create_task(serve(settings, stop=stop))
        try:
            async with aiohttp.ClientSession() as http:
                for _ in range(100):
                    try:
                        async with http.get(f"http://127.0.0.1:{port}/api/config") as resp:
                            assert (await resp.json())["client_id"] == "77"
                            break
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.05)
                else:
                    raise AssertionError("ttr web did not start")
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)

"""`ttr web`: the live map's server alone, over PostgreSQL, serving no timer; refused in one line without its
settings or on an SQLite file."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from helpers.pg_schema import fresh_pg_schema

from bot.config import Settings
from bot.wiring import serve_web, web_problem


def test_ttr_web_says_what_it_needs() -> None:
    assert "WEB_PORT" in (web_problem(Settings()) or "")
    sqlite = Settings(web_port=8080, public_url="https://x.org", web_secret="k" * 32)
    assert "PostgreSQL" in (web_problem(sqlite) or "")


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
        assert web_problem(settings) is None
        stop = asyncio.Event()
        task = asyncio.create_task(serve_web(settings, stop=stop))
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
                # its operations on the map's port (no METRICS_PORT): alive, ready (the database answers), metrics
                async with http.get(f"http://127.0.0.1:{port}/healthz") as resp:
                    assert resp.status == 200
                async with http.get(f"http://127.0.0.1:{port}/readyz") as resp:
                    assert resp.status == 200, await resp.text()
                async with http.get(f"http://127.0.0.1:{port}/metrics") as resp:
                    assert resp.status == 200 and "ttr_" in await resp.text()
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)


class Told:
    """A bot process's notifier: the turn messages it was asked to post."""

    def __init__(self) -> None:
        self.turns: list[str] = []
        self.event = asyncio.Event()

    async def on_turn(self, game_id: str, outcome: object) -> None:
        self.turns.append(game_id)
        self.event.set()

    async def on_reminder(self, *args: object) -> None:
        return None

    async def on_absent(self, *args: object) -> None:
        return None

    async def on_lobby_expired(self, *args: object) -> None:
        return None


async def test_a_move_on_a_page_of_ttr_web_is_told_in_the_chat_by_a_bot_process() -> None:
    from helpers.web_site import new_game, random_ai, site

    from bot.manager import GameManager
    from bot.manager.cluster import Member
    from bot.storage import open_repository
    from bot.wiring import WEB_LEASE

    async with fresh_pg_schema() as (url, _schema):
        bot_repo, web_repo = open_repository(url), open_repository(url)
        await bot_repo.connect()
        await web_repo.connect()
        told = Told()
        bot = GameManager(
            bot_repo, ai=random_ai, notifier=told, max_sleep=0.2
        )  # (a short look-again, for the test)
        web = GameManager(web_repo, ai=random_ai, member=Member(lease=WEB_LEASE))
        await bot.start()
        await web.start(dispatcher=False, posts=False)
        try:
            gid = await new_game(bot, "italy")
            async with site("", manager=web, moves_by="page") as s:
                for user in (101, 102):  # the tickets kept on the page: play begins, a turn message is owed
                    view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))).json()
                    keep = view["pending"]["choices"][0]
                    body = {
                        "code": keep["code"],
                        "version": view["version"],
                        "tickets": [t["id"] for t in keep["offered"]],
                    }
                    resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user))
                    assert resp.status == 200
                # at the bot's next look (0.2 s here): the web process leaves the row free at once (it took 5 s
                # when it held the row and renewed its lease without ever posting)
                await asyncio.wait_for(told.event.wait(), 4)
                assert told.turns == [gid]
        finally:
            await bot.close()
            await web.close()
            await bot_repo.close()
            await web_repo.close()

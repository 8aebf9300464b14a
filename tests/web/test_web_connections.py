"""Bounded connections: silent and half-sent connections closed within the idle time-out, a cap of connections in
all and per address (a 503 in the catalogue's words, at once), live sockets capped per user and per address,
views rate-limited, and a flood of malformed requests counted rather than logged a traceback each. Short
settings: nothing here waits long."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from helpers.web_raw import raw_socket
from helpers.web_site import SECRET, everyone, new_game, random_ai

from bot.manager import GameManager, ManualClock
from bot.storage import open_repository
from bot.web.app import MapServer, WebConfig
from bot.web.tokens import SessionUser, Tokens


class GuardedTestServer(TestServer):
    """aiohttp's test server with the live map's own runner (the connection caps and time-outs)."""

    def __init__(self, server: MapServer) -> None:
        self.map_server = server
        super().__init__(server.app())

    async def _make_runner(self, **kwargs: Any) -> Any:
        return self.map_server.runner(**kwargs)


@asynccontextmanager
async def guarded(db_url: str, **config: Any) -> AsyncIterator[tuple[MapServer, TestClient, int, Tokens]]:
    repo = open_repository(db_url, clock=ManualClock().now)
    await repo.connect()
    manager = GameManager(repo, ai=random_ai, retry_delays=(0.01,))
    await manager.start(dispatcher=False)
    tokens = Tokens(SECRET)
    server = MapServer(manager, tokens, WebConfig(**config), membership=everyone)
    client = TestClient(GuardedTestServer(server))
    await client.start_server()
    try:
        port = client.server.port
        assert port is not None
        yield server, client, port, tokens
    finally:
        await client.close()
        await manager.close()
        await repo.close()


async def _closed_after(sock: Any, limit: float) -> float:
    """Seconds until the server closes `sock` (what it sent meanwhile is read and dropped)."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    while await asyncio.wait_for(loop.sock_recv(sock, 65536), limit):
        pass
    return time.perf_counter() - started


async def _answer(sock: Any) -> bytes:
    loop = asyncio.get_running_loop()
    data = b""
    while chunk := await asyncio.wait_for(loop.sock_recv(sock, 65536), 3.0):
        data += chunk
    return data


async def test_silent_and_half_sent_connections_are_closed_within_the_idle_time_out(db_url: str) -> None:
    async with guarded(db_url, idle_timeout=0.5) as (_server, client, port, _tokens):
        silent = await raw_socket(port)
        half = await raw_socket(port)
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(half, b"GET /api/config HTTP/1.1\r\nHost: x\r\n")  # never finished
        waited = await asyncio.gather(_closed_after(silent, 5.0), _closed_after(half, 5.0))
        assert all(w < 3.0 for w in waited), waited
        # a kept-alive connection left idle after its answer goes too
        kept = await raw_socket(port)
        await loop.sock_sendall(kept, b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n")
        assert await _closed_after(kept, 5.0) < 3.0
        for sock in (silent, half, kept):
            sock.close()
        assert (await client.get("/api/config")).status == 200


async def test_connections_over_the_cap_are_refused_at_once_in_words(db_url: str) -> None:
    async with guarded(db_url, max_connections=4, connections_per_address=100, idle_timeout=30.0) as (
        server,
        client,
        port,
        _tokens,
    ):
        held = [await raw_socket(port) for _ in range(4)]
        await asyncio.sleep(0.1)
        assert server.connections.held == 4
        refused = await raw_socket(port)
        started = time.perf_counter()
        answer = await _answer(refused)
        assert time.perf_counter() - started < 2.0  # at once, not after a time-out
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503") and b"aiohttp" not in head
        error = json.loads(body)["error"]
        assert error["code"] == "busy" and "too many visitors" in error["text"]
        for sock in held:
            sock.close()
        for _ in range(50):
            if server.connections.held == 0:
                break
            await asyncio.sleep(0.02)
        assert (await client.get("/api/config")).status == 200
        assert server.tally.total["connections refused (too many)"] == 1
        refused.close()


async def test_connections_per_address_are_capped(db_url: str) -> None:
    async with guarded(db_url, max_connections=100, connections_per_address=3, idle_timeout=30.0) as (
        server,
        _client,
        port,
        _tokens,
    ):
        held = [await raw_socket(port) for _ in range(3)]
        refused = await raw_socket(port)
        assert (await _answer(refused)).startswith(b"HTTP/1.1 503")
        assert server.connections.held == 3
        for sock in [*held, refused]:
            sock.close()


async def test_a_trusted_proxys_connections_are_not_capped_per_address(db_url: str) -> None:
    async with guarded(
        db_url, connections_per_address=2, idle_timeout=30.0, trusted_proxies=("127.0.0.1",)
    ) as (server, _client, port, _tokens):
        held = [await raw_socket(port) for _ in range(4)]  # a proxy carries everyone's connections
        await asyncio.sleep(0.1)
        assert server.connections.held == 4
        for sock in held:
            sock.close()


async def _hello(client: TestClient, tokens: Tokens, gid: str, user: int) -> tuple[Any, dict[str, Any]]:
    ws = await client.ws_connect(f"/api/games/{gid}/live")
    await ws.send_str(json.dumps({"type": "hello", "session": tokens.session(SessionUser(user, "x", "en"))}))
    return ws, json.loads(await ws.receive_str())


async def test_live_pages_are_capped_per_user_and_per_address(db_url: str) -> None:
    async with guarded(db_url, live_per_user=2, live_per_address=3) as (server, client, _port, tokens):
        gid = await new_game(server.manager)
        first = [await _hello(client, tokens, gid, 101) for _ in range(2)]
        assert all(frame["type"] == "view" for _ws, frame in first)
        ws, frame = await _hello(client, tokens, gid, 101)
        assert frame["type"] == "error" and frame["error"]["code"] == "too_many_pages"
        assert "close one" in frame["error"]["text"]
        await ws.close()
        other, frame = await _hello(client, tokens, gid, 102)  # someone else, same address: the third
        assert frame["type"] == "view"
        resp = await client.get(
            f"/api/games/{gid}/live", headers={"Upgrade": "websocket", "Connection": "Upgrade"}
        )
        assert resp.status == 429 and (await resp.json())["error"]["code"] == "too_many_pages"
        for ws, _ in first:
            await ws.close()
        await other.close()
        again, frame = await _hello(client, tokens, gid, 101)  # closed pages free their places
        assert frame["type"] == "view"
        await again.close()


async def test_a_live_page_must_say_hello_in_time(db_url: str) -> None:
    async with guarded(db_url, hello_timeout=0.3) as (server, client, _port, _tokens):
        gid = await new_game(server.manager)
        ws = await client.ws_connect(f"/api/games/{gid}/live")
        frame = json.loads(await asyncio.wait_for(ws.receive_str(), 3.0))
        assert frame["type"] == "error" and frame["error"]["code"] == "session"
        await ws.close()


async def test_views_are_rate_limited_per_user(db_url: str) -> None:
    async with guarded(db_url, view_rate=0.001, view_burst=3) as (server, client, _port, tokens):
        gid = await new_game(server.manager)

        def auth(user: int) -> dict[str, str]:
            return {"Authorization": f"Bearer {tokens.session(SessionUser(user, 'x', 'en'))}"}

        statuses = [(await client.get(f"/api/games/{gid}/view", headers=auth(103))).status for _ in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        body = await (await client.get(f"/api/games/{gid}/view", headers=auth(103))).json()
        assert body["error"]["code"] == "slow_down" and body["error"]["text"]
        assert (await client.get(f"/api/games/{gid}/view", headers=auth(101))).status == 200


async def test_strangers_are_rate_limited_per_address(db_url: str) -> None:
    async with guarded(db_url, stranger_rate=0.001, stranger_burst=3) as (_server, client, _port, _tokens):
        statuses = [(await client.get("/api/config")).status for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        resp = await client.get("/api/games/abcd/view", headers={"Authorization": "Bearer forged"})
        assert resp.status == 429


async def test_a_flood_of_malformed_requests_is_counted_not_logged_each(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with guarded(db_url) as (server, _client, port, _tokens):
        for _ in range(30):
            sock = await raw_socket(port)
            await asyncio.get_running_loop().sock_sendall(
                sock, b"GET /api/config HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n"
            )
            answer = await _answer(sock)
            assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request") and b"aiohttp" not in answer
            sock.close()
        assert server.tally.total["malformed requests"] == 30
    noisy = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not noisy, noisy[0].getMessage()
    assert len(caplog.records) <= 3

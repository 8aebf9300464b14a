"""Benchmarks of the live map's edges (issue 28): push to healthy pages while others never read their socket, and
the connections held under a flood of silent sockets.

1. Push with slow readers: one game (USA), two players playing, three healthy pages (the two players and a
   watcher) and 0, 3, 30 pages that say hello and then never read (a 4 KiB receive buffer): from each move made
   (`GameManager.act`) to each healthy page holding its frame (p50/p95/max). The send time-out is set long (60 s)
   so that the slow pages stay open all along: the worst case, where only each page's own sender keeps the others
   going. Then the server process's memory per slow reader (its resident memory with the slow pages open and full,
   minus with none, divided by their number: server and clients share this process, but a raw page that never
   reads holds nothing in it).
2. A flood of silent sockets: for `--flood-seconds`, a flooder from 127.0.0.2 keeps opening connections that send
   nothing (at most `--flood` at once on its side, loopback only, stopping by itself); the server runs with its
   defaults but for a short idle time-out (2 s) and a cap of 200 connections. Reported: the most connections the
   server held, how many it refused (503 at once) and how many it closed idle; and what a normal page from
   127.0.0.1 met meanwhile (its config and view requests: statuses and p50/p95).

    python bench/bench_web_edges.py [--moves 30] [--flood 400] [--flood-seconds 8]

Figures on a shared machine are noisy: read them as orders of magnitude.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from helpers.web_raw import silent_page  # noqa: E402
from helpers.web_site import SECRET, everyone  # noqa: E402

from bot.manager import GameManager, ManualClock, random_action  # noqa: E402
from bot.storage import open_repository  # noqa: E402
from bot.web.app import MapServer, WebConfig  # noqa: E402
from bot.web.tokens import SessionUser, Tokens  # noqa: E402
from engine.actions import KeepTickets  # noqa: E402
from engine.rules import legal_actions  # noqa: E402


def rss_kb() -> int:
    with open(f"/proc/{os.getpid()}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else (values[0] if values else 0.0)


async def ai(state: Any, seat: int, level: str, rng: random.Random) -> Any:
    return random_action(state, seat, rng)


class Served:
    """The map server on a loopback port over a fresh SQLite file."""

    def __init__(self, db: str, **config: Any) -> None:
        self.db = db
        self.config = config

    async def __aenter__(self) -> Served:
        self.repo = open_repository(f"sqlite:///{self.db}", clock=ManualClock().now)
        await self.repo.connect()
        self.manager = GameManager(self.repo, ai=ai, retry_delays=(0.01,))
        await self.manager.start(dispatcher=False)
        self.tokens = Tokens(SECRET)
        self.server = MapServer(self.manager, self.tokens, WebConfig(**self.config), membership=everyone)
        self.runner = self.server.runner()
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = self.runner.addresses[0][1]
        self.http = aiohttp.ClientSession(f"http://127.0.0.1:{self.port}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.close()
        await self.runner.cleanup()
        await self.manager.close()
        await self.repo.close()

    def session(self, user: int) -> str:
        return self.tokens.session(SessionUser(user, str(user), "en"))

    async def game(self) -> str:
        m = self.manager
        info = await m.create_game(guild_id=1, channel_id=10, host_id=101, host_name="ann", board="usa")
        await m.join(info.game_id, 102, "bob")
        await m.start_game(info.game_id, 101, seed=4242)
        for user in (101, 102):
            seat = await m.seat_of(info.game_id, user)
            state = await m.state_of(info.game_id)
            assert seat is not None and state is not None
            keep = next(a for a in legal_actions(state, seat) if isinstance(a, KeepTickets))
            await m.act(info.game_id, user, keep)
        return info.game_id

    async def page(self, gid: str, user: int) -> aiohttp.ClientWebSocketResponse:
        ws = await self.http.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": self.session(user)}))
        assert json.loads(await ws.receive_str())["type"] == "view"
        return ws


async def push_with_slow_readers(slow: int, moves: int) -> tuple[list[float], float]:
    with tempfile.TemporaryDirectory() as tmp:
        async with Served(f"{tmp}/g.db", send_timeout=60.0, live_per_user=1000, live_per_address=1000) as s:
            gid = await s.game()
            healthy = [await s.page(gid, u) for u in (101, 102, 103)]
            await asyncio.sleep(0.2)
            before = rss_kb()
            socks = [await silent_page(s.port, gid, s.session(300 + i)) for i in range(slow)]
            while s.server.hub.pages(gid) < 3 + slow:
                await asyncio.sleep(0.02)
            rng = random.Random(1)
            delays: list[float] = []
            for _ in range(moves):
                info = await s.manager.game_info(gid)
                state = await s.manager.state_of(gid)
                if state is None or info.status.value != "active":
                    break
                seat = info.to_act[0]
                user = info.seats[seat].user_id
                assert user is not None
                started = time.perf_counter()
                await s.manager.act(gid, user, random_action(state, seat, rng))
                version = (await s.manager.game_info(gid)).action_count
                for ws in healthy:
                    while True:
                        frame = json.loads(await asyncio.wait_for(ws.receive_str(), 30))
                        if frame["type"] == "view" and frame["view"]["version"] >= version:
                            break
                    delays.append(time.perf_counter() - started)
            per_slow = (rss_kb() - before) / slow if slow else 0.0
            for ws in healthy:
                await ws.close()
            for sock in socks:
                sock.close()
            return delays, per_slow


async def flood(count: int, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with Served(f"{tmp}/g.db", idle_timeout=2.0, max_connections=200) as s:
            gid = await s.game()
            loop = asyncio.get_running_loop()
            stop = time.monotonic() + seconds
            held_most = 0
            opened = 0
            answers: Counter[str] = Counter()

            async def one() -> None:
                nonlocal opened
                while time.monotonic() < stop:
                    sock = socket.socket()
                    sock.setblocking(False)
                    try:
                        sock.bind(("127.0.0.2", 0))
                        await loop.sock_connect(sock, ("127.0.0.1", s.port))
                        opened += 1
                        left = stop - time.monotonic()
                        data = await asyncio.wait_for(loop.sock_recv(sock, 4096), max(0.01, left))
                        answers["refused (503)" if data.startswith(b"HTTP/1.1 503") else "closed idle"] += 1
                    except TimeoutError:
                        answers["still open at the end"] += 1
                    except OSError:
                        answers["could not connect"] += 1
                        await asyncio.sleep(0.05)
                    finally:
                        sock.close()

            async def watch() -> None:
                nonlocal held_most
                while time.monotonic() < stop:
                    held_most = max(held_most, s.server.connections.held)
                    await asyncio.sleep(0.01)

            normal: list[float] = []
            statuses: Counter[int] = Counter()

            async def page() -> None:
                auth = {"Authorization": f"Bearer {s.session(103)}"}
                async with aiohttp.ClientSession(f"http://127.0.0.1:{s.port}") as http:
                    while time.monotonic() < stop:
                        started = time.perf_counter()
                        for path, headers in (("/api/config", {}), (f"/api/games/{gid}/view", auth)):
                            try:
                                async with http.get(path, headers=headers) as resp:
                                    await resp.read()
                                    statuses[resp.status] += 1
                            except aiohttp.ClientError:
                                statuses[0] += 1
                        normal.append(time.perf_counter() - started)
                        await asyncio.sleep(0.3)

            await asyncio.gather(*(one() for _ in range(count)), watch(), page())
            print(
                f"flood of silent sockets from 127.0.0.2 for {seconds:g} s ({count} at once on the flooder's side, "
                f"{opened} opened): the server held at most {held_most} (cap 200, per address 64); "
                + ", ".join(f"{n} {k}" for k, n in sorted(answers.items()))
            )
            print(
                f"  meanwhile a normal page from 127.0.0.1 (config + view, every 0.3 s): {len(normal)} rounds, "
                f"statuses {dict(statuses)}, p50 {pct(normal, 50) * 1000:.0f} ms, p95 {pct(normal, 95) * 1000:.0f} ms"
            )
            print(f"  the server's log summary: {dict(s.server.tally.total)}")


async def main(args: argparse.Namespace) -> None:
    for slow in (0, 3, 30):
        delays, per_slow = await push_with_slow_readers(slow, args.moves)
        line = (
            f"push to 3 healthy pages with {slow:>2} slow readers, {len(delays) // 3} moves: "
            f"p50 {pct(delays, 50) * 1000:.0f} ms, p95 {pct(delays, 95) * 1000:.0f} ms, "
            f"max {max(delays) * 1000:.0f} ms"
        )
        if slow:
            line += f"; server memory {per_slow:.0f} KiB per slow reader"
        print(line)
    await flood(args.flood, args.flood_seconds)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--flood", type=int, default=400)
    parser.add_argument("--flood-seconds", type=float, default=8.0)
    asyncio.run(main(parser.parse_args()))

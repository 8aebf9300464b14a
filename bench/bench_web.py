"""Benchmarks of the live map's server (bot/web): a real aiohttp server in a child process (its memory measured
apart from the clients'), an SQLite file, a fake Discord OAuth2 server, and aiohttp clients in this process.

1. Page ready: sign in with an OAuth2 code (`POST api/session`: our server asks the fake Discord), find the game
   of the channel (`api/context`), then the reader's view with their hand (`api/games/.../view`) and the board's
   drawing (its own URL), timed from the first request to the parsed view and drawing; the game moves between
   samples, so every view draws a board its server has not drawn yet (p50/p95). The view's and the drawing's
   sizes, as sent (gzip) and unpacked.
2. A move and its push: a player's `act` posted, until the OTHER player's page (a WebSocket) holds the frame of
   the new version (p50/p95); the move frames' sizes (median/p95), how many moves changed the drawing's URL,
   and what one page takes over those moves (`--moves`: a whole game when large enough): its first view, every
   frame and each drawing it had to fetch (as sent, gzip).
3. 500 pages open on one server (50 games, 10 pages each: both players and 8 watchers, English and French),
   moves at 20 a second spread over the games: from each `act` posted to each page's frame (p50/p95/max), and the
   server's memory per open page (its resident memory with the pages open minus before, divided by 500).

    python bench/bench_web.py [--pages 500] [--games 50] [--rate 20] [--seconds 15] [--moves N] [--deflate]

`--deflate`: the server offers permessage-deflate (``WebConfig.ws_deflate``, off in production) and the pages
ask for it, as browsers do: fewer bytes on the wire, more memory and CPU per page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import aiohttp  # noqa: E402

SECRET = "bench-secret-" + "b" * 40
VERSION = re.compile(r'"version":(\d+)')


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# ------------------------------------------------------------------ the server (child process)


def serve(port: int, db: str, games: int, ready: Any, deflate: bool) -> None:
    asyncio.run(_serve(port, db, games, ready, deflate))


async def _serve(port: int, db: str, games: int, ready: Any, deflate: bool) -> None:
    from aiohttp import web
    from helpers.web_site import FakeDiscord, random_ai

    from bot.manager import GameManager
    from bot.storage import open_repository
    from bot.web.app import MapServer, WebConfig
    from bot.web.tokens import Tokens

    async with FakeDiscord() as discord, open_repository(f"sqlite:///{db}") as repo:
        manager = GameManager(repo, ai=random_ai)
        await manager.start(dispatcher=False)
        ids = []
        for g in range(games):
            info = await manager.create_game(
                guild_id=1, channel_id=1000 + g, host_id=101, host_name="ann", board="europe"
            )
            await manager.join(info.game_id, 102, "bob")
            await manager.start_game(info.game_id, 101, seed=g + 1)
            ids.append(info.game_id)
        config = WebConfig(
            client_id="1",
            client_secret="client-secret-value-123",
            discord_api=discord.api_url,
            act_rate=1000.0,
            act_burst=1000,
            ws_rate=100.0,
            ws_burst=100,
            signin_rate=1000.0,
            signin_burst=1000,
            # (every page from one address, 50 per player: the per-user and per-address caps lifted)
            view_rate=1000.0,
            view_burst=1000,
            stranger_rate=1000.0,
            stranger_burst=1000,
            live_per_user=10_000,
            live_per_address=10_000,
            connections_per_address=10_000,
            max_connections=10_000,
            ws_deflate=deflate,
        )

        async def everyone(guild_id: int, user_id: int) -> bool:  # the watchers are members of the server
            return True

        server = MapServer(manager, Tokens(SECRET), config, membership=everyone)
        runner = server.runner()
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.put(ids)
        await asyncio.Event().wait()


# ------------------------------------------------------------------ the clients


class Bench:
    def __init__(self, base: str, *, deflate: bool = False) -> None:
        from bot.web.tokens import SessionUser, Tokens

        self.base = base
        self.compress = 15 if deflate else 0  # permessage-deflate, as browsers ask for it
        self.first: dict[tuple[str, int], dict[str, Any]] = {}  # each page's first view
        self.tokens = Tokens(SECRET)
        self.user = SessionUser
        self.http = aiohttp.ClientSession(base, connector=aiohttp.TCPConnector(limit=0))

    def session(self, user: int, locale: str) -> str:
        return self.tokens.session(self.user(user, str(user), locale))

    def auth(self, user: int, locale: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.session(user, locale)}"}

    async def view(self, gid: str, user: int, locale: str = "en") -> dict[str, Any]:
        async with self.http.get(f"/api/games/{gid}/view", headers=self.auth(user, locale)) as resp:
            return await resp.json()

    async def act(self, gid: str, rng: random.Random) -> int | None:
        """One listed move of whoever may act (tickets kept whole); the version it leads to, or None."""
        for user in (101, 102):
            view = await self.view(gid, user)
            if view["actions"]:
                break
        else:
            return None
        chosen = rng.choice(view["actions"])
        body: dict[str, Any] = {"code": chosen["code"], "version": view["version"]}
        if chosen["kind"] == "keep_tickets":
            body["tickets"] = [t["id"] for t in chosen["offered"]]
        async with self.http.post(f"/api/games/{gid}/act", json=body, headers=self.auth(user)) as resp:
            if resp.status != 200:
                return None
            return int((await resp.json())["version"])

    async def page(self, gid: str, user: int, locale: str) -> aiohttp.ClientWebSocketResponse:
        ws = await self.http.ws_connect(f"/api/games/{gid}/live", max_msg_size=0, compress=self.compress)
        await ws.send_str(json.dumps({"type": "hello", "session": self.session(user, locale)}))
        first = json.loads((await ws.receive()).data)
        assert first["type"] == "view", first
        self.first[(gid, user)] = first["view"]  # (later frames carry what changed: merged into it)
        return ws


async def page_ready(b: Bench, gid: str, samples: int) -> list[float]:
    rng = random.Random(1)
    times = []
    sizes: dict[str, tuple[int, int]] = {}
    for _ in range(samples):
        await b.act(gid, rng)  # a new board to draw
        started = time.perf_counter()
        async with b.http.post("/api/session", json={"code": "code-bob"}) as resp:
            session = (await resp.json())["session"]
        headers = {"Authorization": f"Bearer {session}"}
        async with b.http.get("/api/context?channel=1000", headers=headers) as resp:
            found = (await resp.json())["game_id"]
        async with b.http.get(f"/api/games/{found}/view", headers=headers) as resp:
            sent = int(resp.headers.get("Content-Length", 0))
            body = await resp.read()
            view = json.loads(body)
            sizes["view"] = (sent, len(body))
        async with b.http.get("/" + view["drawing"], headers=headers) as resp:
            svg = await resp.read()
            sizes[f"drawing ({resp.headers.get('Content-Encoding', 'identity')})"] = (
                int(resp.headers.get("Content-Length", 0)),
                len(svg),
            )
        times.append(time.perf_counter() - started)
        assert svg.startswith(b"<svg") and view["me"]["hand"] is not None
    print(
        ", ".join(
            f"{k}: {sent / 1024:.1f} KB sent, {full / 1024:.1f} KB unpacked"
            for k, (sent, full) in sizes.items()
        )
    )
    return times


async def move_pushed(b: Bench, gid: str, samples: int) -> list[float]:
    rng = random.Random(2)
    pages = {101: await b.page(gid, 101, "en"), 102: await b.page(gid, 102, "fr")}
    times = []
    sizes: list[int] = []  # every move frame of both pages (bytes)
    drawings: set[str] = set()
    # what each page took over the game: its first view, every frame, and each drawing it fetched (gzip, as sent)
    fetched: dict[int, set[str]] = {101: set(), 102: set()}
    took = {u: len(json.dumps(b.first[(gid, u)])) for u in (101, 102)}

    async def seen(user: int, data: str, frame: dict[str, Any]) -> None:
        took[user] += len(data.encode())
        url = frame.get("view", {}).get("drawing") or (
            b.first[(gid, user)].get("drawing") if not fetched[user] else ""
        )
        if url and url not in fetched[user]:
            fetched[user].add(url)
            async with b.http.get("/" + url, headers=b.auth(user, "en" if user == 101 else "fr")) as resp:
                await resp.read()
                took[user] += int(resp.headers.get("Content-Length", 0))

    for _ in range(samples):
        views = {u: await b.view(gid, u) for u in (101, 102)}
        mover = next((u for u in (101, 102) if views[u]["actions"]), None)
        if mover is None:
            break
        other = 102 if mover == 101 else 101
        chosen = rng.choice(views[mover]["actions"])
        body: dict[str, Any] = {"code": chosen["code"], "version": views[mover]["version"]}
        if chosen["kind"] == "keep_tickets":
            body["tickets"] = [t["id"] for t in chosen["offered"]]
        started = time.perf_counter()
        async with b.http.post(f"/api/games/{gid}/act", json=body, headers=b.auth(mover)) as resp:
            version = int((await resp.json())["version"])
        while True:
            data = (await asyncio.wait_for(pages[other].receive(), 10)).data
            frame = json.loads(data)
            sizes.append(len(data.encode()))
            await seen(other, data, frame)
            if frame.get("type") == "view" and frame["view"]["version"] >= version:
                break
        times.append(time.perf_counter() - started)
        while True:  # the mover's own page gets the frame too: read it before the next move
            data = (await asyncio.wait_for(pages[mover].receive(), 10)).data
            frame = json.loads(data)
            sizes.append(len(data.encode()))
            await seen(mover, data, frame)
            if frame.get("type") == "view" and frame["view"]["version"] >= version:
                break
        drawings.add(frame["view"].get("drawing", ""))
    for ws in pages.values():
        await ws.close()
    print(
        f"move frames (both pages), {len(sizes)}: median {statistics.median(sizes) / 1024:.1f} KB, "
        f"p95 {sorted(sizes)[int(0.95 * len(sizes))] / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB; "
        f"the drawing changed on {len(drawings - {''})} of {len(times)} moves"
    )
    print(
        f"one page over these {len(times)} moves (first view, frames, drawings fetched gzip): "
        + ", ".join(f"{took[u] / 1024:.0f} KB with {len(fetched[u])} drawing fetches" for u in (101, 102))
    )
    return times


async def many_pages(b: Bench, ids: list[str], pages: int, rate: float, seconds: float, pid: int) -> None:
    per_game = max(1, pages // len(ids))
    before = rss_kb(pid)
    opened: dict[str, list[tuple[int, aiohttp.ClientWebSocketResponse]]] = {gid: [] for gid in ids}
    for n in range(pages):
        gid = ids[n % len(ids)]
        k = len(opened[gid])
        user = (101, 102)[k] if k < 2 else 200 + k
        opened[gid].append((user, await b.page(gid, user, "fr" if k % 2 else "en")))
    await asyncio.sleep(1.0)
    after = rss_kb(pid)
    posted: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    latest: dict[tuple[str, int], dict[str, Any]] = {}  # a player's page: the last view it was pushed

    async def reader(gid: str, user: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:  # (a watcher's frame is not parsed: its version is read from its head)
            found = VERSION.search(msg.data[:300])
            is_view = found is not None and msg.data.startswith('{"type":"view"')
            t = posted.get((gid, int(found.group(1)))) if found and is_view else None
            if t is not None:
                latencies.append(time.perf_counter() - t)
            if user in (101, 102) and is_view:  # (a frame carries what changed: merged into the view)
                seen = latest.get((gid, user)) or b.first[(gid, user)]
                latest[(gid, user)] = {**seen, **json.loads(msg.data)["view"]}

    readers = [asyncio.create_task(reader(gid, u, ws)) for gid, wss in opened.items() for u, ws in wss]
    rng = random.Random(3)
    busy: set[str] = set()
    moves = 0

    async def move(gid: str) -> None:
        nonlocal moves
        busy.add(gid)
        try:
            for user in (101, 102):  # as a player's page would: from the view it was last pushed
                view = latest.get((gid, user)) or await b.view(gid, user)
                if view["actions"]:
                    break
            else:
                return
            chosen = rng.choice(view["actions"])
            body: dict[str, Any] = {"code": chosen["code"], "version": view["version"]}
            if chosen["kind"] == "keep_tickets":
                body["tickets"] = [t["id"] for t in chosen["offered"]]
            posted[(gid, view["version"] + 1)] = time.perf_counter()
            async with b.http.post(f"/api/games/{gid}/act", json=body, headers=b.auth(user)) as resp:
                if resp.status == 200:
                    moves += 1
        finally:
            busy.discard(gid)

    cpu_before = cpu_seconds(pid)
    tasks = []
    i = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        gid = ids[i % len(ids)]
        i += 1
        if gid not in busy:
            tasks.append(asyncio.create_task(move(gid)))
        await asyncio.sleep(1.0 / rate)
    await asyncio.gather(*tasks)
    await asyncio.sleep(1.0)
    cpu = cpu_seconds(pid) - cpu_before
    for wss in opened.values():
        for _u, ws in wss:
            await ws.close()
    for t in readers:
        t.cancel()
    print(
        f"{pages} pages ({per_game} per game, {len(ids)} games), moves at {rate:g}/s for {seconds:g} s: "
        f"{moves} moves, {len(latencies)} frames pushed; push p50 {p(latencies, 0.5):.0f} ms, "
        f"p95 {p(latencies, 0.95):.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )
    print(
        f"the server's CPU: {cpu * 1000 / max(1, moves):.0f} ms per move (its pushes to {per_game} pages "
        f"included); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"server memory: {before / 1024:.0f} MiB before the pages, {after / 1024:.0f} MiB with them: "
        f"{(after - before) / pages:.0f} KiB per open page"
    )


async def main(args: argparse.Namespace) -> None:
    port = 18000 + os.getpid() % 1000
    with tempfile.TemporaryDirectory() as tmp:
        ready: Any = multiprocessing.get_context("spawn").Queue()
        child = multiprocessing.get_context("spawn").Process(
            target=serve,
            args=(port, str(Path(tmp) / "bench.db"), args.games + 2, ready, args.deflate),
            daemon=True,
        )
        child.start()
        try:
            ids = ready.get(timeout=120)
            b = Bench(f"http://127.0.0.1:{port}", deflate=args.deflate)
            try:
                ready_times = await page_ready(b, ids[0], args.samples)
                print(
                    f"page ready (sign-in, context, view with hand, board drawing), {len(ready_times)} pages: "
                    f"p50 {p(ready_times, 0.5):.0f} ms, p95 {p(ready_times, 0.95):.0f} ms"
                )
                pushed = await move_pushed(b, ids[1], args.moves or args.samples)
                print(
                    f"a move posted until the other player's page has it, {len(pushed)} moves: "
                    f"p50 {p(pushed, 0.5):.0f} ms, p95 {p(pushed, 0.95):.0f} ms"
                )
                await many_pages(b, ids[2:], args.pages, args.rate, args.seconds, child.pid or 0)
            finally:
                await b.http.close()
        finally:
            child.terminate()
            child.join(5)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--moves", type=int, default=0, help="moves of the push sample (default: --samples)")
    parser.add_argument(
        "--deflate", action="store_true", help="pages ask for compressed frames, as browsers do"
    )
    asyncio.run(main(parser.parse_args()))

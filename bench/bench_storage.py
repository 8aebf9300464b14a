"""Storage benchmark: append_action latency with a ~20 KB snapshot, a few other calls, and listing 10,000
active games.

    python bench/bench_storage.py                      # SQLite (synchronous NORMAL and FULL) and PostgreSQL
    python bench/bench_storage.py --backend sqlite --appends 2000 --games 10000
    python bench/bench_storage.py --pg-url postgresql://postgres@127.0.0.1:5432/test

PostgreSQL runs in a throw-away schema that is dropped afterwards; it is skipped (with the reason)
when the server cannot be reached. SQLite runs in a temporary directory (``--dir`` to choose the disk).
Target: append_action p99 under 5 ms on SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import OPEN_STATUSES, GameRepository, Seat, open_repository  # noqa: E402

DEFAULT_PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def make_snapshot(target_bytes: int = 20_000, seed: int = 7) -> dict[str, object]:
    """Something shaped like an engine state: decks, hands, claimed routes, tickets, a log tail."""
    rng = random.Random(seed)
    colours = ["red", "blue", "green", "yellow", "black", "white", "orange", "pink", "loco"]
    snapshot: dict[str, object] = {
        "board": "europe",
        "turn": 0,
        "deck": [rng.choice(colours) for _ in range(110)],
        "face_up": [rng.choice(colours) for _ in range(5)],
        "players": [
            {
                "seat": seat,
                "hand": {c: rng.randint(0, 6) for c in colours},
                "tickets": [
                    {
                        "from": f"city{rng.randint(0, 46)}",
                        "to": f"city{rng.randint(0, 46)}",
                        "points": rng.randint(4, 21),
                    }
                    for _ in range(5)
                ],
                "trains": 45,
                "stations": 3,
                "score": 0,
            }
            for seat in range(5)
        ],
        "routes": {},
        "log": [],
    }
    routes: dict[str, object] = {}
    n = 0
    while len(json.dumps(snapshot, separators=(",", ":"))) < target_bytes:
        routes[f"r{n:03d}-city{rng.randint(0, 46)}-city{rng.randint(0, 46)}"] = {
            "owner": rng.choice([None, 0, 1, 2, 3, 4]),
            "colour": rng.choice(colours),
            "length": rng.randint(1, 8),
            "tunnel": rng.random() < 0.2,
        }
        snapshot["routes"] = routes
        n += 1
    return snapshot


def rss_kib() -> int:
    """Resident set size of this process (Linux), 0 where unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:7.3f} ms"


async def bench_appends(repo: GameRepository, appends: int, snapshot: dict[str, object]) -> dict[str, float]:
    game = await repo.create_game(
        guild_id=1,
        channel_id=2,
        host_id=3,
        board="europe",
        seats=[Seat(f"p{i}", user_id=100 + i) for i in range(5)],
    )
    version = 0
    samples: list[float] = []
    warmup = min(20, appends // 10)
    for i in range(appends + warmup):
        snapshot["turn"] = i
        action = {
            "type": "claim",
            "route": f"r{i % 300:03d}",
            "colour": "red",
            "cards": ["red"] * 4,
            "seat": i % 5,
        }
        start = time.perf_counter()
        record = await repo.append_action(game.id, version, i % 5, action, snapshot)
        elapsed = time.perf_counter() - start
        version = record.version
        if i >= warmup:
            samples.append(elapsed)
    load_samples = []
    for _ in range(200):
        start = time.perf_counter()
        await repo.load_game(game.id)
        load_samples.append(time.perf_counter() - start)
    update_samples, list_samples, find_samples = [], [], []
    for i in range(200):
        start = time.perf_counter()
        version = await repo.update_game(game.id, version, settings={"turn_timeout_h": i})
        update_samples.append(time.perf_counter() - start)
        start = time.perf_counter()
        await repo.list_games(guild_id=1, status=OPEN_STATUSES, limit=25)
        list_samples.append(time.perf_counter() - start)
        start = time.perf_counter()
        await repo.find_open_game(channel_id=2)
        find_samples.append(time.perf_counter() - start)
    return {
        "p50": percentile(samples, 50),
        "p99": percentile(samples, 99),
        "mean": statistics.fmean(samples),
        "max": max(samples),
        "load_p50": percentile(load_samples, 50),
        "load_p99": percentile(load_samples, 99),
        "update_p50": percentile(update_samples, 50),
        "list_p50": percentile(list_samples, 50),
        "find_p50": percentile(find_samples, 50),
    }


async def populate(repo: GameRepository, games: int) -> None:
    seats = [Seat("a", user_id=1), Seat("b", user_id=2), Seat("bot", ai_level="easy")]
    small = {"turn": 3, "note": "x" * 200}
    for n in range(games):
        await repo.create_game(
            guild_id=1 + n % 50, channel_id=10_000 + n, host_id=1, board="europe", seats=seats,
            snapshot=small, status="active" if n % 4 else "lobby",
        )  # fmt: skip


async def bench_listing(url: str, games: int, fill: Callable[[], Awaitable[None]]) -> dict[str, float]:
    start = time.perf_counter()
    await fill()
    filled = time.perf_counter() - start

    rss_before = rss_kib()
    tracemalloc.start()
    start = time.perf_counter()
    repo = open_repository(url)
    await repo.connect()
    opened = time.perf_counter() - start
    _, open_peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    try:
        start = time.perf_counter()
        count = 0
        async for _gid in repo.iter_game_ids(status=OPEN_STATUSES, batch_size=1000):
            count += 1
        listed = time.perf_counter() - start
        _, list_peak = tracemalloc.get_traced_memory()
        rss_growth = rss_kib() - rss_before
    finally:
        await repo.close()
        tracemalloc.stop()
    if count != games:
        raise SystemExit(f"listing found {count} active games, expected {games}")
    return {
        "fill": filled,
        "open": opened,
        "open_peak": open_peak,
        "list": listed,
        "list_peak": list_peak,
        "rss_growth": rss_growth,
        "count": count,
    }


def print_appends(label: str, stats: dict[str, float], appends: int) -> None:
    print(
        f"{label:28s} append_action x{appends}: p50 {fmt_ms(stats['p50'])}  p99 {fmt_ms(stats['p99'])}"
        f"  mean {fmt_ms(stats['mean'])}  max {fmt_ms(stats['max'])}"
        f" | load_game p50 {fmt_ms(stats['load_p50'])} p99 {fmt_ms(stats['load_p99'])}"
    )
    print(
        f"{'':28s} x200 p50: update_game {fmt_ms(stats['update_p50'])}  list_games(25)"
        f" {fmt_ms(stats['list_p50'])}  find_open_game {fmt_ms(stats['find_p50'])}"
    )


def print_listing(label: str, stats: dict[str, float]) -> None:
    print(
        f"{label:28s} {int(stats['count'])} active games: open {fmt_ms(stats['open'])}"
        f" (peak {stats['open_peak'] / 1024:.0f} KiB), list ids lazily {fmt_ms(stats['list'])}"
        f" (peak {stats['list_peak'] / 1024:.0f} KiB traced, RSS +{stats['rss_growth'] / 1024:.1f} MiB with tracing on);"
        f" filling took {stats['fill']:.1f} s"
    )


async def run_sqlite(args: argparse.Namespace, snapshot: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for sync in ("normal", "full"):
            url = f"sqlite:///{tmp}/bench-{sync}.db?synchronous={sync}"
            async with open_repository(url) as repo:
                stats = await bench_appends(repo, args.appends, dict(snapshot))
            print_appends(f"sqlite (synchronous={sync})", stats, args.appends)
        url = f"sqlite:///{tmp}/bench-list.db"

        async def fill() -> None:
            async with open_repository(url) as repo:
                await populate(repo, args.games)

        print_listing("sqlite", await bench_listing(url, args.games, fill))
        size = sum(p.stat().st_size for p in Path(tmp).glob("bench-list.db*"))
        print(f"{'':28s} database files: {size / 1e6:.1f} MB")


async def run_postgres(args: argparse.Namespace, snapshot: dict[str, object]) -> None:
    import asyncpg

    try:
        conn = await asyncpg.connect(args.pg_url, timeout=5)
    except (OSError, TimeoutError, asyncpg.exceptions.CannotConnectNowError) as exc:
        print(f"postgres: skipped, server unreachable at {args.pg_url}: {exc}")
        return
    await conn.close()
    schema = f"ttr_bench_{uuid.uuid4().hex[:10]}"
    url = f"{args.pg_url}?schema={schema}"
    try:
        async with open_repository(url) as repo:
            stats = await bench_appends(repo, args.appends, dict(snapshot))
        print_appends("postgres", stats, args.appends)
        async with open_repository(f"{url}&synchronous_commit=off") as repo:
            stats = await bench_appends(repo, args.appends, dict(snapshot))
        print_appends("postgres (sync commit off)", stats, args.appends)

        list_schema = schema + "_l"
        list_url = f"{args.pg_url}?schema={list_schema}"

        async def fill() -> None:
            async with open_repository(list_url) as repo:
                await populate(repo, args.games)

        try:
            print_listing("postgres", await bench_listing(list_url, args.games, fill))
        finally:
            conn = await asyncpg.connect(args.pg_url)
            await conn.execute(f'DROP SCHEMA IF EXISTS "{list_schema}" CASCADE')
            await conn.close()
    finally:
        conn = await asyncpg.connect(args.pg_url)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgres", "all"], default="all")
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pg-url", default=DEFAULT_PG_URL)
    parser.add_argument("--dir", default=None, help="directory for the SQLite files (default: system temp)")
    args = parser.parse_args()

    snapshot = make_snapshot()
    print(
        f"snapshot {len(json.dumps(snapshot, separators=(',', ':'))) / 1000:.1f} KB JSON;"
        f" python {sys.version.split()[0]}; temp dir {args.dir or tempfile.gettempdir()};"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (other work skews the tails)"
    )
    if args.backend in ("sqlite", "all"):
        await run_sqlite(args, snapshot)
    if args.backend in ("postgres", "all"):
        await run_postgres(args, snapshot)


if __name__ == "__main__":
    asyncio.run(main())

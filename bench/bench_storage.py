"""Storage benchmark: append_action latency with a ~20 KB snapshot (a move that saves the game's position), a few
other calls, listing 10,000 active games, and whole random games played through the manager (what a move costs
the database: WAL bytes per move and disk per finished game on PostgreSQL, disk per finished game on SQLite; game
load p95 and memory per cached game).

    python bench/bench_storage.py                      # SQLite (synchronous NORMAL and FULL) and PostgreSQL
    python bench/bench_storage.py --backend sqlite --appends 2000 --games 10000
    python bench/bench_storage.py --pg-url postgresql://postgres@127.0.0.1:5432/test
    python bench/bench_storage.py --only moves --moves-games 16   # the games alone
    python bench/bench_storage.py --only moves --cache-size 8     # a cache smaller than the games in play

WAL per move counts this run's own records when the database has pg_walinspect (a database of your own:
``CREATE DATABASE ttr_bench``, then ``CREATE EXTENSION pg_walinspect`` in it, and ``--pg-url .../ttr_bench``);
elsewhere it is the whole server's WAL, other sessions' writes included.

PostgreSQL runs in a throw-away schema that is dropped afterwards; it is skipped (with the reason)
when the server cannot be reached. SQLite runs in a temporary directory (``--dir`` to choose the disk).
Targets: append_action p99 under 5 ms on SQLite; per move at most 3 KB of WAL; at most 100 KB of disk per finished
game after autovacuum (its default thresholds, applied by the bench as autovacuum would: plain VACUUM of a table
whose dead rows pass 50 + 20 % of its rows, never VACUUM FULL); game load p95 under 5 ms; memory per cached game at
most 30 KB. WAL is the server's: other sessions' writes count too (the idle rate measured first is subtracted).
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.manager import GameManager, ManualClock, random_action  # noqa: E402
from bot.storage import OPEN_STATUSES, GameRepository, Seat, open_repository  # noqa: E402
from engine.simulate import SAMPLE_SETUPS  # noqa: E402
from maps import load_board  # noqa: E402

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


# --------------------------------------------------------------------------- whole games through the manager


class Vacuum:
    """Autovacuum's default rule, applied between rounds of moves (the daemon wakes once a minute; a bench is
    shorter): a plain VACUUM of each table of the schema, and each of their TOAST tables (where old positions
    go), whose dead rows pass 50 + 20 % of its rows."""

    def __init__(self, conn: Any, schema: str) -> None:
        self.conn, self.schema, self.runs = conn, schema, 0

    async def __call__(self, force: bool = False) -> None:
        rows = await self.conn.fetch(
            "SELECT s.schemaname, s.relname, s.n_dead_tup, c.reltuples FROM pg_stat_all_tables s"
            " JOIN pg_class c ON c.oid = s.relid WHERE c.oid IN ("
            "  SELECT t.oid FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = $1"
            "  AND t.relkind = 'r' UNION"
            "  SELECT t.reltoastrelid FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace"
            "  WHERE n.nspname = $1 AND t.relkind = 'r' AND t.reltoastrelid <> 0)",
            self.schema,
        )
        for row in rows:
            if force or row["n_dead_tup"] > 50 + 0.2 * max(0.0, row["reltuples"]):
                await self.conn.execute(f'VACUUM "{row["schemaname"]}"."{row["relname"]}"')
                self.runs += 1


async def play_games(
    manager: GameManager, count: int, seed: int, *, stop_midway: bool, between: Callable[[], Awaitable[None]]
) -> tuple[list[str], int]:
    """`count` games over every board (2 to 5 seats), one move in each in turn (many games in play at once, as
    in production), random legal moves; `stop_midway`: each stops at a random point. Returns (ids, moves)."""
    rng = random.Random(seed)
    games: dict[str, int | None] = {}
    ids: list[str] = []
    for n in range(count):
        board, variant, options = SAMPLE_SETUPS[(seed + n) % len(SAMPLE_SETUPS)]
        low, high = load_board(board).rules.get("players", [2, 5])
        players = rng.randint(low, min(high, 5))
        info = await manager.create_game(
            guild_id=1, channel_id=seed * 1000 + n, host_id=1, host_name="P1", board=board, variant=variant,
            options=options,
        )  # fmt: skip
        for uid in range(2, players + 1):
            await manager.join(info.game_id, uid, f"P{uid}")
        await manager.start_game(info.game_id, 1, seed=seed * 1000 + n)
        games[info.game_id] = rng.randint(20, 200) if stop_midway else None
        ids.append(info.game_id)
    moves = 0
    round_no = 0
    while games:
        for gid, left in list(games.items()):
            info = await manager.status(gid)
            if info.status != "active" or not info.to_act or left == 0:
                del games[gid]
                continue
            seat = info.to_act[0]
            game = await manager._store.get(gid)  # (a bench may look behind the API)
            assert game.state is not None
            action = random_action(game.state, seat, rng)
            uid = info.seats[seat].user_id
            assert uid is not None
            await manager.act(gid, uid, action, expected_turn=info.tokens[seat])
            moves += 1
            if left is not None:
                games[gid] = left - 1
        round_no += 1
        if round_no % 10 == 0:
            await between()
    return ids, moves


async def load_figures(manager: GameManager, ids: list[str], rounds: int = 5) -> dict[str, float]:
    """Game load (storage to a cached game: row, timers, log, replay) p50/p95, then memory per cached game."""
    store = manager._store
    samples: list[float] = []
    cpu: list[float] = []
    for _ in range(rounds):
        for gid in ids:
            store.evict(gid)
            t0, c0 = time.perf_counter(), time.process_time()
            await store.get(gid)
            samples.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    for gid in ids:
        store.evict(gid)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    held = [await store.get(gid) for gid in ids]
    for _ in range(
        3
    ):  # (the done callbacks of the last load's gathered reads hold its log until the loop runs)
        await asyncio.sleep(0)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert len(held) == len(ids)
    del held
    cold = await cold_memory(store, ids)
    return {
        "p50": percentile(samples, 50),
        "p95": percentile(samples, 95),
        "cpu50": percentile(cpu, 50),
        "cpu95": percentile(cpu, 95),
        "memory": grown / len(ids),
        "memory_cold": cold / len(ids),
        "loads": len(samples),
    }


async def cold_memory(store: Any, ids: list[str]) -> int:
    """The bytes the same games take loaded into a process whose shared decoded actions and history entries
    (engine.actions) are emptied first: each game then pays for its own entries (the tables are shared, bounded at
    20,000 entries each; a process that has loaded games already holds most of them)."""
    from engine import actions  # (a bench may look behind the API)

    for gid in ids:
        store.evict(gid)
    decoded = getattr(actions, "_DECODED", {})
    entries = getattr(actions, "_ENTRIES", {})  # (the code before issue 32 had no shared entries)
    decoded.clear()
    entries.clear()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = [await store.get(gid) for gid in ids]
    for _ in range(3):
        await asyncio.sleep(0)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(held) == len(ids)
    return grown


def print_games(label: str, figures: dict[str, float]) -> None:
    lines = [f"{label:28s} {figures['finished']:.0f} finished games, {figures['moves']:.0f} moves"]
    if "wal" in figures:
        if figures["wal_own"] >= 0:
            lines.append(
                f"{'':28s} WAL per move: {figures['wal_own'] / 1000:.2f} KB (this schema's records, pg_walinspect;"
                f" the whole server wrote {figures['wal_raw'] / 1000:.2f} KB a move meanwhile)"
            )
        else:
            lines.append(
                f"{'':28s} WAL per move: {figures['wal'] / 1000:.2f} KB (the whole server's, its idle rate"
                f" subtracted: other sessions count; install pg_walinspect for this schema's alone)"
            )
    lines.append(
        f"{'':28s} disk per finished game: {figures['disk'] / 1000:.1f} KB after autovacuum's rule"
        f" ({figures['disk_before'] / 1000:.1f} KB before its last pass, {figures.get('vacuums', 0):.0f} plain VACUUMs;"
        f" {figures['per_game_moves']:.0f} moves a game; the tables' first pages, made by {WARM_UP_GAMES} games"
        " before, not counted)"
    )
    lines.append(
        f"{'':28s} game load x{figures['loads']:.0f} (mid-game and finished): p50 {fmt_ms(figures['p50'])}"
        f"  p95 {fmt_ms(figures['p95'])}; this process's CPU p50 {fmt_ms(figures['cpu50'])}"
        f"  p95 {fmt_ms(figures['cpu95'])}"
    )
    if figures["hit_rate"] >= 0:  # (the code before V006 did not count)
        lines.append(
            f"{'':28s} cache while playing ({figures['in_play']:.0f} games in play at once, one move each in turn,"
            f" {figures['cache_size']:.0f} cached at most): {figures['hit_rate']:.1%} of reads hit,"
            f" {figures['loads_per_move']:.2f} loads a move"
        )
    lines.append(
        f"{'':28s} memory per cached game: {figures['memory'] / 1000:.1f} KB (tracemalloc; its decoded actions"
        f" shared with the games loaded before); {figures['memory_cold'] / 1000:.1f} KB loaded into emptied shared"
        " tables (each game paying for its own)"
    )
    print("\n".join(lines))


def cache_figures(manager: GameManager, args: argparse.Namespace, moves: int) -> dict[str, float]:
    store = manager._store
    hits, loads = (
        getattr(store, "hits", -1),
        getattr(store, "loads", 0),
    )  # (the code before V006 had no counters)
    return {
        "in_play": args.moves_games,
        "cache_size": args.cache_size,
        "hit_rate": hits / max(1, hits + loads),
        "loads_per_move": loads / max(1, moves),
    }


WARM_UP_GAMES = 4  # played first: every table and index has its first pages, which no game is charged for


async def bench_games_sqlite(args: argparse.Namespace, tmp: str) -> dict[str, float]:
    path = Path(tmp) / "bench-games.db"
    url = f"sqlite:///{path}"

    def size() -> int:
        return sum(p.stat().st_size for p in Path(tmp).glob("bench-games.db*"))

    async def nothing() -> None:
        return None

    async with open_repository(url) as repo:  # (closing checkpoints the WAL into the file)
        await play_games(
            GameManager(repo, clock=ManualClock()), WARM_UP_GAMES, 9, stop_midway=False, between=nothing
        )
    warm = size()
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), cache_size=10_000)
        finished, moves = await play_games(manager, args.moves_games, 1, stop_midway=False, between=nothing)
        await manager.close()
    disk = size()
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), cache_size=args.cache_size)
        mid, mid_moves = await play_games(manager, args.moves_games, 2, stop_midway=True, between=nothing)
        cache = cache_figures(manager, args, mid_moves)
        figures = await load_figures(manager, mid + finished)
        await manager.close()
    figures.update(cache)
    games = len(finished)
    figures.update(
        finished=games, moves=moves, disk=(disk - warm) / games, disk_before=(disk - warm) / games,
        per_game_moves=moves / games,
    )  # fmt: skip
    return figures


async def bench_games_postgres(args: argparse.Namespace, schema: str) -> dict[str, float]:
    import asyncpg

    url = f"{args.pg_url}?schema={schema}"
    conn = await asyncpg.connect(args.pg_url)
    size_sql = (
        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'"
    )

    async def lsn() -> tuple[Any, float]:
        return await conn.fetchval("SELECT pg_current_wal_lsn()"), time.perf_counter()

    async def wal_between(a: Any, b: Any) -> float:
        return float(await conn.fetchval("SELECT pg_wal_lsn_diff($1, $2)", b, a))

    async def own_wal(a: Any, b: Any) -> float | None:
        """The WAL of this schema's relations alone (their records, and every record of the transactions that
        wrote them: commits), where pg_walinspect is installed in the database; None elsewhere."""
        if not await conn.fetchval("SELECT count(*) FROM pg_extension WHERE extname = 'pg_walinspect'"):
            return None
        nodes = await conn.fetch(
            "SELECT pg_relation_filenode(c.oid) AS node FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = $1 AND pg_relation_filenode(c.oid) IS NOT NULL UNION"
            " SELECT pg_relation_filenode(t.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " JOIN pg_class t ON t.oid IN (c.reltoastrelid, (SELECT indexrelid FROM pg_index WHERE indrelid ="
            " c.reltoastrelid LIMIT 1)) WHERE n.nspname = $1",
            schema,
        )
        pattern = "rel [0-9]+/[0-9]+/(" + "|".join(str(r["node"]) for r in nodes) + ") "
        return float(
            await conn.fetchval(
                "WITH r AS (SELECT * FROM pg_get_wal_records_info($1, $2)),"
                " mine AS (SELECT DISTINCT xid FROM r WHERE block_ref ~ $3 AND xid <> '0')"
                " SELECT COALESCE(SUM(record_length), 0) FROM r"
                " WHERE block_ref ~ $3 OR xid IN (SELECT xid FROM mine)",
                a,
                b,
                pattern,
            )
        )

    try:
        async with open_repository(url) as repo:
            manager = GameManager(repo, clock=ManualClock(), cache_size=10_000)
            vacuum = Vacuum(conn, schema)
            await play_games(manager, WARM_UP_GAMES, 9, stop_midway=False, between=vacuum)
            await asyncio.sleep(1.5)  # (the statistics of the last moves reach the server)
            await vacuum()
            warm = await conn.fetchval(size_sql, schema)
            (idle_from, t0), _ = await lsn(), await asyncio.sleep(3)
            idle_to, t1 = await lsn()
            idle_rate = await wal_between(idle_from, idle_to) / (t1 - t0)
            start, t0 = await lsn()
            finished, moves = await play_games(
                manager, args.moves_games, 1, stop_midway=False, between=vacuum
            )
            end, t1 = await lsn()
            wal = await wal_between(start, end)
            mine = await own_wal(start, end)
            disk_before = await conn.fetchval(size_sql, schema)
            await asyncio.sleep(1.5)
            await vacuum()
            disk = await conn.fetchval(size_sql, schema)
            tables = await conn.fetch(
                "SELECT c.relname, pg_total_relation_size(c.oid) AS total FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'"
                " ORDER BY 2 DESC LIMIT 4",
                schema,
            )
            largest = ", ".join(f"{r['relname']} {r['total'] / 1000:.0f} KB" for r in tables)
            await manager.close()
            manager = GameManager(repo, clock=ManualClock(), cache_size=args.cache_size)
            mid, mid_moves = await play_games(manager, args.moves_games, 2, stop_midway=True, between=vacuum)
            cache = cache_figures(manager, args, mid_moves)
            figures = await load_figures(manager, mid + finished)
            figures.update(cache)
            await manager.close()
    finally:
        await conn.close()
    games = len(finished)
    figures.update(
        finished=games, moves=moves, wal_raw=wal / moves, wal=max(0.0, wal - idle_rate * (t1 - t0)) / moves,
        wal_own=-1.0 if mine is None else mine / moves,
        disk=(disk - warm) / games, disk_before=(disk_before - warm) / games, per_game_moves=moves / games,
        vacuums=vacuum.runs,
    )  # fmt: skip
    print(f"{'':28s} the schema's largest tables after all games: {largest}")
    return figures


async def run_sqlite(args: argparse.Namespace, snapshot: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.only in ("moves", "all"):
            print_games("sqlite games", await bench_games_sqlite(args, tmp))
        if args.only == "moves":
            return
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
        if args.only in ("moves", "all"):
            print_games("postgres games", await bench_games_postgres(args, schema + "_g"))
        if args.only == "moves":
            return
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
        for mine in (schema, schema + "_g"):  # (this run's schemas only)
            await conn.execute(f'DROP SCHEMA IF EXISTS "{mine}" CASCADE')
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
    parser.add_argument(
        "--only", choices=["moves", "calls", "all"], default="all", help="moves: whole games alone"
    )
    parser.add_argument(
        "--moves-games", type=int, default=16, help="games played to the end (and as many midway)"
    )
    parser.add_argument(
        "--cache-size", type=int, default=256, help="games the manager caches (its default: 256)"
    )
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

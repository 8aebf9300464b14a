"""Several bot processes over one PostgreSQL database, under load (issue 17).

Setup: GAMES active games stored (ACTIVE of them created through the manager and started, the rest copies of
their rows under new ids, so the tables and indexes have production's size). Then moves arrive at random
(Poisson) at RATE per second for SECONDS, each on one of the ACTIVE games: the human to act plays a random legal
move (``GameManager.act``: engine, version check, one transaction) and the board picture of the new state is
rendered in the render pool, as every production turn message is. Timed from the move's arrival to the picture
ready. Figures:

1. one process at RATE: p50/p95/max, errors (refusals are counted apart: a lost race), memory per process
   (its own peak RSS and its render workers');
2. two processes at RATE/2 each, on the same games;
3. the highest rate one process holds with p95 < 500 ms (steps of STEP seconds);
and where the time goes: the move (engine + database), the picture, the ``SELECT version`` of a cached read, and
the CPU per move of the process and per picture of its render workers.

Figures on the 2-core machine of the sessions, nothing else running (defaults, 2026-11-26): 1 process at 20/s
p50 31 ms, p95 59 ms, max 147 ms, 0 errors, peak RSS 83 MiB + 117 MiB per render worker; 2 processes at 10/s each
p95 59 / 74 ms, 0 errors; one process holds 60/s (p95 188-338 ms over two runs; 80/s: 5.8 s, the two cores are
full). CPU: the process 5 ms per move, the render workers 22 ms per picture (the board's game layer painted from
cached sprites, :mod:`render.sprites`). With other work sharing the CPUs (load average 2.4-3.3): 20/s p95 182 ms,
35/s held. Before the sprites (cairosvg drawing the whole game layer, ~65 ms a picture) 1 process at 20/s had p95
1.2-1.9 s, one process held 8-10/s. The picture is ~80% of the bot's CPU per move
(PostgreSQL's apart); half of it is the PNG's zlib. Drawing only the newest picture of a game would save nothing
here: no move arrives while a picture of its game is still to come (1,000 games, 20/s). Further, on paper: render workers on other machines (a
picture needs only a board id and a public view), and the read-only queries (stats, leaderboards, status) on
a read replica; moves and version checks stay on the primary.

    python bench/bench_cluster.py [--games 10000] [--active 1000] [--rate 20] [--seconds 60] [--step 20]
        [--url postgresql://postgres@127.0.0.1:5432/test] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.manager import GameManager, Refused, random_action  # noqa: E402
from bot.play.pictures import PoolPictures  # noqa: E402
from bot.storage import open_repository  # noqa: E402

HUMANS = [(101, "Ann"), (102, "Bob")]


async def no_ai(state: Any, seat: int, level: str, rng: random.Random) -> Any:
    return random_action(state, seat, rng)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ----------------------------------------------------------------------------- setup


async def setup(base: str, games: int, active: int) -> tuple[str, list[str]]:
    schema = f"ttr_bench_{uuid.uuid4().hex[:8]}"
    url = f"{base}?schema={schema}"
    ids: list[str] = []
    started = time.perf_counter()
    async with open_repository(url) as repo:
        manager = GameManager(repo, ai=no_ai)
        for i in range(active):
            info = await manager.create_game(
                guild_id=1,
                channel_id=10_000 + i,
                host_id=HUMANS[0][0],
                host_name=HUMANS[0][1],
                board="europe",
            )
            await manager.join(info.game_id, *HUMANS[1])
            await manager.start_game(info.game_id, HUMANS[0][0], seed=i)
            ids.append(info.game_id)
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f'SET search_path TO "{schema}"')
        copies = games - active
        await conn.execute(
            """INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, board, variant, options, status,
                   settings, seats, version, action_count, created_at, updated_at)
               SELECT 'c' || n || '-' || g.id, guild_id, 1000000 + n, NULL, host_id, board, variant, options,
                   status, settings, seats, version, action_count, created_at, updated_at
               FROM generate_series(1, $1) AS n
               JOIN LATERAL (SELECT * FROM games WHERE id = ANY($2) ORDER BY id
                             OFFSET (n % $3) LIMIT 1) g ON true""",
            copies,
            ids,
            len(ids),
        )
        # their positions (V006 keeps them apart; the games were just started: no log to copy)
        await conn.execute(
            """INSERT INTO game_snapshots (game_id, seq, snapshot)
               SELECT 'c' || n || '-' || s.game_id, s.seq, s.snapshot
               FROM generate_series(1, $1) AS n
               JOIN LATERAL (SELECT * FROM game_snapshots WHERE game_id = ANY($2) ORDER BY game_id
                             OFFSET (n % $3) LIMIT 1) s ON true""",
            copies,
            ids,
            len(ids),
        )
        count = await conn.fetchval("SELECT COUNT(*) FROM games WHERE status = 'active'")
    finally:
        await conn.close()
    print(f"setup: {count} active games stored ({active} playable) in {time.perf_counter() - started:.0f} s")
    return url, ids


async def drop(base: str, url: str) -> None:
    schema = url.rsplit("schema=", 1)[1]
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


# ----------------------------------------------------------------------------- one process's load


async def load(
    url: str, ids: list[str], rate: float, seconds: float, seed: int, workers: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    pictures = PoolPictures(workers, warm=("europe",))  # every worker draws the board once before the clock
    latencies: list[float] = []
    move_ms: list[float] = []
    render_ms: list[float] = []
    refused: dict[str, int] = {}
    errors: list[str] = []
    async with open_repository(url) as repo:
        manager = GameManager(repo, ai=no_ai, cache_size=2048)
        await manager.start(dispatcher=False)
        version_ms = []
        for gid in ids[:200]:
            t = time.perf_counter()
            await repo.game_version(gid)
            version_ms.append((time.perf_counter() - t) * 1000)

        in_flight: dict[str, int] = {}  # game -> moves of it between arrival and picture
        overlapped = 0  # moves that arrived while a picture of the same game was still to come

        async def one(gid: str, arrived: float) -> None:
            nonlocal overlapped
            overlapped += in_flight.get(gid, 0) > 0
            in_flight[gid] = in_flight.get(gid, 0) + 1
            try:
                info = await manager.status(gid)
                humans = [s for s in info.to_act if info.seats[s].ai_level is None]
                if info.status != "active" or not humans:
                    refused["over"] = refused.get("over", 0) + 1
                    return
                seat = rng.choice(humans)
                uid = info.seats[seat].user_id
                assert uid is not None
                legal = await manager.legal_actions(gid, uid)
                if not legal:
                    refused["raced"] = refused.get("raced", 0) + 1
                    return
                t0 = time.perf_counter()
                outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
                t1 = time.perf_counter()
                assert outcome.state is not None
                await pictures.board(outcome.state)
                t2 = time.perf_counter()
                move_ms.append((t1 - t0) * 1000)
                render_ms.append((t2 - t1) * 1000)
                latencies.append((t2 - arrived) * 1000)
            except Refused as exc:
                refused[exc.code] = refused.get(exc.code, 0) + 1
            except Exception as exc:  # noqa: BLE001 - counted: the figure is "errors"
                errors.append(repr(exc))
            finally:
                in_flight[gid] -= 1

        # warm-up: the render workers start (each draws the board once) and draw a picture, outside the figures
        game = await manager._store.get(ids[0])  # noqa: SLF001 - the bench may look behind the API
        assert game.state is not None
        await asyncio.gather(*(pictures.board(game.state) for _ in range(workers)))
        await pictures.pool.warmed()  # every worker has drawn the board once (warmed in the background)

        tasks: set[asyncio.Task[None]] = set()
        workers_before = worker_stats(pictures)
        cpu_before = time.process_time()
        start = time.perf_counter()
        nxt = start
        while nxt < start + seconds:
            nxt += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            task = asyncio.create_task(one(rng.choice(ids), nxt))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        cpu_self = time.process_time() - cpu_before
        workers_after = worker_stats(pictures)
        await manager.close()
    pictures.close()
    rss_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu_workers = sum(
        cpu - workers_before.get(pid, (0.0, 0.0))[0] for pid, (cpu, _rss) in workers_after.items()
    )
    return {
        "moves": len(latencies),
        "p50": pct(latencies, 0.5),
        "p95": pct(latencies, 0.95),
        "max": max(latencies, default=float("nan")),
        "move_ms": statistics.fmean(move_ms) if move_ms else float("nan"),
        "move_p95": pct(move_ms, 0.95),
        "render_ms": statistics.fmean(render_ms) if render_ms else float("nan"),
        "render_p95": pct(render_ms, 0.95),
        "version_ms": statistics.fmean(version_ms),
        "refused": refused,
        "overlapped": overlapped,
        "errors": len(errors),
        "first_errors": errors[:3],
        "rss_mb": rss_self,
        "render_worker_rss_mb": max((rss for _cpu, rss in workers_after.values()), default=float("nan")),
        "cpu_ms_per_move": cpu_self * 1000 / max(1, len(latencies)),
        "render_cpu_ms_per_picture": cpu_workers * 1000 / max(1, len(render_ms)),
    }


def worker_stats(pictures: PoolPictures) -> dict[int, tuple[float, float]]:
    """CPU seconds so far and peak RSS (MiB) of each render worker, from /proc (Linux; empty elsewhere)."""
    out = {}
    for pid in pictures.pool.worker_pids():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        ticks = os.sysconf("SC_CLK_TCK")
        hwm = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
        out[pid] = ((int(stat[11]) + int(stat[12])) / ticks, hwm / 1024)
    return out


def spawn(
    url: str, ids: list[str], rate: float, seconds: float, seed: int, workers: int
) -> subprocess.Popen[str]:
    args = [sys.executable, __file__, "--worker", url, "--rate", str(rate), "--seconds", str(seconds)]
    args += ["--seed", str(seed), "--workers", str(workers), "--ids", ",".join(ids)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)


def run_processes(
    url: str, ids: list[str], rate: float, seconds: float, n: int, workers: int
) -> list[dict[str, Any]]:
    procs = [spawn(url, ids, rate / n, seconds, 1000 * k + int(rate), workers) for k in range(n)]
    results = []
    for p in procs:
        out, _ = p.communicate()
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def show(title: str, results: list[dict[str, Any]]) -> None:
    for k, r in enumerate(results):
        print(
            f"{title} process {k + 1}/{len(results)}: {r['moves']} moves, p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms,"
            f" max {r['max']:.0f} ms; errors {r['errors']} {r['first_errors'] or ''}; refused {r['refused']};"
            f" peak RSS {r['rss_mb']:.0f} MiB (+ render workers {r['render_worker_rss_mb']:.0f} MiB each at most)"
        )
        print(
            f"   CPU: the process {r['cpu_ms_per_move']:.1f} ms per move (engine, database client, event loop),"
            f" render workers {r['render_cpu_ms_per_picture']:.1f} ms per picture"
        )
        print(
            f"   where the time goes: move (engine + database) mean {r['move_ms']:.0f} ms, p95 {r['move_p95']:.0f} ms;"
            f" board picture mean {r['render_ms']:.0f} ms, p95 {r['render_p95']:.0f} ms;"
            f" SELECT version of a cached read {r['version_ms']:.2f} ms; moves arriving while a picture of their game"
            f" was still to come (what drawing only the newest would save): {r['overlapped']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--step", type=float, default=20.0, help="seconds per rate of the highest-rate search"
    )
    parser.add_argument("--workers", type=int, default=2, help="render workers per process")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--skip-search", action="store_true", help="leave out the highest-rate search")
    parser.add_argument("--search-only", action="store_true", help="only the highest-rate search")
    args = parser.parse_args()
    if args.worker:
        result = asyncio.run(
            load(args.worker, args.ids.split(","), args.rate, args.seconds, args.seed, args.workers)
        )
        print(json.dumps(result), flush=True)
        return
    url, ids = asyncio.run(setup(args.url, args.games, args.active))
    try:
        for n in () if args.search_only else (1, 2):
            title = f"{n} process{'es' if n > 1 else ''} at {args.rate / n:g}/s{' each' if n > 1 else ''}:"
            show(title, run_processes(url, ids, args.rate, args.seconds, n, args.workers))
        if not args.skip_search:
            held = None
            rates = (5, 10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200)
            for rate in rates:
                results = run_processes(url, ids, rate, args.step, 1, args.workers)
                p95, errors = results[0]["p95"], results[0]["errors"]
                print(f"search: {rate}/s for {args.step:g} s: p95 {p95:.0f} ms, errors {errors}")
                if p95 >= 500 or errors:
                    break
                held = rate
            top = " (at least: the highest rate tried)" if held == rates[-1] else ""
            print(f"highest rate one process holds with p95 < 500 ms: {held}/s{top}" if held else "below 5/s")
    finally:
        asyncio.run(drop(args.url, url))


if __name__ == "__main__":
    main()

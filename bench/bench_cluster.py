"""Several bot processes over one PostgreSQL database, under load (issues 17 and 32).

Setup: GAMES active games stored (ACTIVE of them created through the manager and started, the rest copies of
their rows under new ids, so the tables and indexes have production's size), and FINALS more games played to one
move before their end. Then moves arrive at random (Poisson) at RATE per second for SECONDS, each on one of the
ACTIVE games: the human to act plays a random legal move (``GameManager.act``: engine, version check, one
transaction) and the picture production posts with it is drawn in the render pool: the turn picture
(:mod:`render.turn_picture`, the 4:3 window on the moves since the next player's last turn, with the seats'
names), or with ``--picture board`` the whole board. Timed from the move's arrival to the picture ready. Spread
evenly over the run, each of the FINALS games gets its ending move as the bot plays it: the move, then the final
board and the score chart at once (``bot.play.final.final_message``), then the GIF from the stored record
(``gif_message``); timed from the move to the final pictures ready, and from then to the GIF ready.

Figures:
1. one process at RATE: p50/p95/max, errors (refusals are counted apart: a lost race), memory per process (its
   own peak RSS and its render workers'), the game-ending moves and their GIFs (p50/p95);
2. two processes at RATE/2 each, on the same games;
3. the curve: one process at each of RATES (STEP seconds each): p50/p95/errors, and the CPU per move of each
   part: the bot process (engine, database client, event loop), PostgreSQL's server processes (every backend
   on the machine: other users of the server count too), the render workers per picture;
4. where a turn picture's CPU goes, measured in this process on the states of a random game: composing
   (printed map, claims, locator) and encoding (palette mapping, zlib), and the engine's move.
CPU figures are process CPU time (``/proc``, ``time.process_time``): on a loaded machine they vary much less than
the wall times, which queue behind other work; the curve's latencies are as noisy as the machine.

Figures (2-core machine shared with 7 other sessions, load average 6-12: the latencies queue behind their work,
the CPU figures hold; 2026-11-28, issue 32). The turn picture's CPU, in one process: 18.5 ms composed + 6.3 ms
encoded before, 6.6-8.0 + 3.4-3.7 ms after (the whole board 20-24 ms); the render workers' CPU per picture
under load 28.6 ms before, 8.5-11.8 ms after; the bot process 3.1-4.8 ms per move, PostgreSQL 1-3 ms. The curve
after (10 s a rate): 20/s p95 219-344 ms, 50/s p95 1.0-3.0 s, 80/s 9-15 s, 0 errors; before, in the same
conditions, 20/s already p95 18 s. At 50/s with four game ends: p50 111 ms, p95 3.7 s (p50 15 s when the GIF was
drawn in a picture worker: see render.pool.run_background). By CPU alone one process needs ~13-17 ms per move
(bot + PostgreSQL + picture): 2 idle cores would hold ~120-150 moves/s flat out, not 150/s at p95 < 250 ms.
Issue 17's figures (the whole board each move, idle machine): 20/s p95 59 ms; 60/s held; 22 ms per picture.

After the turn picture's levels (render.turn_picture.levels, 2026-11-29, ISA-L's deflate installed, 10,000 games
stored, 20 s a rate): the turn picture's CPU in one process 4.2-4.8 ms composed + 1.3-1.5 ms encoded; the render
workers 3.6-4.3 ms per picture, the bot process 2.1-2.7 ms per move, PostgreSQL 0.7-0.9 ms: 6.5-7.6 ms of CPU a
move, ~270-300 moves/s for 2 idle cores. The curve at load 0.7-1.4: 20/s p95 10 ms, 50/s 14 ms, 80/s 23 ms,
100/s 24 ms, 120/s 47 ms, 150/s p50 10 ms p95 54 ms, 200/s p50 18 ms p95 117 ms, 0 errors. The same curve at
load 3-7 (other sessions' browsers): 150/s p50 4.9 s, p95 7.3 s, the niced render workers starved (the CPU per
part unchanged); 150/s again at load 2-4: p95 38 ms (nice 10) and 44 ms (--nice 0).

    python bench/bench_cluster.py [--games 10000] [--active 1000] [--rate 20] [--seconds 60] [--step 20]
        [--rates 20,50,80,100,120,150,200] [--finals 10] [--picture turn|board]
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
from engine.rules import apply, legal_actions, new_game, to_act  # noqa: E402
from engine.state import GameState  # noqa: E402

HUMANS = [(101, "Ann"), (102, "Bob")]


async def no_ai(state: Any, seat: int, level: str, rng: random.Random) -> Any:
    return random_action(state, seat, rng)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ----------------------------------------------------------------------------- setup


def ending_choice(state: GameState, seat: int) -> Any:
    """The prepared games' policy: the longest route the seat can claim, else a blind draw (ends a game fast)."""
    legal = legal_actions(state, seat)
    claims = [a for a in legal if a.kind == "claim_route"]
    if claims:
        return max(claims, key=lambda a: state.board.routes[a.route].length)
    return next((a for a in legal if a.kind == "draw_blind"), legal[0])


async def prepare_finals(url: str, n: int, channel: int) -> list[str]:
    """`n` games played through the manager to one move before their end (the move ``ending_choice`` picks)."""
    out = []
    users = dict(HUMANS)
    async with open_repository(url) as repo:
        manager = GameManager(repo, ai=no_ai)
        for i in range(n):
            info = await manager.create_game(
                guild_id=1,
                channel_id=channel + i,
                host_id=HUMANS[0][0],
                host_name=HUMANS[0][1],
                board="europe",
            )
            await manager.join(info.game_id, *HUMANS[1])
            await manager.start_game(info.game_id, HUMANS[0][0], seed=10_000 + channel + i)
            while True:
                state = await manager.state_of(info.game_id)
                assert state is not None
                seat = to_act(state)[0]
                action = ending_choice(state, seat)
                after = state.copy()
                apply(after, seat, action)
                if after.finished:
                    break
                user = [u for u, _n in HUMANS][seat] if seat < len(users) else HUMANS[0][0]
                await manager.act(info.game_id, user, action)
            out.append(info.game_id)
    return out


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


def since_last_turn(state: GameState) -> int:
    """The log position after the next player's last move: the turn picture shows every move since."""
    reader = state.current
    for i in range(len(state.history) - 1, -1, -1):
        if state.history[i][0] == reader:
            return i + 1
    return 0


NAMES = tuple(name for _uid, name in HUMANS)


async def load(
    url: str,
    ids: list[str],
    rate: float,
    seconds: float,
    seed: int,
    workers: int,
    picture: str = "turn",
    finals: list[str] | None = None,
    nice: int = 10,
) -> dict[str, Any]:
    rng = random.Random(seed)
    pictures = PoolPictures(workers, warm=("europe",))  # every worker draws the board once before the clock
    if nice != 10:  # the render workers' priority (production: nice 10, under the bot's)
        from render.pool import RenderPool

        pictures._pool = RenderPool(workers, warm=("europe",), nice=nice)  # noqa: SLF001 - a bench's knob
    finals = finals or []
    final_ms: list[float] = []
    gif_ms: list[float] = []
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
                if picture == "turn" and not outcome.state.finished:  # what the turn message posts
                    since = since_last_turn(outcome.state)
                    await pictures.board(outcome.state, since=since, turn=True, names=NAMES)
                else:
                    await pictures.board(outcome.state, names=NAMES)
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

        async def finish(gid: str) -> None:
            """The game's ending move as the bot plays it: the move, the final board and the score chart at
            once (final_message), then the GIF from the stored record (gif_message)."""
            try:
                while True:
                    state = await manager.state_of(gid)
                    assert state is not None
                    seat = to_act(state)[0]
                    action = ending_choice(state, seat)
                    t0 = time.perf_counter()
                    outcome = await manager.act(gid, HUMANS[seat][0], action)
                    assert outcome.state is not None
                    if outcome.state.finished:
                        break
                await asyncio.gather(
                    pictures.board(outcome.state, names=NAMES), pictures.summary(outcome.state, names=NAMES)
                )
                t1 = time.perf_counter()
                await pictures.gif(await manager.export_record(gid), names=NAMES)
                t2 = time.perf_counter()
                final_ms.append((t1 - t0) * 1000)
                gif_ms.append((t2 - t1) * 1000)
            except Exception as exc:  # noqa: BLE001 - counted: the figure is "errors"
                errors.append(f"final: {exc!r}")

        # warm-up: the render workers start (each draws the board once) and draw a picture, outside the figures
        game = await manager._store.get(ids[0])  # noqa: SLF001 - the bench may look behind the API
        assert game.state is not None
        await asyncio.gather(*(pictures.board(game.state) for _ in range(workers)))
        await pictures.pool.warmed()  # every worker has drawn the board once (warmed in the background)

        tasks: set[asyncio.Task[None]] = set()
        workers_before = worker_stats(pictures)
        pg_before = postgres_cpu()
        cpu_before = time.process_time()
        start = time.perf_counter()
        nxt = start
        ends = [start + seconds * (k + 0.5) / len(finals) for k in range(len(finals))]
        while nxt < start + seconds:
            while ends and ends[0] <= nxt:
                ends.pop(0)
                task = asyncio.create_task(finish(finals[len(finals) - len(ends) - 1]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            nxt += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            task = asyncio.create_task(one(rng.choice(ids), nxt))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        cpu_self = time.process_time() - cpu_before
        pg_cpu = postgres_cpu() - pg_before
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
        "render_cpu_ms_per_picture": cpu_workers * 1000 / max(1, len(render_ms) + 3 * len(final_ms)),
        # (a backend that exits meanwhile takes its CPU time with it: a negative difference says nothing)
        "postgres_cpu_ms_per_move": pg_cpu * 1000 / max(1, len(latencies)) if pg_cpu >= 0 else float("nan"),
        "finals": len(final_ms),
        "final_p50": pct(final_ms, 0.5),
        "final_p95": pct(final_ms, 0.95),
        "gif_p50": pct(gif_ms, 0.5),
        "gif_p95": pct(gif_ms, 0.95),
    }


def postgres_cpu() -> float:
    """CPU seconds so far of every PostgreSQL server process on this machine (/proc; 0 elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(stat[11]) + int(stat[12])
    return total / ticks


def picture_parts(board_id: str = "europe", moves: int = 400) -> dict[str, float]:
    """CPU per part, in this process, over the states of a random 2-player game: the engine's move, the turn
    picture composed (printed map, claims, tags, locator) and encoded (palette mapping, zlib), and the whole
    board for comparison (ms each; after one picture of each kind, as in a warm worker)."""
    from render.from_engine import board_view
    from render.png import board_palette, encode_png, render_board_png
    from render.turn_picture import PALETTE_WIDTH, render_turn_png, turn_surface

    state = new_game(board_id, 2, seed=3)
    rng = random.Random(3)
    engine_cpu, views = 0.0, []
    while not state.finished and len(views) < moves:
        seat = to_act(state)[0]
        action = random_action(state, seat, rng)
        t = time.process_time()
        apply(state, seat, action)
        engine_cpu += time.process_time() - t
        if state.phase != "setup":
            views.append(board_view(state, since=since_last_turn(state), names=NAMES))
    board = state.board
    render_turn_png(board, views[-1])
    render_board_png(board, views[-1])
    compose = encode = whole = 0.0
    for view in views:
        t0 = time.process_time()
        surface = turn_surface(board, view)
        t1 = time.process_time()
        encode_png(surface, palette=board_palette(board, PALETTE_WIDTH, True))
        t2 = time.process_time()
        compose, encode = compose + t1 - t0, encode + t2 - t1
    for view in views[::10]:
        t = time.process_time()
        render_board_png(board, view)
        whole += time.process_time() - t
    n = len(views)
    return {
        "engine": engine_cpu * 1000 / n,
        "compose": compose * 1000 / n,
        "encode": encode * 1000 / n,
        "whole_board": whole * 1000 / len(views[::10]),
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
    url: str,
    ids: list[str],
    rate: float,
    seconds: float,
    seed: int,
    workers: int,
    picture: str,
    finals: list[str],
    nice: int = 10,
) -> subprocess.Popen[str]:
    args = [sys.executable, __file__, "--worker", url, "--rate", str(rate), "--seconds", str(seconds)]
    args += ["--nice", str(nice)]
    args += ["--seed", str(seed), "--workers", str(workers), "--ids", ",".join(ids), "--picture", picture]
    if finals:
        args += ["--final-ids", ",".join(finals)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)


def run_processes(
    url: str,
    ids: list[str],
    rate: float,
    seconds: float,
    n: int,
    workers: int,
    picture: str = "turn",
    finals: list[str] | None = None,
    nice: int = 10,
) -> list[dict[str, Any]]:
    finals = finals or []
    procs = [
        spawn(url, ids, rate / n, seconds, 1000 * k + int(rate), workers, picture, finals[k::n], nice)
        for k in range(n)
    ]
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
            f" PostgreSQL {r['postgres_cpu_ms_per_move']:.1f} ms per move (every backend: other users too),"
            f" render workers {r['render_cpu_ms_per_picture']:.1f} ms per picture"
        )
        if r["finals"]:
            print(
                f"   game-ending moves: {r['finals']}, to the final board + score chart p50 {r['final_p50']:.0f} ms,"
                f" p95 {r['final_p95']:.0f} ms; then the GIF p50 {r['gif_p50']:.0f} ms, p95 {r['gif_p95']:.0f} ms"
            )
        print(
            f"   where the time goes: move (engine + database) mean {r['move_ms']:.0f} ms, p95 {r['move_p95']:.0f} ms;"
            f" picture mean {r['render_ms']:.0f} ms, p95 {r['render_p95']:.0f} ms;"
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
    parser.add_argument("--step", type=float, default=20.0, help="seconds per rate of the curve")
    parser.add_argument(
        "--rates", default="20,50,80,100,120,150,200", help="the curve's rates (moves/s), comma-separated"
    )
    parser.add_argument("--finals", type=int, default=10, help="game-ending moves in the runs at --rate")
    parser.add_argument(
        "--picture", choices=("turn", "board"), default="turn", help="what each move posts (production: turn)"
    )
    parser.add_argument("--workers", type=int, default=2, help="render workers per process")
    parser.add_argument("--nice", type=int, default=10, help="the render workers' nice (production: 10)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    parser.add_argument("--final-ids", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--skip-search", action="store_true", help="leave out the curve")
    parser.add_argument("--search-only", action="store_true", help="only the curve")
    parser.add_argument("--one-only", action="store_true", help="leave out the run of two processes")
    args = parser.parse_args()
    if args.worker:
        finals = [g for g in args.final_ids.split(",") if g]
        result = asyncio.run(
            load(
                args.worker,
                args.ids.split(","),
                args.rate,
                args.seconds,
                args.seed,
                args.workers,
                args.picture,
                finals,
                args.nice,
            )
        )
        print(json.dumps(result), flush=True)
        return
    parts = picture_parts()
    print(
        f"CPU per part in one process (2 players, Europe; time.process_time): engine {parts['engine']:.2f} ms a move,"
        f" turn picture composed {parts['compose']:.1f} ms + encoded {parts['encode']:.1f} ms"
        f" (the whole board {parts['whole_board']:.1f} ms)"
    )
    url, ids = asyncio.run(setup(args.url, args.games, args.active))
    try:
        runs = () if args.search_only else (1,) if args.one_only else (1, 2)
        finals = asyncio.run(prepare_finals(url, args.finals * len(runs), 50_000)) if args.finals else []
        for k, n in enumerate(runs):
            title = f"{n} process{'es' if n > 1 else ''} at {args.rate / n:g}/s{' each' if n > 1 else ''}:"
            mine = finals[k * args.finals : (k + 1) * args.finals]
            runs_ = run_processes(
                url, ids, args.rate, args.seconds, n, args.workers, args.picture, mine, args.nice
            )
            show(title, runs_)
        if not args.skip_search:
            print(
                f"the curve, one process, {args.picture} pictures, {args.step:g} s a rate (CPU ms: the bot process"
                " per move | PostgreSQL per move | render workers per picture):"
            )
            for rate in (float(r) for r in args.rates.split(",")):
                r = run_processes(url, ids, rate, args.step, 1, args.workers, args.picture, nice=args.nice)[0]
                print(
                    f"   {rate:5g}/s: {r['moves']:5d} moves, p50 {r['p50']:6.0f} ms, p95 {r['p95']:6.0f} ms,"
                    f" errors {r['errors']}; CPU {r['cpu_ms_per_move']:.1f} | {r['postgres_cpu_ms_per_move']:.1f}"
                    f" | {r['render_cpu_ms_per_picture']:.1f}; load {os.getloadavg()[0]:.1f}; peak RSS"
                    f" {r['rss_mb']:.0f} MiB + workers {r['render_worker_rss_mb']:.0f} MiB each"
                )
                cpu = r["cpu_ms_per_move"] + r["postgres_cpu_ms_per_move"] + r["render_cpu_ms_per_picture"]
                print(
                    f"          CPU-bound capacity of 2 idle cores: {2000 / cpu:.0f} moves/s ({cpu:.1f} ms a move)"
                )
                if r["p95"] > 10_000:  # far past what one process holds: the higher rates only queue longer
                    break
    finally:
        asyncio.run(drop(args.url, url))


if __name__ == "__main__":
    main()

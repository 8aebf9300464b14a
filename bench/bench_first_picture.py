"""The first picture of a board after the bot starts: cold (what a player waited for before warming) vs warmed.

    python bench/bench_first_picture.py [board ...] [--workers 2] [--repeat 3]

Each figure is the median over `--repeat` fresh render pools (new processes, nothing cached), a 1600 px
mid-game picture, colour-blind, in English, as the bot draws it:

- cold: a pool created and asked at once for the board's first picture (the process starts, imports, lays the
  board out, rasterises its printed map and palette, then draws): the player's wait before this change;
- started: the workers already started (`RenderPool.start`: imported) but the board never drawn;
- during warm-up: the picture asked 0.3 s after the workers are up and warming every board, this board last:
  it goes to the worker left free for pictures (or waits for one warm job, never for the whole list);
- warmed: once `warmed()` returned, the first picture of the board in that pool;
- start-up: how long the `start` + `warm` calls hold the event loop, its worst lag until every worker has
  warmed (5 ms ticks), the time until then, and a warmed worker's resident memory.

The machine's load average is printed first: wall times grow with other work on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_render import midgame_view  # noqa: E402

from maps.board import load_board  # noqa: E402
from render.pool import RenderPool, warm_key  # noqa: E402


async def _timed(call: Awaitable[object]) -> float:
    t = time.perf_counter()
    await call
    return time.perf_counter() - t


async def cold(board: str, workers: int) -> float:
    view = midgame_view(load_board(board))
    async with RenderPool(workers) as pool:
        return await _timed(pool.render_board(board, view))


async def started(board: str, workers: int) -> float:
    view = midgame_view(load_board(board))
    async with RenderPool(workers) as pool:
        pool.start()
        await pool.warmed()  # nothing to warm: returns at once
        await asyncio.gather(*(pool.run("render.pool._ready") for _ in range(workers)))  # every process up
        return await _timed(pool.render_board(board, view))


async def during_warmup(board: str, boards: list[str], workers: int) -> float:
    view = midgame_view(load_board(board))
    order = [b for b in boards if b != board] + [board]
    async with RenderPool(workers) as pool:
        pool.start()
        pool.warm([warm_key(b) for b in order])
        while any(w.pid is None for w in pool.warm_state()):  # the processes are up...
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # ...and warming the other boards
        return await _timed(pool.render_board(board, view))


async def warmed(boards: list[str], workers: int) -> tuple[float, float, dict[str, float]]:
    """(seconds the start + warm calls held the loop, seconds until all warmed, first picture per board)."""
    views = {b: midgame_view(load_board(b)) for b in boards}
    lags: list[float] = []
    stop = asyncio.Event()

    async def watch() -> None:  # how late the event loop wakes up while the workers start and warm
        while not stop.is_set():
            tick = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - tick - 0.005)

    async with RenderPool(workers) as pool:
        watcher = asyncio.create_task(watch())
        await asyncio.sleep(0.02)
        t = time.perf_counter()
        pool.start()
        pool.warm([warm_key(b) for b in boards])
        held = time.perf_counter() - t
        await pool.warmed()
        ready = time.perf_counter() - t
        stop.set()
        await watcher
        LAG.append(max(lags))
        first = {b: await _timed(pool.render_board(b, views[b])) for b in boards}
        MEMORY.append(max((rss_mib(pid) for pid in pool.worker_pids()), default=0.0))
    return held, ready, first


LAG: list[float] = []  # the event loop's worst lag from start to warmed, per run (s)
MEMORY: list[float] = []  # the largest worker's resident memory once warmed, per run (MiB)


def rss_mib(pid: int) -> float:
    """Resident memory of process `pid` in MiB, from /proc (Linux; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return next(
        (int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0.0
    )


def median_of(repeat: int, make: Callable[[], Awaitable[float]]) -> float:
    return statistics.median(asyncio.run(make()) for _ in range(repeat))  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="*", default=["europe", "usa", "japan"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.workers} workers"
    )
    print(f"{'board':10} {'cold ms':>8} {'started ms':>11} {'during warm-up ms':>18} {'warmed ms':>10}")
    runs = [asyncio.run(warmed(args.boards, args.workers)) for _ in range(args.repeat)]
    for board in args.boards:
        c = median_of(args.repeat, lambda b=board: cold(b, args.workers))
        s = median_of(args.repeat, lambda b=board: started(b, args.workers))
        d = median_of(args.repeat, lambda b=board: during_warmup(b, args.boards, args.workers))
        w = statistics.median(r[2][board] for r in runs)
        print(f"{board:10} {c * 1000:8.0f} {s * 1000:11.0f} {d * 1000:18.0f} {w * 1000:10.0f}")
    held = statistics.median(r[0] for r in runs)
    ready = statistics.median(r[1] for r in runs)
    print(
        f"start-up: start + warm held the event loop {held * 1000:.0f} ms (worst loop lag until warmed "
        f"{statistics.median(LAG) * 1000:.0f} ms); every worker warmed the "
        f"{len(args.boards)} boards {ready:.2f} s after start; a warmed worker holds "
        f"{statistics.median(MEMORY):.0f} MiB"
    )
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average after: {load[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

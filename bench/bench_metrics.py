"""Metrics benchmark: the CPU a move costs with the metrics (bot/ops) and without, and with Prometheus scraping
``/metrics`` every 15 s (the database figures read at each scrape).

    python bench/bench_metrics.py                  # 20 s of moves per run
    python bench/bench_metrics.py --seconds 60 --games 200

Each run plays random legal moves on `--games` started games (the manager over SQLite, as the bot does) for
`--seconds` and reports this process's CPU time per move (``time.process_time``): without the metrics, with them
(the repository's and pictures' hooks), and with them and a scrape of ``/metrics`` over HTTP every `--every`
seconds. On a loaded machine those runs differ by more than the metrics cost, so the cost is also measured
alone: the hook a stored move goes through (the repository's wrapped ``append_action``: a counter, its kind),
against the bare call, and one scrape's CPU over a database of `--scrape-games` games (cloned from played ones, as
bench_backup.py does), whose share per move follows from the move rate.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import aiohttp  # noqa: E402
from helpers.manager_games import play_random, random_ai, started_game  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.manager import GameManager, ManualClock  # noqa: E402
from bot.ops.metrics import Metrics  # noqa: E402
from bot.ops.operations import Operations  # noqa: E402
from bot.ops.watch import _counted  # noqa: E402
from bot.storage import open_repository  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run(
    folder: Path, label: str, *, games: int, seconds: float, metrics: bool, every: float | None
) -> tuple[int, float, list[float]]:
    """(moves, CPU seconds per move, each scrape's wall time)."""
    url = f"sqlite:///{folder / f'{label}.db'}"
    clock = ManualClock()
    port = free_port()
    ops = Operations(Settings(database_url=url, metrics_port=port)) if metrics else None
    scrapes: list[float] = []
    async with open_repository(url, clock=clock.now) as repo:
        if ops is not None:
            ops.watch_repository(repo)
            await ops.start()
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        ids = [(await started_game(manager, humans=3, seed=n + 1, board="usa"))[0] for n in range(games)]
        rng = random.Random(1)
        stop = asyncio.Event()

        async def scraper() -> None:
            async with aiohttp.ClientSession() as session:
                while not stop.is_set():
                    with_timeout = asyncio.ensure_future(stop.wait())
                    await asyncio.wait([with_timeout], timeout=every)
                    with_timeout.cancel()
                    if stop.is_set():
                        return
                    started = time.perf_counter()
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                        await response.read()
                    scrapes.append(time.perf_counter() - started)

        task = asyncio.create_task(scraper()) if every is not None and ops is not None else None
        moves = 0
        cpu0, end = time.process_time(), time.perf_counter() + seconds
        while time.perf_counter() < end:
            game_id = rng.choice(ids)
            if (await manager.status(game_id)).status != "active":
                ids.remove(game_id)
                ids.append((await started_game(manager, humans=3, seed=len(ids) + moves, board="usa"))[0])
                continue
            moves += await play_random(manager, game_id, rng, moves=1)
        cpu = time.process_time() - cpu0
        stop.set()
        if task is not None:
            await task
        await manager.close()
        if ops is not None:
            await ops.stop()
    return moves, cpu / max(1, moves), scrapes


async def hook_cost(calls: int) -> tuple[float, float]:
    """CPU seconds of one call of a bare coroutine and of the same wrapped as the repository's append_action."""
    action = {"type": "claim_route", "route": 12, "color": "red", "cards": ["red", "red", "loco"]}

    async def append_action(game_id: str, version: int, seat: int, act: dict[str, object]) -> int:
        return version

    counted = _counted(append_action, Metrics(), moves=True)
    best = [float("inf"), float("inf")]
    for _round in range(3):
        for n, fn in enumerate((append_action, counted)):
            cpu0 = time.process_time()
            for i in range(calls):
                await fn("g", i, 0, action)
            best[n] = min(best[n], (time.process_time() - cpu0) / calls)
    return best[0], best[1]


async def scrape_cost(folder: Path, games: int, scrapes: int) -> float:
    """CPU seconds of one scrape (the database figures read, the text made), over `games` games."""
    from bench_backup import clone, play_templates

    url = f"sqlite:///{folder / 'scrape.db'}"
    clone(folder / "scrape.db", await play_templates(url, 30), games)
    ops = Operations(Settings(database_url=url))
    async with open_repository(url) as repo:
        ops.watch_repository(repo)
        await ops.metrics.scrape()
        cpu0 = time.process_time()
        for _ in range(scrapes):
            await ops.metrics.scrape()
        cost = (time.process_time() - cpu0) / scrapes
    return cost


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between scrapes")
    parser.add_argument("--scrapes", type=int, default=20)
    parser.add_argument("--scrape-games", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = []
        for label, metrics, every in (
            ("plain", False, None),
            ("metrics", True, None),
            ("scraped", True, args.every),
            ("plain2", False, None),  # (again: the machine's drift between runs)
        ):
            moves, per_move, scrapes = await run(
                folder, label, games=args.games, seconds=args.seconds, metrics=metrics, every=every
            )
            rows.append((label, moves, per_move, scrapes))
            extra = (
                f", {len(scrapes)} scrapes ({statistics.mean(scrapes) * 1000:.1f} ms each)" if scrapes else ""
            )
            print(
                f"{label:<8} {moves:6d} moves in {args.seconds:.0f} s, CPU {per_move * 1e6:8.0f} µs/move{extra}"
            )
        one = await scrape_cost(folder, args.scrape_games, args.scrapes)
    bare, hooked = await hook_cost(args.calls)
    base = statistics.mean([rows[0][2], rows[3][2]])
    for label, _moves, per_move, _s in rows[1:3]:
        print(
            f"{label}: {(per_move - base) * 1e6:+.0f} µs/move over the mean of the plain runs ({base * 1e6:.0f})"
        )
    rate = rows[0][1] / args.seconds
    print(
        f"the hook of a stored move: {(hooked - bare) * 1e6:.2f} µs CPU ({bare * 1e6:.2f} bare, {hooked * 1e6:.2f} wrapped)"
    )
    print(
        f"one scrape: {one * 1000:.2f} ms CPU ({args.scrape_games} games in the database): every {args.every:.0f} s "
        f"at {rate:.0f} moves/s that is {one / (args.every * rate) * 1e6:.2f} µs a move ({one / args.every * 1e6:.0f} µs of CPU "
        "a second, whatever the rate)"
    )
    print("(a shared 2-core machine, loaded by other work: differences of a few % are noise)")


if __name__ == "__main__":
    asyncio.run(main())

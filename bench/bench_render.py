"""Board picture benchmark: median time of one 1600 px PNG (cairosvg included), PNG size, and event-loop lag.

    python bench/bench_render.py [board ...] [--runs N]

Per board: the first picture (layout + printed map rasterised, once per process), then the median of N
mid-game pictures (every 3rd route claimed, stations, face-up row, last move), the uncached full-SVG path for
comparison, and the PNG size. Then 20 pictures through a RenderPool (one worker per CPU) while a coroutine measures how late
the event loop wakes up (the bot's responsiveness). Target: median under 150 ms. The "map ms" column is the
median of one private ticket map (:mod:`render.tickets_map`: five tickets, each with a three-route path) over
the same position. The "turn ms" columns: the turn message's picture (:mod:`render.turn_picture`, 800x600, a
window on three routes far apart) over the same position, its first (its zoomed printed map rasterised) and
its median. With ``--gifs N``: the end-of-game GIF's CPU (time.process_time: other work on the machine does
not count) over N random 4-player games per board, replayed from their record, in a process warmed as the GIF
worker is (:func:`render.pool._warm_gif`), each game new to it (its scores and captions are sprites not yet drawn).
With ``--turns N``: the turn picture's CPU (time.process_time) over every move of N random 4-player games per
board, each picture the one the next player gets (the moves since their last turn), in a process warmed as a render
worker is (:func:`render.pool._warm`): p50/p95 of the whole picture, composed (printed map, claims, tags, locator,
scaled to 800x600) and encoded (palette, PNG), and the p50 of the cheapest of 3 draws of each (what other work on
the machine adds least to).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from maps.board import Board, board_ids, load_board  # noqa: E402
from render.model import BoardView, LastMove, PlayerPanel  # noqa: E402
from render.png import render_board_png  # noqa: E402
from render.pool import RenderPool  # noqa: E402
from render.tickets_map import MapTicket, TicketMap, render_ticket_map_png  # noqa: E402
from render.turn_picture import render_turn_png  # noqa: E402

COLORS = ("red", "blue", "green", "yellow", "black")


def midgame_view(board: Board) -> BoardView:
    owned = {r.id: r.id % 5 for r in board.routes if r.id % 3 == 0}
    players = tuple(
        PlayerPanel(
            f"Player {i + 1}", COLORS[i], score=20 + 7 * i, trains=30 - i, cards=5 + i, tickets=3, stations=2
        )
        for i in range(5)
    )
    rid = next(iter(owned))
    return BoardView(
        routes=owned, stations={0: 1, 2: 3}, players=players, turn=2, face_up=(0, 3, 8, 5, 6), deck=48, discard=9,
        tickets_left=31, last_move=LastMove(seat=owned[rid], routes=(rid,), text=f"Claimed {board.route_label(rid)}"),
        round=15,
    )  # fmt: skip


def bench_board(board_id: str, runs: int) -> dict[str, float]:
    board = load_board(board_id)
    view = midgame_view(board)
    t = time.perf_counter()
    render_board_png(board, view)
    first = time.perf_counter() - t
    times, cpu, size = [], [], 0
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        size = len(render_board_png(board, view))
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    full = []
    for _ in range(max(3, runs // 4)):
        t = time.perf_counter()
        render_board_png(board, view, cache=False)
        full.append(time.perf_counter() - t)
    mine = TicketMap(1, tuple(
        MapTicket(t.a, t.b, t.points, done=k == 0, trains_needed=6, path=tuple(r.id for r in board.routes[k * 7 : k * 7 + 3]))
        for k, t in enumerate(board.tickets[:5])
    ))  # fmt: skip
    maps = []
    for _ in range(max(3, runs // 2)):
        t = time.perf_counter()
        render_ticket_map_png(board, view, mine)
        maps.append(time.perf_counter() - t)
    claimed = sorted(view.routes)
    spread = (claimed[0], claimed[len(claimed) // 2], claimed[-1])
    moves = dataclasses.replace(view, last_move=LastMove(seat=0, routes=spread))
    t = time.perf_counter()
    render_turn_png(board, moves)
    turn_first = time.perf_counter() - t
    turns = []
    for _ in range(runs):
        t = time.perf_counter()
        render_turn_png(board, moves)
        turns.append(time.perf_counter() - t)
    return {"turn_first": turn_first, "turn": statistics.median(turns), "map": statistics.median(maps), "first": first, "median": statistics.median(times), "cpu": statistics.median(cpu), "p90": sorted(times)[int(len(times) * 0.9) - 1],
            "uncached": statistics.median(full), "size": size}  # fmt: skip


async def loop_lag(board_id: str, n: int = 20) -> tuple[float, float, float, int]:
    """(max lag, mean lag, wall time, workers) of the event loop while `n` pictures render in the pool."""
    view = midgame_view(load_board(board_id))
    async with RenderPool(warm=(board_id,)) as pool:
        pool.start()
        await pool.warmed()  # every worker has drawn the board once
        lags: list[float] = []
        stop = asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                lags.append(time.perf_counter() - t - 0.005)

        watcher = asyncio.create_task(watch())
        t = time.perf_counter()
        await asyncio.gather(*(pool.render_board(board_id, view) for _ in range(n)))
        wall = time.perf_counter() - t
        stop.set()
        await watcher
    return max(lags), statistics.mean(lags), wall, pool.workers


def bench_gif(board_id: str, games: int) -> tuple[list[float], int]:
    """CPU seconds of each game's GIF (replay included), and the last game's frame count."""
    from engine.record import make_record
    from engine.simulate import play_game
    from render.pool import _warm_gif
    from render.replay import render_record_gif, replay_views
    from render.words import ENGLISH

    _warm_gif(board_id, True, ENGLISH)
    cpus, frames = [], 0
    for seed in range(1000, 1000 + games):
        record = make_record(play_game(board_id, 4, seed, check=False).state)
        t = time.process_time()
        render_record_gif(record)
        cpus.append(time.process_time() - t)
        frames = len(replay_views(record))
    return cpus, frames


def turn_views(board_id: str, games: int, players: int = 4) -> list[BoardView]:
    """The turn picture's view after every move of `games` random games: the moves since the next player's last
    turn (bench_cluster's since_last_turn)."""
    import random

    from engine.playout import random_legal_action
    from engine.rules import apply, new_game, to_act
    from render.from_engine import board_view

    views = []
    for seed in range(games):
        state = new_game(board_id, players, seed=seed)
        rng = random.Random(seed)
        while not state.finished:
            seat = rng.choice(to_act(state))
            apply(state, seat, random_legal_action(state, seat, rng))
            if state.phase != "setup" and not state.finished:
                reader = state.current
                since = next(
                    (i + 1 for i in range(len(state.history) - 1, -1, -1) if state.history[i][0] == reader), 0
                )
                views.append(board_view(state, since=since))
    return views


def bench_turns(board_id: str, games: int) -> dict[str, float]:
    """CPU ms of the turn picture over the moves of `games` games (see the module's text)."""
    from render.png import board_palette, encode_png
    from render.pool import _warm
    from render.turn_picture import PALETTE_WIDTH, turn_surface
    from render.words import ENGLISH

    _warm(board_id, 1600, True, ENGLISH)
    board = load_board(board_id)
    views = turn_views(board_id, games)
    palette = board_palette(board, PALETTE_WIDTH, True)
    compose, encode, total, best = [], [], [], []
    for view in views:
        draws = []
        for _ in range(3):
            t0 = time.process_time()
            surface = turn_surface(board, view)
            t1 = time.process_time()
            encode_png(surface, palette=palette)
            t2 = time.process_time()
            draws.append((t1 - t0, t2 - t1))
        compose.append(draws[0][0])  # the first draw: its misses (new claims, names) count
        encode.append(draws[0][1])
        total.append(sum(draws[0]))
        best.append(min(a + b for a, b in draws))

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))] * 1000

    return {"n": len(views), "p50": q(total, 0.5), "p95": q(total, 0.95), "compose50": q(compose, 0.5),
            "compose95": q(compose, 0.95), "encode50": q(encode, 0.5), "encode95": q(encode, 0.95),
            "best50": q(best, 0.5), "best95": q(best, 0.95)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="*", default=[b for b in ("europe", "usa") if b in board_ids()] + [
        b for b in board_ids() if b not in ("europe", "usa")])  # fmt: skip
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--gifs", type=int, default=0, help="games per board for the GIF's CPU (0: skip)")
    ap.add_argument(
        "--turns", type=int, default=0, help="games per board for the turn picture's CPU (0: skip)"
    )
    args = ap.parse_args(argv)
    if args.turns:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"turn picture CPU ms (time.process_time), {args.turns} 4-player games a board, load {load:.1f}:"
        )
        for bid in args.boards:
            r = bench_turns(bid, args.turns)
            print(f"turn {bid:10} n={r['n']:4d}  total p50 {r['p50']:5.1f} p95 {r['p95']:5.1f}  composed p50"
                  f" {r['compose50']:5.1f} p95 {r['compose95']:5.1f}  encoded p50 {r['encode50']:4.1f} p95"
                  f" {r['encode95']:4.1f}  cheapest of 3: p50 {r['best50']:5.1f} p95 {r['best95']:5.1f}")  # fmt: skip
        return 0
    if args.gifs:
        for bid in args.boards:
            cpus, frames = bench_gif(bid, args.gifs)
            print(f"GIF {bid:10} {frames:3d} frames  CPU p50 {statistics.median(cpus) * 1e3:4.0f} ms  "
                  f"p95 {sorted(cpus)[min(len(cpus) - 1, int(0.95 * len(cpus)))] * 1e3:4.0f} ms  "
                  f"max {max(cpus) * 1e3:4.0f} ms")  # fmt: skip
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.1f} (wall times grow with other work on the machine)")
    print(
        f"{'board':10} {'first ms':>9} {'median ms':>10} {'cpu ms':>7} {'p90 ms':>8} {'uncached ms':>12} {'PNG KB':>8} {'map ms':>7}"
        f" {'turn first':>10} {'turn ms':>8}"
    )
    worst = 0.0
    for bid in args.boards:
        r = bench_board(bid, args.runs)
        worst = max(worst, r["median"])
        print(f"{bid:10} {r['first'] * 1000:9.0f} {r['median'] * 1000:10.0f} {r['cpu'] * 1000:7.0f} {r['p90'] * 1000:8.0f} "
              f"{r['uncached'] * 1000:12.0f} {r['size'] / 1024:8.0f} {r['map'] * 1000:7.0f}"
              f" {r['turn_first'] * 1000:10.0f} {r['turn'] * 1000:8.0f}")  # fmt: skip
    lag_max, lag_mean, wall, workers = asyncio.run(loop_lag(args.boards[0]))
    print(f"pool: 20 x {args.boards[0]} in {wall:.2f} s ({wall / 20 * 1000:.0f} ms/picture with {workers} workers); "
          f"event-loop lag max {lag_max * 1000:.1f} ms, mean {lag_mean * 1000:.2f} ms")  # fmt: skip
    print(
        f"target median < 150 ms: {'OK' if worst < 0.150 else 'MISSED'} (worst board median {worst * 1000:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

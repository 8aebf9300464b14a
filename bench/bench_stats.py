"""Statistics benchmark (issue 33): `/ttr stats` and `/ttr games` answer times over 10,000 stored finished games,
and the storage the statistics take per game.

    python bench/bench_stats.py                    # SQLite (a temporary file), 10,000 games
    python bench/bench_stats.py --games 2000 --pg postgresql://postgres@127.0.0.1:5432/test

A few real games are played to their end by the manager (random legal moves: real final sheets and statistics
rows); their results, with their statistics, are then written again under new games through the storage's own
write (``append_action`` finishing the game: results, rating, statistics rows), spread over `--guilds` servers
and `--users` players, until there are `--games`. The measured player also sits in 10 open games. Timed: the
whole answer of `/ttr stats` (every query and the reply, without Discord) and of `/ttr games` (every open game
of the player across servers, from a cold manager cache and then warm), p50 and p95 over `--asks` asks each.
Storage: the bytes of the statistics tables (SQLite's dbstat) divided by the games.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import math
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers.manager_games import play_random, random_ai, started_game  # noqa: E402

from bot.manager import GameManager, ManualClock  # noqa: E402
from bot.play.my_games import my_games_reply  # noqa: E402
from bot.play.statistics import shown_ordinal, stats_reply  # noqa: E402
from bot.storage import Seat, SeatResult, open_repository  # noqa: E402
from render.stats_chart import render_stats_png  # noqa: E402

MEASURED = 424242  # the player asked about


async def templates(manager: GameManager, n: int) -> list[list[SeatResult]]:
    """The results (with statistics) of `n` real games played to their end."""
    out = []
    for i in range(n):
        game_id, _ = await started_game(manager, humans=2 + i % 3, seed=i + 1, board=("europe", "usa")[i % 2])
        await play_random(manager, game_id, random.Random(i))
        rows = await manager.repository.game_stats(game_id)
        assert rows, "a finished game has its statistics"
        results = await manager.repository.load_results(game_id)
        by_seat = {r.seat: r for r in rows}
        # rebuild what the manager wrote: the stored rows are the statistics (SeatDetail) it was given
        from bot.storage.people import SeatDetail  # noqa: PLC0415

        out.append(
            [
                SeatResult(
                    r.seat, r.user_id, r.score, r.rank, r.won,
                    SeatDetail(
                        by_seat[r.seat].name, by_seat[r.seat].players, by_seat[r.seat].route_points,
                        by_seat[r.seat].longest_route, by_seat[r.seat].trains_left, by_seat[r.seat].bonuses,
                        by_seat[r.seat].tickets, await _routes(manager, game_id, r.seat),
                    ),
                )
                for r in sorted(results, key=lambda r: r.seat)
            ]
        )  # fmt: skip
    return out


async def _routes(manager: GameManager, game_id: str, seat: int) -> tuple[tuple[str, str, int], ...]:
    state = (await manager._store.get(game_id)).state  # a bench may look behind the API
    assert state is not None
    board = state.board
    routes = [board.routes[r] for r in state.players[seat].routes]
    return tuple((board.cities[r.a].name, board.cities[r.b].name, r.length) for r in routes)


async def fill(repo, shapes: list[list[SeatResult]], games: int, guilds: int, users: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(1)
    for n in range(games):
        shape = shapes[n % len(shapes)]
        people = rng.sample(range(1, users + 1), len(shape))
        if n % 10 == 0:
            people[0] = MEASURED
        guild = 1 + (n % guilds) if MEASURED not in people else 1 + (n % 3)
        game = await repo.create_game(
            guild_id=guild, channel_id=10**12 + n, host_id=people[0], board="europe",
            seats=[Seat(f"p{u}", user_id=u) for u in people],
        )  # fmt: skip
        results = [dataclasses.replace(r, user_id=people[r.seat]) for r in shape]
        await repo.append_action(game.id, 0, 0, {"t": "end"}, {}, status="finished", results=results)


def p(values: list[float], q: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--guilds", type=int, default=50)
    ap.add_argument("--users", type=int, default=400)
    ap.add_argument("--asks", type=int, default=100)
    ap.add_argument("--templates", type=int, default=6)
    ap.add_argument("--pg", default=None)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    url = args.pg or f"sqlite:///{tmp / 'stats.db'}"
    schema = f"bench_stats_{uuid.uuid4().hex[:8]}"
    if args.pg:  # a schema of its own (the storage creates it), dropped at the end
        url = f"{args.pg}?schema={schema}"
    clock = ManualClock()
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        shapes = await templates(manager, args.templates)
        t0 = time.perf_counter()
        await fill(repo, shapes, args.games, args.guilds, args.users)
        print(f"wrote {args.games} finished games in {time.perf_counter() - t0:.1f} s")
        for i in range(10):  # the measured player's open games, in three servers
            info = await manager.create_game(
                guild_id=1 + i % 3, channel_id=5 * 10**12 + i, host_id=MEASURED, host_name="me", board="usa"
            )
            await manager.join(info.game_id, 7, "other")
            await manager.start_game(info.game_id, MEASURED, seed=i)
        await manager.close()

        stats_times, cold_times, warm_times = [], [], []
        for _ in range(args.asks):
            fresh = GameManager(repo, clock=clock, ai=random_ai)
            await fresh.start(dispatcher=False)
            t = time.perf_counter()
            found = await fresh.my_games(MEASURED)
            my_games_reply(found, MEASURED, None, "en")
            cold_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            my_games_reply(await fresh.my_games(MEASURED), MEASURED, None, "en")
            warm_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            await stats_reply(fresh, None, 1, MEASURED, "en")  # (the chart apart: below)
            stats_times.append(time.perf_counter() - t)
            await fresh.close()
        assert len(found) == 10
        for name, values in (("/ttr stats", stats_times), ("/ttr games (cold cache)", cold_times),
                             ("/ttr games (warm cache)", warm_times)):  # fmt: skip
            ms = [v * 1000 for v in values]
            print(f"{name:26s} p50 {p(ms, 50):7.1f} ms   p95 {p(ms, 95):7.1f} ms   max {max(ms):7.1f} ms")
        history = await repo.player_history(MEASURED, 1)
        print(f"(the measured player: {history.games} finished games in server 1)")
        assert history.last is not None
        ratings = [shown_ordinal(r) for _, r in history.ratings]
        lengths = sorted(history.last.routes_by_length.items())
        chart = []
        for _ in range(20):  # what a render worker spends on the chart (off the event loop)
            t = time.perf_counter()
            render_stats_png(ratings, lengths)
            chart.append((time.perf_counter() - t) * 1000)
        print(f"{'the chart (one worker)':26s} p50 {p(chart, 50):7.1f} ms   p95 {p(chart, 95):7.1f} ms")
    if args.pg:
        import asyncpg  # noqa: PLC0415

        conn = await asyncpg.connect(args.pg)
        sizes = {
            r["name"]: r["size"]
            for r in await conn.fetch(
                "SELECT c.relname AS name, pg_total_relation_size(c.oid) AS size FROM pg_class c JOIN pg_namespace n"
                " ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname IN ('seat_stats', 'claimed_routes',"
                " 'route_counts')",
                schema,
            )
        }
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()
        print(
            f"statistics storage: {sum(sizes.values()) / args.games:.0f} bytes per game (with indexes: "
            + ", ".join(f"{k} {v / args.games:.0f}" for k, v in sorted(sizes.items()))
            + ")"
        )
    else:
        conn = sqlite3.connect(tmp / "stats.db")
        try:
            sizes = dict(conn.execute(
                "SELECT name, SUM(pgsize) FROM dbstat WHERE name IN ('seat_stats', 'claimed_routes',"
                " 'seat_stats_user', 'seat_stats_guild', 'route_counts', 'route_counts_top') GROUP BY name"
            ).fetchall())  # fmt: skip
        except sqlite3.OperationalError:
            sizes = {}
        conn.close()
        if sizes:
            total = sum(sizes.values())
            print(
                f"statistics storage: {total / args.games:.0f} bytes per game (tables and indexes: "
                + ", ".join(f"{k} {v / args.games:.0f}" for k, v in sorted(sizes.items()))
                + ")"
            )


if __name__ == "__main__":
    asyncio.run(main())

"""Benchmark of the AI levels: strength and decision time.

    python bench/bench_ai.py [--games N] [--hard-games M] [--table-games K] [--boards europe,usa] [--jobs 2]

Prints, per board: normal's win rate against three random players (4 players), hard against normal in 2-player
games, a 4-player table hard / normal / normal / easy, the mean score of normal at a table of four normals, and
the decision time p50/p95 per level over every game played. Seats rotate from game to game.
Targets: normal beats random in >= 95% of games on every board; hard beats normal in >= 60% of 2-player games;
normal's mean at a table of normals >= 80 on Europe and USA; easy and normal < 20 ms p95, hard < 1.5 s p95.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.tournament import percentile, play_match  # noqa: E402
from maps import board_ids  # noqa: E402


def _one(job: tuple[str, list[str], int, float | None]) -> dict[str, Any]:
    board, seats, seed, budget = job
    n = len(seats)
    shift = seed % n
    order = [(i + shift) % n for i in range(n)]  # position -> entry
    result = play_match(board, None, (), [seats[e] for e in order], seed, budget_ms=budget)
    out: dict[str, Any] = {"errors": result.errors, "entries": []}
    for pos, entry in enumerate(order):
        out["entries"].append(
            {
                "entry": entry,
                "level": seats[entry],
                "score": result.scores[pos] if result.scores else None,
                "win": pos in result.winners,
                "sole_win": result.winners == [pos],
                "times": result.decision_ms[pos],
            }
        )
    return out


def run(
    pool: ProcessPoolExecutor,
    board: str,
    seats: list[str],
    games: int,
    seed: int,
    budget: float | None,
    times: dict[str, list[float]],
) -> dict[str, Any]:
    jobs = [(board, seats, seed + g, budget) for g in range(games)]
    wins = [0] * len(seats)
    scores: list[list[int]] = [[] for _ in seats]
    errors: list[str] = []
    for res in pool.map(_one, jobs):
        errors += res["errors"]
        for e in res["entries"]:
            if e["score"] is None:
                continue
            scores[e["entry"]].append(e["score"])
            wins[e["entry"]] += e["win"]
            times[e["level"]].extend(e["times"])
    played = len(scores[0])
    return {
        "wins": wins,
        "played": played,
        "errors": errors,
        "mean": [sum(s) / max(1, len(s)) for s in scores],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games", type=int, default=20, help="games per board for normal vs random and normal tables"
    )
    ap.add_argument("--hard-games", type=int, default=20, help="2-player hard vs normal games per board")
    ap.add_argument(
        "--table-games", type=int, default=4, help="4-player hard/normal/normal/easy games per board"
    )
    ap.add_argument("--boards", default=",".join(board_ids()))
    ap.add_argument("--hard-boards", default="europe,usa", help="boards for the games with a hard player")
    ap.add_argument("--budget-ms", type=float, default=None, help="hard level's time budget per decision")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    boards = [b for b in args.boards.split(",") if b]
    hard_boards = [b for b in args.hard_boards.split(",") if b]
    times: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    all_errors: list[str] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for board in boards:
            t0 = time.perf_counter()
            r = run(pool, board, ["normal", "random", "random", "random"], args.games, args.seed, None, times)
            all_errors += r["errors"]
            print(
                f"{board:8s} normal vs 3 random : normal won {r['wins'][0]}/{r['played']} "
                f"({100 * r['wins'][0] / max(1, r['played']):.0f}%), mean {r['mean'][0]:.1f} vs random "
                f"{sum(r['mean'][1:]) / 3:.1f}  [{time.perf_counter() - t0:.0f}s]",
                flush=True,
            )
            t0 = time.perf_counter()
            r = run(pool, board, ["normal"] * 4, args.games, args.seed + 500, None, times)
            all_errors += r["errors"]
            mean = sum(r["mean"]) / 4
            print(
                f"{board:8s} 4 normals          : mean final score {mean:.1f} over {r['played']} games "
                f"[{time.perf_counter() - t0:.0f}s]",
                flush=True,
            )
        for board in hard_boards:
            if args.hard_games:
                t0 = time.perf_counter()
                r = run(
                    pool, board, ["hard", "normal"], args.hard_games, args.seed + 2000, args.budget_ms, times
                )
                all_errors += r["errors"]
                print(
                    f"{board:8s} hard vs normal 2p  : hard won {r['wins'][0]}/{r['played']} "
                    f"({100 * r['wins'][0] / max(1, r['played']):.0f}%; normal won {r['wins'][1]}), "
                    f"mean {r['mean'][0]:.1f} vs {r['mean'][1]:.1f}  [{time.perf_counter() - t0:.0f}s]",
                    flush=True,
                )
            if args.table_games:
                t0 = time.perf_counter()
                seats = ["hard", "normal", "normal", "easy"]
                r = run(pool, board, seats, args.table_games, args.seed + 3000, args.budget_ms, times)
                all_errors += r["errors"]
                print(
                    f"{board:8s} hard/normal/normal/easy: wins {r['wins']} of {r['played']}, means "
                    f"{[round(m, 1) for m in r['mean']]}  [{time.perf_counter() - t0:.0f}s]",
                    flush=True,
                )
    print("decision time per level (ms):")
    for level in ("random", "easy", "normal", "hard"):
        t = times.get(level, [])
        if t:
            print(
                f"  {level:7s} p50 {percentile(t, 50):8.2f}  p95 {percentile(t, 95):8.2f}  "
                f"max {max(t):8.1f}  decisions {len(t)}"
            )
    print(f"errors: {len(all_errors)} {all_errors[:3]}")
    print(f"total {time.perf_counter() - started:.0f}s")
    return 1 if all_errors else 0


if __name__ == "__main__":
    raise SystemExit(main())

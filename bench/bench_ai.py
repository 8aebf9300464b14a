"""Benchmark of the AI levels: strength and decision time.

    python bench/bench_ai.py [--games N] [--hard-games M] [--table-games K] [--boards europe,usa]
                             [--hard-boards ...] [--table-boards europe,usa] [--jobs 1]

Prints, per board: normal's win rate against three random players (4 players), the mean score of normal at a
table of four normals, hard against normal in 2-player games (every board), a 4-player table hard / normal /
normal / easy (Europe and USA), and the decision time p50/p95 per level over every game played. Seats rotate
from game to game. Win rates come with their 95% Wilson interval (a shared first place counts as a win).
Targets: normal beats random in >= 95% of games on every board; hard beats normal in >= 60% of 2-player games;
hard wins most often at the hard / normal / normal / easy table; normal's mean at a table of normals >= 80 on
Europe and USA; easy and normal < 20 ms p95, hard < 1.5 s p95; no illegal action.
A full run at the default sizes takes about an hour of one core (the hard games dominate).

A/B runs: `--search candidates=1` plays hard's base policy alone (no search, ~100x faster), `--search
midgame=false,eval_time_slack=1.45` changes engine.ai.search.SETTINGS, `--hard-params time_slack=2.0` changes
hard's policy knobs (engine.ai.context.HARD_PARAMS and HARD_MOST_TICKETS). The same --seed plays the same deals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.tournament import percentile, play_match  # noqa: E402
from maps import board_ids  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins:g}/{n} = {100 * wins / max(1, n):.0f}% [95% CI {100 * lo:.0f}-{100 * hi:.0f}%]"


def knobs(text: str) -> dict[str, Any]:
    """`a=1,b=false,c=2.5` -> {"a": 1, "b": False, "c": 2.5} (values read as JSON, else kept as text)."""
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def set_knobs(search: dict[str, Any], hard_params: dict[str, Any]) -> None:
    """Worker start-up: apply the A/B knobs in this process."""
    from engine.ai import context
    from engine.ai import search as searching

    for key, value in search.items():
        if not hasattr(searching.SETTINGS, key):
            raise SystemExit(f"unknown search setting {key!r}")
        setattr(searching.SETTINGS, key, value)
    for key in hard_params:
        if key not in context.HARD_PARAMS:
            raise SystemExit(f"unknown policy knob {key!r}")
    context.HARD_PARAMS.update(hard_params)
    context.HARD_MOST_TICKETS.update(hard_params)


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
    ap.add_argument("--hard-games", type=int, default=30, help="2-player hard vs normal games per board")
    ap.add_argument(
        "--table-games", type=int, default=20, help="4-player hard/normal/normal/easy games per board"
    )
    ap.add_argument("--boards", default=",".join(board_ids()))
    ap.add_argument("--hard-boards", default=",".join(board_ids()), help="boards for hard vs normal 2p games")
    ap.add_argument(
        "--table-boards", default="europe,usa", help="boards for the hard/normal/normal/easy table"
    )
    ap.add_argument("--budget-ms", type=float, default=None, help="hard level's time budget per decision")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the machine may be shared)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--search", default="", help="search settings for A/B runs: key=value,...")
    ap.add_argument("--hard-params", default="", help="hard policy knobs for A/B runs: key=value,...")
    args = ap.parse_args(argv)
    search, hard_params = knobs(args.search), knobs(args.hard_params)
    set_knobs(search, hard_params)  # fails early on a misspelt knob
    if search or hard_params:
        print(f"A/B knobs: search {search}, hard policy {hard_params}")
    boards = [b for b in args.boards.split(",") if b]
    hard_boards = [b for b in args.hard_boards.split(",") if b]
    table_boards = [b for b in args.table_boards.split(",") if b]
    times: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    all_errors: list[str] = []
    with ProcessPoolExecutor(
        max_workers=args.jobs, initializer=set_knobs, initargs=(search, hard_params)
    ) as pool:
        for board in boards if args.games else []:
            t0 = time.perf_counter()
            r = run(pool, board, ["normal", "random", "random", "random"], args.games, args.seed, None, times)
            all_errors += r["errors"]
            print(
                f"{board:8s} normal vs 3 random : normal won {rate(r['wins'][0], r['played'])}, "
                f"mean {r['mean'][0]:.1f} vs random "
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
                    f"{board:8s} hard vs normal 2p  : hard won {rate(r['wins'][0], r['played'])} "
                    f"(normal won {r['wins'][1]}), mean {r['mean'][0]:.1f} vs {r['mean'][1]:.1f}  "
                    f"[{time.perf_counter() - t0:.0f}s]",
                    flush=True,
                )
        for board in table_boards:
            if args.table_games:
                t0 = time.perf_counter()
                seats = ["hard", "normal", "normal", "easy"]
                r = run(pool, board, seats, args.table_games, args.seed + 3000, args.budget_ms, times)
                all_errors += r["errors"]
                n = r["played"]
                print(
                    f"{board:8s} hard/normal/normal/easy: hard won {rate(r['wins'][0], n)}; normal "
                    f"{100 * r['wins'][1] / max(1, n):.0f}% / {100 * r['wins'][2] / max(1, n):.0f}%, easy "
                    f"{100 * r['wins'][3] / max(1, n):.0f}%; means {[round(m, 1) for m in r['mean']]}  "
                    f"[{time.perf_counter() - t0:.0f}s]",
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

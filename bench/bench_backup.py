"""Backup benchmark: ``ttr backup`` (SQLite's online backup API) of a database of 10,000 games, with the bot idle and
while moves are written, and ``ttr restore`` of the copy.

    python bench/bench_backup.py                   # 10,000 games, each a real game played ~60 moves
    python bench/bench_backup.py --games 2000 --moves 30

The games are made by playing a few real games (the manager, random legal moves: real snapshots and action rows)
and cloning their rows under new ids (a game's rows: games, game_players, actions, timers) until there are
`--games`. Prints the database's size, the backup's time and size, the restore's time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers.manager_games import play_random, random_ai, started_game  # noqa: E402

from bot.manager import GameManager, ManualClock  # noqa: E402
from bot.ops.backup import backup, restore  # noqa: E402
from bot.storage import open_repository  # noqa: E402

TEMPLATES = 8


async def play_templates(url: str, moves: int) -> list[str]:
    clock = ManualClock()
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        ids = []
        for n in range(TEMPLATES):
            game_id, _ = await started_game(manager, humans=3, seed=n + 1, board=("europe", "usa")[n % 2])
            await play_random(manager, game_id, random.Random(n), moves=moves)
            ids.append(game_id)
        await manager.close()
    return ids


def clone(path: Path, templates: list[str], games: int) -> None:
    """Copy the templates' rows under new ids until there are `games` games (one transaction)."""
    conn = sqlite3.connect(path)
    columns = {
        t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
        for t in ("games", "game_players", "actions", "timers")
    }
    with conn:
        for n in range(games - len(templates)):
            source = templates[n % len(templates)]
            new = f"b{n:09d}"
            cols = columns["games"]
            picked = ", ".join("?" if c == "id" else ("? " if c == "channel_id" else c) for c in cols)
            conn.execute(
                f"INSERT INTO games ({', '.join(cols)}) SELECT {picked} FROM games WHERE id = ?",
                [new if c == "id" else 10**12 + n for c in cols if c in ("id", "channel_id")] + [source],
            )
            for table in ("game_players", "actions", "timers"):
                cols = [c for c in columns[table] if not (table == "timers" and c == "id")]
                picked = ", ".join("?" if c == "game_id" else c for c in cols)
                conn.execute(
                    f"INSERT INTO {table} ({', '.join(cols)}) SELECT {picked} FROM {table} WHERE game_id = ?",
                    (new, source),
                )
    conn.close()


async def write_while(url: str, counts: list[int], stop: asyncio.Event) -> None:
    """Moves on a game while the backup runs (a writer in the same database, as a live bot); `counts[0]`: moves
    made so far."""
    clock = ManualClock()
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(
            repo, clock=clock, ai=random_ai
        )  # (not started: no start-up sweep of 10,000 games)
        game_id, _ = await started_game(manager, humans=2, seed=99, board="usa")
        rng = random.Random(5)
        while not stop.is_set():
            made = await play_random(manager, game_id, rng, moves=1)
            if not made:  # (over: another)
                game_id, _ = await started_game(manager, humans=2, seed=counts[0], board="usa")
            counts[0] += made
            await asyncio.sleep(0)
        await manager.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=60, help="moves played in each template game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "live.db"
        url = f"sqlite:///{db}"
        started = time.perf_counter()
        templates = await play_templates(url, args.moves)
        clone(db, templates, args.games)
        size = db.stat().st_size + (Path(f"{db}-wal").stat().st_size if Path(f"{db}-wal").exists() else 0)
        print(
            f"database: {args.games} games, {size / 1e6:.1f} MB (made in {time.perf_counter() - started:.0f} s)"
        )

        copied = await asyncio.to_thread(backup, url, Path(tmp) / "idle.db")
        print(
            f"backup, bot idle:        {copied.seconds:.2f} s, {copied.bytes / 1e6:.1f} MB, {copied.games} games"
        )

        stop, counts = asyncio.Event(), [0]
        writer = asyncio.create_task(write_while(url, counts, stop))
        while counts[0] < 20:
            await asyncio.sleep(0.05)
        before = counts[0]
        copied = await asyncio.to_thread(backup, url, Path(tmp) / "busy.db")
        made = counts[0] - before
        stop.set()
        await writer
        print(
            f"backup, moves written:   {copied.seconds:.2f} s, {copied.bytes / 1e6:.1f} MB, {copied.games} games "
            f"({made} moves written during the backup, {made / copied.seconds:.0f} a second)"
        )
        restored = await asyncio.to_thread(
            restore, Path(tmp) / "idle.db", f"sqlite:///{Path(tmp) / 'restored.db'}"
        )
        print(f"restore:                 {restored.seconds:.2f} s")
    print("(a shared 2-core machine, loaded by other work: the times are noisy, the sizes exact)")


if __name__ == "__main__":
    asyncio.run(main())

"""The kill -9 window of a message owed as a row: between Discord's acknowledgement of the post and the write that
records it (a turn message's ``told_through`` note, which clears its ``tell`` row; a reminder's row deleted). A
``kill -9`` inside it posts the message again after the lease; a clean stop (SIGTERM) waits for it. This prints
how long that write takes on each store (the window is that, plus the time Discord's answer takes to come back).

    python bench/bench_post_window.py                  # SQLite and PostgreSQL, 300 writes each
    python bench/bench_post_window.py --writes 1000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


async def measure(name: str, url: str, writes: int) -> None:
    from datetime import timedelta

    from bot.manager import GameManager, ManualClock
    from bot.storage import NewTimer, TimerChange, open_repository

    clock = ManualClock()
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock)
        info = await manager.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ann")
        await manager.join(info.game_id, 2, "Bob")
        await manager.start_game(info.game_id, 1, seed=1)
        notes, deletions = [], []
        for n in range(1, writes + 1):
            started = time.perf_counter()
            await manager.swap_notes(info.game_id, {"told_through": n}, rising=("told_through",))
            notes.append(time.perf_counter() - started)
            due = clock.now() + timedelta(days=1)
            [row] = await repo.change_timers(info.game_id, TimerChange(add=(NewTimer("remind", due, {}),)))
            started = time.perf_counter()
            await repo.delete_timer(row.id)
            deletions.append(time.perf_counter() - started)
        await manager.close()

    def ms(values: list[float]) -> str:
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        return f"median {statistics.median(values) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"

    print(f"{name:10s} note written after a turn message: {ms(notes)}; reminder row deleted: {ms(deletions)}")


async def main(writes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        await measure("sqlite", f"sqlite:///{Path(tmp) / 'games.db'}", writes)
    import asyncpg

    schema = f"ttr_bench_window_{uuid.uuid4().hex[:10]}"
    try:
        await measure("postgres", f"{PG_URL}?schema={schema}", writes)
    finally:
        conn = await asyncpg.connect(PG_URL, timeout=5)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=300)
    asyncio.run(main(parser.parse_args().writes))

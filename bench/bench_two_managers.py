"""Two managers on one PostgreSQL against one: random asynchronous games (moves, days passing, reminders, the
absent-player policies, absent players coming back), each played twice from the same script: once by one
manager (twice: a control), once by two (A serves the timers, B takes the moves and serves the game meanwhile).
Prints how many games heard different messages or ended with different timer rows, and how many waits were left
with a turn row that fires late (a reminder missed: the row of an earlier wait, due after this wait's first
reminder).

    python bench/bench_two_managers.py                 # 40 games of 60 steps
    python bench/bench_two_managers.py --games 10 --steps 30

Runs in a throw-away schema of ``TTR_TEST_POSTGRES_URL`` (default postgresql://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
POLICIES = ("wait", "ai", "skip")
HUMANS = [(101, "Ann"), (102, "Bob"), (103, "Cleo")]


class Heard:
    """What the players heard: reminders, absent-player announcements, turn messages (by log position)."""

    def __init__(self) -> None:
        self.said: list[tuple[Any, ...]] = []
        self.manager: Any = None

    async def on_turn(self, game_id: str, outcome: Any) -> None:
        self.said.append(("turn", tuple(outcome.seqs)))
        if self.manager is not None and outcome.state is not None:
            await self.manager.swap_note(game_id, "told_through", len(outcome.state.history))

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.said.append(("remind", seat, n))

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        self.said.append(("absent", seat, policy))

    async def on_lobby_expired(self, game_id: str, outcome: Any) -> None:
        return None


async def play(
    url: str, seed: int, steps: int, processes: int, tag: int = 0
) -> tuple[list[Any], list[Any], int]:
    """One scripted game; returns (heard, the rows at the end, waits left with a late turn row)."""
    from bot.manager import GameManager, ManualClock, Refused, random_action
    from bot.manager.timer_rows import TimerKind, TurnWait
    from bot.storage import open_repository

    async def ai(state: Any, seat: int, level: str, rng: random.Random) -> Any:
        # deterministic (the two runs of a script must play the same moves): drawn from the position
        return random_action(state, seat, random.Random(f"{seed}:{len(state.history)}:{seat}"))

    rng = random.Random(seed)
    clock = ManualClock()
    heard = Heard()
    late = 0
    async with (
        open_repository(url, clock=clock.now) as repo_a,
        open_repository(url, clock=clock.now) as repo_b,
    ):
        a = GameManager(repo_a, clock=clock, notifier=heard, ai=ai, retry_delays=(0.01,))
        heard.manager = a
        b = a if processes == 1 else GameManager(repo_b, clock=clock, ai=ai, retry_delays=(0.01,))
        await a.start(dispatcher=False)
        if b is not a:
            await b.start(dispatcher=False)
        try:
            policy = rng.choice(POLICIES)
            humans = rng.choice((2, 3))
            info = await b.create_game(
                guild_id=1, channel_id=rng.randrange(1, 1 << 40) * 100 + tag * 10 + processes, host_id=101, host_name="Ann",
                settings={"absent_policy": policy},
            )  # fmt: skip
            for uid, name in HUMANS[1:humans]:
                await b.join(info.game_id, uid, name)
            gid = info.game_id
            await b.start_game(gid, 101, seed=rng.randrange(1 << 30))
            for _ in range(steps):
                status = await b.status(gid)
                if status.status != "active":
                    break
                if rng.random() < 0.55 and status.to_act:  # someone (maybe back from being absent) moves
                    seat = rng.choice(status.to_act)
                    uid = status.seats[seat].user_id
                    if uid is not None and status.seats[seat].ai_level is None:
                        legal = await b.legal_actions(gid, uid)
                        if legal:
                            with contextlib.suppress(Refused):
                                await b.act(gid, uid, rng.choice(legal))
                else:  # time passes: A serves what is due
                    clock.advance(hours=rng.choice((1, 6, 12, 24)), minutes=1)
                    await a.run_due_timers()
                    await a.run_due_timers()
                await b.status(gid)  # B serves the game meanwhile
                game = await a._store.get(gid)  # the stored rows, as a fresh reader sees them
                humans_to_act, _ai = game.waiting()
                rows = [t for t in await repo_a.timers_for_game(gid) if t.kind == TimerKind.TURN]
                if humans_to_act and rows:
                    row = max(rows, key=lambda t: TurnWait.of(t).stage)
                    first = game.last_move_at + timedelta(hours=game.settings.remind_after_hours)
                    if TurnWait.of(row).key != game.wait_key() and row.due_at > max(first, clock.now()):
                        late += 1
            rows = sorted(
                (t.kind, t.payload.get("key"), t.payload.get("stage"), round((t.due_at - clock.now()).total_seconds()))
                for t in await repo_a.timers_for_game(gid)
            )  # fmt: skip
        finally:
            if b is not a:
                await b.close()
            await a.close()
    return heard.said, rows, late


async def schema(drop: str | None = None) -> str:
    import asyncpg

    conn = await asyncpg.connect(PG_URL, timeout=5)
    try:
        if drop is not None:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{drop}" CASCADE')
            return drop
        return f"ttr_bench_two_{uuid.uuid4().hex[:10]}"
    finally:
        await conn.close()


async def main(games: int, steps: int, seed: int) -> None:
    name = await schema()
    url = f"{PG_URL}?schema={name}"
    started = time.monotonic()
    differ = noise = late_one = late_two = heard_one = 0
    try:
        for g in range(games):
            one = await play(url, seed + g, steps, 1)
            again = await play(url, seed + g, steps, 1, tag=1)  # the control: one manager, the same script
            two = await play(url, seed + g, steps, 2)
            heard_one += len(one[0])
            late_one += one[2]
            late_two += two[2]
            noise += one[:2] != again[:2]
            differ += one[:2] != two[:2] and again[:2] != two[:2]
    finally:
        await schema(drop=name)
    print(
        f"two managers vs one: {games} games x {steps} steps in {time.monotonic() - started:.0f} s;"
        f" messages heard (one manager) {heard_one}; games where two managers differ from both runs of one"
        f" {differ} (one manager differs from itself in {noise}: timing);"
        f" waits with a late turn row: one manager {late_one}, two managers {late_two}",
        flush=True,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.steps, args.seed))

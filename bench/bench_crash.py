"""kill -9 campaign: real OS processes play games through the GameManager and are killed with SIGKILL at random
moments, then restarted; after every kill the database is checked.

    python bench/bench_crash.py                          # SQLite and PostgreSQL, 180 s each
    python bench/bench_crash.py --backend sqlite --seconds 60
    python bench/bench_crash.py --pg-url postgresql://postgres@127.0.0.1:5432/test

A worker process (this script with ``--worker``) keeps three games going (two people and an AI seat each, the
``wait`` absent-player policy, under which a game the AI should move and nothing will move waits for ever) and
prints ``ACK <game> <seq>`` for every action the manager acknowledged (``act()`` returned, so after the commit;
the AI's moves that followed included). The parent kills it after a random number of acknowledgements plus a
random delay (often in the middle of the AI's moves), then, before any restart, checks every game:

Counts of the checks are per game and per kill (a game that stays stalled counts at every check after):

* lost: acknowledged actions missing from the stored log;
* corrupt: a stored game (its saved position, and that position played on through its log) that is not exactly
  its log replayed, or a log with gaps;
* left stalled: a running game whose next step (an AI seat to move, a person to remind) has no timer row;
* stalled after restart: a fresh manager starts on the database (its start-up sweep, then the timers of one
  simulated minute): an AI seat still to move, or a person to act with no timer, is a stalled game;
* workers stuck: a worker that acknowledged nothing for 20 s (every game waits for a move nothing makes); it
  is killed then.

PostgreSQL runs in a throw-away schema, dropped afterwards. SQLite runs in a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_PG_URL = os.environ.get("TTR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
GAMES = 3
SETTINGS = {"absent_policy": "wait"}
STUCK_AFTER = 20.0


# --------------------------------------------------------------------------- the worker (a separate process)


async def worker(url: str, ids_file: str, seed: int) -> None:
    from bot.manager import GameManager, SystemClock, random_action
    from bot.storage import open_repository

    async def random_ai(state, seat, level, rng):  # type: ignore[no-untyped-def]
        return random_action(state, seat, rng)

    rng = random.Random(seed)
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=SystemClock(), ai=random_ai)
        await manager.start(dispatcher=False)  # the start-up sweep runs; the parent serves the timers
        ids = json.loads(Path(ids_file).read_text()) if os.path.exists(ids_file) else []
        print("READY", flush=True)
        while True:
            live = []
            for gid in ids:
                if (await manager.status(gid)).status == "active":
                    live.append(gid)
            while len(live) < GAMES:
                channel = rng.randrange(1, 1 << 40)
                info = await manager.create_game(
                    guild_id=1, channel_id=channel, host_id=1, host_name="Ann", settings=SETTINGS
                )
                await manager.join(info.game_id, 2, "Bob")
                await manager.add_ai(info.game_id, 1, "easy")
                live.append(info.game_id)
                ids.append(info.game_id)
                tmp = ids_file + ".tmp"
                Path(tmp).write_text(json.dumps(ids))
                os.replace(tmp, ids_file)
                outcome = await manager.start_game(info.game_id, 1, seed=rng.randrange(1 << 30))
                for seq in outcome.seqs:
                    print(f"ACK {info.game_id} {seq}", flush=True)
            gid = rng.choice(live)
            info = await manager.status(gid)
            humans = [s for s in info.to_act if info.seats[s].ai_level is None]
            if not humans:  # the AI's turn, left by a kill: its timer moves it (the parent serves it)
                await asyncio.sleep(0.01)
                continue
            seat = rng.choice(humans)
            uid = info.seats[seat].user_id
            assert uid is not None
            legal = await manager.legal_actions(gid, uid)
            outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
            for seq in outcome.seqs:
                print(f"ACK {gid} {seq}", flush=True)


# --------------------------------------------------------------------------- the parent


@dataclass
class Figures:
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    corrupt: int = 0
    left_stalled: int = 0
    stalled_after_restart: int = 0
    games: set[str] = field(default_factory=set)
    stalled_games: set[str] = field(default_factory=set)  # ever stalled a minute after a restart
    stuck_workers: int = 0  # workers that acknowledged nothing for STUCK_AFTER seconds (killed then)
    acked: dict[str, set[int]] = field(default_factory=dict)


def run_worker(url: str, ids_file: Path, seed: int, figures: Figures, rng: random.Random) -> None:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", url, str(ids_file), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    kill_after = rng.randint(1, 60)
    seen = 0
    last_line = [time.monotonic()]

    def watchdog() -> None:  # a worker that acknowledges nothing for a while: every game is stuck
        while proc.poll() is None:
            if time.monotonic() - last_line[0] > STUCK_AFTER:
                figures.stuck_workers += 1
                os.kill(proc.pid, signal.SIGKILL)
                return
            time.sleep(0.5)

    threading.Thread(target=watchdog, daemon=True).start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            last_line[0] = time.monotonic()
            if line.startswith("READY") and rng.random() < 0.05:
                break  # now and then a kill during the start-up (the sweep)
            if line.startswith("ACK "):
                _, gid, seq = line.split()
                figures.acked.setdefault(gid, set()).add(int(seq))
                figures.acknowledged += 1
                seen += 1
                if seen >= kill_after:
                    time.sleep(rng.uniform(0, 0.02))  # somewhere inside the next move, or the AI's after it
                    break
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        figures.kills += 1
        proc.wait(timeout=30)
        if proc.stdout:
            proc.stdout.close()


async def check(url: str, ids_file: Path, figures: Figures) -> None:
    """After a kill: what the kill left, then a restart and one simulated minute of timers."""
    from bot.manager import GameManager, ManualClock, random_action
    from bot.manager.positions import stored_state
    from bot.storage import GameStatus, open_repository
    from engine.record import replay, saved_position

    async def random_ai(state, seat, level, rng):  # type: ignore[no-untyped-def]
        return random_action(state, seat, rng)

    ids = json.loads(ids_file.read_text()) if ids_file.exists() else []
    figures.games.update(ids)
    clock = ManualClock(datetime.now(UTC))
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        for gid in ids:  # what the kill left, before anything repairs it
            rows = await repo.load_actions(gid)
            seqs = [r.seq for r in rows]
            figures.lost += len(figures.acked.get(gid, set()) - set(seqs))
            stored = await repo.load_game(gid)
            if seqs != list(range(1, len(seqs) + 1)) or stored.action_count != len(seqs):
                figures.corrupt += 1
            elif stored.status != GameStatus.LOBBY:
                record = await manager.export_record(
                    gid
                )  # (its saved position, and the log replayed through it)
                at = stored.snapshot_seq
                state = await stored_state(repo, gid)
                if saved_position(
                    replay({**record, "actions": record["actions"][:at]})
                ) != stored.snapshot or (state is None or replay(record).to_dict() != state.to_dict()):
                    figures.corrupt += 1
            game = await manager._store.get(gid)
            humans, ai = game.waiting()
            kinds = {t.kind for t in await repo.timers_for_game(gid)}
            if (ai and "resume" not in kinds) or (humans and "turn" not in kinds):
                figures.left_stalled += 1
        await manager.start()  # the restart: its sweep, then its dispatcher
        try:
            await asyncio.wait_for(manager.timers.settled(), 60)
            clock.advance(seconds=61)
            await asyncio.wait_for(manager.timers.settled(), 60)
            for gid in ids:
                game = await manager._store.get(gid)
                humans, ai = game.waiting()
                kinds = {t.kind for t in await repo.timers_for_game(gid)}
                if ai or (humans and "turn" not in kinds):
                    figures.stalled_after_restart += 1
                    figures.stalled_games.add(gid)
        finally:
            await manager.close()


def campaign(name: str, url: str, seconds: float, seed: int) -> Figures:
    figures = Figures()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        ids_file = Path(tmp) / "games.json"
        if url.startswith("sqlite"):
            url = f"sqlite:///{Path(tmp) / 'games.db'}"
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            run_worker(url, ids_file, rng.randrange(1 << 30), figures, rng)
            asyncio.run(check(url, ids_file, figures))
    print(
        f"{name:10s} {seconds:5.0f} s  kills {figures.kills:4d}  games {len(figures.games):3d}"
        f"  moves acknowledged {figures.acknowledged:6d}  lost {figures.lost}  corrupt {figures.corrupt}"
        f"  left stalled by the kill {figures.left_stalled}  stalled a minute after the restart"
        f" {figures.stalled_after_restart} ({len(figures.stalled_games)} games)"
        f"  workers stuck {figures.stuck_workers}",
        flush=True,
    )
    return figures


async def pg_schema(pg_url: str, drop: str | None = None) -> str | None:
    import asyncpg

    try:
        conn = await asyncpg.connect(pg_url, timeout=5)
    except (OSError, asyncpg.exceptions.PostgresError, TimeoutError) as exc:
        print(f"postgres   skipped: {type(exc).__name__}: {exc}")
        return None
    try:
        if drop is not None:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{drop}" CASCADE')
            return None
        return f"ttr_bench_crash_{uuid.uuid4().hex[:10]}"
    finally:
        await conn.close()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        asyncio.run(worker(sys.argv[2], sys.argv[3], int(sys.argv[4])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=180.0, help="length of each store's campaign")
    parser.add_argument("--pg-url", default=DEFAULT_PG_URL)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        campaign("sqlite", "sqlite", args.seconds, args.seed)
    if args.backend in ("postgres", "both"):
        schema = asyncio.run(pg_schema(args.pg_url))
        if schema is not None:
            try:
                campaign("postgres", f"{args.pg_url}?schema={schema}", args.seconds, args.seed)
            finally:
                asyncio.run(pg_schema(args.pg_url, drop=schema))


if __name__ == "__main__":
    main()

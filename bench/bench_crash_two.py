"""kill -9 of one of two processes on one PostgreSQL: two worker processes play the same games (each opens its
own and plays the other's too: every game is written by both), one of them is killed with SIGKILL at a random
moment, the other is stopped cleanly (SIGTERM) a moment later, then every game is checked as in
bench_crash.py (acknowledged moves lost, corrupt logs or snapshots, games left stalled, games stalled a minute
after a restart).

    python bench/bench_crash_two.py --seconds 120

PostgreSQL runs in a throw-away schema (``TTR_TEST_POSTGRES_URL``), dropped afterwards.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_crash import DEFAULT_PG_URL, GAMES, SETTINGS, Figures, check, pg_schema  # noqa: E402


async def worker(url: str, ids_file: str, other_ids: str, seed: int) -> None:
    """bench_crash's worker, playing the other worker's games as well; SIGTERM closes it cleanly."""
    from bot.manager import GameManager, Refused, SystemClock, random_action
    from bot.storage import open_repository

    async def random_ai(state, seat, level, rng):  # type: ignore[no-untyped-def]
        return random_action(state, seat, rng)

    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    rng = random.Random(seed)
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=SystemClock(), ai=random_ai)
        await manager.start(dispatcher=False)
        await manager.join_cluster(shard_ids="all", shard_count=None, every=2.0)
        mine = json.loads(Path(ids_file).read_text()) if os.path.exists(ids_file) else []
        print("READY", flush=True)
        while not stop.is_set():
            theirs = json.loads(Path(other_ids).read_text()) if os.path.exists(other_ids) else []
            live = [gid for gid in mine if (await manager.status(gid)).status == "active"]
            if len(live) < GAMES:
                info = await manager.create_game(
                    guild_id=1, channel_id=rng.randrange(1, 1 << 40), host_id=1, host_name="Ann", settings=SETTINGS
                )  # fmt: skip
                await manager.join(info.game_id, 2, "Bob")
                await manager.add_ai(info.game_id, 1, "easy")
                mine.append(info.game_id)
                Path(ids_file + ".tmp").write_text(json.dumps(mine))
                os.replace(ids_file + ".tmp", ids_file)
                outcome = await manager.start_game(info.game_id, 1, seed=rng.randrange(1 << 30))
                for seq in outcome.seqs:
                    print(f"ACK {info.game_id} {seq}", flush=True)
                continue
            gid = rng.choice(live + theirs)
            info = await manager.status(gid)
            humans = [s for s in info.to_act if info.seats[s].ai_level is None]
            if info.status != "active" or not humans:
                await asyncio.sleep(0.01)
                continue
            seat = rng.choice(humans)
            uid = info.seats[seat].user_id
            assert uid is not None
            legal = await manager.legal_actions(gid, uid)
            try:
                outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
            except Refused as exc:  # the other process moved first
                assert exc.code in ("stale", "conflict", "illegal", "not_your_turn", "seat_ai"), exc.code
                continue
            for seq in outcome.seqs:
                print(f"ACK {gid} {seq}", flush=True)
        await manager.close()
        print("STOPPED", flush=True)


def _run_pair(url: str, folder: Path, figures: Figures, rng: random.Random, clean_stops: list[int]) -> None:
    files = [str(folder / "a.json"), str(folder / "b.json")]
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", url, files[i], files[1 - i], str(rng.randrange(1 << 30))],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=(folder / f"worker{i}.err").open("w"),
            text=True,
        )
        for i in (0, 1)
    ]
    victim = rng.randrange(2)
    kill_after = rng.randint(5, 80)
    seen = [0]
    lock = threading.Lock()
    killed = threading.Event()

    def read(i: int) -> None:
        proc = procs[i]
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("STOPPED"):
                with lock:
                    clean_stops[0] += 1
            if not line.startswith("ACK "):
                continue
            _, gid, seq = line.split()
            with lock:
                figures.acked.setdefault(gid, set()).add(int(seq))
                figures.acknowledged += 1
                seen[0] += 1
                due = seen[0] >= kill_after and not killed.is_set()
            if due:
                time.sleep(rng.uniform(0, 0.02))  # somewhere inside a move of either process
                os.kill(procs[victim].pid, signal.SIGKILL)
                killed.set()

    readers = [threading.Thread(target=read, args=(i,), daemon=True) for i in (0, 1)]
    for r in readers:
        r.start()
    if not killed.wait(30):  # nothing acknowledged for long: kill it anyway
        figures.stuck_workers += 1
        os.kill(procs[victim].pid, signal.SIGKILL)
    figures.kills += 1
    time.sleep(rng.uniform(0.1, 1.0))  # the other goes on alone a moment, then a deploy stops it
    survivor = procs[1 - victim]
    if survivor.poll() is None:
        survivor.send_signal(signal.SIGTERM)
    try:
        survivor.wait(timeout=20)
    except subprocess.TimeoutExpired:
        survivor.kill()
    for proc in procs:
        proc.wait(timeout=20)
    for r in readers:
        r.join(timeout=5)
    if survivor.returncode != 0:  # not a clean stop: say why
        lines = (folder / f"worker{1 - victim}.err").read_text().strip().splitlines()
        print(
            f"  the other process ended with {survivor.returncode}: {lines[-1] if lines else '?'}", flush=True
        )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        asyncio.run(worker(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--pg-url", default=DEFAULT_PG_URL)
    parser.add_argument("--seed", type=int, default=2027)
    args = parser.parse_args()
    schema = asyncio.run(pg_schema(args.pg_url))
    if schema is None:
        return
    url = f"{args.pg_url}?schema={schema}"
    figures, rng, clean_stops = Figures(), random.Random(args.seed), [0]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            ids = Path(tmp) / "all.json"
            started = time.monotonic()
            while time.monotonic() - started < args.seconds:
                _run_pair(url, Path(tmp), figures, rng, clean_stops)
                both = [json.loads(p.read_text()) for p in Path(tmp).glob("[ab].json")]
                ids.write_text(json.dumps(sorted({g for part in both for g in part})))
                asyncio.run(check(url, ids, figures))
    finally:
        asyncio.run(pg_schema(args.pg_url, drop=schema))
    print(
        f"two processes {args.seconds:5.0f} s  kills of one {figures.kills:4d}  clean stops of the other"
        f" {clean_stops[0]}  games {len(figures.games):3d}  moves acknowledged {figures.acknowledged:6d}"
        f"  lost {figures.lost}  corrupt {figures.corrupt}  left stalled {figures.left_stalled}"
        f"  stalled a minute after the restart {figures.stalled_after_restart} ({len(figures.stalled_games)} games)"
        f"  rounds with nothing acknowledged for 30 s {figures.stuck_workers}",
        flush=True,
    )


if __name__ == "__main__":
    main()

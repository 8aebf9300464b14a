"""kill -9 between a move's action and the game's saved position (bot.storage V006: the action is written with every
move, the position every few moves and by a load that had to replay many): nothing acknowledged is lost, nothing is
applied twice, the stored game is exactly its log replayed, and it plays on. Real processes killed with SIGKILL,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.pg_schema import fresh_pg_schema
from helpers.stored_games import assert_stored_is_log_replayed

from bot.manager import GameManager, ManualClock, random_action
from bot.storage import open_repository

WORKER = Path(__file__).with_name("positions_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def run_worker(
    url: str, id_file: Path, seed: int, every: int, die: str, stop_after: int
) -> tuple[list[int], str]:
    """Run the worker until it dies (its own SIGKILL), ends the game, or acknowledged `stop_after` moves (then this
    test kills it). Returns (acknowledged seqs, how it ended: the DYING line, DONE or killed)."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), url, str(id_file), str(seed), str(every), die],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acked: list[int] = []
    end = "killed"
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACK "):
                acked.append(int(line.split()[1]))
                if len(acked) >= stop_after:
                    break
            elif line.startswith(("DYING", "DONE")):
                end = line.strip()
                if end == "DONE":
                    break
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        stderr = proc.stderr.read() if proc.stderr else ""
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()
    if proc.returncode not in (-signal.SIGKILL, 0):
        raise AssertionError(f"worker failed ({proc.returncode}): {stderr}")
    return acked, end


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'positions.db'}"
    else:
        async with fresh_pg_schema() as (url, _schema):
            yield url


async def check(url: str, gid: str, acked: list[int]) -> int:
    """Every acknowledged action stored once, the log gapless, the stored game its log replayed; the log's length."""
    async with open_repository(url) as repo:
        seqs = [a.seq for a in await repo.load_actions(gid)]
        assert seqs == list(range(1, len(seqs) + 1)), "a gap in the log"
        assert len(acked) == len(set(acked)) and set(acked) <= set(seqs), "an acknowledged move was lost"
        manager = GameManager(repo, clock=ManualClock())
        manager._store.save_position_every = 10**9  # (this look saves no position)
        await assert_stored_is_log_replayed(repo, gid, await manager.export_record(gid))
        await manager.close()
        return len(seqs)


@pytest.mark.cluster  # real processes killed with SIGKILL
async def test_kill_9_between_the_action_and_the_position_loses_nothing(db_url: str, tmp_path: Path) -> None:
    id_file = tmp_path / "game.id"
    rng = random.Random(32)
    acked: list[int] = []
    # moves that save no position (one every 1000 moves), each process killing itself right after a move's commit
    kills = 0
    for round_ in range(12):
        got, end = run_worker(db_url, id_file, 10 + round_, 1000, "after_action", 60)
        acked.extend(got)
        gid = id_file.read_text().strip()
        stored = await check(db_url, gid, acked)
        if end.startswith("DYING after action"):
            kills += 1
            assert stored == int(end.split()[-1]) >= max(acked, default=0), (
                "the action the kill hid is stored"
            )
        if kills >= 3:
            break
    assert kills >= 3
    async with open_repository(db_url) as repo:
        behind = await repo.load_game(gid)
    assert (
        behind.snapshot_seq == 0 < behind.action_count
    )  # only the starting position: a load replays the log

    # a load now replays more than it should: it saves the position, and dies in that write
    got, end = run_worker(db_url, id_file, 50, 5, "in_save", 10)
    assert end == "DYING in save_snapshot" and got == []
    await check(db_url, gid, acked)

    # and again without dying: the load saves the position (checked before a move saves another one)...
    got, end = run_worker(db_url, id_file, 55, 5, "none", 1)
    acked.extend(got)
    await check(db_url, gid, acked)
    async with open_repository(db_url) as repo:
        caught_up = await repo.load_game(gid)
    assert behind.action_count <= caught_up.snapshot_seq < caught_up.action_count
    # ... and the game plays on (killed at random moments) to its end
    for round_ in range(20):
        got, end = run_worker(db_url, id_file, 60 + round_, 5, "none", rng.randint(3, 25))
        acked.extend(got)
        await check(db_url, gid, acked)
        if end == "DONE":
            break
    async with open_repository(db_url) as repo:
        manager = GameManager(repo, clock=ManualClock())
        info = await manager.status(gid)
        if info.status == "active":  # (plays on in this process too)
            seat = info.to_act[0]
            game = await manager._store.get(gid)
            assert game.state is not None and info.seats[seat].user_id is not None
            action = random_action(game.state, seat, random.Random(1))
            await manager.act(gid, info.seats[seat].user_id, action, expected_turn=info.tokens[seat])
        await manager.close()

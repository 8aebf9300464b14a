"""kill -9 at random moments: every acknowledged move survives, the stored game is its log replayed, and the game
moves on after the restart."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.stored_games import assert_stored_is_log_replayed

from bot.manager import GameManager, ManualClock
from bot.storage import GameStatus, open_repository

WORKER = Path(__file__).with_name("crash_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def _run_until_killed(
    url: str, id_file: Path, seed: int, acks_before_kill: int, delay: float
) -> tuple[list[int], bool]:
    """Start the worker, read acknowledgements, SIGKILL it after `acks_before_kill` of them plus `delay`."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), url, str(id_file), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acked: list[int] = []
    done = False
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACK "):
                acked.append(int(line.split()[1]))
                if len(acked) >= acks_before_kill:
                    time.sleep(delay)  # somewhere inside the next move, or between two
                    break
            elif line.startswith("DONE"):
                done = True
                break
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)
        if not done and proc.returncode not in (-signal.SIGKILL, 0):
            raise AssertionError(f"worker failed: {proc.stderr.read() if proc.stderr else ''}")
        if proc.stdout:
            proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
    return acked, done


@pytest.mark.cluster  # a real process killed with SIGKILL
async def test_kill_9_during_a_stream_of_moves_loses_nothing_acknowledged(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    id_file = tmp_path / "game.id"
    rng = random.Random(2026)
    all_acked: list[int] = []
    for round_ in range(4):
        acked, done = _run_until_killed(url, id_file, 100 + round_, rng.randint(5, 40), rng.uniform(0, 0.006))
        all_acked.extend(acked)
        gid = id_file.read_text().strip()
        # restart: a fresh manager on the same file sees every acknowledged move, and a consistent game
        async with open_repository(url) as repo:
            manager = GameManager(repo, clock=ManualClock())
            await manager.start(dispatcher=False)
            assert gid in manager.open_game_ids or done
            stored = await repo.load_game(gid)
            rows = await repo.load_actions(gid)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            assert stored.action_count == len(rows) and stored.version >= len(rows)
            assert set(all_acked) <= {r.seq for r in rows}, "an acknowledged move was lost"
            record = await manager.export_record(gid)
            await assert_stored_is_log_replayed(
                repo, gid, record
            )  # the stored game is exactly its log replayed
            info = await manager.status(gid)
            assert info.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
            # and it moves on: within a minute of the restart no AI seat is left to move, and whoever must
            # act has a timer (start() gave any missing one; the worker's clock and this one agree)
            manager.clock.advance(seconds=61)  # type: ignore[attr-defined]
            await manager.run_due_timers()
            game = await manager._store.get(gid)
            humans, ai = game.waiting()
            assert not ai, "the AI's move was left with nothing to make it"
            assert not humans or any(t.kind == "turn" for t in await repo.timers_for_game(gid))
            await manager.close()
        if done:
            break
    assert len(all_acked) >= 20

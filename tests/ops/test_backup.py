"""``ttr backup`` / ``ttr restore`` on SQLite: a backup taken during a flood of moves is a whole database (each game
whole: a move is one transaction) that plays on once restored; a restore over a live bot is refused."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_games import START, flood_during, plays_on, start_games
from helpers.manager_games import RecordingNotifier, random_ai

from bot.manager import GameManager, ManualClock
from bot.ops.backup import BackupError, backup, check_copy, restore
from bot.storage import open_repository
from bot.storage.file_lock import hold_database_lock, release_database_lock

ROOT = Path(__file__).resolve().parents[2]


async def test_a_backup_taken_during_a_flood_of_moves_restores_and_plays_on(tmp_path: Path) -> None:
    live = f"sqlite:///{tmp_path / 'live.db'}"
    clock = ManualClock(START)
    copies: list[Path] = []
    async with open_repository(live, clock=clock.now) as repo:
        manager = GameManager(
            repo, clock=clock, notifier=RecordingNotifier(), ai=random_ai, retry_delays=(0.01,)
        )
        await manager.start(dispatcher=False)
        try:
            game_ids = await start_games(manager, 4)

            async def copy_repeatedly(moved: Callable[[], int]) -> None:
                # each copy is a few ms: at least 8, and on until moves landed between and during them
                n = 0
                while n < 8 or (moved() == 0 and n < 200):
                    copies.append(tmp_path / f"copy{n}.db")
                    await asyncio.to_thread(backup, live, copies[-1])
                    await asyncio.sleep(0.01)
                    n += 1

            during = await flood_during(manager, game_ids, copy_repeatedly)
        finally:
            await manager.close()
    assert during > 0  # the games were played while the copies were made
    for copy in copies:
        assert check_copy(copy) == 4

    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    restore(copies[-1], restored)
    notifier = await plays_on(restored, game_ids)
    assert notifier.turns


def test_a_restore_over_a_live_bot_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    url = f"sqlite:///{source}"
    asyncio.run(_one_game(url))
    backup(url, tmp_path / "b.db")
    hold_database_lock(source)  # a bot runs on it
    try:
        with pytest.raises(BackupError, match="stop it first"):
            restore(tmp_path / "b.db", url)
    finally:
        release_database_lock(source)
    restore(tmp_path / "b.db", url)  # stopped: restored


async def _one_game(url: str) -> None:
    async with open_repository(url) as repo:
        await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="usa")


def test_the_commands_back_up_and_restore_and_refuse_postgresql(tmp_path: Path) -> None:
    source = tmp_path / "a.db"
    asyncio.run(_one_game(f"sqlite:///{source}"))
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TTR_PURE_PYTHON": "1",
        "DATABASE_URL": f"sqlite:///{source}",
    }

    def ttr(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "engine.cli", *args], env=env, cwd=tmp_path, capture_output=True, text=True
        )

    made = ttr("backup", str(tmp_path / "copy.db"))
    assert made.returncode == 0 and "1 games" in made.stdout, made.stderr
    assert ttr("restore", str(tmp_path / "copy.db")).returncode == 0
    refused = ttr("backup", "x.db", "--database-url", "postgresql://u:pw-secret@127.0.0.1:1/db")
    assert refused.returncode == 2 and "pg_dump" in refused.stderr and "pw-secret" not in refused.stderr
    missing = ttr("restore", str(tmp_path / "nothing.db"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr

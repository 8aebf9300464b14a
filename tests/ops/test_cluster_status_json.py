"""``ttr cluster-status --json``: the same figures as the text, as one JSON object."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.storage import open_repository

ROOT = Path(__file__).resolve().parents[2]


async def test_cluster_status_prints_json(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    async with open_repository(url) as repo:
        await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="usa")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TTR_PURE_PYTHON": "1", "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "cluster-status", "--json"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    data = json.loads(done.stdout)
    assert data["games"] == {"lobby": 1}
    assert data["processes"] == []
    assert set(data["timer_rows"]) == {"due", "claimed", "later", "next_servable"}

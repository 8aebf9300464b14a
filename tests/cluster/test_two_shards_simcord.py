"""Two production bots, each running one of two Discord shards in its own process (as production would), on
one PostgreSQL database: a server of each shard plays a game to the end at the same time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.pg_schema import fresh_pg_schema

from bot.storage import open_repository

# two bot processes on real PostgreSQL: apart from the fast loop, one cluster test at a time
pytestmark = [pytest.mark.cluster, pytest.mark.xdist_group("timing")]

SHARD_BOT = Path(__file__).with_name("shard_bot.py")


async def test_a_game_per_shard_plays_to_the_end_on_one_database() -> None:
    async with fresh_pg_schema() as (url, _schema):
        async with open_repository(url):  # migrated once, before the two bots start
            pass
        procs = [
            subprocess.Popen(
                [sys.executable, str(SHARD_BOT), url, str(shard)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for shard in (0, 1)
        ]
        results = []
        for proc in procs:
            out, err = proc.communicate(timeout=180)
            assert proc.returncode == 0, err[-3000:]
            results.append(json.loads(out.strip().splitlines()[-1]))
        assert all(r["final"] for r in results)
        # snowflakes carry their shard: (guild_id >> 22) % 2 is the shard that serves the server
        assert [(r["guild"] >> 22) % 2 for r in results] == [0, 1]
        async with open_repository(url) as repo:
            for r in results:
                assert (await repo.load_game(r["game"])).status == "finished"

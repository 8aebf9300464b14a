"""Shard settings (SHARD_COUNT, SHARD_IDS, ttr bot --shard-ids/--shard-count) and the refusal of several
processes on one SQLite file, by their settings or by another live process's heartbeat row."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from bot.config import Settings, SettingsError, format_shards, parse_shard_ids
from bot.discord.app import ShardedTTRBot
from bot.launch import create_bot
from bot.storage import ProcessBeat, open_repository
from bot.wiring import StartupError, check_shards, open_database


@pytest.mark.parametrize(
    ("raw", "ids", "shown"),
    [
        ("0-3", (0, 1, 2, 3), "0-3"),
        ("0,2,4", (0, 2, 4), "0,2,4"),
        ("4, 0-1, 1", (0, 1, 4), "0-1,4"),
        ("7", (7,), "7"),
    ],
)
def test_shard_ids_parse_and_show(raw: str, ids: tuple[int, ...], shown: str) -> None:
    assert parse_shard_ids(raw) == ids
    assert format_shards(ids) == shown


@pytest.mark.parametrize("raw", ["", "a", "3-1", "1-", "-2", "0;1"])
def test_bad_shard_ids_are_refused(raw: str) -> None:
    with pytest.raises(ValueError):
        parse_shard_ids(raw)


def test_shard_settings_from_the_environment() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "8", "SHARD_IDS": "0-3"}, dotenv_path=None)
    assert (settings.shard_count, settings.shard_ids) == (8, (0, 1, 2, 3))
    assert settings.shards_text() == "0-3 of 8" and not settings.runs_every_shard
    assert Settings.from_env({}, dotenv_path=None).shards_text() == "all (Discord's recommended count)"
    assert Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0,1"}, dotenv_path=None).runs_every_shard
    with pytest.raises(SettingsError, match="SHARD_IDS needs SHARD_COUNT"):
        Settings.from_env({"SHARD_IDS": "0-3"}, dotenv_path=None)
    with pytest.raises(SettingsError, match="from 0 to SHARD_COUNT - 1"):
        Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "2-5"}, dotenv_path=None)
    with pytest.raises(SettingsError, match="SHARD_COUNT"):
        Settings.from_env({"SHARD_COUNT": "0"}, dotenv_path=None)


def test_the_bot_runs_every_shard_discord_recommends_unless_told() -> None:
    default = create_bot(Settings())
    assert type(default) is ShardedTTRBot and isinstance(default, discord.AutoShardedClient)
    # None: discord.py asks Discord's GET /gateway/bot for the count when it connects, and runs them all
    assert (default.shard_count, default.shard_ids) == (None, None)
    assert default.shards_text() == "all (Discord's recommended count)" and default.config.runs_every_shard
    bot = create_bot(Settings(shard_count=4, shard_ids=(1, 3)))
    assert type(bot) is ShardedTTRBot and (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    assert bot.shards_text() == "1,3 of 4"
    every = create_bot(Settings(shard_count=3))
    assert (every.shard_count, every.shard_ids, every.shards_text()) == (3, None, "0-2 of 3")
    with pytest.raises(SettingsError, match="SHARD_IDS needs SHARD_COUNT"):  # settings built in code too
        create_bot(Settings(shard_ids=(0, 1)))


def test_shards_left_to_other_processes_need_postgresql(tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'ttr.db'}"
    with pytest.raises(StartupError, match="several processes need PostgreSQL"):
        check_shards(Settings(database_url=sqlite, shard_count=8, shard_ids=(0, 1, 2, 3)))
    check_shards(Settings(database_url=sqlite, shard_count=2, shard_ids=(0, 1)))  # every shard: one process
    check_shards(Settings(database_url="postgresql://u@h/db", shard_count=8, shard_ids=(0,)))


HOLD_LOCK = (  # another bot process: it holds the database file's lock (bot.storage.file_lock) and stays
    "import sys, time; from bot.storage.file_lock import hold_database_lock; hold_database_lock(sys.argv[1]);"
    " print('held', flush=True); time.sleep(30)"
)


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ttr.db'}"
    now = datetime.now(UTC)

    async def beat(pid: int) -> None:
        async with open_repository(url) as repo:
            await repo.beat(ProcessBeat(f"other:{pid}", socket.gethostname(), pid, "all", None, now, now))

    database = str(tmp_path / "ttr.db")  # a live process holds the file's lock (bot.storage.file_lock)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, database], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StartupError, match="another bot process uses this SQLite file"):
            open_database(Settings(database_url=url))
    finally:
        holder.kill()
        holder.wait(10)

    url = f"sqlite:///{tmp_path / 'other.db'}"
    asyncio.run(beat(2**22 + 12345))  # a pid no process has: left by a crash, not a running bot
    open_database(Settings(database_url=url))

"""Discord closes the gateway for good (4004, 4010, 4011, 4014) right after IDENTIFY: `ttr bot` stops instead of
reconnecting, exits non-zero with ONE line telling the host what to do, and closes its database first.

The real entry point runs here: `run_bot` (what `ttr bot` calls, with the real game service on an SQLite file)
against the wire-level fake (tests/helpers/fake_discord.py) served from a thread, since `run_bot` runs its own event
loop; one test runs `ttr bot` as a process for its exit status."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from helpers.fake_discord import fake_discord_in_thread

from bot import Settings, launch
from bot.discord.app import ShardedTTRBot, bot_intents, privileged_intents
from bot.discord.startup import GATEWAY_CLOSE_DOCS

TOKEN = "gateway.token.secret"
#: a safety net only: a bot that reconnects forever fails the test instead of hanging the suite
STOP_WITHIN = 60.0
PORTAL = "Privileged Gateway Intents"


def sqlite_settings(tmp_path: Path, **overrides: Any) -> Settings:
    return Settings(
        discord_token=TOKEN,
        database_url=f"sqlite:///{tmp_path / 'ttr.db'}",
        render_workers=1,
        lobby_threads=False,
        **overrides,
    )


def aiosqlite_threads() -> list[threading.Thread]:
    """The worker threads of the aiosqlite connections still open (one per connection, not daemons: one left
    open hangs the process's exit)."""
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()]


def run_ttr_bot(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[ShardedTTRBot]]:
    """`run_bot(settings)` as `ttr bot` runs it (its own event loop), in a thread so that a bot that never stops
    fails the test; returns its exit status and the bots it built."""
    built: list[ShardedTTRBot] = []
    real_create_bot = launch.create_bot

    def recording_create_bot(*args: Any, **kwargs: Any) -> ShardedTTRBot:
        built.append(real_create_bot(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(launch, "create_bot", recording_create_bot)
    status: list[int] = []
    runner = threading.Thread(target=lambda: status.append(launch.run_bot(settings)), name="ttr-bot")
    runner.start()
    runner.join(STOP_WITHIN)
    assert not runner.is_alive(), (
        f"ttr bot still running {STOP_WITHIN:.0f} s after Discord closed the gateway"
    )
    return status[0], built


CASES = {
    # code: (settings, Discord's recommended count, words the one line must hold)
    4004: ({}, 1, ("4004", "DISCORD_TOKEN", "Reset Token", ".env")),
    4010: ({"shard_count": 1}, 1, ("4010", "invalid shard", "SHARD_IDS", "SHARD_COUNT")),
    4011: (
        {"shard_count": 1},
        1,
        (
            "4011",
            "requires more shards than SHARD_COUNT=1",
            "unset SHARD_COUNT",
            "recommended count",
            "raise it",
        ),
    ),
    4014: ({}, 1, ("4014", "disallowed intents", PORTAL, "no privileged intent")),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_ttr_bot_stops_on_a_fatal_close_with_one_line(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    overrides, recommended, words = CASES[code]
    caplog.set_level(logging.INFO)
    before = set(aiosqlite_threads())
    with fake_discord_in_thread(token=TOKEN, close_code=code, shards=recommended) as fake:
        status, [bot] = run_ttr_bot(sqlite_settings(tmp_path, **overrides), monkeypatch)
        identifies = len(fake.identifies)
    assert status == launch.EXIT_CONFIG
    assert identifies == 1  # no second try: the code is fatal
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    [line] = errors
    assert line.name == "bot" and line.exc_info is None and "\n" not in line.getMessage()
    for word in words:
        assert word in line.getMessage()
    assert TOKEN not in caplog.text
    # storage closed before the process ends: the service let its manager go, no aiosqlite connection is open
    assert bot.is_closed() and getattr(bot.service, "manager", "?") is None
    assert not set(aiosqlite_threads()) - before


def test_several_shards_stop_on_the_first_fatal_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord's recommended count of 2 (no SHARD_COUNT), then 4011 on each shard: one line, exit 2, closed."""
    monkeypatch.setattr(ShardedTTRBot, "identify_interval", 0.0)  # Discord's 5 s between IDENTIFYs
    caplog.set_level(logging.INFO)
    with fake_discord_in_thread(token=TOKEN, close_code=4011, shards=2) as fake:
        status, [bot] = run_ttr_bot(sqlite_settings(tmp_path), monkeypatch)
        shards = sorted(i["shard"][0] for i in fake.identifies)
    assert status == launch.EXIT_CONFIG
    assert shards == [0, 1]  # each shard identified once
    [line] = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert "4011" in line and "start the bot again" in line and "SHARD_COUNT" in line
    assert bot.is_closed() and getattr(bot.service, "manager", "?") is None


@pytest.mark.cluster  # `ttr bot` as a real process
def test_ttr_bot_exits_with_status_2_as_a_process(tmp_path: Path) -> None:
    """`ttr bot` in its own process (tests/bot/gateway_bot.py points discord.py at the fake): 4011 after
    IDENTIFY, and the process ends by itself (no aiosqlite thread keeps it), status 2, one ERROR line."""
    script = Path(__file__).with_name("gateway_bot.py")
    with fake_discord_in_thread(token=TOKEN, close_code=4011) as fake:
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'ttr.db'}",
            "SHARD_COUNT": "1",
            "RENDER_WORKERS": "1",
            "TTR_FAKE_DISCORD": str(fake.gateway_url.with_scheme("http").with_path("")),
        }
        proc = subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,  # no .env of the developer's
            env=env,
            capture_output=True,
            text=True,
            timeout=STOP_WITHIN,
        )
    assert proc.returncode == launch.EXIT_CONFIG, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1, proc.stderr
    assert "4011" in errors[0] and "unset SHARD_COUNT" in errors[0]
    assert "Traceback" not in proc.stderr and TOKEN not in proc.stderr


# --------------------------------------------------------------------- the lines themselves


def test_the_bot_asks_for_no_privileged_intent() -> None:
    assert privileged_intents(bot_intents()) == []


def test_4014_names_the_privileged_intents_asked_for() -> None:
    intents = bot_intents()
    intents.message_content = True
    intents.members = True
    line = launch.explain_startup_error(discord.PrivilegedIntentsRequired(0), intents=intents)
    assert line is not None
    assert "Server Members Intent and Message Content Intent" in line and PORTAL in line
    assert "Presence Intent" not in line


def closed(code: int, shard_id: int | None = 0) -> discord.ConnectionClosed:
    return discord.ConnectionClosed(SimpleNamespace(close_code=code), shard_id=shard_id)  # type: ignore[arg-type]


def test_every_close_discord_py_does_not_retry_is_explained() -> None:
    settings = Settings(shard_count=8, shard_ids=(0, 1, 2, 3))
    for code in (4004, 4010, 4011, 4012, 4013, 4014, 4999):
        line = launch.explain_startup_error(closed(code), settings)
        assert line is not None and str(code) in line and "\n" not in line
    assert "0-3 of 8" in (launch.explain_startup_error(closed(4010), settings) or "")
    assert "SHARD_COUNT=8" in (launch.explain_startup_error(closed(4011), settings) or "")
    assert "update" in (launch.explain_startup_error(closed(4013)) or "")
    unknown = launch.explain_startup_error(closed(4999, shard_id=None))
    assert unknown is not None and GATEWAY_CLOSE_DOCS in unknown and "shard" not in unknown

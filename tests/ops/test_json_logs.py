"""``LOG_FORMAT=json``: one JSON object a line, with the game, guild and shard where known, and no secret (the
secrets filter masks the message and the traceback before the line is formatted)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from bot.discord.startup import SecretsFilter
from bot.ops.logs import JsonFormatter, bind, log_context

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "tok3n-" + "z" * 30
PASSWORD = "hunter2-pg-password"


def lines_of(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]  # every line parses, alone


def test_each_line_is_one_json_object_with_its_context_and_no_secret() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(SecretsFilter([TOKEN, PASSWORD]))
    log = logging.getLogger("tests.ops.json")
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        with log_context(game="abcd2345", guild=4242):
            log.info("claimed a route\nwith a second line, the token %s", TOKEN)
        log.warning("game q7rs8tuv: automatic moves interrupted")
        log.info("Shard ID 3 has connected to Gateway", extra={"guild": 99})
        try:
            raise RuntimeError(f"connect to postgresql://ttr:{PASSWORD}@db/ttr failed")
        except RuntimeError:
            log.exception("storage failed")

        async def in_a_task() -> None:
            bind(guild=7, shard=1)
            log.info("an interaction's handling")

        asyncio.run(in_a_task())
        log.info("after the task: its context stayed in it")
    finally:
        log.removeHandler(handler)
    text = out.getvalue()
    records = lines_of(text)
    assert len(records) == 6
    assert (
        records[0]["game"] == "abcd2345"
        and records[0]["guild"] == 4242
        and "\n" in str(records[0]["message"])
    )
    assert records[1]["game"] == "q7rs8tuv" and records[1]["level"] == "WARNING"
    assert records[2]["shard"] == 3 and records[2]["guild"] == 99
    assert "RuntimeError" in str(records[3]["exc"])
    assert records[4]["guild"] == 7 and records[4]["shard"] == 1
    assert "guild" not in records[5] and "game" not in records[5]
    assert {"time", "level", "logger", "message"} <= set(records[5])
    assert TOKEN not in text and PASSWORD not in text and "***" in text


def test_the_bot_writes_json_lines_without_its_secrets(tmp_path: Path) -> None:
    """`ttr bot` with LOG_FORMAT=json and a database it cannot reach: its start-up lines, as JSON, no secret."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TTR_PURE_PYTHON": "1",
        "LOG_FORMAT": "json",
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": f"postgresql://ttr:{PASSWORD}@127.0.0.1:1/ttr",
    }
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "bot"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    records = lines_of(done.stderr)
    assert records and any("cannot reach the database" in str(r["message"]) for r in records)
    assert TOKEN not in done.stderr and PASSWORD not in done.stderr


def test_an_interactions_guild_shard_and_game_reach_the_lines_of_its_handling() -> None:
    from types import SimpleNamespace

    from bot.ops.logs import bind_interaction

    guild = (5 << 22) | 1234  # Discord's shard of a guild: (id >> 22) % shard count
    interaction = SimpleNamespace(guild_id=guild, client=SimpleNamespace(shard_count=4))
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger("tests.ops.press")
    log.addHandler(handler)
    log.propagate = False
    try:

        async def press() -> None:
            bind_interaction(interaction, game="zz99yy88")
            log.warning("the press failed")

        asyncio.run(press())
    finally:
        log.removeHandler(handler)
    [record] = lines_of(out.getvalue())
    assert (record["guild"], record["shard"], record["game"]) == (guild, 1, "zz99yy88")

"""The production start-up (``start_bot``: the wiring, the operations, discord.py given the HTTP trace) against the
wire-level fake Discord: ``/readyz`` is ready once the shard is connected, a slash command's answer shows in the
metrics (its latency, its callback by route template), and no token or id reaches them."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest
from helpers.fake_discord import FakeDiscord
from ops_net import free_port, get

from bot.config import Settings
from bot.launch import start_bot

TOKEN = "ops.wire.token.secret"


@pytest.mark.cluster  # (a render worker process is started)
async def test_a_slash_commands_answer_shows_in_the_metrics_of_the_running_bot(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(
        discord_token=TOKEN,
        database_url=f"sqlite:///{tmp_path / 'ttr.db'}",
        metrics_port=port,
        render_workers=1,
        lobby_threads=False,
    )
    async with FakeDiscord(token=TOKEN) as fake:
        running = asyncio.create_task(start_bot(settings))
        try:
            loop = asyncio.get_running_loop()
            end = loop.time() + 60
            status, body = 0, ""
            while (
                loop.time() < end
            ):  # (the server is up at once; ready once the shard and a render worker are)
                with contextlib.suppress(OSError):
                    status, body = await get(port, "/readyz")
                    if status == 200:
                        break
                assert not running.done(), running
                await asyncio.sleep(0.2)
            assert status == 200, body
            assert json.loads(body)["checks"] == {"database": True, "render_pool": True, "gateway": True}

            token = await fake.slash("ttr", "maps", user=fake.alice)
            await fake.wait_for(fake.callback_for(token), timeout=20)
            await asyncio.sleep(0.1)  # (the trace's end of request runs once the answer is read)
            _status, text = await get(port, "/metrics")
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
    assert 'ttr_interaction_answer_seconds_count{kind="command"} 1.0' in text
    assert 'route="/interactions/{id}/{token}/callback"' in text
    assert 'ttr_gateway_shards{state="connected"} 1.0' in text
    assert TOKEN not in text and token not in text and str(fake.guild_id) not in text

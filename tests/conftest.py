"""SimCord's ``simcord_env`` fixture, giving the bot the shard count Discord gives it at login.

The production bot (`create_bot` without SHARD_COUNT) is an AutoShardedBot whose ``shard_count`` is None until
it connects, when discord.py asks Discord (``GET /gateway/bot``) how many shards to run. SimCord does not answer
that question: it needs the count up front, so the environment is told one shard (the count Discord recommends
below 2,500 servers) unless a test's ``@pytest.mark.simcord(shard_count=...)`` says otherwise. The bot itself is
built exactly as production builds it. Otherwise the same as simcord's own fixture (``simcord.pytest_plugin``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
import simcord


@pytest_asyncio.fixture
async def simcord_env(
    simcord_bot: discord.Client, request: pytest.FixtureRequest
) -> AsyncIterator[simcord.Env]:
    marker = request.node.get_closest_marker("simcord")
    options = dict(marker.kwargs) if marker else {}
    if isinstance(simcord_bot, discord.AutoShardedClient) and simcord_bot.shard_count is None:
        options.setdefault("shard_count", 1)
    env = simcord.Env(simcord_bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)

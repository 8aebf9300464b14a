"""The tests' order, longest first (tests/helpers/ordering.py); the Hypothesis profile (``HYPOTHESIS_PROFILE``:
``dev`` by default, ``ci`` in CI; see tests/helpers/hypothesis_profiles.py); and SimCord's ``simcord_env`` fixture,
with the shard count Discord gives the bot at login and the bot's shutdown that SimCord leaves out.

- The production bot (`create_bot` without SHARD_COUNT) is an AutoShardedBot whose ``shard_count`` is None until
  it connects, when discord.py asks Discord (``GET /gateway/bot``) how many shards to run. SimCord does not
  answer that question: it needs the count up front, so the environment is told one shard (the count Discord
  recommends below 2,500 servers) unless a test's ``@pytest.mark.simcord(shard_count=...)`` says otherwise.
  The bot itself is built exactly as production builds it.
- SimCord's shutdown cancels the bot's tasks but never calls ``bot.close()``: the game service behind it
  (SQLite connections, render processes) would stay open, and a SQLite connection finalised by the garbage
  collector after its event loop closed makes aiosqlite's worker thread fail with "Event loop is closed". Each
  bot is closed as its process would close it: at the end of the test, and a bot replaced by
  ``restart_bot`` (a "new process") when it is replaced.

Otherwise the same as simcord's own fixture (``simcord.pytest_plugin``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
import simcord
from helpers import hypothesis_profiles, ordering
from helpers.simcord_env import ClosingEnv

HYPOTHESIS_PROFILE = hypothesis_profiles.load()


def pytest_configure(config: pytest.Config) -> None:
    ordering.register(config)


@pytest.hookimpl(trylast=True)  # after the folders' conftests have added their markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ordering.order_longest_first(config, items)  # see tests/helpers/ordering.py


def pytest_report_header() -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (HYPOTHESIS_PROFILE=dev|ci)"


@pytest_asyncio.fixture
async def simcord_env(
    simcord_bot: discord.Client, request: pytest.FixtureRequest
) -> AsyncIterator[simcord.Env]:
    marker = request.node.get_closest_marker("simcord")
    options = dict(marker.kwargs) if marker else {}
    if isinstance(simcord_bot, discord.AutoShardedClient) and simcord_bot.shard_count is None:
        options.setdefault("shard_count", 1)
    env = ClosingEnv(simcord_bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)

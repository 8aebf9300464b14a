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

import os
import sys

# Where PYTHONDONTWRITEBYTECODE is set, every process of a run would compile every module again and pytest would
# rewrite every test module again: each xdist worker, and each render worker, bot or CLI process the tests start.
# The caches are written from here on (before the project's modules are imported); the processes started later
# read them.
sys.dont_write_bytecode = False

from collections.abc import AsyncIterator  # noqa: E402 - after the line above

import discord  # noqa: E402 - after the line above
import pytest  # noqa: E402 - after the line above
import pytest_asyncio  # noqa: E402 - after the line above
import simcord  # noqa: E402 - after the line above
from helpers import hypothesis_profiles, ordering  # noqa: E402 - after the line above
from helpers.simcord_env import ClosingEnv, World, rail_club  # noqa: E402 - after the line above

HYPOTHESIS_PROFILE = hypothesis_profiles.load()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core, and one more. A third of the whole suite's time is real waiting (leases
    waited out by real processes, one after the other in the ``timing`` group; pages waiting for a browser):
    the extra worker runs other tests meanwhile."""
    return (os.cpu_count() or 1) + 1


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


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    """The guild "Rail Club" with its #games channel and members alice, bob and carol."""
    return rail_club(simcord_env)

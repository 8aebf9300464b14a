"""Fixtures for the end-to-end tests: the production bot (`create_bot`) with its real game service, storage in a
temporary SQLite file, driven through SimCord. Board pictures are real in the tests that check them; the long
full-game tests swap in `FastPictures` (a tiny PNG) to stay fast, everything else is production code."""

from __future__ import annotations

import functools

import pytest
import simcord
from helpers.fast_pictures import PNG, FastPictures  # noqa: F401  (re-exported for the tests)
from helpers.french_client import french_users  # noqa: F401  (a fixture)

from bot import Settings, create_bot
from bot.wiring import Wiring

#: How often SimCord looks again while the bot still has work in flight (its default is 50 ms). Between a
#: click and its reply the bot waits on SQLite in a worker thread; SimCord's wait returns only when a task
#: *finishes*, so each click cost a full 50 ms poll (about 60 % of a complete game's time). A shorter poll
#: changes nothing else: the environment still settles only when every task is done or parked. Not much
#: shorter: each look costs CPU that the render processes need on a small machine.
SETTLE_POLL = 0.01


@pytest.fixture(autouse=True)
def _quick_settle(monkeypatch):  # type: ignore[no-untyped-def]
    settle = simcord.Env._settle_internal  # private, so only when its signature is the one we know

    if "idle" not in settle.__code__.co_varnames:
        return

    @functools.wraps(settle)
    async def quick(self, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("idle", SETTLE_POLL)
        return await settle(self, **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", quick)


@pytest.fixture
def bot_settings(tmp_path) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(database_url=f"sqlite:///{tmp_path / 'ttr.db'}", lobby_threads=False, render_workers=1)


@pytest.fixture
def fast_pictures() -> bool:
    return True


@pytest.fixture
def make_bot(bot_settings, fast_pictures):  # type: ignore[no-untyped-def]
    """A fresh production bot on the same database (a new process after `restart_bot`)."""

    def build():  # type: ignore[no-untyped-def]
        pictures = FastPictures() if fast_pictures else None
        return create_bot(bot_settings, parts=Wiring(bot_settings, ai_budget_ms=20, pictures=pictures))

    return build


@pytest.fixture
def simcord_bot(make_bot):  # type: ignore[no-untyped-def]
    return make_bot()

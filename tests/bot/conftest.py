"""Fixtures for the Discord adapter tests.

`simcord_env` (from simcord's pytest plugin) runs the production bot built by `create_bot` against SimCord's
in-memory Discord; `fake_service` is the in-memory GameService behind it.
"""

from __future__ import annotations

import pytest
from helpers.bot_fakes import FakeGameService

from bot import Settings, create_bot


@pytest.fixture
def fake_service() -> FakeGameService:
    return FakeGameService()


@pytest.fixture
def bot_settings(tmp_path) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(database_url=f"sqlite:///{tmp_path / 'ttr.db'}", lobby_threads=False)


@pytest.fixture
def make_bot(bot_settings, fake_service):  # type: ignore[no-untyped-def]
    """Build a fresh production bot around the shared fake service (a "new process" after a restart)."""

    def build():  # type: ignore[no-untyped-def]
        return create_bot(bot_settings, service=fake_service)

    return build


@pytest.fixture
def simcord_bot(make_bot):  # type: ignore[no-untyped-def]
    return make_bot()

"""Fixtures of the operations tests (bot/ops): a free TCP port, a bot's wiring over a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.fast_pictures import FastPictures
from ops_net import free_port

from bot.config import Settings
from bot.play.service import ManagerGameService
from bot.wiring import Wiring


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token="tok-" + "x" * 40,
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        metrics_port=free_port(),
    )


@pytest.fixture
async def wired(settings: Settings) -> AsyncIterator[tuple[Wiring, ManagerGameService]]:
    """The composition root's parts (pictures that draw nothing), the manager started without its dispatcher."""
    wiring = Wiring(settings, pictures=FastPictures())
    async with wiring as service:
        await service.games_manager.start(dispatcher=False)
        yield wiring, service

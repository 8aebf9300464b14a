"""Fixtures of the operations tests (bot/ops): a free TCP port, a bot's wiring over a fresh SQLite file."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from helpers.fast_pictures import FastPictures

from bot.config import Settings
from bot.play.service import ManagerGameService
from bot.wiring import Wiring


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


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

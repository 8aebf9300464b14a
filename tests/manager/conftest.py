"""Fixtures of the manager tests: a fresh SQLite file per test, a manager on a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.manager_games import RecordingNotifier, random_ai

from bot.manager import GameManager, ManualClock
from bot.storage import GameRepository, open_repository


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
async def repo(db_url: str, clock: ManualClock) -> AsyncIterator[GameRepository]:
    async with open_repository(db_url, clock=clock.now) as repository:
        yield repository


@pytest.fixture
async def manager(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> AsyncIterator[GameManager]:
    m = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai, retry_delays=(0.01, 0.02))
    notifier.manager = m  # its turn messages tell the moves, as the bot's do
    await m.start(dispatcher=False)
    try:
        yield m
    finally:
        await m.close()

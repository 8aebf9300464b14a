"""One open game per channel or thread, held by storage: two bot processes on the same database (here, two
managers with their own repositories and connections) cannot both open a game in the same place."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.manager_games import RecordingNotifier, random_ai
from helpers.pg_schema import fresh_pg_schema

from bot.manager import GameManager, ManualClock, Refused
from bot.storage import GameRepository, GameStatus, PlaceTaken, open_repository


@pytest.fixture(params=["sqlite", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a fresh database that several repositories can open at once."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    async with fresh_pg_schema() as (url, _schema):
        yield url


async def _open(url: str, n: int) -> list[GameRepository]:
    repos = [open_repository(url) for _ in range(n)]
    for repo in repos:  # one after the other: the first applies the migrations
        await repo.connect()
    return repos


async def test_the_repository_refuses_a_second_open_game_in_a_place(db: str) -> None:
    (repo,) = await _open(db, 1)
    try:
        first = await repo.create_game(
            guild_id=1, channel_id=10, host_id=1, board="europe", only_if_place_free=True
        )
        with pytest.raises(PlaceTaken) as err:
            await repo.create_game(guild_id=1, channel_id=10, host_id=2, board="usa", only_if_place_free=True)
        assert err.value.game_id == first.id
        # a thread of that channel is another place, and so is another channel
        in_thread = await repo.create_game(
            guild_id=1, channel_id=10, thread_id=11, host_id=2, board="usa", only_if_place_free=True
        )
        with pytest.raises(PlaceTaken):
            await repo.create_game(
                guild_id=1, channel_id=10, thread_id=11, host_id=3, board="usa", only_if_place_free=True
            )
        await repo.create_game(guild_id=1, channel_id=12, host_id=1, board="japan", only_if_place_free=True)
        # once the game is over, the place is free again
        await repo.update_game(first.id, first.version, status=GameStatus.ABANDONED)
        again = await repo.create_game(
            guild_id=1, channel_id=10, host_id=2, board="italy", only_if_place_free=True
        )
        found = await repo.find_open_game(channel_id=10)
        assert found is not None and found.id == again.id
        assert (await repo.find_open_game(thread_id=11)).id == in_thread.id  # type: ignore[union-attr]
        # without the flag nothing is checked (imports, tests)
        await repo.create_game(guild_id=1, channel_id=10, host_id=3, board="usa")
    finally:
        await repo.close()


async def test_two_processes_cannot_both_open_a_game_in_one_channel(db: str) -> None:
    """Each manager holds its own in-memory lock, so only storage can stop the second lobby."""
    repos = await _open(db, 3)
    clock = ManualClock()
    managers = [
        GameManager(
            repo, clock=clock, notifier=RecordingNotifier(), ai=random_ai, retry_delays=(0.05, 0.1, 0.2)
        )
        for repo in repos
    ]
    for m in managers:
        await m.start(dispatcher=False)
    try:
        for channel in range(100, 110):
            tries = [
                m.create_game(guild_id=1, channel_id=channel, host_id=i + 1, host_name=f"P{i}")
                for i, m in enumerate(managers)
            ]
            results = await asyncio.gather(*tries, return_exceptions=True)
            opened = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, Refused)]
            assert len(opened) == 1, results
            assert len(refused) == len(managers) - 1 and all(r.code == "channel_busy" for r in refused), (
                results
            )
            assert all(r.params == {"game": opened[0].game_id} for r in refused)
            found = await repos[0].find_open_game(channel_id=channel)
            assert found is not None and found.id == opened[0].game_id
    finally:
        for m in managers:
            await m.close()
        for repo in repos:
            await repo.close()

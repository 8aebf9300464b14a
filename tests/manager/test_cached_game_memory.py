"""A cached game's memory (issue 32: at most 30 KB a game in the bot process; 75-78 KB here before its history was
kept as shared entries). Measured with tracemalloc on Europe games of 150 moves with 4 players: the memory a game
loaded from storage adds to the process (its decoded actions already shared, as in a process that has loaded games
before: bench/bench_storage.py measures the same), and what the cache frees when it drops a game played on in this
process."""

from __future__ import annotations

import asyncio
import gc
import random
import tracemalloc
from collections.abc import AsyncIterator

import pytest
from helpers.manager_games import play_random, started_game

from bot.manager import GameManager, ManualClock
from bot.storage import GameRepository

GAMES = 4
MOVES = 150
BUDGET = 30_000  # bytes a game: about 21 KB loaded, 27 KB played measured (Python 3.11; 12.7 KB of the played
# one is engine.open_routes' index, rebuilt after a load only when legal actions are first asked for)


@pytest.fixture
async def quiet_manager(repo: GameRepository, clock: ManualClock) -> AsyncIterator[GameManager]:
    """A manager without a notifier (the tests' notifier keeps every outcome, and so every state)."""
    manager = GameManager(repo, clock=clock)
    try:
        yield manager
    finally:
        await manager.close()


async def played_games(manager: GameManager) -> list[str]:
    ids = []
    for n in range(GAMES):
        gid, _ = await started_game(manager, humans=4, board="europe", seed=n)
        assert await play_random(manager, gid, random.Random(n), moves=MOVES) == MOVES
        ids.append(gid)
    return ids


async def traced() -> int:
    """The bytes traced, once the event loop has run what the last call left scheduled (the done callbacks of a
    load's gathered reads hold its log until then)."""
    for _ in range(3):
        await asyncio.sleep(0)
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def test_a_game_loaded_from_storage_takes_less_than_the_budget(quiet_manager: GameManager) -> None:
    ids = await played_games(quiet_manager)
    store = quiet_manager._store  # (tests may look behind the API)
    for gid in ids:  # a first load: the actions decoded are shared by every game loaded after
        store.evict(gid)
        await store.get(gid)
        store.evict(gid)
    tracemalloc.start()
    try:
        before = await traced()
        held = [await store.get(gid) for gid in ids]
        per_game = (await traced() - before) / GAMES
    finally:
        tracemalloc.stop()
    assert all(len(game.state.history) == MOVES for game in held if game.state is not None)
    assert 2_000 < per_game < BUDGET, f"{per_game:.0f} bytes a loaded game"


async def test_a_game_played_in_this_process_frees_less_than_the_budget_when_dropped(
    quiet_manager: GameManager,
) -> None:
    tracemalloc.start()
    try:
        ids = await played_games(quiet_manager)
        before = await traced()
        for gid in ids:
            quiet_manager._store.evict(gid)
        per_game = (before - await traced()) / GAMES
    finally:
        tracemalloc.stop()
    # (more than nothing: the cache held the games alone, else this would measure nothing)
    assert 2_000 < per_game < BUDGET, f"{per_game:.0f} bytes a played game"

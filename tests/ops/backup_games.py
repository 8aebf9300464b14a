"""Shared steps of the backup tests: a flood of moves on several games, and the checks a restored database must
pass (every game whole: its snapshot, its action rows and its version agree) before it plays on."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from helpers.manager_games import RecordingNotifier, play_random, random_ai, started_game, state_of

from bot.manager import GameManager, ManualClock, Refused
from bot.storage import GameRepository, open_repository

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def start_games(manager: GameManager, count: int) -> list[str]:
    ids = []
    for n in range(count):
        game_id, _ = await started_game(manager, humans=2, ais=1, seed=n + 1, board="usa")
        ids.append(game_id)
    return ids


async def flood_during(
    manager: GameManager, game_ids: list[str], copy: Callable[[Callable[[], int]], Awaitable[None]]
) -> int:
    """Play random moves on every game while `copy` runs; returns the moves made while it ran. `copy` is given
    the count of moves made since it started, so it can go on until some landed (a loaded machine may run a few
    short copies before any move is through)."""
    made = 0
    stop = asyncio.Event()

    async def play(game_id: str, seed: int) -> None:
        nonlocal made
        rng = random.Random(seed)
        while not stop.is_set():
            with contextlib.suppress(Refused):  # (a game just over, or a turn taken meanwhile: play on)
                made += await play_random(manager, game_id, rng, moves=1)
            await asyncio.sleep(0)

    players = [asyncio.create_task(play(g, i)) for i, g in enumerate(game_ids)]
    await asyncio.sleep(0.05)
    before = made
    try:
        await copy(lambda: made - before)
    finally:
        during = made - before
        stop.set()
        await asyncio.gather(*players)
    return during


async def check_games_whole(repo: GameRepository, manager: GameManager) -> dict[str, int]:
    """Every game of `repo`: its snapshot's history, its action rows and its counters agree. Returns each game's
    number of moves."""
    moves = {}
    async for game_id in repo.iter_game_ids():
        record = await repo.load_game(game_id)
        actions = await repo.load_actions(game_id)
        assert [a.seq for a in actions] == list(range(1, record.action_count + 1)), game_id
        if record.status in ("active", "finished"):
            state = await state_of(manager, game_id)
            assert len(state.history) == record.action_count, game_id
        moves[game_id] = record.action_count
    return moves


async def plays_on(url: str, game_ids: list[str]) -> RecordingNotifier:
    """Open the restored database as a bot would: every game takes moves, its timers fire (reminders, then the
    absent-player policy's moves and the turn messages they owe)."""
    clock = ManualClock(START)
    notifier = RecordingNotifier()
    async with open_repository(url, clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai, retry_delays=(0.01, 0.02))
        notifier.manager = manager
        await manager.start(dispatcher=False)
        try:
            moves = await check_games_whole(repo, manager)
            assert set(game_ids) <= set(moves)
            played = 0  # (a game copied between a person's move and its AI seat's waits for its resume timer)
            for n, game_id in enumerate(game_ids):
                if (await manager.status(game_id)).status == "active":
                    played += await play_random(manager, game_id, random.Random(100 + n), moves=3)
            assert played > 0
            assert [await repo.timers_for_game(g) for g in game_ids] != [[]] * len(game_ids)
            for _ in range(6):  # 13 h: reminders; then the absent-player policy plays and tells the chat
                clock.advance(hours=13)
                while await manager.run_due_timers():
                    pass
            assert notifier.reminders and notifier.absent and notifier.turns
        finally:
            await manager.close()
    return notifier

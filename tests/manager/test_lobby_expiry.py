"""A lobby nobody starts expires LOBBY_EXPIRE_HOURS after its last change: a durable "lobby" row, written with
the lobby, re-armed from the last change when it fires, cleared by starting or abandoning the game."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai

from bot.manager import GameManager, ManualClock, Refused
from bot.manager.timer_rows import TimerKind
from bot.play.event_words import line, table_of
from bot.storage import GameRepository, GameStatus

ANN, BOB, CLEO = HUMANS[0][0], HUMANS[1][0], HUMANS[2][0]
CHANNEL = 77


async def _lobby(manager: GameManager, channel: int = CHANNEL) -> str:
    info = await manager.create_game(
        guild_id=1, channel_id=channel, host_id=ANN, host_name="Ann", board="usa"
    )
    return info.game_id


async def _rows(repo: GameRepository, gid: str) -> list[tuple[str, timedelta]]:
    """The game's rows: kind, and how long after the row was written it is due."""
    return [(t.kind, t.due_at - t.created_at) for t in await repo.timers_for_game(gid)]


async def test_a_lobby_nobody_touches_expires_after_the_delay_once(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    opened = clock.now()
    gid = await _lobby(manager)
    (row,) = await repo.timers_for_game(gid)  # written with the lobby
    assert row.kind == TimerKind.LOBBY and row.due_at == opened + timedelta(hours=24)
    clock.advance(hours=23, minutes=59)
    assert await manager.run_due_timers() == 0
    assert (await manager.status(gid)).status == GameStatus.LOBBY and notifier.expired == []
    clock.advance(minutes=1)
    assert await manager.run_due_timers() == 1
    ((expired_gid, outcome),) = notifier.expired
    assert expired_gid == gid and outcome.status == GameStatus.ABANDONED
    (event,) = outcome.events
    assert event.kind == "abandoned" and event.by == "system" and event.data == {"expired": True}
    said = line(event, table_of(outcome.info))
    assert said.key == "ev.lobby_expired" and said.params == {"n": 24}  # type: ignore[union-attr]
    assert (await repo.load_game(gid)).status == GameStatus.ABANDONED
    assert await repo.timers_for_game(gid) == [] and gid not in manager.open_game_ids
    clock.advance(hours=48)
    assert await manager.run_due_timers() == 0 and len(notifier.expired) == 1  # once
    with pytest.raises(Refused):
        await manager.join(gid, BOB, "Bob")
    assert (await _lobby(manager)) != gid  # the place is free for a new game


async def _join(m: GameManager, gid: str) -> object:
    return await m.join(gid, BOB, "Bob")


async def _add_ai(m: GameManager, gid: str) -> object:
    return await m.add_ai(gid, ANN, "easy")


async def _leave(m: GameManager, gid: str) -> object:
    await m.join(gid, CLEO, "Cleo")  # (a change too; the leave below is the last one)
    return await m.leave(gid, CLEO)


async def _settings(m: GameManager, gid: str) -> object:
    return await m.update_settings(gid, ANN, {"remind_after_hours": "6"})


@pytest.mark.parametrize("activity", [_join, _add_ai, _leave, _settings], ids=lambda f: f.__name__[1:])
async def test_activity_in_the_lobby_postpones_its_expiry(
    manager: GameManager,
    clock: ManualClock,
    notifier: RecordingNotifier,
    repo: GameRepository,
    activity: Callable[[GameManager, str], Awaitable[object]],
) -> None:
    gid = await _lobby(manager)
    (row,) = await repo.timers_for_game(gid)
    clock.advance(hours=20)
    await activity(manager, gid)
    changed = clock.now()
    assert await repo.timers_for_game(gid) == [row]  # a lobby change writes no timer row
    clock.advance(hours=4)  # the row fires: the lobby changed 4 h ago, so it waits 20 h more
    assert await manager.run_due_timers() == 1
    (rearmed,) = await repo.timers_for_game(gid)
    assert rearmed.kind == TimerKind.LOBBY and rearmed.due_at == changed + timedelta(hours=24)
    assert notifier.expired == [] and (await manager.status(gid)).status == GameStatus.LOBBY
    clock.advance(hours=19, minutes=59)
    assert await manager.run_due_timers() == 0
    clock.advance(minutes=1)
    await manager.run_due_timers()
    assert [g for g, _ in notifier.expired] == [gid]
    assert (await repo.load_game(gid)).status == GameStatus.ABANDONED


async def test_a_lobby_change_seen_only_in_storage_postpones_it_too(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    """The change was made by another manager (another process): the firing one reads the stored lobby."""
    kw = {"clock": clock, "notifier": notifier, "ai": random_ai}
    firing, other = GameManager(repo, **kw), GameManager(repo, **kw)  # type: ignore[arg-type]
    gid = await _lobby(firing)
    clock.advance(hours=23)
    await other.join(gid, BOB, "Bob")
    clock.advance(hours=1)
    firing._store.evict(gid)  # (on PostgreSQL the version check does this; SQLite has one writer)
    await firing.run_due_timers()
    assert notifier.expired == [] and (await repo.load_game(gid)).status == GameStatus.LOBBY
    clock.advance(hours=23)
    await firing.run_due_timers()
    assert [g for g, _ in notifier.expired] == [gid]


async def test_starting_the_game_clears_the_lobby_row(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid = await _lobby(manager)
    await manager.join(gid, BOB, "Bob")
    await manager.start_game(gid, ANN, seed=3)
    assert TimerKind.LOBBY not in [t.kind for t in await repo.timers_for_game(gid)]
    for _ in range(4):
        clock.advance(hours=24)
        await manager.run_due_timers()
    assert notifier.expired == [] and (await repo.load_game(gid)).status == GameStatus.ACTIVE


async def test_abandoning_or_closing_the_lobby_clears_its_row(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    ended = await _lobby(manager, channel=1)
    await manager.abandon(ended, ANN)
    closed = await _lobby(manager, channel=2)
    await manager.leave(closed, ANN)  # the host alone leaves: the lobby is closed
    assert await repo.timers_for_game(ended) == [] and await repo.timers_for_game(closed) == []
    clock.advance(hours=48)
    assert await manager.run_due_timers() == 0 and notifier.expired == []


async def test_zero_hours_turns_expiry_off(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    manager = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai, lobby_expire_hours=0)
    await manager.start(dispatcher=False)
    gid = await _lobby(manager)
    await manager.join(gid, BOB, "Bob")
    assert await repo.timers_for_game(gid) == []
    clock.advance(hours=24 * 365)
    assert await manager.run_due_timers() == 0
    assert notifier.expired == [] and (await repo.load_game(gid)).status == GameStatus.LOBBY
    await manager.close()


async def test_the_start_up_sweep_gives_old_lobbies_their_row_and_drops_it_when_expiry_is_off(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    kw = {"clock": clock, "notifier": notifier, "ai": random_ai}
    before = GameManager(repo, lobby_expire_hours=0, **kw)  # type: ignore[arg-type]
    old = await _lobby(before, channel=1)  # a lobby from before expiry: no row
    clock.advance(hours=30)
    recent = await _lobby(before, channel=2)
    clock.advance(hours=1)
    after = GameManager(repo, lobby_expire_hours=12, **kw)  # type: ignore[arg-type]
    await after.start(dispatcher=False)  # the sweep: one row each, one delay after the lobby's last change
    assert await _rows(repo, old) == [(TimerKind.LOBBY, timedelta(hours=-19))]  # (due before it was written)
    assert await _rows(repo, recent) == [(TimerKind.LOBBY, timedelta(hours=11))]
    await after.run_due_timers()  # the old one expires at once, the recent one waits
    assert [g for g, _ in notifier.expired] == [old]
    assert (await repo.load_game(recent)).status == GameStatus.LOBBY
    off = GameManager(repo, lobby_expire_hours=0, **kw)  # type: ignore[arg-type]
    await off.start(dispatcher=False)  # expiry turned off: the lobby's row goes
    assert await repo.timers_for_game(recent) == []
    for m in (before, after, off):
        await m.close()


async def test_the_dispatcher_expires_a_lobby_when_the_clock_moves(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    manager = GameManager(repo, clock=clock, notifier=notifier, ai=random_ai, lobby_expire_hours=2)
    await manager.start()
    try:
        gid = await _lobby(manager)
        await asyncio.wait_for(manager.timers.settled(), 10)
        clock.advance(hours=2)
        await asyncio.wait_for(manager.timers.settled(), 10)
        assert [g for g, _ in notifier.expired] == [gid]
        expired = notifier.expired[0][1]
        said = line(expired.events[0], table_of(expired.info))
        assert said.params == {"n": 2}  # type: ignore[union-attr]
    finally:
        await manager.close()

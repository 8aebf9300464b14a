"""A timer-only write (a reminder's re-arm, the ``wait`` policy parking the turn) is seen by every process before
it serves the game again: two managers on one PostgreSQL, A serving the timers and B taking the moves, give the
same rows and the same messages as one process. (Before, B's cached copy kept the old turn row, its version
unchanged, and its next move left the parked row in place: the next player was never reminded.)"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, play_random, random_ai, started_game
from helpers.pg_schema import fresh_pg_schema

from bot.manager import GameManager, ManualClock
from engine.actions import DrawBlind
from engine.state import MAIN

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_pg_schema() as (url, _schema):
        yield url


async def _story(url: str, processes: int, policy: str) -> tuple[list[object], list[object]]:
    """Ann is absent through her two reminders and the absent-player policy, then (under ``wait``) comes back
    and plays; twelve hours later Bob is reminded. Returns (what the players heard, the rows at the end)."""
    from bot.storage import open_repository

    clock = ManualClock()
    heard: list[object] = []
    async with (
        open_repository(url, clock=clock.now) as repo_a,
        open_repository(url, clock=clock.now) as repo_b,
    ):
        notifier = RecordingNotifier()
        a = GameManager(repo_a, clock=clock, notifier=notifier, ai=random_ai, retry_delays=(0.01,))
        notifier.manager = a
        b = a
        if processes == 2:
            b = GameManager(
                repo_b, clock=clock, notifier=RecordingNotifier(), ai=random_ai, retry_delays=(0.01,)
            )
        await a.start(dispatcher=False)
        if b is not a:
            await b.start(dispatcher=False)
        try:
            gid, _ = await started_game(b, humans=2, seed=4, settings={"absent_policy": policy})
            await play_random(b, gid, random.Random(4), moves=2)  # B holds the game in its cache from here
            info = await b.status(gid)
            assert info.phase == MAIN and info.to_act == (0,)
            for hours in (12, 12, 24):  # reminder 1, reminder 2, the absent-player policy: served by A
                clock.advance(hours=hours, minutes=1)
                await a.run_due_timers()
                await b.status(gid)  # B serves the game meanwhile (what a player's /ttr status does)
            if policy == "wait":
                await b.act(gid, ANN, DrawBlind())  # Ann is back: her turn, taken by B
                await b.act(gid, ANN, DrawBlind())
            rows = sorted(
                (
                    t.kind,
                    t.payload.get("key"),
                    t.payload.get("stage"),
                    round((t.due_at - clock.now()).total_seconds()),
                )
                for t in await repo_a.timers_for_game(gid)
            )
            clock.advance(hours=12)
            await a.run_due_timers()
            heard = [*notifier.reminders, *notifier.absent]
            heard = [h[1:] for h in heard]  # (seat, user, n or policy): the game id differs between runs
        finally:
            if b is not a:
                await b.close()
            await a.close()
    return heard, list(rows)


@pytest.mark.parametrize("policy", ["wait", "ai"])
async def test_two_processes_serve_the_same_rows_and_messages_as_one(pg_url: str, policy: str) -> None:
    one = await _story(pg_url, 1, policy)
    two = await _story(pg_url, 2, policy)
    assert two == one
    heard, rows = one
    assert (1, BOB, 1) in heard  # the next player's first reminder came, twelve hours after the turn passed
    turn_rows = [r for r in rows if r[0] == "turn"]
    assert len(turn_rows) == 1 and turn_rows[0][2] == 0  # Bob's own chain, not the parked row of Ann's wait
    assert turn_rows[0][3] <= 12 * 3600


async def test_a_move_racing_a_timer_write_reloads_the_rows(pg_url: str) -> None:
    """B read the game before A re-armed its turn row; B's guarded write must not pass on the old rows."""
    from bot.storage import open_repository

    clock = ManualClock()
    async with (
        open_repository(pg_url, clock=clock.now) as repo_a,
        open_repository(pg_url, clock=clock.now) as repo_b,
    ):
        a = GameManager(repo_a, clock=clock, ai=random_ai, retry_delays=(0.01,))
        b = GameManager(repo_b, clock=clock, ai=random_ai, retry_delays=(0.01,))
        await a.start(dispatcher=False)
        await b.start(dispatcher=False)
        try:
            gid, _ = await started_game(b, humans=2, seed=4, settings={"absent_policy": "wait"})
            await play_random(b, gid, random.Random(4), moves=2)
            before = (await repo_a.load_game(gid)).version
            for hours in (12, 12, 24):  # reminders 1 and 2, then the row parked by the "wait" policy
                clock.advance(hours=hours, minutes=1)
                await a.run_due_timers()
            # the timer-only writes changed what the version check compares
            assert (await repo_a.load_game(gid)).version > before
            b._store.check_versions = (
                False  # B does not look: only the version guard of its write protects it
            )
            await b.act(gid, ANN, DrawBlind())
            await b.act(gid, ANN, DrawBlind())
            rows = [
                (t.kind, t.payload.get("key"), t.payload.get("stage"))
                for t in await repo_a.timers_for_game(gid)
            ]
            assert [r for r in rows if r[0] == "turn"] == [("turn", "main:1:1", 0)]
        finally:
            await b.close()
            await a.close()

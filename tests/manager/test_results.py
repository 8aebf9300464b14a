"""What a finished game leaves for the record (bot.manager.results): each seat's turns and their time are counted
by the manager from the game's timed log, the last action included; the storage stores them as told."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest
from helpers.manager_games import started_game

from bot.manager import GameManager, ManualClock
from bot.manager.results import turn_times
from bot.storage import GameRepository


def test_turns_are_runs_of_one_seats_actions_timed_from_the_action_before() -> None:
    t0 = datetime(2026, 11, 28, tzinfo=UTC)
    at = [t0 + timedelta(seconds=s) for s in (0, 10, 15, 40, 100, 160)]
    log = [(0, at[0]), (1, at[1]), (1, at[2]), (0, at[3]), (None, at[4]), (1, at[5])]
    assert turn_times(log) == {0: (2, pytest.approx(25.0)), 1: (2, pytest.approx(15.0 + 60.0))}
    assert turn_times([]) == {}


async def test_a_finished_games_statistics_carry_each_seats_turns_and_their_time(
    manager: GameManager, repo: GameRepository, clock: ManualClock
) -> None:
    gid, _ = await started_game(manager, humans=2, seed=11)
    rng = random.Random(8)
    while (info := await manager.status(gid)).status == "active":
        seat = rng.choice(info.to_act)
        uid = info.seats[seat].user_id
        assert uid is not None
        clock.advance(seconds=7)  # every action 7 s after the one before
        legal = await manager.legal_actions(gid, uid)
        await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
    seats = [a.seat for a in await repo.load_actions(gid)]
    stats = await repo.game_stats(gid)
    assert len(stats) == 2 and None not in seats
    runs = [seat for seat, _ in itertools.groupby(seats)]
    assert {s.seat: s.turns for s in stats} == {seat: runs.count(seat) for seat in (0, 1)}
    # each turn lasts from the action before it to its last: the whole game but its first action's own moment
    assert sum(s.turn_seconds for s in stats) == pytest.approx(7.0 * (len(seats) - 1))

"""Ratings and player preferences: the storage contract on SQLite (file and memory) and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import GameRepository, PlayerPrefs, SeatResult
from bot.storage.rating import Skill, rate

from .test_storage_contract import finish, new_game


async def test_a_finished_game_rates_its_humans_overall_and_on_its_board(repo: GameRepository) -> None:
    gid = await finish(repo, "europe", 1, {101: 100, 102: 80, None: 120})  # the AI wins, unrated
    assert await repo.is_rated(gid)
    ada, bob = await repo.rating(1, 101), await repo.rating(1, 102)
    assert ada is not None and bob is not None
    expected = rate([Skill(), Skill()], [100, 80])  # the AI seat is left out: a two-player game
    assert (ada.mu, ada.sigma, ada.games, ada.rank) == pytest.approx(
        (expected[0].mu, expected[0].sigma, 1, 1)
    )
    assert ada.ordinal == pytest.approx(ada.mu - 3 * ada.sigma)
    assert (bob.rank, bob.games) == (2, 1) and bob.ordinal < ada.ordinal
    on_board = await repo.rating(1, 101, "europe")
    assert on_board is not None and on_board.mu == pytest.approx(ada.mu)
    assert await repo.rating(1, 101, "usa") is None
    assert await repo.rating(2, 101) is None  # per server


async def test_equal_scores_tie(repo: GameRepository) -> None:
    await finish(repo, "usa", 1, {101: 60, 102: 60, 103: 40})
    ratings = await repo.ratings(1)
    assert [r.user_id for r in ratings] == [101, 102, 103]  # equal ordinals: more games, then user id
    assert ratings[0].mu == pytest.approx(ratings[1].mu) and [r.rank for r in ratings] == [1, 1, 3]
    assert (await repo.rating(1, 102)).rank == 1  # type: ignore[union-attr]


async def test_fewer_than_two_humans_or_no_server_is_not_rated(repo: GameRepository) -> None:
    solo = await finish(repo, "europe", 1, {101: 100, None: 90})
    assert not await repo.is_rated(solo)
    assert await repo.rating(1, 101) is None
    game = await new_game(repo, guild_id=None)
    results = [SeatResult(0, 101, 10, 1, True), SeatResult(1, 102, 5, 2, False)]
    await repo.append_action(game.id, 0, None, {"t": 1}, {}, status="finished", results=results)
    assert not await repo.is_rated(game.id) and await repo.ratings(1) == []


async def test_a_game_is_rated_once_whatever_rewrites_its_results(repo: GameRepository) -> None:
    gid = await finish(repo, "europe", 1, {101: 100, 102: 80})
    once = await repo.ratings(1)
    # the finish retried: results written again (also with other scores) leave the ratings as they were
    await repo.record_results(gid, [SeatResult(0, 101, 10, 2, False), SeatResult(1, 102, 80, 1, True)])
    record = await repo.load_game(gid)
    await repo.update_game(
        gid, record.version, results=[SeatResult(0, 101, 1, 2, False), SeatResult(1, 102, 9, 1, True)]
    )
    assert await repo.ratings(1) == once
    assert [r.games for r in once] == [1, 1]


async def test_two_finishes_racing_rate_each_game_once(repo: GameRepository) -> None:
    a = await finish(repo, "europe", 1, {101: 100, 102: 80})
    b = await finish(repo, "usa", 1, {101: 50, 103: 70})
    results = {a: [SeatResult(0, 101, 100, 1, True), SeatResult(1, 102, 80, 2, False)],
               b: [SeatResult(0, 101, 50, 2, False), SeatResult(1, 103, 70, 1, True)]}  # fmt: skip
    await asyncio.gather(*(repo.record_results(g, results[g]) for g in (a, b, a, b, a)))
    ada = await repo.rating(1, 101)
    assert ada is not None and ada.games == 2  # two games, however often their results were written
    assert (await repo.rating(1, 101, "usa")).games == 1  # type: ignore[union-attr]


async def test_ratings_build_on_earlier_games(repo: GameRepository) -> None:
    await finish(repo, "europe", 1, {101: 100, 102: 80})
    await finish(repo, "europe", 1, {101: 90, 102: 70})
    await finish(repo, "usa", 1, {102: 90, 101: 70})
    first = rate([Skill(), Skill()], [100, 80])
    second = rate(first, [90, 70])
    third = rate([second[1], second[0]], [90, 70])  # overall: the third game starts from the second
    ada = await repo.rating(1, 101)
    assert ada is not None and ada.mu == pytest.approx(third[1].mu) and ada.games == 3
    on_usa = await repo.rating(1, 101, "usa")  # the board's rating starts afresh
    assert on_usa is not None and on_usa.mu == pytest.approx(rate([Skill(), Skill()], [90, 70])[1].mu)
    board = await repo.ratings(1, "europe", limit=1)
    assert [(r.user_id, r.games, r.rank) for r in board] == [(101, 2, 1)]
    with pytest.raises(ValueError):
        await repo.ratings(1, limit=0)


async def test_preferences_default_save_and_are_per_server(repo: GameRepository) -> None:
    assert await repo.load_prefs(101, 1) == PlayerPrefs("mention", True)
    await repo.save_prefs(101, 1, PlayerPrefs("dm", False))
    await repo.save_prefs(101, None, PlayerPrefs("none", True))
    assert await repo.load_prefs(101, 1) == PlayerPrefs("dm", False)
    assert await repo.load_prefs(101, None) == PlayerPrefs("none", True)
    assert await repo.load_prefs(101, 2) == PlayerPrefs()
    await repo.save_prefs(101, 1, PlayerPrefs("mention", False))
    assert await repo.load_prefs(101, 1) == PlayerPrefs("mention", False)
    with pytest.raises(ValueError):
        PlayerPrefs("shout")

"""Ratings through the manager (a finished game with two humans is rated once; AI seats and abandoned games are
not) and per-player preferences."""

from __future__ import annotations

import pytest
from helpers.manager_games import HUMANS, started_game

from bot.manager import GameManager, PlayerPrefs, Refused
from bot.storage import GameRepository
from bot.storage.rating import Skill, rate

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


async def test_a_finished_game_with_two_humans_is_rated_by_its_scores(
    manager: GameManager, repo: GameRepository
) -> None:
    gid, _ = await started_game(manager, humans=2, ais=1, seed=5)
    await manager.hand_to_ai(gid, ANN)
    outcome = await manager.hand_to_ai(
        gid, BOB
    )  # nobody left to wait for: the AI plays both seats to the end
    assert outcome.finished and await repo.is_rated(gid)
    scores = {r.user_id: r.score for r in outcome.results}
    expected = dict(zip((ANN, BOB), rate([Skill(), Skill()], [scores[ANN], scores[BOB]]), strict=True))
    board = await manager.ratings(1)
    assert {r.user_id for r in board} == {ANN, BOB}  # the AI seat has no rating
    for row in board:
        assert row.mu == pytest.approx(expected[row.user_id].mu) and row.games == 1
    ann = await manager.rating(1, ANN)
    assert ann is not None and ann.rank == (1 if scores[ANN] >= scores[BOB] else 2)
    assert (await manager.rating(1, ANN, "europe")) is not None and await manager.rating(
        1, ANN, "usa"
    ) is None


async def test_one_human_or_an_abandoned_game_is_not_rated(
    manager: GameManager, repo: GameRepository
) -> None:
    solo, _ = await started_game(manager, humans=1, ais=2, seed=3)
    assert (await manager.hand_to_ai(solo, ANN)).finished
    assert not await repo.is_rated(solo)
    left, _ = await started_game(manager, humans=2, seed=4)
    await manager.abandon(left, ANN)
    assert not await repo.is_rated(left)
    assert await manager.ratings(1) == [] and await manager.rating(1, ANN) is None


async def test_preferences_default_change_and_refuse_an_unknown_mode(manager: GameManager) -> None:
    assert await manager.player_prefs(ANN, 1) == PlayerPrefs(notify="mention", confirm_claims=True)
    assert await manager.set_player_prefs(ANN, 1, notify="dm") == PlayerPrefs("dm", True)
    assert await manager.set_player_prefs(ANN, 1, confirm_claims=False) == PlayerPrefs("dm", False)
    assert await manager.player_prefs(ANN, 1) == PlayerPrefs("dm", False)
    assert (
        await manager.player_prefs(ANN, 2) == PlayerPrefs()
        and await manager.player_prefs(BOB, 1) == PlayerPrefs()
    )
    with pytest.raises(Refused) as err:
        await manager.set_player_prefs(ANN, 1, notify="shout")
    assert err.value.code == "bad_pref" and await manager.player_prefs(ANN, 1) == PlayerPrefs("dm", False)

"""Every change returns what its caller needs (the new game info, the new state, the events), the same as a
fresh read would give; and the listings and statistics the presentation shows come through the manager."""

from __future__ import annotations

import random

from helpers.manager_games import HUMANS, play_random, started_game

from bot.manager import GameManager, Outcome
from bot.storage import GameStatus
from engine.actions import DrawBlind
from engine.rules import to_act

ANN, BOB, CLEO = (uid for uid, _ in HUMANS[:3])


async def _same_as_a_fresh_read(manager: GameManager, outcome: Outcome) -> None:
    fresh = await manager.game_info(outcome.game_id)
    assert outcome.info == fresh
    assert outcome.state is await manager.state_of(outcome.game_id)  # the cached state, not a copy
    if outcome.state is not None and outcome.status == GameStatus.ACTIVE:
        assert outcome.to_act == tuple(to_act(outcome.state)) == fresh.to_act
        assert outcome.tokens == fresh.tokens


async def test_act_returns_the_new_info_and_state(manager: GameManager) -> None:
    gid, outcome = await started_game(manager, humans=2, seed=4)
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.state is not None and outcome.info.action_count == 0
    await play_random(manager, gid, random.Random(4), moves=2)
    info = await manager.game_info(gid)
    outcome = await manager.act(gid, ANN, DrawBlind(), expected_turn=info.tokens[0])
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.info.action_count == info.action_count + 1 == outcome.seqs[-1]
    assert outcome.state is not None and len(outcome.state.history) == outcome.info.action_count
    assert [e.kind for e in outcome.events] == ["draw_blind"] and outcome.private_for(0)


async def test_seat_and_lobby_changes_return_the_new_info_too(manager: GameManager) -> None:
    gid, _ = await started_game(manager, humans=3, seed=5)
    outcome = await manager.hand_to_ai(gid, BOB)
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.info.seats[1].ai_level == "normal"
    outcome = await manager.take_back(gid, BOB)
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.info.seats[1].ai_level is None
    outcome = await manager.kick(gid, ANN, CLEO)
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.info.seats[2].user_id is None
    outcome = await manager.leave(gid, BOB)  # Bob resigns: an AI plays his seat for good
    await _same_as_a_fresh_read(manager, outcome)
    outcome = await manager.abandon(gid, ANN)
    await _same_as_a_fresh_read(manager, outcome)
    assert outcome.finished is False and outcome.status == GameStatus.ABANDONED and outcome.to_act == ()


async def test_the_listings_and_statistics_come_through_the_manager(manager: GameManager) -> None:
    gid, _ = await started_game(manager, humans=2, seed=6, channel=77)
    lobby = await manager.create_game(guild_id=1, channel_id=78, host_id=CLEO, host_name="Cleo")
    assert {g.id for g in await manager.open_games(guild_id=1)} == {gid, lobby.game_id}
    assert [g.id for g in await manager.open_games(guild_id=1, channel_id=78)] == [lobby.game_id]
    assert [g.id for g in await manager.player_games(ANN)] == [gid]
    assert await manager.games_of(CLEO) == [lobby.game_id]
    await manager.abandon(gid, ANN)
    assert await manager.player_games(ANN) == [] and await manager.player_games(ANN, open_only=False)
    assert (await manager.player_stats(1, ANN)).games == 0  # an abandoned game counts for nobody
    played, _ = await started_game(manager, humans=1, ais=1, seed=3, channel=79)
    outcome = await manager.hand_to_ai(played, ANN)  # the AI plays Ann's seat to the end; her result counts
    assert outcome.finished and outcome.results
    stats = await manager.player_stats(1, ANN)
    (ann,) = [r for r in outcome.results if r.user_id == ANN]
    assert stats.games == 1 and stats.best_score == ann.score and stats.wins == int(ann.won)
    assert [(row.user_id, row.games) for row in await manager.leaderboard(1)] == [(ANN, 1)]

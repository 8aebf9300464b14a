"""`engine.turn.next_player`: the seat whose turn comes next, as the turn order will have it (the heads-up of
bot.manager.player_time asks it), and None on the last round's last turn and outside the main phases."""

from __future__ import annotations

import random

import pytest

from engine.rules import apply, legal_actions, new_game, to_act
from engine.state import FINISHED, LAST_ROUND
from engine.turn import next_player


@pytest.mark.parametrize(("board", "players", "seed"), [("usa", 2, 1), ("europe", 3, 2), ("italy", 4, 3)])
def test_next_player_is_who_plays_next_or_none_when_the_game_ends(
    board: str, players: int, seed: int
) -> None:
    state = new_game(board, players, seed=seed)
    rng = random.Random(seed)
    assert next_player(state) is None  # the simultaneous ticket choice: nobody is next
    told_none_in_last_round = False
    while state.phase != FINISHED:
        seat = to_act(state)[0]
        before_turn, before = state.turn, next_player(state)
        if state.phase == LAST_ROUND and before is None:
            told_none_in_last_round = True
        apply(state, seat, rng.choice(legal_actions(state, seat)))
        if before is not None and state.turn != before_turn:  # a turn passed: it went to the seat announced
            assert state.current == before
        if state.phase == FINISHED:  # the game ended with this turn: nobody was told they were next
            assert before is None
    assert told_none_in_last_round
    assert next_player(state) is None

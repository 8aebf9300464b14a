"""The one replay (`engine.record.iter_replay`): what it yields step by step, and where it stops."""

from __future__ import annotations

import pytest

from engine.errors import GameDataError
from engine.record import iter_replay, make_record, replay
from engine.simulate import play_game


def test_each_step_is_the_logged_action_applied_in_order() -> None:
    state = play_game("europe", 3, seed=4).state
    record = make_record(state)
    steps = [(i, seat, action, s.turn) for i, seat, action, s in iter_replay(record)]
    assert [(seat, action) for _i, seat, action, _turn in steps] == list(state.history)
    assert [i for i, *_ in steps] == list(range(1, len(state.history) + 1))
    turns = [turn for *_, turn in steps]
    assert turns == sorted(turns) and turns[-1] == state.turn  # the state moves on with every step
    assert replay(record).to_json() == state.to_json()


def test_a_stored_log_makes_the_same_record_as_the_states_history() -> None:
    state = play_game("usa", 2, seed=7).state
    rows = [(seat, action.to_json()) for seat, action in state.history]
    assert make_record(state, actions=rows) == make_record(state)


def test_an_illegal_action_stops_the_replay_at_its_position() -> None:
    state = play_game("usa", 2, seed=7).state
    record = make_record(state)
    bad = record["actions"][5]
    broken = {**record, "actions": [*record["actions"][:5], {**bad, "seat": 1 - bad["seat"]}]}
    seen = []
    with pytest.raises(GameDataError, match="action 6 "):
        for i, *_ in iter_replay(broken):
            seen.append(i)
    assert seen == [1, 2, 3, 4, 5]


def test_a_record_without_its_setup_is_refused() -> None:
    record = make_record(play_game("usa", 2, seed=7).state)
    del record["seed"]
    with pytest.raises(GameDataError, match="not a game record"):
        replay(record)

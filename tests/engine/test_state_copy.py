"""GameState.copy: an independent state that plays on exactly like the original (the AI's search relies on it)."""

from __future__ import annotations

import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from engine.simulate import SAMPLE_SETUPS
from engine.state import GameState, copy_data

json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
        | st.tuples(inner, inner)
    ),
    max_leaves=30,
)


def containers(value: object) -> list[object]:
    found: list[object] = []
    if isinstance(value, list | dict):
        found.append(value)
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else ()
    for child in children:
        found.extend(containers(child))
    return found


@given(json_like)
def test_copy_data_is_a_deep_copy_sharing_no_container(value: object) -> None:
    copied = copy_data(value)
    assert copied == copy.deepcopy(value)
    assert type(copied) is type(value)
    originals = {id(c) for c in containers(value)}
    assert not originals & {id(c) for c in containers(copied)}


def play_on(state: GameState, seed: int, actions: int) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if state.finished:
            return
        seat = to_act(state)[0]
        apply(state, seat, random_legal_action(state, seat, rng))


def test_a_copy_plays_on_exactly_like_its_original_and_apart_from_it() -> None:
    for board, variant, options in SAMPLE_SETUPS:
        middle = new_game(board, 4, variant=variant, options=options, seed=3)
        play_on(middle, 5, 150)
        before = middle.to_json()
        twin = middle.copy()
        assert twin.to_json() == before
        play_on(twin, 11, 400)  # the copy moves on: the original must not see any of it
        assert middle.to_json() == before, board
        again = middle.copy()
        play_on(again, 11, 400)
        play_on(middle, 11, 400)
        assert again.to_json() == middle.to_json() == twin.to_json(), board

"""A game's history kept as shared entries (engine.actions.history_entry, issue 32): the games, their saved JSON and
their replays are the same as before, on every board, and equal entries are one object."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.actions import ClaimRoute, DrawFaceUp, KeepTickets, action_from_json, history_entry
from engine.playout import random_legal_action
from engine.record import make_record, replay, resume, saved_position
from engine.rules import apply, new_game, to_act
from engine.simulate import SAMPLE_SETUPS
from engine.state import FINISHED, GameState

# sha256 (first 24 hex digits) of `to_json()` of each finished random game, computed by the engine before the
# history was kept as shared entries (main at b8d25e7): the games and their saved form are unchanged
BEFORE: dict[tuple[str, str | None, tuple[str, ...], int], str] = {
    ("europe", None, (), 1): "71f469b45ee164582b8834db",
    ("europe", None, (), 2): "fa580551aaa0d201c3fa1b7f",
    ("europe", "mega", ("warehouses",), 1): "add962f3ed866073120d8d13",
    ("europe", "mega", ("warehouses",), 2): "63bac5cb5d27eabf92bff981",
    ("usa", None, (), 1): "988fe49be45db48cc737e977",
    ("usa", None, (), 2): "c57fba42f19abe95b55fd5c1",
    ("germany", None, (), 1): "6baedc6ec07060d148d79a4b",
    ("germany", None, (), 2): "0b7ff66e59816355e1afb7da",
    ("marklin", None, (), 1): "26d6d5b992bf17449ed1276c",
    ("marklin", None, (), 2): "caa43e02f68e3db423956c18",
    ("japan", None, (), 1): "a15d128c3089de9497b61fff",
    ("japan", None, (), 2): "bdf0fb51319d1e6e51ecacc7",
    ("italy", None, (), 1): "a67cf5abc0ef2a117a4b3548",
    ("italy", None, (), 2): "d8e419d3eec19318ebb27bea",
}


def random_game(  # type: ignore[no-untyped-def]
    board: str, variant: str | None, options: tuple[str, ...], seed: int, players: int = 4, keep: bool = False
):
    """A random game to its end: its final state and (`keep`) every position on the way as saved (JSON text)."""
    state = new_game(board, players, variant=variant, options=options, seed=seed)
    rng = random.Random(seed)
    positions = [state.to_json()] if keep else []
    while state.phase != FINISHED:
        seats = to_act(state)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        apply(state, seat, random_legal_action(state, seat, rng))
        if keep:
            positions.append(state.to_json())
    return state, positions


@pytest.mark.parametrize(("board", "variant", "options", "seed"), sorted(BEFORE, key=str))
def test_finished_games_are_saved_as_before(
    board: str, variant: str | None, options: tuple[str, ...], seed: int
) -> None:
    state, _ = random_game(board, variant, options, seed)
    assert (
        hashlib.sha256(state.to_json().encode()).hexdigest()[:24] == BEFORE[(board, variant, options, seed)]
    )


@pytest.mark.parametrize(("board", "variant", "options"), SAMPLE_SETUPS)
def test_a_loaded_or_resumed_game_is_the_game_played(
    board: str, variant: str | None, options: tuple[str, ...]
) -> None:
    rng = random.Random(board)
    for seed in (3,):
        players = rng.randint(2, 5 if board != "japan" else 5)
        try:
            state, positions = random_game(board, variant, options, seed, players, keep=True)
        except Exception as exc:  # (a board that does not take this many players)
            pytest.skip(f"{board} with {players}: {exc}")
        log = [[seat, action.to_json()] for seat, action in state.history]
        assert make_record(state)["actions"] == [{"seat": s, "action": a} for s, a in log]
        assert replay(json.loads(json.dumps(make_record(state)))).to_json() == positions[-1]
        for at in sorted(rng.sample(range(len(positions)), 6)):
            loaded = GameState.from_json(positions[at])
            assert loaded.to_json() == positions[at]
            # a position without its history, played on through the log after it, to any later point
            position = json.loads(json.dumps(saved_position(loaded)))
            later = rng.randint(at, len(log))
            resumed = resume(position, json.loads(json.dumps(log[:later])), at)
            assert resumed.to_json() == positions[later]
            # and the loaded game plays on as the one played
            if at < len(log):
                seat, action = log[at]
                apply(loaded, seat, action_from_json(action))
                assert loaded.to_json() == positions[at + 1]


def test_equal_entries_are_one_object_and_values_of_other_types_are_not_shared() -> None:
    claim = ClaimRoute(route=3, color=2, locomotives=1)
    first = history_entry(1, claim)
    assert history_entry(1, ClaimRoute(route=3, color=2, locomotives=1)) is first
    assert history_entry(2, claim) is not first and history_entry(2, claim) == (2, claim)
    odd = ClaimRoute(route=3, color=2, locomotives=True)  # type: ignore[arg-type] # equal to `claim`, not the same
    assert history_entry(1, odd)[1].locomotives is True
    tickets = KeepTickets(tickets=(4, 9))
    assert history_entry(0, KeepTickets(tickets=(4, 9))) is history_entry(0, tickets)
    assert history_entry(0, DrawFaceUp(slot=1)) is history_entry(0, DrawFaceUp(slot=1))


def test_two_loaded_games_share_their_equal_entries() -> None:
    state, _ = random_game("usa", None, (), 5)
    one, two = GameState.from_json(state.to_json()), GameState.from_json(state.to_json())
    assert one.history == state.history
    assert all(a is b for a, b in zip(one.history, two.history, strict=True))

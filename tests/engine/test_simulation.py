"""Random complete games on every Europe variant and USA, and property tests over random legal play."""

from __future__ import annotations

import random

import pytest
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import BuildStation, ClaimRoute, DrawFaceUp, KeepTickets, PayTunnel
from engine.errors import IllegalAction
from engine.rules import apply, legal_actions, new_game, to_act
from engine.simulate import check_invariants, simulate
from engine.state import GameState

CASES = [
    ("europe", "classic", ()),
    ("europe", "1912", ()),
    ("europe", "big-cities", ()),
    ("europe", "mega", ()),
    ("europe", "classic", ("warehouses",)),
    ("europe", "big-cities", ("warehouses",)),
    ("usa", "classic", ()),
]


@pytest.mark.parametrize(("board", "variant", "options"), CASES)
# 50 games a case; the fast loop plays the 2- and 3-player tables of every case, CI the 4- and 5-player ones too
@pytest.mark.parametrize(
    "players", [2, 3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)]
)
def test_random_games_have_no_error_and_no_invariant_violation(board, variant, options, players):
    result = simulate(board, players, games=50, seed=1000 * players, variant=variant, options=options)
    result.pop("_first")
    assert result["errors"] == 0, result["error_messages"]
    assert result["invariant_violations"] == 0, result["violation_messages"]
    assert result["mean_turns"] > 20


def random_illegal(state: GameState, seat: int, rng: random.Random):  # type: ignore[no-untyped-def]
    board = state.board
    kind = rng.randrange(5)
    if kind == 0:
        return ClaimRoute(
            rng.randrange(-2, len(board.routes) + 2), rng.randrange(-1, 10), rng.randrange(-1, 5)
        )
    if kind == 1:
        return DrawFaceUp(rng.randrange(-1, 7))
    if kind == 2:
        return KeepTickets(tuple(rng.sample(range(len(board.tickets)), rng.randrange(0, 4))))
    if kind == 3:
        return BuildStation(
            rng.randrange(-1, len(board.cities) + 1), rng.randrange(0, 9), rng.randrange(0, 4)
        )
    return PayTunnel(rng.randrange(-1, 4))


@settings(max_examples=examples(25))
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    steps=st.integers(1, 400),
    variant=st.sampled_from(["classic", "mega", "big-cities"]),
    warehouses=st.booleans(),
)
def test_property_random_play_keeps_invariants_and_refusals_change_nothing(
    seed, players, steps, variant, warehouses
):
    rng = random.Random(seed)
    state = new_game(
        "europe", players, variant=variant, seed=seed, options=("warehouses",) if warehouses else ()
    )
    for _ in range(steps):
        if state.finished:
            break
        seat = rng.choice(to_act(state))
        legal = legal_actions(state, seat)
        assert legal, "a seat to act always has an action"
        # a random action: applied if legal, else refused with nothing changed
        probe = random_illegal(state, seat, rng)
        before = state.to_json()
        if probe in legal:
            apply(state, seat, probe)
        else:
            try:
                apply(state, seat, probe)
            except IllegalAction as exc:
                assert str(exc)  # a message for the player
                assert state.to_json() == before
            # some probes are legal without being in the list (an equivalent payment spelled another way)
        if state.finished:
            break
        seat = rng.choice(to_act(state))
        apply(state, seat, rng.choice(legal_actions(state, seat)))
        assert not check_invariants(state)
    text = state.to_json()
    assert GameState.from_json(text).to_json() == text


class FixedDraw:
    """A stand-in generator whose randrange returns a chosen index."""

    def __init__(self, k: int):
        self.k = k
        self.n: int | None = None

    def randrange(self, n: int) -> int:
        self.n = n
        return self.k


@pytest.mark.parametrize(("board", "options"), [("europe", ()), ("europe", ("warehouses",)), ("usa", ())])
def test_fast_sampler_is_exactly_legal_actions_by_index(board, options):
    from engine.playout import random_legal_action

    rng = random.Random(5)
    for seed in range(6):
        state = new_game(board, rng.randrange(2, 6), seed=seed, options=options)
        for _ in range(rng.randrange(20, 300)):
            if state.finished:
                break
            seat = rng.choice(to_act(state))
            legal = legal_actions(state, seat)
            probe = FixedDraw(0)
            random_legal_action(state, seat, probe)
            assert probe.n == len(legal)
            for k in range(len(legal)):
                assert random_legal_action(state, seat, FixedDraw(k)) == legal[k]
            apply(state, seat, rng.choice(legal))

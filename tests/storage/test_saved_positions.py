"""A game stored as its log plus a saved position every few moves (V006) is the game that was stored whole after
every move before: for random games over every board, the position saved last before any point, played on
through the log up to that point, equals byte for byte the whole snapshot today's code wrote at that point."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.manager.positions import SAVE_POSITION_EVERY
from engine.errors import GameDataError
from engine.playout import random_legal_action
from engine.record import resume, saved_position
from engine.rules import apply, new_game, to_act
from engine.simulate import SAMPLE_SETUPS
from engine.state import GameState
from maps import load_board


def _json(value: Any) -> Any:
    """As storage gives it back."""
    return json.loads(json.dumps(value, separators=(",", ":")))


def check_random_game(number: int, every: int) -> int:
    """Plays game `number` (seeded) with positions saved as the store saves them, checking a few points and the
    end against the whole snapshot; returns how many points were checked."""
    rng = random.Random(number)
    board, variant, options = SAMPLE_SETUPS[number % len(SAMPLE_SETUPS)]
    low, high = load_board(board).rules.get("players", [2, 5])
    players = rng.randint(low, high)
    state = new_game(board, [f"P{i}" for i in range(players)], variant=variant, options=options, seed=number)
    saved: tuple[int, dict[str, Any]] = (0, _json(saved_position(state)))
    log: list[tuple[int | None, dict[str, Any]]] = []
    points = set(rng.sample(range(1, 400), 3))
    checked = 0
    while not state.finished:
        seat = to_act(state)[0]
        action = random_legal_action(state, seat, rng)
        apply(state, seat, action)
        log.append((seat, action.to_json()))
        if state.finished or len(log) - saved[0] >= every:
            saved = (len(log), _json(saved_position(state)))
        if len(log) in points or state.finished:
            whole = _json(state.to_dict())  # today's snapshot: the whole state, its history included
            at, position = saved
            loaded = resume(_json(position), _json(log), at)  # (a load reads a fresh copy)
            assert _json(loaded.to_dict()) == whole, (number, board, len(log), at)
            # and a whole snapshot of before V006 (its history inside) resumes the same
            assert _json(resume(whole, _json(log), len(log)).to_dict()) == whole
            checked += 1
    return checked


@pytest.mark.parametrize("every", [1, 7, SAVE_POSITION_EVERY])
def test_saved_positions_replay_to_the_whole_snapshot_fast(every: int) -> None:
    assert sum(check_random_game(n, every) for n in range(2 * len(SAMPLE_SETUPS))) >= 2 * len(SAMPLE_SETUPS)


@pytest.mark.slow
def test_saved_positions_replay_to_the_whole_snapshot_1000_games() -> None:
    checked = sum(check_random_game(n, 1 + n % (2 * SAVE_POSITION_EVERY)) for n in range(1000))
    assert checked >= 1000


def test_a_log_that_does_not_fit_its_position_is_refused() -> None:
    state = new_game("usa", ["A", "B"], seed=3)
    position = _json(saved_position(state))
    rng = random.Random(1)
    seat = to_act(state)[0]
    action = random_legal_action(state, seat, rng)
    log = [(seat, action.to_json())]
    with pytest.raises(GameDataError):
        resume(position, log, 2)  # a position after more actions than the log holds
    with pytest.raises(GameDataError):
        resume(position, [(seat, {"type": "no_such_action"})], 0)
    assert isinstance(resume(position, log, 0), GameState)

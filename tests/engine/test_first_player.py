"""The first player is drawn at random from the game's seed at setup; replays stay exact."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import KeepTickets
from engine.record import make_record, replay
from engine.rules import apply, new_game, to_act
from engine.simulate import play_game
from engine.state import MAIN, GameState
from engine.views import public_view


def _choose_tickets(state: GameState) -> None:
    while state.pending:
        seat = to_act(state)[-1]
        apply(state, seat, KeepTickets(tuple(sorted(state.pending[seat].offered))))


def test_the_first_player_is_drawn_from_the_seed() -> None:
    firsts = Counter(new_game("usa", 4, seed=seed).first_player for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 25  # every seat starts some games
    assert all(
        new_game("usa", 4, seed=s).first_player == new_game("usa", 4, seed=s).first_player for s in range(20)
    )


def test_play_starts_with_the_first_player_and_the_views_say_who() -> None:
    state = next(s for s in (new_game("usa", 3, seed=seed) for seed in range(50)) if s.first_player == 2)
    _choose_tickets(state)
    assert state.phase == MAIN and state.current == 2
    assert public_view(state).first_player == 2


def test_the_deck_is_the_same_as_before_the_draw() -> None:
    """The first player comes from a generator of its own: the cards and tickets dealt from a seed did not
    change (saved games and earlier seeds keep their decks)."""
    a = new_game("europe", 4, seed=11)
    b = new_game("europe", 4, seed=11, first_player=(a.first_player + 1) % 4)
    assert (a.deck, a.face_up, a.ticket_decks, a.rng.getstate()) == (
        b.deck,
        b.face_up,
        b.ticket_decks,
        b.rng.getstate(),
    )


@pytest.mark.parametrize(("board", "options"), [("europe", ("warehouses",)), ("germany", ()), ("japan", ())])
def test_a_replay_is_the_game(board: str, options: tuple[str, ...]) -> None:
    for seed in range(4):
        state = play_game(board, 3, seed, options=options).state
        record = make_record(state)
        assert replay(record).to_json() == state.to_json()
        assert replay({**record, "first_player": state.first_player}).to_json() == state.to_json()


def test_saved_states_keep_their_first_player() -> None:
    state = new_game("usa", 3, seed=5)
    again = GameState.from_json(state.to_json())
    assert again.first_player == state.first_player and again.to_json() == state.to_json()
    old = state.to_dict()
    del old["first_player"]  # saved before the draw existed: seat 0 started those games
    assert GameState.from_dict(old).first_player == 0

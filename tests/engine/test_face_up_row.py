"""The face-up row: "If at any time three of the five face-up cards are Locomotives, all five are discarded and
replaced" — again as long as a row without three can come out of the deck, the discard and the row itself."""

from __future__ import annotations

import random

import pytest
from helpers.engine_states import started

from engine import cards as deck_ops
from engine.cards import EMPTY, total_cards
from maps import LOCOMOTIVE, PASSENGER_CARD


def hoarded(board: str, seed: int, others_left: int, in_row: int) -> tuple:
    """A position where the players hoard coloured cards: deck + discard + row hold every reset-type card
    (Locomotives; Märklin's Passenger cards too) and only `others_left` other cards, `in_row` of them in a row
    that has 3 Locomotives. Returns (state, reset types)."""
    state = started(board, 3, seed=seed)
    types = deck_ops.reset_types(state)
    rng = random.Random(seed)
    pool = [c for c in state.face_up if c != EMPTY] + state.deck + state.discard
    resets = [c for c in pool if c in types]
    others = [c for c in pool if c not in types]
    rng.shuffle(others)
    kept, hoard = others[:others_left], others[others_left:]
    for i, c in enumerate(hoard):
        state.players[i % 3].hand[c] += 1
    locos = [c for c in resets if c == LOCOMOTIVE]
    rest_resets = [c for c in resets if c != LOCOMOTIVE]
    in_row = min(in_row, 2, len(kept))
    row = locos[:3] + kept[:in_row]
    pile = locos[3:] + rest_resets + kept[in_row:]
    while len(row) < 5 and pile:
        row.append(pile.pop(rng.randrange(len(pile))))
    rng.shuffle(pile)
    state.face_up = row + [EMPTY] * (5 - len(row))
    cut = rng.randrange(len(pile) + 1)
    state.deck, state.discard = pile[:cut], pile[cut:]
    return state, types


def good_row_exists(cards: list[int], types: tuple[int, ...]) -> bool:
    """The rule read directly: can 5 cards (or all, if fewer) be picked with at most 2 of each reset type?"""
    size = min(5, len(cards))
    per_type = {t: min(2, cards.count(t)) for t in types}
    return sum(1 for c in cards if c not in types) + sum(per_type.values()) >= size


@pytest.mark.parametrize("board", ["europe", "marklin"])
@pytest.mark.parametrize("seed", range(12))
def test_hoarded_positions_end_with_a_legal_row_whenever_one_is_possible(board: str, seed: int) -> None:
    for others_left in range(0, 8):
        for in_row in (0, 1, 2):
            state, types = hoarded(board, seed, others_left, in_row)
            pool = [c for c in state.face_up if c != EMPTY] + state.deck + state.discard
            possible = good_row_exists(pool, types)
            total = total_cards(state)
            deck_ops.check_row(state)
            assert total_cards(state) == total
            bad = any(state.face_up.count(t) >= 3 for t in types)
            assert bad != possible, (others_left, in_row, state.face_up)


def test_a_redeal_uses_the_row_cards_too() -> None:
    """Deck and discard hold 2 coloured cards, the row 2 more with 3 Locomotives: 4 coloured cards and the
    Locomotives make a legal row, so the row is redealt (it was kept before)."""
    state, types = hoarded("europe", 3, 4, 2)
    assert sum(1 for c in state.deck + state.discard if c not in types) == 2
    deck_ops.check_row(state)
    assert state.face_up.count(LOCOMOTIVE) < 3


def test_no_legal_row_possible_keeps_the_row_as_dealt() -> None:
    state, types = hoarded("europe", 4, 2, 2)  # 2 coloured cards and Locomotives: every row has 3 of them
    row = state.face_up[:]
    deck, discard = state.deck[:], state.discard[:]
    deck_ops.check_row(state)
    assert (state.face_up, state.deck, state.discard) == (row, deck, discard)
    assert PASSENGER_CARD not in types

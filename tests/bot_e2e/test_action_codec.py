"""Every legal action of every board survives its trip through a custom id, and has a label that fits."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.components import MAX_CUSTOM_ID, button_id
from bot.service_impl import actions as act
from engine.rules import apply, legal_actions, new_game, to_act

BOARDS = [("europe", ()), ("europe", ("warehouses",)), ("usa", ()), ("germany", ()), ("marklin", ()),
          ("japan", ()), ("italy", ())]  # fmt: skip


@pytest.mark.parametrize(("board", "options"), BOARDS)
def test_every_legal_action_round_trips(board, options):  # type: ignore[no-untyped-def]
    rng = random.Random(board + str(options))
    state = new_game(board, 3, options=options, seed=rng.randrange(10**6))
    kinds = set()
    for _ in range(400):
        if state.finished:
            break
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        token = f"t{len(state.history)}"
        for a in legal:
            packed = act.pack(token, a)
            assert act.unpack(packed) == (token, a)
            assert len(packed) <= 100  # a select option value
            label = act.label(state, seat, a)
            assert 0 < len(label) <= 100
            message = act.message(state, seat, a)
            assert message
            kinds.add(a.kind)
        apply(state, seat, rng.choice(legal))
    assert {"draw_blind", "claim_route"} <= kinds


@given(st.text(max_size=40))
@settings(max_examples=120, deadline=None)
def test_decoding_garbage_never_raises(code):  # type: ignore[no-untyped-def]
    token, action = act.unpack(code)
    assert isinstance(token, str)
    if action is not None:
        assert act.decode(act.encode(action)) == action


def test_turn_buttons_fit_in_a_custom_id():  # type: ignore[no-untyped-def]
    from engine.actions import ClaimRoute, DrawBlind, DrawFaceUp

    for a in (ClaimRoute(123, 8, 12, 3, 2), DrawBlind(4), DrawFaceUp(4, 4)):
        custom_id = button_id("abcdefgh", "do", act.pack("t12345", a))
        assert len(custom_id) <= MAX_CUSTOM_ID

"""Every legal action of every board survives its trip through a custom id (the codec's code, the components'
grammar, parsed back into a `Press`), and has a label that fits."""

from __future__ import annotations

import random

import pytest
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.components import BUTTON_TEMPLATE, MAX_CUSTOM_ID, button_id, join_args, parse_press
from bot.play import codec, labels
from bot.play.press import PressCode
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
            value = join_args(token, (codec.encode(a),))
            assert value is not None and len(value) <= 100  # a select option value
            press = parse_press("g1", "do1", None, [value])
            assert press is not None and press.code == PressCode.DO and press.token == token
            assert codec.decode(press.arg(0)) == a
            label = labels.label(state, seat, a)
            assert 0 < len(label) <= 100
            message = labels.message(state, seat, a)
            assert message
            kinds.add(a.kind)
        apply(state, seat, rng.choice(legal))
    assert {"draw_blind", "claim_route"} <= kinds


@given(st.text(max_size=40))
@settings(max_examples=examples(120))
def test_decoding_garbage_never_raises(code):  # type: ignore[no-untyped-def]
    press = parse_press("g1", "do", code, ())
    assert press is not None and isinstance(press.token, str)
    action = codec.decode(press.arg(0))
    if action is not None:
        assert codec.decode(codec.encode(action)) == action


@pytest.mark.parametrize("action", ["zz", "x", "boom", "claim_ok"])
def test_unknown_press_codes_parse_to_nothing(action):  # type: ignore[no-untyped-def]
    assert parse_press("g1", action, "t1~cr.1", ()) is None


def test_every_press_code_fits_the_templates():  # type: ignore[no-untyped-def]
    import re

    for code in PressCode:
        assert re.fullmatch(BUTTON_TEMPLATE, button_id("g1", code, join_args("t12", ("a", "b"))))


def test_presses_parse_as_the_table_says():  # type: ignore[no-untyped-def]
    opened = parse_press("g1", "open", "t57~claim", ())
    assert opened is not None and (opened.token, opened.args) == ("t57", ("claim",))
    paged = parse_press("g1", "menu", "t57~claim~2", ())
    assert paged is not None and paged.args == ("claim", "2")
    kept = parse_press("g1", "keep", None, ["s1.0~4", "s1.0~9"])
    assert kept is not None and kept.token == "s1.0" and kept.choices == (("4",), ("9",))
    level = parse_press("g1", "addai", None, ["hard"])
    assert level is not None and level.token is None and level.args == ("hard",)
    joined = parse_press("g1", "join", None, ())
    assert joined is not None and (joined.token, joined.args) == (None, ())
    stale = parse_press("g1", "open", None, ())  # a token-carrying code without one: refused as stale later
    assert stale is not None and stale.token == ""


def test_turn_buttons_fit_in_a_custom_id():  # type: ignore[no-untyped-def]
    from engine.actions import ClaimRoute, DrawBlind, DrawFaceUp

    for a in (ClaimRoute(123, 8, 12, 3, 2), DrawBlind(4), DrawFaceUp(4, 4)):
        custom_id = button_id("abcdefgh", "do", join_args("t12345", (codec.encode(a),)))
        assert len(custom_id) <= MAX_CUSTOM_ID

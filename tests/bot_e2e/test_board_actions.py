"""The boards' own actions through their turn-message buttons: stations, ferry cards, passenger trips,
ticket draws with a mix; each menu lists the engine's legal actions and the choice is applied and announced."""

from __future__ import annotations

import pytest
from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    is_ephemeral,
    open_game,
    play_until_button,
    public_messages,
)

CASES = [
    ("europe", "Build station", "Which city?", "built a station"),
    ("italy", "Take ferry card", "Take a ferry card", "took a ferry card"),
    ("marklin", "Move passenger", "Where does your passenger travel?", "moved a passenger"),
    ("germany", "Draw tickets", "Draw destination tickets", "drew"),
]


@pytest.mark.parametrize(("board", "button", "menu_text", "announced"), CASES, ids=[c[0] for c in CASES])
async def test_board_action_button(simcord_env, world, board, button, menu_text, announced):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board=board, ais=("easy",))
    seen = Seen()
    turn = await play_until_button(channel, alice, button, seen)
    pressed = await alice.click(turn, label=button)
    assert is_ephemeral(pressed.response)
    shown = pressed.response.content + " ".join(
        str(c.get("label", "")) + " ".join(o["label"] for o in c.get("options", []))
        for c in components(pressed.response)
    )
    assert menu_text in shown, shown
    await follow_menu(alice, pressed, seen)
    lines = "\n".join(m.content or "" for m in public_messages(channel)[-2:])
    assert announced in lines, lines
    assert simcord_env.errors == []

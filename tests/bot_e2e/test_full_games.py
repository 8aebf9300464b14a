"""A complete game on every board through the production bot, from `/ttr new` to the final scores."""

from __future__ import annotations

import pytest
from driver import (
    Seen,
    assert_no_leak,
    is_ephemeral,
    message_text,
    open_game,
    play_until_over,
    public_messages,
)

# (board, variant, options, loops before the person hands the seat to the AI: None = plays to the end)
GAMES = [
    ("europe", None, None, 12),
    ("europe", None, "warehouses", 40),
    ("usa", None, None, 12),
    ("germany", None, None, 40),
    ("marklin", None, None, 40),
    ("japan", None, None, 12),
    ("italy", None, None, None),
]


@pytest.mark.parametrize(
    ("board", "variant", "options", "hand_over"),
    GAMES,
    ids=[f"{b}-{o or v or 'classic'}" for b, v, o, _ in GAMES],
)
async def test_complete_game(simcord_env, world, board, variant, options, hand_over):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _lobby = await open_game(
        channel, alice, board=board, variant=variant, options=options, ais=("easy",)
    )
    seen = Seen()
    final = await play_until_over(channel, {alice.id: alice}, seen, hand_over_after=hand_over)
    text = message_text(final)
    assert "final scores" in text
    names = {a.filename for a in final.attachments}
    assert names == {"board.png", "summary.png", "game.gif"}
    assert "Routes:" in text and ("✅" in text or "❌" in text or board == "marklin")
    turn_messages = [m for m in public_messages(channel) if "your turn" in (m.content or "")]
    assert turn_messages
    assert all(any(a.filename == "board.png" for a in m.attachments) for m in turn_messages)
    # what each member saw: hands only privately, no secret in any public message before the final scores
    state = await simcord_env.bot.service._state(gid)
    assert state is not None and state.finished
    assert assert_no_leak(channel, state, until=final) >= len(turn_messages)
    for result in seen.results:
        message = result.response
        if message is not None and any(a.filename == "hand.png" for a in message.attachments):
            assert is_ephemeral(message)
    assert seen.private_texts, "the person saw private menus"
    assert simcord_env.errors == []

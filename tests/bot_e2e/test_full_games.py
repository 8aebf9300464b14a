"""A complete game on every board through the production bot, from `/ttr new` to the final scores."""

from __future__ import annotations

import pytest
from driver import Seen, message_text, open_game, play_until_over, public_messages

GAMES = [
    ("europe", None, None),
    ("europe", None, "warehouses"),
    ("usa", None, None),
    ("germany", None, None),
    ("marklin", None, None),
    ("japan", None, None),
    ("italy", None, None),
]


@pytest.mark.parametrize(
    ("board", "variant", "options"), GAMES, ids=[f"{b}-{o or v or 'classic'}" for b, v, o in GAMES]
)
async def test_complete_game(simcord_env, world, board, variant, options):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _lobby = await open_game(
        channel, alice, board=board, variant=variant, options=options, ais=("easy",)
    )
    seen = Seen()
    final = await play_until_over(channel, {alice.id: alice}, seen)
    text = message_text(final)
    assert "final scores" in text
    names = {a.filename for a in final.attachments}
    assert names == {"board.png", "summary.png", "game.gif"}
    assert "Routes:" in text and ("✅" in text or "❌" in text or board == "marklin")
    turn_messages = [m for m in public_messages(channel) if "your turn" in (m.content or "")]
    assert turn_messages
    assert all(any(a.filename == "board.png" for a in m.attachments) for m in turn_messages)
    assert simcord_env.errors == []

"""A complete game on every board through the production bot, from `/ttr new` to the final scores: a person
(driven through the real messages, see `tests/helpers/simcord_driver.py`) plays every turn against an AI seat. Handing a seat to the
AI mid-game is tested on its own (`test_interactions.py`)."""

from __future__ import annotations

import pytest
from helpers.simcord_driver import (
    Seen,
    assert_no_leak,
    is_ephemeral,
    message_text,
    open_game,
    play_until_over,
    public_messages,
)


def _game(board: str, variant: str | None = None, options: str | None = None, *, slow: bool = True) -> object:
    # the fast loop plays Europe only; the other boards' whole games are `slow` (CI plays them all)
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(board, variant, options, marks=marks, id=f"{board}-{options or variant or 'classic'}")


# (board, variant, options)
GAMES = [
    _game("europe", slow=False),
    _game("europe", options="warehouses"),
    _game("usa"),
    _game("germany"),
    _game("marklin"),
    _game("japan"),
    _game("italy"),
]


@pytest.mark.parametrize(("board", "variant", "options"), GAMES)
async def test_complete_game(simcord_env, world, board, variant, options):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _lobby = await open_game(
        channel, alice, board=board, variant=variant, options=options, ais=("easy",)
    )
    seen = Seen()
    final = await play_until_over(channel, {alice.id: alice}, seen)
    text = message_text(final)
    assert "Final scores" in text
    names = {a.filename for a in final.attachments}
    assert names == {"board.png", "summary.png"}  # the scores do not wait for the GIF
    await simcord_env.settle()
    after = [m for m in public_messages(channel) if m.id > final.id]
    assert [a.filename for m in after for a in m.attachments] == ["game.gif"]  # then the GIF, once
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
    # the person played to the end: every one of their turns was theirs, none an AI's
    assert any(seat == 0 and action.kind == "claim_route" for seat, action in state.history)
    info = await simcord_env.bot.service._info(gid)
    assert info.seats[0].user_id == alice.id and info.seats[0].ai_level is None
    assert simcord_env.errors == []

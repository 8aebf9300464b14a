"""Play again where the game lived: in the thread the bot opened for it (issue 23), not in a new thread."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from helpers.simcord_driver import components, last_public, public_messages

from bot import Settings


@pytest.fixture
def bot_settings(tmp_path: Any) -> Settings:
    return dataclasses.replace(
        Settings(database_url=f"sqlite:///{tmp_path / 'ttr.db'}", render_workers=1), lobby_threads=True
    )


async def test_play_again_opens_the_next_lobby_in_the_games_thread(
    simcord_env: Any, simcord_bot: Any, world: Any
) -> None:
    _guild, channel, alice, _bob, _carol = world
    await alice.slash(channel, "ttr new", map="usa")
    thread = channel.threads[0]
    lobby = last_public(thread)
    gid = components(lobby)[0]["custom_id"].split(":")[1]
    await alice.select(lobby, ["easy"], custom_id=f"ttr:{gid}:addai:*")
    await alice.click(lobby, custom_id=f"ttr:{gid}:start")
    await alice.slash(thread, "ttr replace", player=alice, new_player=alice)  # the AI plays it to its end
    await simcord_env.settle()
    final = next(
        m
        for m in reversed(public_messages(thread))
        if f"ttr:{gid}:again" in [c["custom_id"] for c in components(m)]
    )
    before = len(public_messages(channel))
    pressed = await alice.click(final, custom_id=f"ttr:{gid}:again")
    assert not pressed.ephemeral
    new_lobby = last_public(thread)
    new_gid = components(new_lobby)[0]["custom_id"].split(":")[1]
    assert new_gid != gid and f"ttr:{new_gid}:join" in [c["custom_id"] for c in components(new_lobby)]
    assert len(channel.threads) == 1 and len(public_messages(channel)) == before  # no new thread, no post
    made = await simcord_bot.service.games_manager.game_info(new_gid)
    assert made.channel_id == thread.id and [(s.user_id, s.ai_level) for s in made.seats] == [
        (alice.id, None),
        (None, "easy"),
    ]

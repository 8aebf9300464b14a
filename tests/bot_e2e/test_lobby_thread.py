"""/ttr new in a text channel opens the game in a new thread of that channel (when the bot may), and the whole
game then lives there: lobby, ticket choice, turn messages."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.simcord_driver import last_public, public_messages


@pytest.fixture
def bot_settings(tmp_path):  # type: ignore[no-untyped-def]
    from bot import Settings

    return dataclasses.replace(
        Settings(database_url=f"sqlite:///{tmp_path / 'ttr.db'}", render_workers=1), lobby_threads=True
    )


async def test_new_game_opens_in_a_thread_and_stays_there(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    result = await alice.slash(channel, "ttr new", map="usa")
    assert not result.ephemeral
    assert len(channel.threads) == 1
    thread = channel.threads[0]
    assert thread.mention in result.response.content  # the channel is told where the game is
    lobby = last_public(thread)
    labels = {getattr(c, "label", None) for row in lobby.components for c in row.children}
    assert {"Join", "Start"} <= labels
    await bob.click(lobby, label="Join")
    started = await alice.click(lobby, label="Start")
    assert not started.ephemeral or started.followups
    # everything after the lobby is posted in the thread, nothing more in the channel
    before = len(public_messages(channel))
    await simcord_env.settle()
    assert len(public_messages(thread)) >= 2
    assert len(public_messages(channel)) == before


async def test_new_game_inside_a_game_thread_is_refused_without_a_new_thread(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    first = await alice.slash(channel, "ttr new", map="usa")
    assert len(channel.threads) == 1
    # a second game from inside the first game's thread is refused (one open game per thread): no new thread
    thread = channel.threads[0]
    second = await alice.slash(thread, "ttr new", map="europe")
    assert second.ephemeral
    assert len(channel.threads) == 1 and first
    from bot.play.reply import GameError

    assert simcord_env.errors and all(
        isinstance(getattr(e, "original", e), GameError) for e in simcord_env.errors
    )

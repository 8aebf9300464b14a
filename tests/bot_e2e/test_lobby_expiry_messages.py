"""A lobby nobody starts expires (LOBBY_EXPIRE_HOURS after its last change): the production bot says so where
the lobby is, in the server's language, takes the lobby's buttons away, and archives the thread it opened."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

from helpers.simcord_driver import components, game_id_of, last_public, public_messages

from bot import create_bot
from bot.i18n import default_catalog
from bot.manager import ManualClock
from bot.storage import GameStatus
from bot.wiring import Wiring


async def _bot_on_a_clock(simcord_env: Any, settings: Any) -> tuple[Any, ManualClock]:
    from helpers.fast_pictures import FastPictures

    clock = ManualClock()
    bot = create_bot(settings, parts=Wiring(settings, clock=clock, pictures=FastPictures()))
    await simcord_env.restart_bot(bot)
    return bot, clock


async def _fire(simcord_env: Any, bot: Any, clock: ManualClock, hours: float) -> None:
    clock.advance(timedelta(hours=hours))
    await bot.service.manager.run_due_timers()
    await simcord_env.settle()


def _expired_text(locale: str, hours: float = 24) -> str:
    catalog = default_catalog()
    assert catalog.has("ev.lobby_expired", locale.split("-")[0])
    return catalog.text("ev.lobby_expired", locale, n=float(hours))


async def test_an_idle_lobby_expires_in_its_channel_and_loses_its_buttons(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    bot, clock = await _bot_on_a_clock(simcord_env, bot_settings)
    lobby = await alice.slash(channel, "ttr new", map="usa")
    gid = game_id_of(lobby.response)
    await _fire(simcord_env, bot, clock, 20)
    await bob.click(lobby.response, label="Join")  # activity: the lobby waits a whole delay from here
    await _fire(simcord_env, bot, clock, 23)
    assert _expired_text("en") not in [m.content for m in public_messages(channel)]
    assert components(next(m for m in public_messages(channel) if m.id == lobby.response.id))  # still open
    await _fire(simcord_env, bot, clock, 1)
    shown = public_messages(channel)
    assert shown[-1].content == _expired_text("en")
    lobby_now = next(m for m in shown if m.id == lobby.response.id)
    assert components(lobby_now) == []  # Join / Leave / Start / Add AI are gone
    # and the lobby message itself reads closed: no "Press Join", no "the host starts", no stale note
    (embed,) = lobby_now.embeds
    assert embed.description == default_catalog().exact("lobby.closed", "en")
    assert embed.footer.text == f"Game {gid}" and not lobby_now.content
    assert (await bot.service.manager.status(gid)).status == GameStatus.ABANDONED
    again = await carol.slash(channel, "ttr new", map="usa")  # the channel is free again
    assert not again.ephemeral


async def test_a_french_lobby_in_its_own_thread_expires_in_french_and_the_thread_is_archived(
    simcord_env, bot_settings
):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Club du rail", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bot, clock = await _bot_on_a_clock(simcord_env, dataclasses.replace(bot_settings, lobby_threads=True))
    await alice.slash(channel, "ttr new", map="europe")
    (thread,) = channel.threads
    lobby = last_public(thread)
    assert components(lobby) and not bot.get_channel(thread.id).archived  # (as the bot's gateway sees it)
    await _fire(simcord_env, bot, clock, 24)
    shown = public_messages(thread)
    assert shown[-1].content == _expired_text("fr")
    assert components(next(m for m in shown if m.id == lobby.id)) == []
    (embed,) = next(m for m in shown if m.id == lobby.id).embeds
    assert embed.description == default_catalog().exact("lobby.closed", "fr")
    assert (await bot.fetch_channel(thread.id)).archived  # (discord.py drops archived threads from its cache)
    assert _expired_text("fr") not in [m.content for m in public_messages(channel)]  # in the thread only


async def test_a_notice_lost_with_its_process_is_posted_once_later_and_a_press_meanwhile_is_answered_politely(
    simcord_env, world, bot_settings
):  # type: ignore[no-untyped-def]
    """The process dies after abandoning the lobby, before its notice (here: the notice never goes out): the
    lobby's buttons are still there, and a press on them is answered privately that the lobby is closed; when
    the dead process's lease ends, the notice is posted once and the buttons go."""
    guild, channel, alice, bob, carol = world
    bot, clock = await _bot_on_a_clock(simcord_env, bot_settings)
    lobby = await alice.slash(channel, "ttr new", map="usa")
    gid = game_id_of(lobby.response)
    service = bot.service
    posted = service.on_lobby_expired

    async def dies(game_id: str, outcome: Any) -> None:
        raise RuntimeError("the process died before the notice")

    service.on_lobby_expired = dies
    await _fire(simcord_env, bot, clock, 24)
    assert (await service.manager.status(gid)).status == GameStatus.ABANDONED
    assert _expired_text("en") not in [m.content for m in public_messages(channel)]
    assert components(next(m for m in public_messages(channel) if m.id == lobby.response.id))  # still live
    pressed = await bob.click(lobby.response, label="Join")
    assert pressed.ephemeral and "was closed before it started" in pressed.response.content
    service.on_lobby_expired = posted  # the next process's bot (this one's lease on the notice ends)
    await _fire(simcord_env, bot, clock, 0.01)
    shown = public_messages(channel)
    assert [m.content for m in shown].count(_expired_text("en")) == 1
    assert components(next(m for m in shown if m.id == lobby.response.id)) == []
    await _fire(simcord_env, bot, clock, 48)
    assert [m.content for m in public_messages(channel)].count(_expired_text("en")) == 1  # once

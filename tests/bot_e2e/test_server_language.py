"""`/ttr language` (issue 31, item 5): a server's admins choose the language of its public messages over Discord's
preferred locale; a member without Manage Server is refused; the choice survives a restart; "auto" gives the
server back to Discord's locale; the languages are offered each named in itself."""

from __future__ import annotations

import discord
from helpers.simcord_driver import Seen, last_public, message_text, open_game, play_turn

from bot.i18n import default_catalog
from bot.play.pictures import picture_words
from bot.play.reply import GameError

NATIVE = ["Deutsch", "English", "Español", "Français", "Italiano", "日本語"]


def _refusals(simcord_env) -> list[str]:  # type: ignore[no-untyped-def]
    """The refusals the bot raised (shown to the member, as every GameError): their keys."""
    errors = [getattr(e, "original", e) for e in simcord_env.errors]
    assert all(isinstance(e, GameError) for e in errors), errors
    return [str(e) for e in errors]


def _setup(simcord_env):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Rail club", preferred_locale="en-US")
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    member = guild.add_member(simcord_env.create_user("bob"))
    return guild, channel, admin, member


async def test_admins_choose_the_servers_language_for_lobbies_and_turns(simcord_env, make_bot):  # type: ignore[no-untyped-def]
    catalog = default_catalog()
    guild, channel, admin, member = _setup(simcord_env)

    shown = await member.slash(channel, "ttr language")  # anyone may look
    assert shown.ephemeral and "has not chosen a language" in message_text(shown.response)
    assert "**English** now" in message_text(shown.response)

    refused = await member.slash(channel, "ttr language", language="de")
    assert refused.ephemeral and "Only the server's admins (Manage Server)" in message_text(refused.response)
    assert _refusals(simcord_env) == ["server_language.admins_only"]

    chosen = await admin.slash(channel, "ttr language", language="Deutsch")
    text = message_text(chosen.response)
    assert chosen.ephemeral and "the server's language is saved" in text  # her own language: English
    assert "are in **Deutsch**" in text

    gid, lobby = await open_game(channel, member, board="germany", ais=("easy",))
    assert "Zug um Zug" in message_text(lobby) and "Ticket to Ride" not in message_text(lobby)
    setup = last_public(channel)
    assert "Wählt eure Zielkarten" in setup.content, setup.content
    seen = Seen()
    await play_turn(member, setup, seen)  # the ticket choice: then the first turn message
    turn = last_public(channel)
    assert f"<@{member.id}>, du bist am Zug." in turn.content, turn.content
    # the words in the pictures are German too
    boards = [w for kind, w in simcord_env.bot.service.pictures.words if kind == "board"]
    assert boards and boards[-1] == picture_words("de")

    # a new process reads the choice back from storage
    await simcord_env.restart_bot(make_bot())
    again = await member.slash(channel, "ttr status")
    assert not again.ephemeral and "Am Zug: " in message_text(again.response)

    # automatic: Discord's locale again
    back = await admin.slash(channel, "ttr language", language="auto")
    assert "has not chosen a language" in message_text(back.response)
    other = guild.create_text_channel("more-games")
    await open_game(other, member, board="usa", ais=("easy",))
    assert catalog.text("turn.setup", "en", lines="", players="").split(":")[0] in last_public(other).content
    assert gid and _refusals(simcord_env) == ["server_language.admins_only"]


async def test_the_languages_are_offered_named_in_themselves(simcord_env):  # type: ignore[no-untyped-def]
    guild, channel, admin, member = _setup(simcord_env)
    offered = await admin.autocomplete(channel, "ttr language", "language", "")
    assert [c["name"] for c in offered[:6]] == NATIVE
    assert [c["value"] for c in offered[:6]] == ["de", "en", "es", "fr", "it", "ja"]
    assert offered[6] == {"name": "Automatic: the server's Discord language", "value": "auto"}
    typed = await admin.autocomplete(channel, "ttr language", "language", "esp")
    assert [c["name"] for c in typed] == ["Español"]
    unknown = await admin.slash(channel, "ttr language", language="klingon")
    assert unknown.ephemeral and "There is no language klingon here" in message_text(unknown.response)
    assert "日本語 (ja)" in message_text(unknown.response)
    assert _refusals(simcord_env) == ["server_language.unknown"]

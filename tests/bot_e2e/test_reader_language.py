"""A French reader reads French everywhere a board or a number is named: the board autocomplete of /ttr new,
the game autocomplete, the refusal to start a game with too few players, and the notice of a lobby that expired
after 1.5 hours ("1,5 heure"). English readers read what they read before.

SimCord sends every interaction with the locale "en-US"; `french` makes the interactions of the users it holds
come from a French client (the payload's ``locale``, which discord.py reads as `Interaction.locale`)."""

from __future__ import annotations

import dataclasses
import functools
from datetime import timedelta
from typing import Any

import pytest
import simcord.interactions
from driver import game_id_of, public_messages

from bot import create_bot
from bot.i18n import default_catalog, number_text, plural_form
from bot.manager import ManualClock, Refused
from bot.messages import Text
from bot.play.refusals import refusal


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The ids of the users whose Discord client is in French (add to it)."""
    users: set[int] = set()
    made = simcord.interactions.base_payload

    @functools.wraps(made)
    def payload(*args: Any, **kwargs: Any) -> Any:
        record, data = made(*args, **kwargs)
        if kwargs.get("user_id") in users:
            data["locale"] = "fr"
        return record, data

    monkeypatch.setattr(simcord.interactions, "base_payload", payload)
    return users


# ----------------------------------------------------------------------- board autocomplete


async def test_the_board_autocomplete_speaks_the_callers_language(simcord_env, world, french):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    french.add(alice.id)
    shown = {c["value"]: c["name"] for c in await alice.autocomplete(channel, "ttr new", "map", "")}
    assert {shown["italy"], shown["germany"], shown["japan"]} == {"Italie", "Allemagne", "Japon"}
    english = {c["value"]: c["name"] for c in await bob.autocomplete(channel, "ttr new", "map", "")}
    assert {english["italy"], english["germany"], english["japan"]} == {"Italy", "Germany", "Japan"}
    assert shown.keys() == english.keys()  # the values stay the board ids
    # typed in French (or in English, or the id), the board is found; the value sent back is its id
    assert [c["value"] for c in await alice.autocomplete(channel, "ttr new", "map", "allem")] == ["germany"]
    assert [c["value"] for c in await alice.autocomplete(channel, "ttr new", "map", "germ")] == ["germany"]
    assert [c["name"] for c in await alice.autocomplete(channel, "ttr rules", "map", "jap")] == ["Japon"]


async def test_a_board_typed_in_french_opens_that_board(simcord_env, world, french):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    french.add(alice.id)
    lobby = await alice.slash(channel, "ttr new", map="Allemagne")  # typed, not picked from the list
    assert not lobby.ephemeral
    assert (await simcord_env.bot.service.manager.status(game_id_of(lobby.response))).board == "germany"


async def test_the_game_autocomplete_names_the_board_in_the_callers_language(simcord_env, world, french):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="italy")
    gid = game_id_of(lobby.response)
    assert [c["name"] for c in await alice.autocomplete(channel, "ttr hand", "game", "")] == [
        f"{gid} · Italy"
    ]
    french.add(alice.id)
    assert [c["name"] for c in await alice.autocomplete(channel, "ttr hand", "game", "")] == [
        f"{gid} · Italie"
    ]
    assert [c["value"] for c in await alice.autocomplete(channel, "ttr hand", "game", "ital")] == [gid]


# ----------------------------------------------------------------------- refusals


async def test_starting_alone_is_refused_naming_the_board_in_french(simcord_env, world, french):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    french.add(alice.id)
    lobby = await alice.slash(channel, "ttr new", map="germany")
    refused = await alice.click(lobby.response, label="Start")
    assert refused.ephemeral
    assert refused.response.content == "Le plateau Allemagne se joue de 2 à 5 joueurs ; cette partie en a 1."
    french.discard(alice.id)
    again = await alice.click(lobby.response, label="Start")
    assert again.response.content == "Germany is played by 2 to 5 players; this game has 1."


def test_a_refusal_names_the_board_in_the_readers_language() -> None:
    catalog = default_catalog()
    shown = refusal(Refused("player_count", board="germany", min=2, max=5, n=1)).message
    assert (
        catalog.render(shown, "fr") == "Le plateau Allemagne se joue de 2 à 5 joueurs ; cette partie en a 1."
    )
    assert catalog.render(shown, "en") == "Germany is played by 2 to 5 players; this game has 1."
    variant = refusal(Refused("bad_variant", board="japan", variant="x", variants="classic")).message
    assert catalog.render(variant, "fr").startswith("Le plateau Japon n'a pas de variante x")
    # the engine's refusals carry the board's data name: it is named in the reader's language too
    reason = Text("illegal.not_in_rules", {"action": "build_station", "board": "Italy"})
    illegal = refusal(Refused("illegal", reason=reason)).message
    assert (catalog.render(illegal, "fr") or "").endswith(
        "Ce coup ne fait pas partie des règles du plateau Italie."
    )
    assert (catalog.render(illegal, "en") or "").endswith("That move is not part of Italy's rules.")
    # a board someone typed that is no board stays as typed
    unknown = refusal(Refused("bad_board", board="atlantis")).message
    assert catalog.render(unknown, "fr") == "Il n'y a pas de plateau nommé atlantis."


# ----------------------------------------------------------------------- numbers


def test_numbers_are_written_as_the_reader_writes_them() -> None:
    assert [number_text(h, "fr") for h in (24.0, 1.5, 0.25)] == ["24", "1,5", "0,25"]
    assert [number_text(h, "en-US") for h in (24.0, 1.5, 0.25)] == ["24", "1.5", "0.25"]
    assert [plural_form(h, "fr") for h in (0.5, 1, 1.5, 2, 24)] == ["one", "one", "one", "other", "other"]
    assert [plural_form(h, "en") for h in (0.5, 1, 1.5, 2)] == ["other", "one", "other", "other"]
    catalog = default_catalog()
    assert catalog.text("n.turns_left", "fr", n=2) == "2 tours restants"  # ints as before


async def test_a_lobby_expired_after_one_and_a_half_hours_says_so_in_french(simcord_env, bot_settings):  # type: ignore[no-untyped-def]
    from e2e_pictures import FastPictures

    notices = {}
    for language in ("fr", "en-US"):
        guild = simcord_env.create_guild(f"Club {language}", preferred_locale=language)
        channel = guild.create_text_channel("parties")
        alice = guild.add_member(simcord_env.create_user(f"alice-{language}"))
        clock = ManualClock()
        bot = create_bot(dataclasses.replace(bot_settings, lobby_expire_hours=1.5))
        bot.service.clock = clock  # type: ignore[attr-defined]
        bot.service.pictures = FastPictures()  # type: ignore[attr-defined]
        await simcord_env.restart_bot(bot)
        await alice.slash(channel, "ttr new", map="usa")
        clock.advance(timedelta(hours=1.5))
        await bot.service.manager.run_due_timers()
        await simcord_env.settle()
        notices[language] = public_messages(channel)[-1].content
    assert "restée inactive 1,5 heure :" in notices["fr"]
    assert "for 1.5 hours:" in notices["en-US"]


# ----------------------------------------------------------------------- variants and options


async def test_variants_and_options_are_named_in_the_readers_language(simcord_env, world, french):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    french.add(alice.id)
    shown = {
        c["value"]: c["name"]
        for c in await alice.autocomplete(channel, "ttr new", "variant", "", map="europe")
    }
    assert shown == {
        "classic": "Classique",
        "1912": "Europe 1912",
        "big-cities": "Grandes villes d'Europe",
        "mega": "Méga Europe",
    }
    assert [
        c["value"] for c in await alice.autocomplete(channel, "ttr new", "variant", "meg", map="europe")
    ] == ["mega"]
    english = await bob.autocomplete(channel, "ttr new", "variant", "", map="europe")
    assert {c["name"] for c in english} == {"Classic", "Europe 1912", "Big Cities of Europe", "Mega Europe"}
    maps = await alice.slash(channel, "ttr maps")
    text = " ".join(f.name + f.value for f in maps.response.embeds[0].fields)
    assert "**Méga Europe** `mega`" in text and "Entrepôts et Dépôts" in text and "Allemagne" in text
    rules = await alice.slash(channel, "ttr rules", map="europe", topic="variant", variant="Méga Europe")
    assert "Méga Europe" in rules.response.embeds[0].title + rules.response.embeds[0].description


async def test_a_french_servers_lobby_names_its_variant_and_options_in_french(simcord_env):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Club du rail", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice = guild.add_member(simcord_env.create_user("alice"))
    lobby = await alice.slash(channel, "ttr new", map="europe", variant="mega", options="warehouses")
    (embed,) = lobby.response.embeds
    assert embed.title.startswith("Les Aventuriers du Rail : Europe (Méga Europe)")
    assert "Entrepôts et Dépôts" in [f.value for f in embed.fields]


async def test_a_french_servers_lobby_thread_is_named_in_french(simcord_env, bot_settings):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Club du rail", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await simcord_env.restart_bot(create_bot(dataclasses.replace(bot_settings, lobby_threads=True)))
    opened = await alice.slash(channel, "ttr new", map="germany")
    (thread,) = channel.threads
    assert thread.name == "Allemagne · Les Aventuriers du Rail"
    assert "une partie sur le plateau Allemagne ouvert dans" in opened.response.content


# ----------------------------------------------------------------------- what a French player reads


async def test_the_games_list_gives_each_games_status_in_the_readers_language(simcord_env, world, french):  # type: ignore[no-untyped-def]
    from driver import message_text

    _guild, channel, alice, bob, _carol = world
    french.add(alice.id)
    gid = game_id_of((await alice.slash(channel, "ttr new", map="germany")).response)
    listed = message_text((await alice.slash(channel, "ttr games")).response)
    assert f"`{gid}` Allemagne · en attente de joueurs · " in listed and "lobby" not in listed
    english = message_text((await bob.slash(channel, "ttr games")).response)
    assert f"`{gid}` Germany · waiting for players · " in english


def test_every_game_status_has_a_name_in_every_catalogue() -> None:
    from bot.storage import GameStatus

    catalog = default_catalog()
    for status in GameStatus:
        for language in ("en", "fr"):
            assert catalog.has(f"games.status.{status.value}", language), (status, language)
    assert catalog.text("games.status.active", "fr") == "en cours"


def test_ratings_and_mean_scores_are_written_as_the_reader_writes_numbers() -> None:
    from bot.play.social import leaderboard_reply, stats_reply
    from bot.storage import BoardStats, PlayerStats, Rating

    catalog = default_catalog()
    rating = Rating(user_id=7, board="", mu=30.0, sigma=5.9, ordinal=12.3, games=3, rank=1)
    whole = Rating(user_id=8, board="", mu=25.0, sigma=4.0, ordinal=13.0, games=1, rank=2)
    on_usa = Rating(user_id=7, board="usa", mu=30.0, sigma=6.0, ordinal=-0.04, games=3, rank=1)
    player = PlayerStats(7, 1, 3, 2, 35.5, 60, {"usa": BoardStats(3, 2, 35.5, 60)})
    stats = stats_reply(7, player, rating, {"usa": on_usa}, [rating, whole])
    (mine, board) = stats.embeds
    fr = catalog.render(mine.description, "fr") or ""
    assert "moyenne 35,5" in fr and "Cote **12,3**, rang 1" in fr
    assert (
        catalog.render(mine.fields[0].value, "fr") == "3 parties, 2 victoires, record 60\ncote 0,0 (rang 1)"
    )
    en = catalog.render(mine.description, "en") or ""
    assert "mean 35.5" in en and "Rating **12.3**, rank 1" in en
    lines = catalog.render(leaderboard_reply([rating, whole], "").embeds[0].description, "fr") or ""
    assert "· **12,3** · 3 parties" in lines and "· **13,0** · 1 partie" in lines
    assert "· **13.0** · 1 game" in (catalog.render(board.description, "en") or "")


def test_an_illegal_move_reads_as_one_sentence() -> None:
    catalog = default_catalog()
    reason = Text("illegal.not_in_rules", {"action": "build_station", "board": "Italy"})
    illegal = refusal(Refused("illegal", reason=reason)).message
    assert catalog.render(illegal, "fr") == "Ce coup ne fait pas partie des règles du plateau Italie."
    assert catalog.render(illegal, "en") == "That move is not part of Italy's rules."
    turn = refusal(Refused("illegal", reason=Text("illegal.not_your_turn", {"player": "bob"}))).message
    assert catalog.render(turn, "fr") == "Ce n'est pas votre tour : c'est celui de bob."


def test_a_colour_agrees_with_the_french_word_for_card() -> None:
    catalog = default_catalog()

    def took(colour: str, language: str) -> str:
        return catalog.text("ev.draw_face_up", language, player="bob", card=Text(f"card.{colour}"))

    assert took("green", "fr") == "bob a pris une carte verte visible."
    assert took("pink", "fr") == "bob a pris une carte violette visible."
    assert took("locomotive", "fr") == "bob a pris une carte locomotive visible."  # a noun: no feminine
    assert took("green", "en") == "bob took a face-up green card."
    needs = {"route": "Roma–Napoli", "color": Text("card.black"), "need": 4, "have": 2}
    assert catalog.text("illegal.route_needs_color", "fr", **needs) == (
        "Roma–Napoli demande 4 cartes noires ; vous en avez 2."
    )
    wrong = catalog.text("illegal.wrong_color", "fr", route="Roma–Napoli", color=Text("card.white"))
    assert wrong == "Roma–Napoli est blanche : elle se paie en cartes blanches (ou en Locomotives)."
    # the face-up row and a payment keep the colour's own (masculine) form: "1 violet et 1 locomotive"
    assert catalog.text("count.cards", "fr", n=1, card=Text("card.pink", {"n": 1})) == "1 violet"


def test_an_ai_seats_level_is_named_in_the_readers_language() -> None:
    from bot.play.lobby import seat_title

    catalog = default_catalog()
    assert catalog.render(seat_title("alice", "hard", "▶ "), "fr") == "▶ alice 🤖 difficile"
    assert catalog.render(seat_title("alice", "hard"), "en") == "alice 🤖 hard"
    assert catalog.render(seat_title("AI 1 (normal)", "normal"), "fr") == "AI 1 (normal) 🤖"
    assert catalog.render(seat_title("bob", None), "fr") == "bob"

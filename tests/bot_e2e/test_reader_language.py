"""A French reader reads French everywhere a board or a number is named: the board autocomplete of /ttr new,
the game autocomplete, the refusal to start a game with too few players, and the notice of a lobby that expired
after 1.5 hours ("1,5 heure"). English readers read what they read before.

SimCord sends every interaction with the locale "en-US"; `french` makes the interactions of the users it holds
come from a French client (the payload's ``locale``, which discord.py reads as `Interaction.locale`)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from helpers.fast_pictures import FastPictures
from helpers.simcord_driver import game_id_of, last_public

from bot import create_bot
from bot.i18n import default_catalog, number_text, plural_form
from bot.manager import ManualClock, Refused
from bot.messages import Text
from bot.play.refusals import refusal
from bot.wiring import Wiring


@pytest.fixture
def french(french_users: set[int]) -> set[int]:
    """The ids of the users whose Discord client is in French (add to it)."""
    return french_users


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
    # the engine's refusals carry the board's id: it is named in the reader's language too
    reason = Text("illegal.not_in_rules", {"action": "build_station", "board": "italy"})
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
    from helpers.fast_pictures import FastPictures

    notices = {}
    for language in ("fr", "en-US"):
        guild = simcord_env.create_guild(f"Club {language}", preferred_locale=language)
        channel = guild.create_text_channel("parties")
        alice = guild.add_member(simcord_env.create_user(f"alice-{language}"))
        clock = ManualClock()
        settings = dataclasses.replace(bot_settings, lobby_expire_hours=1.5)
        bot = create_bot(settings, parts=Wiring(settings, clock=clock, pictures=FastPictures()))
        await simcord_env.restart_bot(bot)
        await alice.slash(channel, "ttr new", map="usa")
        clock.advance(timedelta(hours=1.5))
        await bot.service.manager.run_due_timers()
        await simcord_env.settle()
        notices[language] = last_public(channel).content
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
    settings = dataclasses.replace(bot_settings, lobby_threads=True)
    # The thread's name is checked, no picture: with the real pool, warming the new lobby's board counted as the
    # bot's work for SimCord and took over its 5 s on a loaded machine.
    bot = create_bot(settings, parts=Wiring(settings, pictures=FastPictures()))
    await simcord_env.restart_bot(bot)
    opened = await alice.slash(channel, "ttr new", map="germany")
    (thread,) = channel.threads
    assert thread.name == "Allemagne · Les Aventuriers du Rail"
    assert "une partie sur le plateau Allemagne ouvert dans" in opened.response.content


# ----------------------------------------------------------------------- what a French player reads


async def test_the_games_list_gives_each_games_status_in_the_readers_language(simcord_env, world, french):  # type: ignore[no-untyped-def]
    from helpers.simcord_driver import message_text

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
    """Mean scores with the reader's decimal mark; ratings as whole numbers on the 1000 scale (issue 23),
    "provisional" for the first rated games."""
    from bot.play.social import leaderboard_reply, stats_reply
    from bot.storage import BoardStats, PlayerStats, Rating

    catalog = default_catalog()
    rating = Rating(user_id=7, board="", mu=30.0, sigma=5.9, ordinal=12.3, games=7, rank=1)
    whole = Rating(user_id=8, board="", mu=25.0, sigma=4.0, ordinal=13.0, games=1, rank=2)
    on_usa = Rating(user_id=7, board="usa", mu=30.0, sigma=6.0, ordinal=-0.04, games=3, rank=1)
    player = PlayerStats(7, 1, 3, 2, 35.5, 60, {"usa": BoardStats(3, 2, 35.5, 60)})
    stats = stats_reply(7, player, rating, {"usa": on_usa}, [rating, whole])
    (mine, board) = stats.embeds
    fr = catalog.render(mine.description, "fr") or ""
    assert "moyenne 35,5" in fr and "Cote **1492**, rang 1" in fr
    assert (
        catalog.render(mine.fields[0].value, "fr")
        == "3 parties, 2 victoires, record 60\ncote **998** (provisoire), rang 1"
    )
    en = catalog.render(mine.description, "en") or ""
    assert "mean 35.5" in en and "Rating **1492**, rank 1" in en
    lines = catalog.render(leaderboard_reply([rating, whole], "").embeds[0].description, "fr") or ""
    assert "· **1492** · 7 parties" in lines and "· **1520** (provisoire) · 1 partie" in lines
    assert "· **1520** (provisional) · 1 game" in (catalog.render(board.description, "en") or "")


def test_an_illegal_move_reads_as_one_sentence() -> None:
    catalog = default_catalog()
    reason = Text("illegal.not_in_rules", {"action": "build_station", "board": "italy"})
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
    from bot.storage import Seat

    catalog = default_catalog()
    handed = Seat("alice", 1, "hard")  # a person's seat an AI plays for now: their name, then the level
    assert catalog.render(seat_title(handed, "▶ "), "fr") == "▶ alice 🤖 difficile"
    assert catalog.render(seat_title(handed), "en") == "alice 🤖 hard"
    resigned = Seat("alice", None, "normal")  # the seat of a player who resigned keeps their name
    assert catalog.render(seat_title(resigned), "fr") == "alice 🤖 normale"
    # an AI seat is named from its number and level, in the reader's language (and a game stored before too)
    assert catalog.render(seat_title(Seat("🤖1", None, "normal", 1)), "fr") == "IA 1 (normale) 🤖"
    assert catalog.render(seat_title(Seat("🤖1", None, "normal", 1)), "en") == "AI 1 (normal) 🤖"
    older = Seat.from_json({"name": "AI 2 (hard)", "user_id": None, "ai_level": "hard"})  # a row from before
    assert catalog.render(seat_title(older), "fr") == "IA 2 (difficile) 🤖"
    assert catalog.render(seat_title(Seat("bob", 2, None)), "fr") == "bob"


def test_de_is_elided_before_a_vowel_in_french() -> None:
    from bot.i18n import elided

    catalog = default_catalog()
    assert [elided("de", w) for w in ("alice", "Élodie", "Essen", "bob", "<@12>", "Hamburg")] == [
        "d'alice",
        "d'Élodie",
        "d'Essen",
        "de bob",
        "de <@12>",
        "de Hamburg",
    ]
    drew = {"player": "bob", "owner": "alice"}
    assert catalog.text("ev.draw_blind_warehouse", "fr", **drew).endswith("dans l'entrepôt d'alice.")
    assert catalog.text("ev.draw_blind_warehouse", "en", **drew).endswith("in alice's warehouse.")
    assert catalog.text("menu.warehouse_of", "fr", owner="bob") == "Entrepôt de bob"
    assert catalog.text("act.meeple", "fr", color=Text("card.red"), city="Essen") == "Meeple rouge d'Essen"
    turn = refusal(Refused("illegal", reason=Text("illegal.not_your_turn", {"player": "Anna"}))).message
    assert catalog.render(turn, "fr") == "Ce n'est pas votre tour : c'est celui d'Anna."


def test_ticket_lists_take_the_readers_semicolon() -> None:
    from bot.presenters.words import semicolon_list

    catalog = default_catalog()
    kept = Text("pv.tickets_kept", {"tickets": semicolon_list(["Roma – Bari (8)", "Pisa – Lecce (11)"])})
    assert catalog.render(kept, "fr") == "Vous avez gardé Roma – Bari (8) ; Pisa – Lecce (11)."
    assert catalog.render(kept, "en") == "You kept Roma – Bari (8); Pisa – Lecce (11)."


def test_ticket_decks_are_named_in_the_readers_language() -> None:
    import json
    from pathlib import Path

    from bot.presenters.base import _ticket_mix_label
    from bot.presenters.words import DECKS
    from engine.rules import new_game

    catalog = default_catalog()
    state = new_game("germany", 2, seed=1)
    mix = type("Mix", (), {"mix": (3, 1)})()
    label = _ticket_mix_label(state, 0, mix)
    assert catalog.render(label, "fr") == "Piocher 3 courts, 1 long"
    assert catalog.render(label, "en") == "Draw 3 short, 1 long"
    short = refusal(Refused("illegal", reason=Text("illegal.ticket_deck_short", {"deck": "long", "n": 1})))
    assert catalog.render(short.message, "fr") == "La pile de billets longs n'a plus que 1 billet."
    assert catalog.render(short.message, "en") == "The long ticket deck has only 1 ticket left."
    decks = refusal(Refused("illegal", reason=Text("illegal.ticket_mix", {"n": 4, "decks": "short / long"})))
    assert (catalog.render(decks.message, "fr") or "").endswith("de chaque pile (courts / longs).")
    # every deck a board's data names has a name in every catalogue
    named = set()
    for path in Path(__file__).resolve().parents[2].joinpath("maps").glob("*.json"):
        text = json.loads(path.read_text(encoding="utf-8"))
        for variant in text.get("variants", {}).values():
            tickets = variant.get("tickets", {})
            for step in [*tickets.get("setup", []), tickets.get("draw") or {}]:
                named |= set(step.get("mix", []))
    assert named and named <= DECKS
    assert all(catalog.has(f"deck.{d}", lang) for d in DECKS for lang in ("en", "fr"))


def test_counts_of_one_are_singular() -> None:
    catalog = default_catalog()
    assert [catalog.text(f"hand.{k}", "fr", n=1) for k in ("stations", "trains", "depots", "passengers")] == [
        "1 gare",
        "1 wagon",
        "1 dépôt",
        "1 passager",
    ]
    assert catalog.text("hand.stations", "fr", n=0) == "0 gare"
    assert catalog.text("hand.stations", "en", n=0) == "0 stations"
    assert catalog.text("illegal.station_cost", "en", n=1) == "Your next station costs 1 card."
    assert catalog.text("illegal.tunnel_extra", "fr", n=2) == "Le tunnel demande 2 cartes de plus."


def test_a_score_sheet_reads_in_french_with_a_lost_bonus_signed_minus() -> None:
    from bot.play.final import sheet_field
    from engine.scoring import FinalSheet, TicketResult

    catalog = default_catalog()
    sheet = FinalSheet(
        seat=0,
        name="alice",
        route_points=20,
        tickets=(TicketResult(1, "Tokyo", "Kyoto", 8, True),),
        ticket_points=8,
        completed_tickets=1,
        longest_path=0,
        bonuses={"bullet_trains": -3, "most_tickets": 10},
        total=35,
        rank=1,
    )
    field = sheet_field(sheet, 900)
    assert catalog.render(field.name, "fr") == "1. alice : 35"
    assert catalog.render(field.name, "en") == "1. alice: 35"
    value = catalog.render(field.value, "fr") or ""
    assert "✅ Tokyo – Kyoto +8" in value and "+-" not in value and value.count("−3") == 1
    assert "+10" in value


def test_french_messages_name_the_commands_as_a_french_client_shows_them() -> None:
    import json
    import re
    from pathlib import Path

    locales = Path(__file__).resolve().parents[2] / "bot" / "locales"
    french = json.loads((locales / "fr.json").read_text(encoding="utf-8"))
    names = {v for k, v in french.items() if re.fullmatch(r"cmd\.ttr\.\w+\.name", k)}
    params = {v for k, v in french.items() if re.fullmatch(r"cmd\.ttr\.\w+\.param\.\w+\.name", k)}
    assert {"nouvelle", "état", "règles", "remplacer"} <= names

    def texts(value: object, key: str = "") -> list[str]:
        if key.startswith(("_", "cmd.")):
            return []
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [t for k, v in value.items() for t in texts(v, k)]
        if isinstance(value, list):
            return [t for v in value for t in texts(v)]
        return []

    rules = json.loads((locales / "rules.fr.json").read_text(encoding="utf-8"))
    found = [m for t in texts(french) + texts(rules) for m in re.finditer(r"/ttr (\w+)((?: \w+:)*)", t)]
    assert len(found) >= 5
    for m in found:
        assert m.group(1) in names, m.group(0)
        assert set(re.findall(r"(\w+):", m.group(2))) <= params, m.group(0)

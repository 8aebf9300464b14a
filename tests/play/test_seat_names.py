"""AI seats are named at presentation time, in the reader's language ("IA 1 (difficile)"), from the seat's number
and level; a person's seat (handed to the AI or resigned) keeps its player's name; games stored with English
names ("AI 1 (hard)") read right too. And /ttr settings reads as words."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.i18n import default_catalog
from bot.manager.game_settings import GameSettings
from bot.manager.games import ai_seat_name
from bot.messages import Join, Text
from bot.play.names import SeatNames, ai_number, seat_name
from bot.play.pictures import NamedPictures, named_pictures, picture_words
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, OptionSpec, Reply, SelectSpec
from bot.play.settings_text import settings_lines
from bot.storage import Seat
from engine.rules import new_game
from engine.scoring import final_scores

catalog = default_catalog()

SEATS = (
    Seat("alice", 1, None),
    Seat(ai_seat_name(1), None, "hard"),
    Seat("AI 2 (easy)", None, "easy"),  # stored before AI seats were named at presentation time
    Seat("bob", None, "normal"),  # bob resigned: an AI plays his seat, under his name
)


def fr(message: Any) -> str:
    return catalog.render(message, "fr") or ""


def test_an_ai_seat_is_named_from_its_number_and_level() -> None:
    assert ai_seat_name(1) == "🤖1" and "AI" not in ai_seat_name(1)  # no English word stored
    assert [ai_number(s) for s in SEATS] == [None, 1, 2, None]
    assert [fr(seat_name(s)) for s in SEATS] == ["alice", "IA 1 (difficile)", "IA 2 (facile)", "bob"]
    assert catalog.render(seat_name(SEATS[1]), "en") == "AI 1 (hard)"
    # a person named like an old AI seat is not one: the level must be the seat's, and no player on it
    assert ai_number(Seat("AI 2 (easy)", 7, None)) is None
    assert ai_number(Seat("AI 2 (easy)", None, "hard")) is None
    # an AI seat a person took over keeps its number, without a level
    assert fr(seat_name(Seat(ai_seat_name(3), 9, None))) == "IA 3"


def test_events_and_replies_name_the_ai_seats_in_the_readers_language() -> None:
    names = SeatNames.of(SEATS)
    line = Text("ev.next_turn", {"player": "🤖1"})
    joined = Text("ev.started", {"players": "alice, 🤖1, AI 2 (easy), bob", "board": "x", "first": "🤖1"})
    assert "IA 1 (difficile)" in fr(names.message(line))
    assert "alice, IA 1 (difficile), IA 2 (facile), bob" in fr(names.message(joined))
    reply = Reply(
        content=Join((line, "**🤖1**")),
        embeds=(EmbedSpec(title="🤖1", fields=(FieldSpec("AI 2 (easy)", "🤖1 12"),)),),
        rows=(
            (ButtonSpec("g", PressCode.DO, Text("menu.warehouse_of", {"owner": "🤖1"})),),
            (SelectSpec("g", PressCode.DO, (OptionSpec("🤖1"),), placeholder="🤖1"),),
        ),
        also=(Reply(content="AI 2 (easy)"),),
    )
    named = names.reply(reply)
    shown = [
        fr(named.content),
        fr(named.embeds[0].title),
        fr(named.embeds[0].fields[0].name),
        fr(named.embeds[0].fields[0].value),
        fr(named.rows[0][0].label),
        fr(named.rows[1][0].options[0].label),  # type: ignore[union-attr]
        fr(named.also[0].content),
    ]
    assert all("🤖1" not in s and "AI 2" not in s for s in shown), shown
    assert shown[1:4] == ["IA 1 (difficile)", "IA 2 (facile)", "IA 1 (difficile) 12"]
    assert SeatNames.of(SEATS[:1]).reply(reply) is reply  # no AI seat: nothing to rename


def test_the_pictures_draw_the_ai_seats_in_the_pictures_language() -> None:
    state = new_game("usa", [s.name for s in SEATS], seed=3)
    asked: dict[str, Any] = {}

    class Drawn:
        async def board(self, state: Any, **kw: Any) -> bytes:
            asked["board"] = [p.name for p in state.players]
            return b""

        async def summary(self, state: Any, sheets: Any = (), **kw: Any) -> bytes:
            asked["sheets"] = [s.name for s in sheets]
            return b""

        async def gif(self, record: dict[str, Any], **kw: Any) -> bytes:
            asked["record"] = record["players"]
            return b""

    pictures = named_pictures(Drawn(), SEATS)  # type: ignore[arg-type]
    assert isinstance(pictures, NamedPictures)
    french = picture_words("fr")
    asyncio.run(pictures.board(state, words=french))
    sheets = [s.final() for s in final_scores(state)]
    asyncio.run(pictures.summary(state, sheets, words=picture_words("en")))
    asyncio.run(pictures.gif({"players": [s.name for s in SEATS]}, words=french))
    assert asked["board"] == ["alice", "IA 1 (difficile)", "IA 2 (facile)", "bob"]
    assert asked["sheets"] == ["alice", "AI 1 (hard)", "AI 2 (easy)", "bob"]
    assert asked["record"] == asked["board"]
    assert [p.name for p in state.players] == [s.name for s in SEATS]  # the game's own state is untouched
    assert named_pictures(Drawn(), SEATS[:1]).__class__ is Drawn  # type: ignore[arg-type]


def test_settings_read_as_words_in_the_readers_language() -> None:
    settings = GameSettings(remind_after_hours=1.5, absent_policy="skip", hints=True)
    french = fr(settings_lines(settings)).splitlines()
    assert french == [
        "`remind_after_hours` : 1,5 heure",
        "`remind_again_hours` : 12 heures",
        "`absent_after_hours` : 24 heures",
        "`absent_policy` : le tour est joué à sa place",
        "`absent_ai_level` : normale",
        "`max_players` : le maximum du plateau",
        "`colorblind` : oui",
        "`hints` : oui",
    ]
    english = catalog.render(settings_lines(GameSettings(max_players=3, colorblind=False)), "en") or ""
    assert "`remind_after_hours`: 12 hours" in english and "`absent_policy`: an AI plays the turn" in english
    assert "`max_players`: 3" in english and "`colorblind`: no" in english
    assert "True" not in english + "\n".join(french) and "None" not in english and "12.0" not in english


def test_the_rules_list_their_topics_by_their_titles() -> None:
    from bot.rules_text import topic_list, topics
    from maps import load_board

    found = topics(load_board("europe"), "fr")
    listing = topic_list(found[1:])
    assert "Mise en place" in listing and "Gares" in listing
    assert "setup" not in listing and "`" not in listing

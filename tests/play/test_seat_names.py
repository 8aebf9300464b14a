"""AI seats are named at presentation time, in the reader's language ("IA 1 (difficile)"), from the seat's number
and level; a person's seat (handed to the AI or resigned) keeps its player's name; games stored with English
names ("AI 1 (hard)") read right too. Texts name seats by number (`SeatRef`), worded from the reply's seat table;
pictures take the names as a parameter. And /ttr settings reads as words."""

from __future__ import annotations

from typing import Any

from bot.i18n import default_catalog
from bot.manager.game_settings import GameSettings
from bot.manager.games import ai_seat_name
from bot.messages import Join, SeatRef, Text
from bot.play.names import ai_number, seat_name, seat_table, seated
from bot.play.pictures import board_picture_view, drawn_names, picture_words
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, OptionSpec, Reply, SelectSpec
from bot.play.settings_text import settings_lines
from bot.storage import Seat
from engine.rules import new_game
from engine.scoring import final_scores
from render.from_engine import summary_rows

catalog = default_catalog()


def before(name: str, user_id: int | None, level: str | None) -> Seat:
    """A seat read from a row written before seats said their AI number."""
    return Seat.from_json({"name": name, "user_id": user_id, "ai_level": level})


SEATS = (
    Seat("alice", 1, None),
    Seat(ai_seat_name(1), None, "hard", 1),
    before("AI 2 (easy)", None, "easy"),  # stored before AI seats were named at presentation time
    Seat("bob", None, "normal"),  # bob resigned: an AI plays his seat, under his name
)


def fr(message: Any, seats: Any = ()) -> str:
    return catalog.seated(seats).render(message, "fr") or ""


def test_an_ai_seat_is_named_from_its_number_and_level() -> None:
    assert ai_seat_name(1) == "🤖1" and "AI" not in ai_seat_name(1)  # no English word stored
    assert [ai_number(s) for s in SEATS] == [None, 1, 2, None]
    assert [fr(seat_name(s)) for s in SEATS] == ["alice", "IA 1 (difficile)", "IA 2 (facile)", "bob"]
    assert catalog.render(seat_name(SEATS[1]), "en") == "AI 1 (hard)"
    # in an older row, a person named like an old AI seat is not one: the level must be the seat's, and no
    # player on it; the stored token with no player on it is an AI seat
    assert ai_number(before("AI 2 (easy)", 7, None)) is None
    assert ai_number(before("AI 2 (easy)", None, "hard")) is None
    assert ai_number(before(ai_seat_name(3), 9, None)) is None
    assert ai_number(before(ai_seat_name(3), None, "easy")) == 3
    # rows written now say the number: a person who joined as "🤖3" is that person, even once an AI plays
    # their seat (resigned, removed)
    for user_id, level in ((9, None), (None, "normal")):
        person = Seat.from_json(Seat(ai_seat_name(3), user_id, level).to_json())
        assert ai_number(person) is None and fr(seat_name(person)) == "🤖3"
    assert Seat.from_json(SEATS[1].to_json()) == SEATS[1]
    assert fr(seat_name(Seat("Bob🤖2x", 9, None))) == "Bob🤖2x"


def test_texts_name_seats_by_number_from_the_replys_seat_table() -> None:
    line = Text("ev.next_turn", {"player": SeatRef(1, "🤖1")})
    joined = Text(
        "ev.started",
        {
            "players": Join(tuple(SeatRef(i, s.name) for i, s in enumerate(SEATS)), ", "),
            "board": "x",
            "first": SeatRef(1),
        },
    )
    table = seat_table(SEATS)
    assert "IA 1 (difficile)" in fr(line, table)
    assert "alice, IA 1 (difficile), IA 2 (facile), bob" in fr(joined, table)
    assert catalog.render(line, "en") == catalog.render(Text("ev.next_turn", {"player": "🤖1"}), "en")  # logs
    reply = Reply(
        content=Join((line, Join(("**", SeatRef(1), "**"), ""))),
        embeds=(EmbedSpec(title=SeatRef(1), fields=(FieldSpec(SeatRef(2), Join((SeatRef(1), " 12"), "")),)),),
        rows=(
            (ButtonSpec("g", PressCode.DO, Text("menu.warehouse_of", {"owner": SeatRef(1)})),),
            (SelectSpec("g", PressCode.DO, (OptionSpec(SeatRef(1)),), placeholder=SeatRef(1)),),
        ),
        also=(Reply(content=SeatRef(2)),),
    )
    named = seated(SEATS, reply)
    assert named.seats == table and named.also[0].seats == table
    assert named.content == reply.content  # nothing rewritten: the seat table is given, not applied
    shown = [
        fr(named.content, named.seats),
        fr(named.embeds[0].title, named.seats),
        fr(named.embeds[0].fields[0].name, named.seats),
        fr(named.embeds[0].fields[0].value, named.seats),
        fr(named.rows[0][0].label, named.seats),  # type: ignore[union-attr]
        fr(named.rows[1][0].options[0].label, named.seats),  # type: ignore[union-attr]
        fr(named.also[0].content, named.also[0].seats),
    ]
    assert all("🤖1" not in s and "AI 2" not in s for s in shown), shown
    assert shown[1:4] == ["IA 1 (difficile)", "IA 2 (facile)", "IA 1 (difficile) 12"]


def test_the_pictures_draw_the_names_they_are_given() -> None:
    state = new_game("usa", [s.name for s in SEATS], seed=3)
    french = drawn_names(SEATS, picture_words("fr"))
    english = drawn_names(SEATS, picture_words("en"))
    assert french == ("alice", "IA 1 (difficile)", "IA 2 (facile)", "bob")
    assert english == ("alice", "AI 1 (hard)", "AI 2 (easy)", "bob")
    view = board_picture_view(state, picture_words("fr"), names=french)
    assert [p.name for p in view.players] == list(french)
    sheets = [s.final() for s in final_scores(state)]
    assert [r.name for r in summary_rows(state, sheets, english)] == list(english)
    assert [p.name for p in state.players] == [s.name for s in SEATS]  # the game's own state is untouched
    assert [p.name for p in board_picture_view(state).players] == [s.name for s in SEATS]  # no names given


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
        "`waking_clock` : non",
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

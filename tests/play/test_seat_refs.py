"""Seats, not names: the engine's refusals, the pictures and the live map name a seat by its number, worded from
the game's seat table. A person who joined as "🤖1" or "Bob🤖2x" reads as typed; an AI seat reads "AI 2 (hard)" /
"IA 2 (difficile)"; games stored with the older forms ("🤖2", "AI 2 (hard)") read right too."""

from __future__ import annotations

import asyncio

import pytest
from helpers.engine_states import give, started

from bot.i18n import default_catalog
from bot.manager import GameInfo, GameSettings, Illegal, Refused
from bot.manager.events import public_events
from bot.manager.read import SeatInfo
from bot.messages import SeatRef, Text
from bot.play import event_words
from bot.play.names import seat_table, seating
from bot.play.pictures import board_picture_view, drawn_names, picture_words
from bot.play.refusals import refusal
from bot.play.reply import GameError, Reply
from bot.storage import GameStatus, Seat
from engine.actions import ClaimRoute, DrawBlind
from engine.errors import IllegalAction
from engine.rules import apply, legal_actions
from render.board_svg import render_board_svg

catalog = default_catalog()


def row(name: str, user_id: int | None, level: str | None) -> Seat:
    """A seat read from a row written before seats said their AI number."""
    return Seat.from_json({"name": name, "user_id": user_id, "ai_level": level})


PEOPLE = (Seat("🤖1", 11, None), Seat("Bob🤖2x", 12, None))
NEW = (*PEOPLE, Seat("🤖2", None, "hard", 2))  # the AI seat as the manager stores it now
TOKEN = (row("🤖1", 11, None), row("Bob🤖2x", 12, None), row("🤖2", None, "hard"))  # stored before that
OLD = (row("🤖1", 11, None), row("Bob🤖2x", 12, None), row("AI 2 (hard)", None, "hard"))  # ... and before


def game(seats: tuple[Seat, ...]):  # type: ignore[no-untyped-def]
    state = started("europe", len(seats))
    for p, s in zip(state.players, seats, strict=True):
        p.name = s.name  # the engine knows the seats by their stored names
    return state


def refused(state, seat: int, action) -> GameError:  # type: ignore[no-untyped-def]
    """What a person reads when the engine refuses `action`: the manager's `Refused`, then the play's."""
    with pytest.raises(IllegalAction) as exc:
        apply(state, seat, action)
    return refusal(Refused("illegal", reason=Illegal.of(exc.value)))


def shown(error: GameError, seats: tuple[Seat, ...], language: str) -> str:
    """The refusal as the adapter shows it once `seating` gave it the game's seat table."""

    async def press() -> Reply:
        raise error

    with pytest.raises(GameError) as raised:
        asyncio.run(seating(seats, press()))
    return catalog.seated(raised.value.seats).render(raised.value.message, language) or ""


@pytest.mark.parametrize("seats", [NEW, TOKEN, OLD], ids=["stored-now", "stored-token", "stored-english"])
def test_the_engines_refusals_name_the_seat_by_its_number(seats: tuple[Seat, ...]) -> None:
    state = game(seats)
    give(state, 0, locomotive=8)
    claim = next(a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute))
    apply(state, 0, claim)
    taken = refused(state, 1, claim)
    reason = taken.message.params["reason"]  # type: ignore[union-attr]
    assert isinstance(reason, Text) and reason.params["player"] == SeatRef(0, "🤖1")
    assert shown(taken, seats, "en").endswith("is already claimed by 🤖1.")
    wait = refused(state, 0, DrawBlind())
    assert shown(wait, seats, "en") == "It is not your turn: it is Bob🤖2x's."
    give(state, 1, locomotive=4)
    apply(state, 1, next(a for a in legal_actions(state, 1) if isinstance(a, ClaimRoute)))
    ai_turn = refused(state, 0, DrawBlind())
    assert shown(ai_turn, seats, "en") == "It is not your turn: it is AI 2 (hard)'s."
    assert "IA 2 (difficile)" in shown(ai_turn, seats, "fr")
    # without a seat table (a log line) the stored name stands: nothing is guessed
    assert catalog.render(ai_turn.message, "en") == f"It is not your turn: it is {seats[2].name}'s."


def test_the_engines_refusals_carry_a_board_id() -> None:
    from engine.rules import new_game

    with pytest.raises(IllegalAction) as exc:
        new_game("germany", 1)
    assert exc.value.params["board"] == "germany"
    error = refusal(Refused("illegal", reason=Illegal.of(exc.value)))
    assert (catalog.render(error.message, "fr") or "").startswith("Le plateau Allemagne se joue")


@pytest.mark.parametrize("seats", [NEW, TOKEN, OLD], ids=["stored-now", "stored-token", "stored-english"])
def test_turn_lines_and_the_pictures_words_keep_the_peoples_names(seats: tuple[Seat, ...]) -> None:
    state = game(seats)
    give(state, 0, locomotive=8)
    claim = next(a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute))
    apply(state, 0, claim)
    line = event_words.line(public_events("g", 1, state, 0, claim, "player")[0], event_words.table_of(state))
    table = seat_table(seats)
    english = catalog.seated(table).render(line, "en") or ""
    assert english.startswith("🤖1 claimed") and english.endswith("Bob🤖2x's turn.")
    for language, ai in (("en", "AI 2 (hard)"), ("fr", "IA 2 (difficile)")):
        words = picture_words(language)
        names = drawn_names(seats, words)
        assert names == ("🤖1", "Bob🤖2x", ai)
        view = board_picture_view(state, words, names=names)
        assert [p.name for p in view.players] == list(names)
        assert view.last_move is not None and view.last_move.text.startswith("🤖1 ")
        svg = render_board_svg(state.board, view, words=words)
        assert (
            "Bob🤖2x" in svg and ai in svg and "BobAI" not in svg and "AI 1" not in svg and "IA 1" not in svg
        )
    assert [p.name for p in state.players] == [s.name for s in seats]  # the game's state is not renamed


def test_the_live_maps_view_names_each_seat_for_its_reader() -> None:
    from bot.web.view import board_svg, private_part, public_part

    state = game(NEW)
    give(state, 0, locomotive=8)
    apply(state, 0, next(a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute)))
    seats = tuple(
        SeatInfo(i, s.name, s.user_id, s.ai_level, ai_number=s.ai_number) for i, s in enumerate(NEW)
    )
    info = _info(seats)
    for locale, ai in (("en", "AI 2 (hard)"), ("fr", "IA 2 (difficile)")):
        view = public_part(info, state, locale, "", [])
        assert [p["name"] for p in view["players"]] == ["🤖1", "Bob🤖2x", ai]
        svg = board_svg(info, state, locale)  # (the map: the seats are named in the page's sheet, above)
        assert "<svg" in svg and "BobAI" not in svg and "AI 1" not in svg and "IA 1" not in svg
        mine = private_part(info, state, 1, locale)
        assert "BobAI" not in repr(mine) and "IA 1" not in repr(mine) and "AI 1" not in repr(mine)


def _info(seats: tuple[SeatInfo, ...]) -> GameInfo:
    return GameInfo("g", 1, 2, None, 11, "europe", "classic", (), GameStatus.ACTIVE, GameSettings(), seats)

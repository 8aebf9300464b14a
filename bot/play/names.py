"""The names seats go by, in the reader's language.

A person's seat goes by the name they joined with, exactly as stored. An AI seat the manager seated says its
number (``ai_number``; stored as "🤖2", and games stored before as "AI 2 (hard)": `bot/storage/seat_marks.py`
reads those), and the presentation names it from the catalogue and the seat's ``ai_level``: "AI 2 (hard)" in
English, "IA 2 (difficile)" in French (``seat.ai``). A person who joined as "🤖1" keeps that name, and so does
a seat handed to the AI (a player away, resigned or removed).

Texts name seats by number (`bot.messages.SeatRef`), never by a name written into them: :func:`seat_table` is
the name of every seat, and :func:`seated` gives it to a reply (the catalogue words each `SeatRef` from it when
the reply is shown); pictures take the same names as a parameter (`bot.play.pictures`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Iterable
from typing import Protocol

from bot.i18n import default_catalog
from bot.manager import AI_LEVELS
from bot.messages import Message, Text
from bot.play.reply import GameError, Reply


class Named(Protocol):
    """A seat as the storage or the manager's summaries hold it."""

    @property
    def name(self) -> str: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def ai_level(self) -> str | int | None: ...

    @property
    def ai_number(self) -> int | None: ...


def ai_number(seat: Named) -> int | None:
    """The number of the AI seat the manager seated (None: a person's seat, or one handed to the AI)."""
    return seat.ai_number


def seat_name(seat: Named) -> Message:
    """The name `seat` goes by: "AI 2 (hard)" / "IA 2 (difficile)" for an AI seat ("IA 2" when its level is
    not one the bot knows), the player's name otherwise."""
    n = ai_number(seat)
    if n is None:
        return seat.name
    level = str(seat.ai_level) if seat.ai_level is not None else ""
    if level in AI_LEVELS:
        return Text("seat.ai", {"n": n, "level": Text(f"level.{level}")})
    return Text("seat.ai_plain", {"n": n})


def is_ai_seat(seat: Named) -> bool:
    """Whether an AI seat the manager seated."""
    return ai_number(seat) is not None and seat.ai_level is not None


def seat_table(seats: Iterable[Named]) -> tuple[Message, ...]:
    """The name of every seat, in seat order (what `SeatRef` n is shown as)."""
    return tuple(seat_name(s) for s in seats)


def seat_words(seats: Iterable[Named], language: str) -> tuple[str, ...]:
    """Every seat's name as `language` writes it (the words pictures and the live map draw)."""
    catalog = default_catalog()
    return tuple(catalog.render(seat_name(s), language) or s.name for s in seats)


def seated(seats: Iterable[Named], reply: Reply) -> Reply:
    """`reply` (and the replies it carries) given the seat table its seat references are named from."""
    return _seated(seat_table(seats), reply)


async def seating(seats: Iterable[Named], reply: Awaitable[Reply]) -> Reply:
    """`seated(seats, await reply)`; a refusal it raises names seats from the same table."""
    try:
        return seated(seats, await reply)
    except GameError as error:
        error.seats = error.seats or seat_table(seats)
        raise


def _seated(table: tuple[Message, ...], reply: Reply) -> Reply:
    return dataclasses.replace(
        reply, seats=reply.seats or table, also=tuple(_seated(table, r) for r in reply.also)
    )


__all__ = ["Named", "ai_number", "is_ai_seat", "seat_name", "seat_table", "seat_words", "seated", "seating"]

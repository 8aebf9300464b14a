"""The message model: what a player reads, as data until the adapter shows it.

Text in replies, events and labels is a plain string, a `Text` (a catalogue key plus parameters, which may be
messages themselves), a `Join` of messages, a `SeatRef` (the name of a seat, by its number: words are made
from the reply's seat table when shown, so a name is never rewritten inside a text), or a `Place` (a city, named
as the reader knows it). The Discord adapter translates them (`bot/i18n.py`): a private
reply into the person's language, a public message (turn messages, lobbies) into the server's. The manager
builds its events in this form, so a turn line is data until it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Text:
    """A message from the catalogue, translated by the adapter: `Text("game.joined", {"player": "<@1>"})`."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)  # values may be messages too, translated alike


@dataclass(frozen=True, slots=True)
class Join:
    """Messages shown as one, each translated on its own and joined by `sep`: the lines of a turn message, the
    cards of a payment. At most `tail` characters with the end kept (the start becomes an ellipsis), or at most
    `head` with the start kept, cut at a line end (an ellipsis line says some were left out)."""

    parts: tuple[Message, ...]
    sep: str = "\n"
    tail: int | None = None
    head: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRef:
    """The name of seat `seat`, worded by the catalogue from the seat table of the reply it is shown in
    (`Catalog.seated`): a person by the name they joined with, an AI seat "AI 2 (hard)" / "IA 2 (difficile)".
    `stored` is the seat's stored name, shown only where no seat table is given (the manager's English logs)."""

    seat: int
    stored: str = ""


@dataclass(frozen=True, slots=True)
class Place:
    """A city's name as the reader knows it: `name` as board `board` spells it (the city's identity), shown by
    the catalogue in the reader's language (a Japanese reader reads the Japan board's cities in Japanese:
    `maps/names/`); every other reader reads `name`."""

    board: str
    name: str


Message = str | Text | Join | SeatRef | Place


def board_name(board_id: str) -> Text:
    """A board's name in the reader's language (catalogue key ``board.<id>``; every board has one, in every
    catalogue: tests/bot/test_board_names.py)."""
    return Text(f"board.{board_id}")


def variant_name(board_id: str, variant_id: str) -> Text:
    """A board variant's name in the reader's language (catalogue key ``variant.<board>.<variant>``, in every
    catalogue: tests/bot/test_board_names.py)."""
    return Text(f"variant.{board_id}.{variant_id}")


def option_name(board_id: str, option_id: str) -> Text:
    """A board option's name in the reader's language (catalogue key ``option.<board>.<option>``)."""
    return Text(f"option.{board_id}.{option_id}")

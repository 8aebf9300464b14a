"""A reply as plain data: what the presentation hands the Discord adapter to show.

Text is a `bot.messages.Message`, translated by the adapter. Components are persistent: a button or select
names its game and a `PressCode` (`bot.play.contract`) plus the turn token and arguments the press carries
back; `bot/discord/components.py` turns them into custom ids and back, so nothing is kept between clicks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from bot.messages import Message, Text
from bot.play.press import PressCode

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: Message
    value: Message
    inline: bool = True


@dataclass(frozen=True, slots=True)
class EmbedSpec:
    title: Message | None = None
    description: Message | None = None
    fields: tuple[FieldSpec, ...] = ()
    color: int | None = None
    footer: Message | None = None
    image: str | None = None  # a file name from Reply.files ("board.png"), or an https URL
    thumbnail: str | None = None


@dataclass(frozen=True, slots=True)
class FileSpec:
    filename: str  # "board.png"
    data: bytes
    description: Message | None = None  # alt text
    spoiler: bool = False


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A persistent button: pressing it sends `Press(game_id, code, token, args)` to the service."""

    game_id: str
    code: PressCode
    label: Message
    token: str | None = None  # the turn token the button was drawn for (refused as stale once it moved on)
    args: tuple[str, ...] = ()
    style: ButtonStyle = "secondary"
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One choice of a select; choosing it sends its token and args (see `Press.choices`)."""

    label: Message
    token: str | None = None
    args: tuple[str, ...] = ()
    description: Message | None = None
    emoji: str | None = None
    default: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A persistent string select. `row` tells apart several selects of one code in one message."""

    game_id: str
    code: PressCode
    options: tuple[OptionSpec, ...]
    placeholder: Message | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False
    row: int = 0


ComponentSpec = ButtonSpec | SelectSpec


@dataclass(frozen=True, slots=True)
class Reply:
    """One message to show. `rows` are action rows of at most 5 buttons or 1 select.

    `ephemeral`: only the caller sees it (hands and tickets always are).
    `edit_source`: for a button press, replace the message carrying the button (a lobby updating its
    player list) instead of posting a new one.
    `also`: further messages sent after this one, in order (e.g. a private "claimed" plus a public
    announcement mentioning the next player).
    `posted`: called with the channel and id of the public message once it is sent (a game remembers its
    last turn message, to take its buttons away when the next one is posted).
    `activity`: open the bot's Discord Activity (the live map) for the caller instead of a message.
    `instead`: with `activity`, what to send when Discord does not launch it (refused, or too late to answer
    with a launch): the caller's personal link.
    `seats`: the name of each seat (`bot.messages.SeatRef` n is shown as `seats[n]`).
    """

    content: Message | None = None
    embeds: tuple[EmbedSpec, ...] = ()
    files: tuple[FileSpec, ...] = ()
    rows: tuple[tuple[ComponentSpec, ...], ...] = ()
    ephemeral: bool = False
    edit_source: bool = False
    also: tuple[Reply, ...] = ()
    posted: Callable[[int, int], Awaitable[None]] | None = field(default=None, compare=False)
    seats: tuple[Message, ...] = ()  # the seat table its `SeatRef`s are named from (`bot.play.names.seated`)
    activity: bool = False
    instead: Reply | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """One autocomplete suggestion: `name` is shown (in the caller's language), `value` is sent back."""

    name: Message
    value: str


class GameError(Exception):
    """A refusal a person should read, shown ephemerally ("It is not your turn.")."""

    def __init__(self, message: Message, seats: tuple[Message, ...] = ()) -> None:
        super().__init__(message.key if isinstance(message, Text) else str(message))
        self.message = message
        self.seats = seats  # the seat table its `SeatRef`s are named from, as `Reply.seats`

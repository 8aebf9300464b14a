"""The live map's wire contract, declared once: the shapes of the view, of a live frame and of the API's answers
(`PROTOCOL.md` says what they mean). `bot.web.view` builds these dicts (mypy checks each literal against its
declaration) and the page's TypeScript types are generated from them:

    python -m bot.web.contract > web/src/contract.ts

(`tests/web/test_web_contract.py` fails when the checked-in file is not what this prints.)

They are `TypedDict`s rather than dataclasses: a view is built and spelt as JSON for every page kind on every
move, and a typed dict is a plain dict at run time (no copy into a dataclass and back), while mypy still holds
every field the server writes to its declaration.
"""

import sys  # (no postponed annotations: `TypedDict` reads `NotRequired` from the evaluated ones)
import types
import typing
from typing import Annotated, Literal, NotRequired, TypedDict, Union

#: Marks a field that carries only some of its type's fields (`Partial<...>` in TypeScript).
PARTIAL = "partial"


class ApiError(TypedDict):
    """A refusal: `code` for the page's logic, `text` for the reader, in their language."""

    code: str
    text: str


class BoardName(TypedDict):
    id: str
    name: str  # in the reader's language


class LogLine(TypedDict):
    """One public event of the log, worded as the chat words it."""

    seq: int  # its action's position in the game's log
    line: str
    seat: int | None
    routes: list[int]  # the route it took, to highlight


class Move(TypedDict):
    """The move(s) a frame brings: their lines, who moved, and what they took on the board."""

    line: str  # the lines as one sentence
    lines: list[LogLine]
    seat: int | None
    routes: list[int]
    cities: list[int]


#: What scored a part of a seat's final score: its routes, its tickets completed and failed (counted), and each
#: bonus of the board and its variant by its id (`engine.scoring`, the boards' rules): the catalogue names them
#: (``final.routes``, ``web.ui.part_done``, ``web.ui.part_failed``, ``bonus.<id>``).
PartKind = Literal[
    "routes",
    "tickets_done",
    "tickets_failed",
    "european_express",
    "longest_path",
    "globetrotter",
    "most_tickets",
    "stations",
    "depots",
    "bullet_trains",
    "ferry_cards",
    "meeples",
    "merchandise",
    "passengers",
    "regions",
]


class ScorePart(TypedDict):
    """One part of a seat's final score: what scored it, its points (a failed ticket's or a lost bonus's are
    negative) and, for tickets, how many."""

    kind: PartKind
    points: int
    count: NotRequired[int]


class Player(TypedDict):
    seat: int
    name: str
    color: str  # the seat's colour on the board (CSS)
    trains: int | None  # (None: a seat of a game not started)
    cards: int | None
    tickets: int | None
    score: int | None  # the final score once the game is over
    rank: (
        int | None
    )  # once the game is over, the engine's final rank (1: a winner; ties share one); else None
    is_turn: bool
    ai: bool
    user: str | None  # the seat's Discord user id (a string: too long for a JS number); None: an AI seat
    #: once the game is over, what made the final score (its parts add up to `score`; tickets are public then,
    #: as the rules reveal them at the end); [] before
    breakdown: list[ScorePart]


class Card(TypedDict):
    """A train card shown: one of the face-up row (`index`) or of the reader's hand (`count`)."""

    color: str | None  # the engine's colour name; None: an empty face-up slot
    label: str
    #: with the game's colour-blind setting on, the colour's letter as the drawing prints it on the routes of
    #: that colour (the catalogue's ``picture.letter_<colour>``, "Ve" in French); absent when off
    letter: NotRequired[str]
    index: NotRequired[int]
    count: NotRequired[int]


class Deck(TypedDict):
    cards: int
    tickets: int


class Ticket(TypedDict):
    id: int
    label: str  # its two cities, in the reader's language
    cities: list[int]  # its two places' ids (the drawing's `data-city`)
    points: int
    done: bool


class Counter(TypedDict):
    label: str
    emoji: str


class Me(TypedDict):
    """What the seated reader alone sees."""

    seat: int
    hand: list[Card]
    tickets: list[Ticket]
    ticket_map: str  # URL of their private ticket map (SVG), fetched with the session
    counters: list[Counter]


class Offered(TypedDict):
    id: int
    label: str
    cities: list[int]  # its two places' ids (the drawing's `data-city`)
    points: int
    deck: str  # the ticket deck it came from (a board's data name)


class Action(TypedDict):
    """A move the reader may make now: `code` is what `act` sends back. A ticket choice also carries the
    offered tickets and how many may be kept (`offered`, `min`, `max`); the page ticks boxes and sends the ids."""

    code: str
    kind: str  # the engine's action kind
    label: str
    short: NotRequired[str]  # the kind's short word (a button)
    route: NotRequired[int | None]
    city: NotRequired[int | None]
    slot: NotRequired[int | None]
    group: NotRequired[str]  # its menu (``web.ui.group.<group>``)
    payment: NotRequired[str]  # for a route or a city: what it costs, in words
    offered: NotRequired[list[Offered]]
    min: NotRequired[int]
    max: NotRequired[int]


class Pending(TypedDict):
    """A decision the reader must make before anything else (tickets, a tunnel, ...)."""

    kind: str
    label: str
    choices: list[Action]


class View(TypedDict):
    """Everything one reader's page shows of a game."""

    game_id: str
    version: int  # the game's number of actions: `act` sends it back
    status: str  # lobby, active, finished, abandoned
    board: BoardName
    locale: str
    drawing: str  # URL of the board's base drawing (SVG): the same all game for one language ("": none yet)
    #: the game's pieces over the base, SVG fragments by id (``<layer>.<key>``); in a live frame only those added
    #: or changed since the page's previous frame, and null for each one gone
    pieces: dict[str, str | None]
    map_box: list[float] | None  # [x, y, w, h] of the map inside the drawing
    log: list[LogLine]
    texts: dict[str, str]  # the page's words (``web.ui.*``) in the reader's language
    players: list[Player]
    #: with the game's colour-blind setting on, each seat's mark (by seat number) as the drawing puts it on the
    #: seat's trains and stations: a small SVG, its colour and shape (● ■ ▲ ◆ ...); {} when the setting is off
    marks: dict[str, str]
    face_up: list[Card]
    deck: Deck
    move: Move | None  # in a live frame: the move(s) it brings
    open_seats: int  # seats still free in a lobby (the page's Invite); 0 once the game started
    me: Me | None  # None: the reader does not sit in the game
    actions: list[Action]
    pending: Pending | None


class ViewFrame(TypedDict):
    """A live frame: the view's fields that changed since the page's previous frame (the first: all of them);
    `version` is always there."""

    type: Literal["view"]
    view: Annotated[View, PARTIAL]


class ErrorFrame(TypedDict):
    """The page's socket is closed after it: the session ended, or the page was refused."""

    type: Literal["error"]
    error: ApiError


class PongFrame(TypedDict):
    type: Literal["pong"]


class Config(TypedDict):
    """`api/config`'s answer: the page's words before its first view (the splash, a failed sign-in)."""

    client_id: str
    locale_default: str
    texts: dict[str, str]


class SignedInUser(TypedDict):
    id: str
    name: str
    locale: str


class Session(TypedDict):
    """`api/session`'s answer: the session, who signed in, their game ("": found by the channel, without a bot
    token) and, when there is one, their first view of it (the page draws it without waiting for its socket)."""

    session: str
    access_token: NotRequired[str]  # inside Discord: for the SDK's authenticate
    user: SignedInUser
    game_id: str
    view: NotRequired[View]


class Acted(TypedDict):
    """`act`'s answer: the move is made; its view comes over the live socket."""

    ok: Literal[True]
    version: int


#: The declarations, in the order they are written out.
DECLARED: tuple[type, ...] = (
    ApiError,
    BoardName,
    LogLine,
    Move,
    ScorePart,
    Player,
    Card,
    Deck,
    Ticket,
    Counter,
    Me,
    Offered,
    Action,
    Pending,
    View,
    ViewFrame,
    ErrorFrame,
    PongFrame,
    Config,
    SignedInUser,
    Session,
    Acted,
)


#: The named unions, written out as TypeScript types of the same name.
ALIASES: dict[str, object] = {"PartKind": PartKind}


def typescript_of(hint: object, alias: bool = True) -> str:
    """A Python type of the contract as TypeScript (a named union by its name, unless not `alias`)."""
    named = next((n for n, a in ALIASES.items() if a == hint), None) if alias else None
    if named is not None:
        return named
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated:
        inner = typescript_of(args[0])
        return f"Partial<{inner}>" if PARTIAL in args[1:] else inner
    if origin is NotRequired:
        return typescript_of(args[0])
    if origin in (Union, types.UnionType):
        return " | ".join(typescript_of(a) for a in args)
    if origin is Literal:
        return " | ".join(repr(a).lower() if isinstance(a, bool) else f'"{a}"' for a in args)
    if origin is list:
        inner = typescript_of(args[0])
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<{typescript_of(args[0])}, {typescript_of(args[1])}>"
    if hint is type(None):
        return "null"
    if hint in (str,):
        return "string"
    if hint in (int, float):
        return "number"
    if hint is bool:
        return "boolean"
    if isinstance(hint, type) and hint in DECLARED:
        return hint.__name__
    raise TypeError(f"no TypeScript for {hint!r}")


def interface(declared: type) -> str:
    hints = typing.get_type_hints(declared, include_extras=True)
    optional: frozenset[str] = getattr(declared, "__optional_keys__", frozenset())
    doc = (declared.__doc__ or "").strip()
    lines = [f"/** {' '.join(doc.split())} */"] if doc and not doc.startswith(declared.__name__ + "(") else []
    lines.append(f"export interface {declared.__name__} {{")
    for name, hint in hints.items():
        lines.append(f"  {name}{'?' if name in optional else ''}: {typescript_of(hint)};")
    lines.append("}")
    return "\n".join(lines)


def typescript() -> str:
    """The contract as the page's TypeScript module (web/src/contract.ts)."""
    head = (
        "// Generated by `python -m bot.web.contract > web/src/contract.ts` from bot/web/contract.py: do not edit.\n"
        "// The wire contract of the live map (bot/web/PROTOCOL.md).\n"
    )
    frames = "export type LiveFrame = ViewFrame | ErrorFrame | PongFrame;\n"
    aliases = "".join(f"export type {n} = {typescript_of(a, alias=False)};\n\n" for n, a in ALIASES.items())
    return head + "\n" + aliases + "\n\n".join(interface(d) for d in DECLARED) + "\n\n" + frames


if __name__ == "__main__":
    sys.stdout.write(typescript())

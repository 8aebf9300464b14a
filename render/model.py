"""What the board image may show: public information only, as plain data.

The renderer never sees an engine object. A small adapter (engine state -> :class:`BoardView`) lives with the
engine/bot; everything here is what every player at the table can see: who owns which route, counts of cards and
tickets (never their colours or names), the face-up row, pile sizes, and at the end of the game the ticket routes.

Indices are the board's own: route ids, city ids and card types (``maps.board.COLORS`` index, 8 = locomotive).
Seats index :attr:`BoardView.players`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Seat = int
RouteId = int
CityId = int
CardType = int

# Player piece colours (the plastic trains). A seat's colour is one of these names.
PLAYER_COLORS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "purple", "orange", "white")


@dataclass(frozen=True, slots=True)
class PlayerPanel:
    """One line of the players panel: public counts only."""

    name: str
    color: str  # one of PLAYER_COLORS
    score: int = 0
    trains: int = 0
    cards: int = 0  # cards in hand: a COUNT, never the colours
    tickets: int = 0  # tickets held: a COUNT, never which
    stations: int | None = None  # stations left (Europe)
    passengers: int | None = None  # passengers left (Märklin)
    bullet_trains: int | None = None  # bullet trains left (Japan)
    depots: int | None = None  # depots left (warehouses option)
    ferry_cards: int | None = None  # Ferry cards held (Italy): a public count
    merchandise: int | None = None  # merchandise points collected (Märklin)
    meeples: tuple[tuple[str, int], ...] | None = None  # meeples taken per meeple colour (Germany)
    completed_tickets: int | None = None  # shown only when public (end of game)


@dataclass(frozen=True, slots=True)
class LastMove:
    """The move to highlight: who made it, what it touched, and one line of text in the reader's language (from
    the caller). A move touching no route or city says what it was, neutrally: `what` is the engine event kind
    (``card_drawn``, ``tickets_drawn``, ``tickets_kept``, ``tunnel_declined``, ``ferry_card_taken``, ``passed``)
    and `card` the face-up card taken (None: blind, or not a draw)."""

    seat: Seat | None = None
    routes: tuple[RouteId, ...] = ()
    cities: tuple[CityId, ...] = ()
    text: str = ""
    what: str = ""
    card: CardType | None = None


@dataclass(frozen=True, slots=True)
class TicketLine:
    """A ticket shown on the final board (public once the game is over)."""

    a: CityId
    b: CityId
    points: int
    done: bool


@dataclass(frozen=True)
class BoardView:
    """Everything public about a game at one moment; the board image's only input besides the board."""

    routes: Mapping[RouteId, Seat] = field(default_factory=dict)  # owner seat per claimed route
    closed: frozenset[RouteId] = frozenset()  # twin routes closed by the 2-3 player rule
    stations: Mapping[CityId, Seat] = field(default_factory=dict)  # station owner per city (Europe)
    players: tuple[PlayerPanel, ...] = ()
    turn: Seat | None = None  # whose turn it is
    face_up: tuple[CardType, ...] = ()  # the face-up row (card types)
    deck: int = 0  # cards left in the draw pile
    discard: int = 0  # cards in the discard pile
    tickets_left: int | None = None  # tickets left in the ticket pile
    last_move: LastMove | None = None
    round: int | None = None
    final: bool = False  # game over: scores and ticket lines are final and public
    ticket_routes: Mapping[Seat, tuple[TicketLine, ...]] = field(default_factory=dict)  # final board only
    # Warehouses & depots option (Europe): depot owner per city, face-down card count per warehouse city
    depots: Mapping[CityId, Seat] = field(default_factory=dict)
    warehouse_cards: Mapping[CityId, int] = field(default_factory=dict)
    # Märklin: passengers standing in each city (their seats), merchandise token values left per city
    passengers: Mapping[CityId, tuple[Seat, ...]] = field(default_factory=dict)
    merchandise: Mapping[CityId, tuple[int, ...]] = field(default_factory=dict)
    # Germany: passenger meeples left per city, by meeple colour name
    meeples: Mapping[CityId, Mapping[str, int]] = field(default_factory=dict)
    # Japan: bullet-track position per seat (spaces built on bullet routes)
    bullet_track: Mapping[Seat, int] = field(default_factory=dict)
    # Italy: region name per city, ringed on the map. The printed map already tints the board's own regions
    # (city.extra["region"], see render.regions); this is for a view that must show other ones.
    regions: Mapping[CityId, str] = field(default_factory=dict)
    title: str = ""

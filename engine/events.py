"""Typed events: what an accepted action did, as small frozen values.

`engine.rules.apply` replaces `state.events` with the events of the action it applied (and `new_game` with the
deal), in the order they happened. Each event type is public (everyone at the table may know it) or private (only
its `seat` may: the card drawn blind, the tickets offered or kept, the cards received); `public_events` and
`private_events` are the only ways to read them, so a public message cannot pick up a private fact by accident.

The values are neutral (seats, route, city and ticket ids, card types): the words are the caller's. Like
engine.actions, this module stays interpreted when the engine is compiled (mypyc turns a ClassVar into a field).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.errors import GameDataError

EVENT_TYPES: dict[str, type[Event]] = {}

#: Cards laid for a route: (colour, cards of that colour, Locomotives, Locomotive +4 cards, ferry cards), as
#: `engine.claims.Payment` holds them (a Payment is one).
Paid = tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    public: ClassVar[bool] = True

    seat: int  # who acted (or, for a private event, who alone may know it)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for name in _field_names(type(self)):
            data[name] = _to_json(getattr(self, name))
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _to_json(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_to_json(x) for x in v]
    return v


def _from_json(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    return v


def _register(cls: type[Event]) -> type[Event]:
    EVENT_TYPES[cls.kind] = cls
    return cls


def event_from_json(data: dict[str, Any]) -> Event:
    try:
        cls = EVENT_TYPES[data["type"]]
        return cls(**{name: _from_json(data[name]) for name in _field_names(cls)})
    except (KeyError, TypeError) as exc:
        raise GameDataError(f"not an event: {data!r}") from exc


def public_events(events: Iterable[Event]) -> list[Event]:
    """What everyone may know of `events`."""
    return [e for e in events if e.public]


def private_events(events: Iterable[Event], seat: int) -> list[Event]:
    """What `seat` alone may know of `events`."""
    return [e for e in events if not e.public and e.seat == seat]


# ---- cards ---------------------------------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A train card taken: face-up (`card` is its type, `slot` its place in the row) or blind (`card` None: which
    card it was is the private :class:`BlindCardSeen`)."""

    kind: ClassVar[str] = "card_drawn"
    card: int | None = None
    slot: int | None = None


@_register
@dataclass(frozen=True, slots=True)
class BlindCardSeen(Event):
    """PRIVATE: the card `seat` drew blind."""

    kind: ClassVar[str] = "blind_card_seen"
    public: ClassVar[bool] = False
    card: int = 0


@_register
@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """PRIVATE: cards that came into `seat`'s hand other than by drawing (the deal, a warehouse emptied), as
    (card type, count) pairs."""

    kind: ClassVar[str] = "cards_received"
    public: ClassVar[bool] = False
    cards: tuple[tuple[int, int], ...] = ()


# ---- routes --------------------------------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class RouteClaimed(Event):
    """`seat` took `route` with the cards `paid`. `points` is None when the claim scored nothing itself (a bullet
    train laid on a Japanese route)."""

    kind: ClassVar[str] = "route_claimed"
    route: int = 0
    paid: Paid = (0, 0, 0, 0, 0)
    points: int | None = None


@_register
@dataclass(frozen=True, slots=True)
class TunnelRevealed(Event):
    """The cards turned over for `seat`'s tunnel `route`, laid with the cards `paid`, and the `extra` cards they
    cost (0: the route is claimed at once, a RouteClaimed follows)."""

    kind: ClassVar[str] = "tunnel_revealed"
    route: int = 0
    cards: tuple[int, ...] = ()
    extra: int = 0
    paid: Paid = (0, 0, 0, 0, 0)


@_register
@dataclass(frozen=True, slots=True)
class TunnelDeclined(Event):
    kind: ClassVar[str] = "tunnel_declined"
    route: int = 0


# ---- tickets -------------------------------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class TicketsDrawn(Event):
    """`seat` drew `count` tickets (which ones: the private :class:`TicketsOffered`)."""

    kind: ClassVar[str] = "tickets_drawn"
    count: int = 0


@_register
@dataclass(frozen=True, slots=True)
class TicketsOffered(Event):
    """PRIVATE: the tickets `seat` chooses from, keeping `keep_min` to `keep_max`."""

    kind: ClassVar[str] = "tickets_offered"
    public: ClassVar[bool] = False
    tickets: tuple[int, ...] = ()
    keep_min: int = 1
    keep_max: int = 1


@_register
@dataclass(frozen=True, slots=True)
class TicketsKept(Event):
    """`seat` kept `count` tickets (which ones: the private :class:`TicketsChosen`)."""

    kind: ClassVar[str] = "tickets_kept"
    count: int = 0


@_register
@dataclass(frozen=True, slots=True)
class TicketsChosen(Event):
    """PRIVATE: the tickets `seat` kept."""

    kind: ClassVar[str] = "tickets_chosen"
    public: ClassVar[bool] = False
    tickets: tuple[int, ...] = ()


# ---- turns and the end ---------------------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is now `seat`'s turn."""

    kind: ClassVar[str] = "turn_started"


@_register
@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """Every seat has chosen its first tickets; play begins with `seat`."""

    kind: ClassVar[str] = "play_started"


@_register
@dataclass(frozen=True, slots=True)
class LastRoundStarted(Event):
    """`seat` ended its turn with `trains` trains (or the board's own end condition): everyone plays once more."""

    kind: ClassVar[str] = "last_round_started"
    trains: int = 0


@_register
@dataclass(frozen=True, slots=True)
class Passed(Event):
    """`seat` passed: nothing else was possible."""

    kind: ClassVar[str] = "passed"


@_register
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over (`seat`: who played last). `stuck`: nobody could do anything, so it ended early."""

    kind: ClassVar[str] = "game_ended"
    stuck: bool = False


# ---- the boards' own rules -----------------------------------------------------------------------------------


@_register
@dataclass(frozen=True, slots=True)
class StationBuilt(Event):
    kind: ClassVar[str] = "station_built"
    city: int = 0


@_register
@dataclass(frozen=True, slots=True)
class WarehouseStocked(Event):
    """Warehouses & Depots: before drawing, `seat` put the top card of the deck in `owner`'s warehouse."""

    kind: ClassVar[str] = "warehouse_stocked"
    owner: int = 0


@_register
@dataclass(frozen=True, slots=True)
class DepotPlaced(Event):
    kind: ClassVar[str] = "depot_placed"
    city: int = 0


@_register
@dataclass(frozen=True, slots=True)
class WarehousesTaken(Event):
    """`seat` emptied the warehouses of `owners` (none: left them alone), `cards` cards in all (which: the
    private :class:`CardsReceived`)."""

    kind: ClassVar[str] = "warehouses_taken"
    owners: tuple[int, ...] = ()
    cards: int = 0


@_register
@dataclass(frozen=True, slots=True)
class MeepleTaken(Event):
    """Germany: `seat` took a passenger meeple of colour `color` (the board's name) in `city`."""

    kind: ClassVar[str] = "meeple_taken"
    city: int = 0
    color: str = ""


@_register
@dataclass(frozen=True, slots=True)
class PassengerPlaced(Event):
    """Märklin: `seat` put a passenger in `city` (None: kept it in reserve)."""

    kind: ClassVar[str] = "passenger_placed"
    city: int | None = None


@_register
@dataclass(frozen=True, slots=True)
class PassengerMoved(Event):
    """Märklin: `seat`'s passenger left `start` along `routes`, paying `cards` passenger cards, and took
    merchandise tokens worth `tokens` (`points` in all)."""

    kind: ClassVar[str] = "passenger_moved"
    start: int = 0
    routes: tuple[int, ...] = ()
    tokens: tuple[int, ...] = ()
    cards: int = 0
    points: int = 0


@_register
@dataclass(frozen=True, slots=True)
class FerryCardTaken(Event):
    kind: ClassVar[str] = "ferry_card_taken"


@_register
@dataclass(frozen=True, slots=True)
class BulletTrainPlaced(Event):
    """Japan: `seat` claimed `route` with a bullet train, moving its bullet track `spaces` spaces."""

    kind: ClassVar[str] = "bullet_train_placed"
    route: int = 0
    spaces: int = 0


# The events of nearly every action are few distinct values, and an event is immutable: games share one instance
# of each, which spares the frozen-dataclass constructor (slow, and interpreted) on the engine's hot path. These
# two are made once per seat; the compiled modules keep their own tables of the others, filled on first use.
_SEATS = range(64)  # more seats than any game has
TURN_STARTED: tuple[TurnStarted, ...] = tuple(TurnStarted(s) for s in _SEATS)
BLIND_DRAWN: tuple[CardDrawn, ...] = tuple(CardDrawn(s) for s in _SEATS)

"""Typed actions: small frozen values, hashable, with a JSON form.

Every decision a player makes is one of these, the board modules' own included (stations, depots, meeples,
passengers, ferry cards...: the modules in engine/features/* apply them), all registered with `register` so
records and saved states can name any action. This module and engine.pending stay interpreted when the engine is
compiled (setup.py): mypyc would turn their `ClassVar` kinds into dataclass fields (mypyc/mypyc#1122).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.errors import GameDataError

ACTION_TYPES: dict[str, type[Action]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"
    # Actions that do not end or advance the turn (placing a depot): the AI and simulator must not loop on them.
    free: ClassVar[bool] = False
    # Actions whose arguments everyone at the table sees (the cards a claim lays, the face-up card taken); the
    # others name something secret (the tickets kept) and reach no public message.
    public_args: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        data: dict[str, Any] = {"type": self.kind}
        for name in names:
            v = getattr(self, name)
            data[name] = list(v) if isinstance(v, tuple) else v
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def register(cls: type[Action]) -> type[Action]:
    ACTION_TYPES[cls.kind] = cls
    return cls


def action_from_json(data: dict[str, Any]) -> Action:
    try:
        cls = ACTION_TYPES[data["type"]]
    except (KeyError, TypeError) as exc:
        raise GameDataError(f"unknown action {data!r}") from exc
    # actions are immutable and a saved game repeats the same few many times: one instance each
    values = tuple(data.values())
    try:
        key: tuple[Any, ...] | None = (tuple(data), tuple(map(type, values)), values)  # True is not 1 here
        found = _DECODED.get(key)  # type: ignore[arg-type]
    except TypeError:  # a list (or worse) among the values: decoded the long way
        key, found = None, None
    if found is not None:
        return found
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    kwargs = {}
    for name in names:
        if name in data:
            v = data[name]
            kwargs[name] = tuple(v) if isinstance(v, list) else v
    try:
        action = cls(**kwargs)
    except TypeError as exc:
        raise GameDataError(f"malformed action {data!r}: {exc}") from exc
    if key is not None:
        if len(_DECODED) >= 20_000:
            _DECODED.clear()
            _KEY_PARTS.clear()
        # the names and types of a kind's keys are a few tuples, shared (each decoded action keeps a key)
        names, types = (_KEY_PARTS.setdefault(part, part) for part in key[:2])
        _DECODED[(names, types, values)] = action
    return action


_DECODED: dict[tuple[Any, ...], Action] = {}
_KEY_PARTS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def history_entry(seat: int, action: Action) -> Any:
    """The history entry (seat, action), shared: one tuple and one action per distinct entry, as `action_from_json`
    shares its actions (a cached game's history is mostly the same few draws: 8 bytes an entry rather than a tuple
    and an action of its own). Equal entries whose values differ in type (True and 1) are not shared. Typed Any,
    not tuple[int, Action]: the compiled engine would unpack such a tuple and pack a new one, unshared."""
    key = (seat, action)
    found = _ENTRIES.get(key)
    if (
        found is not None
        and type(found[0]) is type(seat)
        and (found[1] is action or _shape(found[1]) == _shape(action))
    ):
        return found
    if len(_ENTRIES) >= 20_000:
        _ENTRIES.clear()
    _ENTRIES[key] = key
    return key


def _shape(action: Action) -> tuple[Any, ...]:
    """The types of `action`'s values, inside its tuples too."""
    names = _FIELD_NAMES.get(type(action))
    if names is None:
        names = _FIELD_NAMES[type(action)] = tuple(f.name for f in fields(action))
    values = [getattr(action, name) for name in names]
    return tuple(tuple(map(type, v)) if isinstance(v, tuple) else type(v) for v in values)


_ENTRIES: dict[tuple[Any, Action], tuple[Any, Action]] = {}


@register
@dataclass(frozen=True, slots=True)
class DrawBlind(Action):
    """Draw the top card of the deck. `warehouse`: Warehouses & Depots, the seat whose warehouse gets the
    blind card stored at the start of a card-drawing turn (first draw of the turn only)."""

    kind: ClassVar[str] = "draw_blind"
    public_args: ClassVar[bool] = True
    warehouse: int | None = None


@register
@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    """Take the face-up card in `slot` (0-4)."""

    kind: ClassVar[str] = "draw_face_up"
    public_args: ClassVar[bool] = True
    slot: int = 0
    warehouse: int | None = None


@register
@dataclass(frozen=True, slots=True)
class ClaimRoute(Action):
    """Claim `route` paying `color` cards (a card colour index, or LOCOMOTIVE when paying with wilds only),
    `locomotives` Locomotives, `plus4` Locomotive +4 cards (Märklin) and `ferry_cards` (Italy waves).
    The number of `color` cards is what the route length leaves."""

    kind: ClassVar[str] = "claim_route"
    public_args: ClassVar[bool] = True
    route: int = 0
    color: int = 0
    locomotives: int = 0
    plus4: int = 0
    ferry_cards: int = 0


@register
@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """Pay the extra cards a tunnel asks for: `locomotives` of them as Locomotives, the rest in the colour paid."""

    kind: ClassVar[str] = "pay_tunnel"
    public_args: ClassVar[bool] = True
    locomotives: int = 0


@register
@dataclass(frozen=True, slots=True)
class DeclineTunnel(Action):
    kind: ClassVar[str] = "decline_tunnel"
    public_args: ClassVar[bool] = True


@register
@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    """Draw destination tickets. `mix`: on boards with two ticket decks, how many from each, in the order the
    variant lists them (e.g. (short, long))."""

    kind: ClassVar[str] = "draw_tickets"
    public_args: ClassVar[bool] = True
    mix: tuple[int, ...] = ()


@register
@dataclass(frozen=True, slots=True)
class ChooseTicketMix(Action):
    """Setup on two-deck boards: announce how many tickets to draw from each deck."""

    kind: ClassVar[str] = "choose_ticket_mix"
    mix: tuple[int, ...] = ()


@register
@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep these offered tickets (ticket ids, sorted); the others go where the variant says."""

    kind: ClassVar[str] = "keep_tickets"
    tickets: tuple[int, ...] = ()


@register
@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    kind: ClassVar[str] = "build_station"
    public_args: ClassVar[bool] = True
    city: int = 0
    color: int = 0
    locomotives: int = 0


@register
@dataclass(frozen=True, slots=True)
class PlaceDepot(Action):
    """Warehouses & Depots: place a reserve depot on a free city (free action on one's turn; setup placement)."""

    kind: ClassVar[str] = "place_depot"
    public_args: ClassVar[bool] = True
    free: ClassVar[bool] = True
    city: int = 0


@register
@dataclass(frozen=True, slots=True)
class TakeWarehouses(Action):
    """Warehouses & Depots, after a claim touching depots: empty these seats' warehouses (one reserve depot each)."""

    kind: ClassVar[str] = "take_warehouses"
    public_args: ClassVar[bool] = True
    owners: tuple[int, ...] = ()


@register
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Only when nothing else is possible (no card to draw, no route affordable, no ticket left)."""

    kind: ClassVar[str] = "pass"
    public_args: ClassVar[bool] = True


# Germany's meeples, Märklin's passengers, Italy's ferry cards


@register
@dataclass(frozen=True, slots=True)
class TakeMeeple(Action):
    """After a claim: take a meeple of `color` (a colour name of the board's meeples) from the route end `city`."""

    kind: ClassVar[str] = "take_meeple"
    city: int = 0
    color: str = ""


@register
@dataclass(frozen=True, slots=True)
class PlacePassenger(Action):
    """After a claim: put a reserve passenger on `city` (one of the route's cities), or None to keep it."""

    kind: ClassVar[str] = "place_passenger"
    city: int | None = None


@register
@dataclass(frozen=True, slots=True)
class MovePassenger(Action):
    """Move the seat's passenger standing on `start` along `routes` (route ids, in travel order)."""

    kind: ClassVar[str] = "move_passenger"
    start: int = 0
    routes: tuple[int, ...] = ()


@register
@dataclass(frozen=True, slots=True)
class TakeFerryCard(Action):
    """Italy: take the top Ferry card of its pile (the whole turn)."""

    kind: ClassVar[str] = "take_ferry_card"

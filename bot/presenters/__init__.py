"""Presenters: how each engine feature reads to players, one module per feature, as the engine has one.

A presenter registers, for the action classes, pending decisions and event classes of its feature (the module
of `engine.features` of the same name; ``base`` for the core game: cards, routes, tickets, turns): the short
code of each action in custom ids, its label (button and option text), its menu, its line in the turn message,
the hint of a pending decision, its counters in "My hand", and how its events amend another action's line (a
tunnel reveal on a claim). It names them by their engine classes (`DrawBlind`, `CardDrawn`, `TunnelPayment`),
never by their kind strings, so a misspelt one is an import error and not a silently unworded line; where a
string is still needed (records, short codes, catalogue keys ``ev.<kind>``) it is the class's own `kind`. The
generic code (`bot.play` codec, labels, menus, hand, turn, pictures, and the wording of the manager's events,
`bot.play.event_words`) iterates this registry and never names an action kind or a feature.

This package sits below `bot.play` (it imports neither `bot.play` nor `bot.manager`, nor discord; the manager,
which returns facts only, does not import it): values in, catalogue messages (`bot.messages`) out. Every
module of the package registers itself when the registry is first read.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.messages import Message, Text
from engine.actions import Action
from engine.events import Event
from engine.pending import Pending
from engine.state import GameState
from maps import Board
from maps.board import Route

E = TypeVar("E", bound=Event)

__all__ = [
    "ActionWords",
    "DrawChoice",
    "Menu",
    "Presenter",
    "Told",
    "action_words",
    "amended_line",
    "counters",
    "draw_choices",
    "hint",
    "menus",
    "presenters",
    "private_line",
    "publishes",
    "register",
    "route_notes",
]


@dataclass(frozen=True, slots=True)
class Told:
    """What an action's public line is made of: the board, the seats' names, who acted, the action kind and
    the PUBLIC engine events it produced."""

    board: Board
    names: Sequence[Message]  # each seat's name: `SeatRef`s, worded when shown
    seat: int
    kind: str
    facts: Sequence[Event]

    @property
    def player(self) -> Message:
        return self.names[self.seat]

    def first(self, kind: type[E]) -> E | None:
        for e in self.facts:
            if isinstance(e, kind):
                return e
        return None


Label = Callable[[GameState, int, Any], Message]
Line = Callable[[Told], Message]


def plain_line(told: Told) -> Message:
    """The line of an action that names only the player: ``ev.<kind>``."""
    return Text(f"ev.{told.kind}", {"player": told.player})


@dataclass(frozen=True, slots=True)
class ActionWords:
    """How one action class reads. `menu`: the turn-message menu that lists it (None: only ever a pending
    decision, under "decide"). `payment`: what it costs, for the confirm step (None: its label). Whether its
    arguments are public is the engine's (`Action.public_args`)."""

    action: type[Action]
    short: str
    label: Label
    line: Line = plain_line
    menu: str | None = None
    payment: Label | None = None

    @property
    def kind(self) -> str:
        """The action's kind, as records and codes name it."""
        return self.action.kind


@dataclass(frozen=True, slots=True)
class Menu:
    """A turn-message button and the private menu it opens. `order` places the button; `text` is the menu's
    prompt (``{hint}``: the pending hint; a `places` menu: ``{n}`` places); `places`: a route or city select
    first (`pick`: its placeholder), then the confirm step;
    `cards`: the card-drawing menu (face-up row, warehouses)."""

    name: str
    button: str
    style: str
    emoji: str | None
    order: int
    text: str = "menu.choose"
    places: bool = False
    pick: str = "menu.pick"
    cards: bool = False
    sort: Callable[[GameState, int, Any], Any] | None = None


@dataclass(frozen=True, slots=True)
class DrawChoice:
    """A card draw argument a feature adds, chosen before the card (Warehouses & Depots: whose warehouse gets
    the top card of the deck): the action field, each value's option label, and the prompt."""

    field: str
    option: Callable[[GameState, int], Message]
    prompt: str


PrivateLine = Callable[[Board, Any], Message]


@dataclass(frozen=True, slots=True)
class Presenter:
    """One feature's words. `name` is the engine feature's (``base``: the core game). `events`: the engine
    event classes this presenter words (their lines, amendments, private lines or the facts its lines read).
    `amend`: event class -> a line that replaces the acting action's own when that event is among its facts
    (None: keep the action's line). `private`: private event class -> what the seat alone reads of it.
    `hints`: pending class -> what that decision asks. `counters`: the seat's counts shown in "My hand" as
    (message, emoji); `order` places them among the presenters'. `publishes`: event classes that call for a
    new turn message. `route_notes`: what a route of this feature shows in the claim menu ("tunnel").
    `label_for`: a label that replaces an action's own when it returns one (an argument
    this feature adds to a core action)."""

    name: str
    actions: tuple[ActionWords, ...] = ()
    events: frozenset[type[Event]] = frozenset()
    amend: Mapping[type[Event], Callable[[Told, Any], Message | None]] = field(default_factory=dict)
    private: Mapping[type[Event], PrivateLine] = field(default_factory=dict)
    hints: Mapping[type[Pending], Callable[[GameState, Pending], Message]] = field(default_factory=dict)
    counters: Callable[[GameState, int], list[tuple[Message, str]]] | None = None
    order: int = 100
    menus: tuple[Menu, ...] = ()
    publishes: frozenset[type[Event]] = frozenset()
    label_for: Callable[[GameState, int, Any], Message | None] | None = None
    draw_choice: DrawChoice | None = None
    route_notes: Callable[[Route], list[Message]] | None = None


_PRESENTERS: dict[str, Presenter] = {}
_ACTIONS: dict[str, ActionWords] = {}  # by the kind of its class (records and codes name actions by kind)
_SHORTS: dict[str, type[Action]] = {}  # short code -> action class
_loaded = False


def register(presenter: Presenter) -> Presenter:
    """Add a presenter (each module of this package calls it once, at import). An action, event or pending
    class, or a menu, worded twice is a mistake, refused here."""
    for other in _PRESENTERS.values():
        if other.name == presenter.name:
            continue
        clash = (
            {a.kind for a in {w.action for w in other.actions} & {w.action for w in presenter.actions}}
            | {e.kind for e in other.events & presenter.events}
            | {p.kind for p in set(other.hints) & set(presenter.hints)}
            | {m.name for m in other.menus} & {m.name for m in presenter.menus}
        )
        if clash:
            raise ValueError(f"presenters {other.name} and {presenter.name} both word {sorted(clash)}")
    _PRESENTERS[presenter.name] = presenter
    for words in presenter.actions:
        if _SHORTS.get(words.short, words.action) is not words.action:
            raise ValueError(f"short code {words.short} of {words.kind} is {_SHORTS[words.short].kind}'s")
        _ACTIONS[words.kind] = words
        _SHORTS[words.short] = words.action
    return presenter


def _load() -> None:
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True  # only once every module registered: a broken one fails every call, loudly


def presenters() -> dict[str, Presenter]:
    """Every presenter by its feature's name."""
    _load()
    return _PRESENTERS


def _all() -> Iterator[Presenter]:
    return iter(sorted(presenters().values(), key=lambda p: (p.order, p.name)))


def action_words(kind: str) -> ActionWords | None:
    """How the actions of `kind` read (an action's `kind`, or a record's), mapped once from the classes."""
    _load()
    return _ACTIONS.get(kind)


def by_short(short: str) -> type[Action] | None:
    """The action class a short code names."""
    _load()
    return _SHORTS.get(short)


def label(state: GameState, seat: int, action: Action) -> Message | None:
    """The label of `action` (None: no presenter words it)."""
    for p in _all():
        if p.label_for is not None and (amended := p.label_for(state, seat, action)) is not None:
            return amended
    words = action_words(action.kind)
    return words.label(state, seat, action) if words is not None else None


def amended_line(told: Told) -> Message | None:
    """The line an event of the facts gives the action instead of its own, if any."""
    for p in _all():
        for e in told.facts:
            amend = p.amend.get(type(e))
            if amend is not None and (line := amend(told, e)) is not None:
                return line
    return None


def private_line(board: Board, event: Event) -> Message | None:
    """What the seat of the private engine `event` alone reads of it (None: no presenter words it)."""
    for p in presenters().values():
        words = p.private.get(type(event))
        if words is not None:
            return words(board, event)
    return None


def hint(state: GameState, seat: int) -> Message:
    """What `seat`'s pending decision asks, or nothing."""
    pending = state.pending.get(seat)
    if pending is None:
        return ""
    for p in presenters().values():
        words = p.hints.get(type(pending))
        if words is not None:
            return words(state, pending)
    return ""


def counters(state: GameState, seat: int) -> list[tuple[Message, str]]:
    """`seat`'s counts for "My hand", feature by feature: (message, emoji)."""
    return [c for p in _all() if p.counters is not None for c in p.counters(state, seat)]


def menus() -> list[Menu]:
    """Every menu, in the order of the turn message's buttons."""
    return sorted((m for p in presenters().values() for m in p.menus), key=lambda m: m.order)


def menu(name: str) -> Menu | None:
    return next((m for m in menus() if m.name == name), None)


def draw_choices() -> list[DrawChoice]:
    return [p.draw_choice for p in _all() if p.draw_choice is not None]


def route_notes(route: Route) -> list[Message]:
    """What the claim menu says of `route` besides its colour and length, feature by feature."""
    return [n for p in _all() if p.route_notes is not None for n in p.route_notes(route)]


def publishes(event: Event) -> bool:
    """Whether the engine `event` calls for a new turn message."""
    return any(type(event) in p.publishes for p in presenters().values())

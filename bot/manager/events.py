"""What the manager tells the bot layer after each accepted action or table change: facts, not words.

A :class:`GameEvent` is something everyone at the table may know: the PUBLIC engine events of an action
(``facts``, read only through `engine.events.public_events`), or one of the manager's own facts about the table
(``change``: the game started, a seat changed hands, someone left a lobby, the game was abandoned or is over).
A :class:`PrivateEvent` is what one seat alone learns: one of its PRIVATE engine events
(`engine.events.private_events`). Neither holds a word: `bot.play.event_words` words them from the catalogue,
so the manager knows no presentation (tests/architecture/test_layers.py).

Turn tokens (``expected_turn``): a string the bot puts in the custom id of every button it shows; an action built
from it is refused when the game has moved on since.

* during play: ``"t<N>"`` with N = the number of accepted actions so far (``len(state.history)``). Every accepted
  action changes it, so a double click, a replayed interaction or a button from an older message (face-up row
  since refilled, turn since passed) is stale.
* during the start-of-game ticket choice (players choose in any order): ``"s<seat>.<n>"`` with n = the number of
  actions of that seat so far, so one player's choice does not make the others' buttons stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine import events as engine_events
from engine.actions import Action
from engine.events import (
    Event,
    GameEnded,
    LastRoundStarted,
    PlayStarted,
    TicketsChosen,
    TurnStarted,
)
from engine.scoring import FinalSheet, outcome
from engine.state import SETUP, GameState

__all__ = [
    "PRIVATE_KINDS",
    "Abandoned",
    "Change",
    "GameEvent",
    "GameOver",
    "LeftLobby",
    "PrivateEvent",
    "SeatChanged",
    "Started",
    "final_sheets",
    "private_events",
    "public_events",
    "turn_token",
    "turn_token_at",
]


def turn_token(state: GameState, seat: int | None = None) -> str:
    """The staleness token of `seat`'s next action (see the module docstring)."""
    return turn_token_at(state, seat, len(state.history))


def turn_token_at(state: GameState, seat: int | None, version: int) -> str:
    """The turn token `seat` had when the game was at `version` (its number of actions): what a page that shows
    that version acts with. A version the game never had has no token ("")."""
    if not 0 <= version <= len(state.history):
        return ""
    if state.phase == SETUP and seat is not None:
        own = sum(1 for s, _ in state.history[:version] if s == seat)
        return f"s{seat}.{own}"
    return f"t{version}"


# --------------------------------------------------------------------------- the manager's own facts


@dataclass(frozen=True, slots=True)
class Started:
    """The game started on `board` (its id) with `seats` seats; `first` plays first."""

    board: str
    seats: int
    first: int


@dataclass(frozen=True, slots=True)
class LeftLobby:
    """Someone left a lobby (`removed`: the host took them out). Their seat is gone, so the seat's stored
    `name` is kept: the seat numbers of the lobby moved up."""

    name: str
    removed: bool = False


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """Who plays seat `seat` of a running game changed: `how` is ``ai`` (its player handed it to an AI of
    `level`), ``human`` (they took it back), ``resigned`` or ``removed`` (an AI of `level` plays it for good),
    ``replaced`` (the person `user_name` plays it now)."""

    seat: int
    how: Literal["ai", "human", "resigned", "removed", "replaced"]
    level: str | None = None
    user_name: str = ""


@dataclass(frozen=True, slots=True)
class Abandoned:
    """The game or lobby ended without a result: `why` is ``host`` (the host ended it), ``empty`` (no person
    left at the table), ``closed`` (the host left a lobby alone: `name`, the host's stored seat name) or
    ``expired`` (nobody started the lobby for `hours` hours)."""

    why: Literal["host", "empty", "closed", "expired"]
    name: str = ""
    hours: float = 0.0


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over: every seat's final score sheet, in ranking order (public: the rules reveal the
    tickets at the end)."""

    sheets: tuple[FinalSheet, ...]


Change = Started | LeftLobby | SeatChanged | Abandoned | GameOver


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something everyone at the table may know. `kind` is the action kind, or one of ``started``,
    ``play_started``, ``last_round``, ``game_over``, ``abandoned``, ``left``, ``seat_ai``, ``seat_human``.
    `by` says who decided: ``player``, ``ai`` (an AI seat or a seat handed to the AI), ``absent_ai`` or
    ``absent_skip`` (the absent-player policy), ``host``, ``system``.

    What happened is data: `facts`, the PUBLIC engine events of an action (``play_started`` and ``last_round``:
    the one engine event they tell), or `change`, the manager's own fact (lobby, seats, start, end). Words are
    `bot.play.event_words`'s."""

    game_id: str
    seq: int  # position of the action in the game's log (0: not an action)
    kind: str
    seat: int | None
    data: Mapping[str, Any] = field(default_factory=dict)
    by: str = "player"
    facts: tuple[Event, ...] = ()  # the PUBLIC engine events it tells (none for lobby and seat events)
    change: Change | None = None  # the manager's own fact (None: an action's event)


@dataclass(frozen=True, slots=True)
class PrivateEvent:
    """Something only `seat` may see: `fact`, one of its PRIVATE engine events (the card drawn blind, the
    cards received, the tickets offered or kept). `kind` says which (:data:`PRIVATE_KINDS`); `user_id` is None
    for AI."""

    game_id: str
    seq: int
    seat: int
    user_id: int | None
    kind: str
    fact: Event


#: The kind of the private event each private engine event makes (an engine event kind not listed tells the
#: seat nothing); bot.play words each (tests/play/test_presenters.py checks both tables cover the engine's).
PRIVATE_KINDS: Mapping[str, str] = {
    "blind_card_seen": "drew",
    "cards_received": "cards_gained",
    "tickets_offered": "tickets_offered",
    "tickets_chosen": "tickets_kept",
}


# --------------------------------------------------------------------------- builders


def _points(events: Sequence[Event]) -> int | None:
    """The points the action scored during play, if it scored (a claim, a passenger trip)."""
    for e in events:
        points = getattr(e, "points", None)
        if points is not None:
            return int(points)
    return None


def public_events(
    game_id: str,
    seq: int,
    state: GameState,
    seat: int,
    action: Action,
    by: str,
    final: Sequence[FinalSheet] | None = None,
) -> list[GameEvent]:
    """The public events of `seat`'s accepted `action`, from the PUBLIC engine events it produced
    (``state.events`` after it; private events are filtered out before anything is read). The action's
    arguments go in ``data["args"]`` only when the rules lay them on the table (`Action.public_args`)."""
    facts = tuple(engine_events.public_events(state.events))
    kind = action.kind
    data: dict[str, Any] = {"seat": seat, "player": state.players[seat].name, "action": kind}
    if action.public_args:
        data["args"] = action.to_json()
    points = _points(facts)
    if points is not None:
        data["points"] = points
    turn = None
    for e in facts:
        if isinstance(e, TurnStarted):
            turn = e
    if turn is not None:
        data["next"] = turn.seat
    events = [GameEvent(game_id, seq, kind, seat, data, by, facts)]
    for e in facts:
        if isinstance(e, PlayStarted):
            events.append(GameEvent(game_id, seq, "play_started", None, {"next": e.seat}, "system", (e,)))
    for e in facts:
        if isinstance(e, LastRoundStarted):
            last = {"seat": e.seat, "trains": e.trains}
            events.append(GameEvent(game_id, seq, "last_round", e.seat, last, "system", (e,)))
    if any(isinstance(e, GameEnded) for e in facts):
        events.append(game_over_event(game_id, seq, final or ()))
    return events


def final_sheets(state: GameState) -> tuple[FinalSheet, ...]:
    """The final score sheets, in seat order (public once the game is over: tickets are revealed at the end)."""
    end = outcome(state)
    return end.sheets if end is not None else ()


def game_over_event(game_id: str, seq: int, sheets: Sequence[FinalSheet]) -> GameEvent:
    ranking = tuple(sorted(sheets, key=lambda s: (s.rank, s.seat)))
    data = {"sheets": [s.to_json() for s in ranking], "winners": [s.name for s in ranking if s.won]}
    return GameEvent(game_id, seq, "game_over", None, data, "system", change=GameOver(ranking))


def private_events(
    game_id: str, seq: int, seat: int, user_id: int | None, state: GameState
) -> list[PrivateEvent]:
    """What `seat` alone learns from the last action (or the deal): the card drawn blind, the cards received,
    the tickets offered or kept. Only `seat`'s PRIVATE engine events are read; a ticket choice that kept
    nothing tells nothing."""
    out: list[PrivateEvent] = []
    for e in engine_events.private_events(state.events, seat):
        kind = PRIVATE_KINDS.get(e.kind)
        if kind is None or (isinstance(e, TicketsChosen) and not e.tickets):
            continue
        out.append(PrivateEvent(game_id, seq, seat, user_id, kind, e))
    return out

"""What the manager tells the bot layer after each accepted action: public events, private events, outcomes.

They translate the engine's typed events (`engine.events`, ``state.events`` after an action) into catalogue
messages. Public events are built ONLY from the public engine events (`engine.events.public_events`) and the
action itself for the kinds whose arguments everyone sees (a claim lays its cards on the table; a kept-tickets
action names secret tickets, so it never appears). Private events come from the actor's private engine events
(`engine.events.private_events`) and go to that seat alone.

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
from typing import Any

from bot import presenters
from bot.messages import Join, Message, SeatRef, Text
from bot.presenters import Told
from bot.presenters.words import and_list, card, cards, counted
from bot.storage import GameStatus, SeatResult
from engine import events as engine_events
from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import Event, GameEnded, LastRoundStarted, PlayStarted, TurnStarted
from engine.scoring import FinalSheet, outcome
from engine.state import SETUP, GameState
from maps import Board

__all__ = [
    "GameEvent",
    "and_list",
    "card",
    "cards",
    "counted",
    "describe",
    "Outcome",
    "PrivateEvent",
    "final_sheets",
    "private_events",
    "public_events",
    "refusal_text",
    "turn_token",
]


def turn_token(state: GameState, seat: int | None = None) -> str:
    """The staleness token of `seat`'s next action (see the module docstring)."""
    if state.phase == SETUP and seat is not None:
        own = sum(1 for s, _ in state.history if s == seat)
        return f"s{seat}.{own}"
    return f"t{len(state.history)}"


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something everyone at the table may know. `kind` is the action kind, or one of ``started``,
    ``play_started``, ``last_round``, ``game_over``, ``abandoned``, ``seat_ai``, ``seat_human``, ``absent``.
    `by` says who decided: ``player``, ``ai`` (an AI seat or a seat handed to the AI), ``absent_ai`` or
    ``absent_skip`` (the absent-player policy), ``host``, ``system``.

    `message` is what to show, as data: a catalogue key and its parameters (`bot.service.Text`, see
    `bot/i18n.py`), translated by the adapter in the game's language. City names are parameters and stay as
    they are; a seat is a `SeatRef` (its number, named from the reply's seat table); colours and counted words are
    catalogue keys too."""

    game_id: str
    seq: int  # position of the action in the game's log (0: not an action)
    kind: str
    seat: int | None
    message: Message
    data: Mapping[str, Any] = field(default_factory=dict)
    by: str = "player"
    facts: tuple[
        Event, ...
    ] = ()  # the PUBLIC engine events this message tells (none for lobby and seat events)

    @property
    def text(self) -> str:
        """The message in English (logs, tests)."""
        return english(self.message)


@dataclass(frozen=True, slots=True)
class PrivateEvent:
    """Something only `seat` may see (the card drawn blind, the tickets offered). `user_id` is None for AI.
    `message` as in :class:`GameEvent`."""

    game_id: str
    seq: int
    seat: int
    user_id: int | None
    kind: str
    message: Message
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The message in English (logs, tests)."""
        return english(self.message)


def english(message: Message) -> str:
    from bot.i18n import default_catalog  # the catalogue is the adapter's; only logs and tests need this

    return default_catalog().render(message, "en") or ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of an accepted action and of the automatic moves that followed it (AI seats)."""

    game_id: str
    status: GameStatus
    events: tuple[GameEvent, ...] = ()
    private: tuple[PrivateEvent, ...] = ()
    to_act: tuple[int, ...] = ()  # seats that may act now
    tokens: Mapping[int, str] = field(default_factory=dict)  # seat -> turn token for its next action
    results: tuple[SeatResult, ...] = ()  # when the game finished
    seqs: tuple[int, ...] = ()  # log positions of every action this outcome covers

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    def private_for(self, seat: int) -> tuple[PrivateEvent, ...]:
        return tuple(e for e in self.private if e.seat == seat)


# --------------------------------------------------------------------------- builders


def describe(
    board: Board, names: Sequence[Message], seat: int, kind: str, events: Sequence[Event]
) -> Message:
    """The public line of one action of `kind` by `seat`, from its PUBLIC engine events: the line an event
    gives it (a tunnel's reveal), else its own (`bot.presenters`); catalogue keys ``ev.<kind>...``."""
    told = Told(board, names, seat, kind, events)
    line = presenters.amended_line(told)
    if line is not None:
        return line
    words = presenters.action_words(kind)
    if words is not None:
        return words.line(told)
    return Text("ev.other", {"player": names[seat], "action": kind.replace("_", " ")})


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
    """The public messages of `seat`'s accepted `action`, translated from the PUBLIC engine events it produced
    (``state.events`` after it; private events are filtered out before anything is read)."""
    facts = tuple(engine_events.public_events(state.events))
    kind = action.kind
    names = seat_refs(state)
    line = describe(state.board, names, seat, kind, facts)
    data: dict[str, Any] = {"seat": seat, "player": state.players[seat].name, "action": kind}
    if action.public_args:  # laid on the table: everyone sees them
        data["args"] = action.to_json()
    points = _points(facts)
    if points is not None:
        data["points"] = points
    message: Message = line
    turn = None
    for e in facts:
        if isinstance(e, TurnStarted):
            turn = e
    if turn is not None and not any(isinstance(e, PlayStarted) for e in facts):
        # "play begins with alice" follows and says whose turn it is
        message = Join((line, Text("ev.next_turn", {"player": names[turn.seat]})), " ")
    if turn is not None:
        data["next"] = turn.seat
    events = [GameEvent(game_id, seq, kind, seat, message, data, by, facts)]
    for e in facts:
        if isinstance(e, PlayStarted):
            events.append(
                GameEvent(
                    game_id,
                    seq,
                    "play_started",
                    None,
                    Text("ev.play_started", {"player": names[e.seat]}),
                    {"next": e.seat},
                    "system",
                    (e,),
                )
            )
    for e in facts:
        if isinstance(e, LastRoundStarted):
            events.append(
                GameEvent(
                    game_id,
                    seq,
                    "last_round",
                    e.seat,
                    Text("ev.last_round", {"player": names[e.seat], "trains": counted("trains", e.trains)}),
                    {"seat": e.seat, "trains": e.trains},
                    "system",
                    (e,),
                )
            )
    if any(isinstance(e, GameEnded) for e in facts):
        events.append(game_over_event(game_id, seq, final or ()))
    return events


def seat_refs(state: GameState) -> list[Message]:
    """Every seat of `state` by its number (worded from the reply's seat table; the stored name for logs)."""
    return [SeatRef(i, p.name) for i, p in enumerate(state.players)]


def final_sheets(state: GameState) -> tuple[FinalSheet, ...]:
    """The final score sheets, in seat order (public once the game is over: tickets are revealed at the end)."""
    end = outcome(state)
    return end.sheets if end is not None else ()


def game_over_event(game_id: str, seq: int, sheets: Sequence[FinalSheet]) -> GameEvent:
    ranking = sorted(sheets, key=lambda s: (s.rank, s.seat))
    winners = [s.name for s in ranking if s.won]
    lines = Join(
        tuple(Join((f"{s.rank}. ", SeatRef(s.seat, s.name), f" {s.total}"), "") for s in ranking), ", "
    )
    if not winners:
        verdict = Text("ev.no_winner")
    else:
        won: list[Message] = [SeatRef(s.seat, s.name) for s in ranking if s.won]
        verdict = Text("ev.winners", {"players": and_list(won), "n": len(winners)})
    return GameEvent(
        game_id,
        seq,
        "game_over",
        None,
        Text("ev.game_over", {"ranking": lines, "verdict": verdict}),
        {"sheets": [s.to_json() for s in ranking], "winners": winners},
        "system",
    )


def results_of(sheets: Sequence[FinalSheet], user_ids: list[int | None]) -> tuple[SeatResult, ...]:
    """The stored result of every seat, from the final score sheets."""
    return tuple(
        SeatResult(seat=s.seat, user_id=user_ids[s.seat], score=s.total, rank=s.rank, won=s.won)
        for s in sorted(sheets, key=lambda s: s.seat)
    )


def refusal_text(exc: IllegalAction) -> Text:
    """The engine's refusal as a catalogue message, ``illegal.<code>`` with its parameters (card colours, under
    ``color``, become card words of the reader's language; the player a refusal names, by its ``seat``)."""
    params = {k: card(str(v)) if k == "color" else v for k, v in exc.params.items()}
    seat = exc.params.get("seat")
    if isinstance(seat, int) and "player" in params:  # the seat by its number, named when shown
        params["player"] = SeatRef(seat, str(params["player"]))
    return Text(f"illegal.{exc.code}", params)


def private_events(
    game_id: str, seq: int, seat: int, user_id: int | None, state: GameState
) -> list[PrivateEvent]:
    """What `seat` alone learns from the last action (or the deal): the card drawn blind, the cards received,
    the tickets offered or kept, worded by the presenters. Only `seat`'s PRIVATE engine events are read."""
    out: list[PrivateEvent] = []
    for e in engine_events.private_events(state.events, seat):
        told = presenters.private_line(state, e)
        if told is not None:
            kind, message, data = told
            out.append(PrivateEvent(game_id, seq, seat, user_id, kind, message, data))
    return out

"""The words of what the manager tells: each `GameEvent` and `PrivateEvent` as a catalogue message.

The manager returns facts only (`bot.manager.events`): an action's PUBLIC engine events, its own facts about the
table (a start, a seat changing hands, a lobby left, an abandonment, the end), a seat's PRIVATE engine events.
This module words them, as data (`bot.messages`) the adapter translates when it shows them: seats are
`SeatRef`s (their number, named from the reply's seat table), city names stay as the board spells them, colours
and counted words are catalogue keys.

A public event is worded from itself and a :class:`Table` (the board, every seat's stored name) only, never from a
game state: its words can hold nothing its facts do not, and its facts are public (`engine.events.public_events`
chose them). A private event's words go to its seat alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import presenters
from bot.manager import GameEvent, GameInfo, Outcome, PrivateEvent
from bot.manager.events import Abandoned, Change, GameOver, LeftLobby, SeatChanged, Started
from bot.messages import Join, Message, SeatRef, Text, board_name
from bot.presenters import Told
from bot.presenters.words import and_list, counted, listed, sentences
from engine.events import Event, LastRoundStarted, PlayStarted, TurnStarted
from engine.scoring import FinalSheet
from engine.state import GameState
from maps import Board, load_board

__all__ = ["Table", "describe", "game_over", "line", "lines", "lines_of", "private_line", "table_of"]


@dataclass(frozen=True, slots=True)
class Table:
    """What an event is worded with besides itself: the board (places by name) and every seat's stored name
    (a `SeatRef`'s name where no seat table is given, as in logs; the plain name a few lines say)."""

    board: Board
    names: tuple[str, ...]

    def seat(self, seat: int) -> SeatRef:
        """Seat `seat` by its number, named from the reply's seat table when shown."""
        return SeatRef(seat, self.name(seat))

    def name(self, seat: int) -> str:
        """The stored name of seat `seat`."""
        return self.names[seat] if 0 <= seat < len(self.names) else ""

    @property
    def seats(self) -> list[Message]:
        return [self.seat(i) for i in range(len(self.names))]


def table_of(game: GameInfo | GameState) -> Table:
    """The table of a game, from its summary or its engine state (the same board and names)."""
    if isinstance(game, GameState):
        return Table(game.board, tuple(p.name for p in game.players))
    return Table(load_board(game.board), tuple(s.name for s in game.seats))


# --------------------------------------------------------------------------- actions


def describe(
    board: Board, names: Sequence[Message], seat: int, kind: str, events: Sequence[Event]
) -> Message:
    """The public line of one action of `kind` by `seat`, from its PUBLIC engine events: the line an event
    gives it (a tunnel's reveal), else its own (`bot.presenters`); catalogue keys ``ev.<kind>...``."""
    told = Told(board, names, seat, kind, events)
    amended = presenters.amended_line(told)
    if amended is not None:
        return amended
    words = presenters.action_words(kind)
    if words is not None:
        return words.line(told)
    return Text("ev.other", {"player": names[seat], "action": kind.replace("_", " ")})


def _action_line(event: GameEvent, table: Table) -> Message:
    """An action's line, then whose turn it is when the turn passed ("play begins with alice" says it when
    play begins)."""
    seat = event.seat if event.seat is not None else -1
    said = describe(table.board, table.seats, seat, event.kind, event.facts)
    turn = next((e for e in reversed(event.facts) if isinstance(e, TurnStarted)), None)
    if turn is None or any(isinstance(e, PlayStarted) for e in event.facts):
        return said
    return sentences(said, Text("ev.next_turn", {"player": table.seat(turn.seat)}))


def _engine_line(event: GameEvent, table: Table) -> Message:
    """The line of the engine event an event tells alone (play begins, the last round), else the action's."""
    first = event.facts[0] if event.facts else None
    if event.kind == "play_started" and isinstance(first, PlayStarted):
        return Text("ev.play_started", {"player": table.seat(first.seat)})
    if event.kind == "last_round" and isinstance(first, LastRoundStarted):
        return Text(
            "ev.last_round", {"player": table.seat(first.seat), "trains": counted("trains", first.trains)}
        )
    return _action_line(event, table)


# --------------------------------------------------------------------------- the manager's own facts


def game_over(sheets: Sequence[FinalSheet]) -> Text:
    """The ranking and who won: "Game over: 1. alice 120, 2. bob 98. alice wins!"."""
    ranking = sorted(sheets, key=lambda s: (s.rank, s.seat))
    lines = listed(tuple(Join((f"{s.rank}. ", SeatRef(s.seat, s.name), f" {s.total}"), "") for s in ranking))
    won: list[Message] = [SeatRef(s.seat, s.name) for s in ranking if s.won]
    verdict = Text("ev.winners", {"players": and_list(won), "n": len(won)}) if won else Text("ev.no_winner")
    return Text("ev.game_over", {"ranking": lines, "verdict": verdict})


def _started(event: GameEvent, c: Started, table: Table) -> Message:
    players = listed(tuple(table.seat(i) for i in range(c.seats)))
    return Text(
        "ev.started", {"board": board_name(c.board), "players": players, "first": table.seat(c.first)}
    )


def _left(event: GameEvent, c: LeftLobby, table: Table) -> Message:
    return Text("ev.removed_lobby" if c.removed else "ev.left_lobby", {"player": c.name})


def _seat_changed(event: GameEvent, c: SeatChanged, table: Table) -> Message:
    if c.how == "ai":
        return Text("ev.seat_ai", {"player": table.seat(c.seat), "level": Text(f"level.{c.level}")})
    if c.how == "human":
        return Text("ev.seat_human", {"player": table.seat(c.seat)})
    if c.how == "replaced":  # the seat keeps its name; the person who plays it now, by theirs
        return Text("ev.replaced", {"player": c.user_name, "old": table.name(c.seat)})
    key = "ev.resigned" if c.how == "resigned" else "ev.removed"  # an AI plays it for good
    return Text(key, {"player": table.name(c.seat)})  # the name they played as


def _abandoned(event: GameEvent, c: Abandoned, table: Table) -> Message:
    if c.why == "host":
        return Text("ev.ended", {"game": event.game_id})
    if c.why == "closed":
        return Text("ev.lobby_closed", {"player": c.name})
    if c.why == "expired":
        return Text("ev.lobby_expired", {"n": c.hours})
    return Text("ev.abandoned_empty")


def _over(event: GameEvent, c: GameOver, table: Table) -> Message:
    return game_over(c.sheets)


#: How each of the manager's own facts reads.
_CHANGES: dict[type[Any], Callable[[GameEvent, Any, Table], Message]] = {
    Started: _started,
    LeftLobby: _left,
    SeatChanged: _seat_changed,
    Abandoned: _abandoned,
    GameOver: _over,
}


def _change_line(event: GameEvent, change: Change, table: Table) -> Message:
    return _CHANGES[type(change)](event, change, table)


# --------------------------------------------------------------------------- entry points


def line(event: GameEvent, table: Table) -> Message:
    """What everyone at `table` reads of `event`."""
    if event.change is not None:
        return _change_line(event, event.change, table)
    return _engine_line(event, table)


def lines(events: Iterable[GameEvent], table: Table) -> tuple[Message, ...]:
    return tuple(line(e, table) for e in events)


def lines_of(outcome: Outcome) -> tuple[Message, ...]:
    """The public lines of a change's outcome, at its game's table."""
    return lines(outcome.events, table_of(outcome.info))


def private_line(event: PrivateEvent, table: Table) -> Message:
    """What `event`'s seat alone reads of it: the card drawn blind, the cards received, the tickets offered or
    kept (its feature's presenter's words)."""
    return presenters.private_line(table.board, event.fact) or ""

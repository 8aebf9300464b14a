"""What a finished game leaves for the record: each seat's result (score, rank, won) and what the statistics keep
of it (`bot.storage.people.SeatDetail`), made here from the engine's final score sheets, the final position and
the game's timed log. The storage stores and reads these facts and counts nothing of the game itself."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.storage import SeatResult
from bot.storage.people import SeatDetail, TicketLine
from engine.scoring import FinalSheet, longest_path
from engine.state import GameState

__all__ = ["TimedLog", "results_of", "seat_detail", "turn_times"]

#: a game's log, oldest first: who made each action (None: no seat) and when it was stored
TimedLog = Sequence[tuple[int | None, datetime]]


def results_of(
    sheets: Sequence[FinalSheet],
    user_ids: list[int | None],
    state: GameState | None = None,
    log: TimedLog = (),
) -> tuple[SeatResult, ...]:
    """The stored result of every seat, from the final score sheets (with ``state``, the final position, and
    ``log``, the game's timed log: what the statistics keep of each seat)."""
    times = turn_times(log)
    return tuple(
        SeatResult(
            seat=s.seat,
            user_id=user_ids[s.seat],
            score=s.total,
            rank=s.rank,
            won=s.won,
            detail=None if state is None else seat_detail(s, state, *times.get(s.seat, (0, 0.0))),
        )
        for s in sorted(sheets, key=lambda s: s.seat)
    )


def seat_detail(sheet: FinalSheet, state: GameState, turns: int = 0, turn_seconds: float = 0.0) -> SeatDetail:
    """One seat's statistics: the engine's sheet, its routes and trains in the final position, and its turns
    and their time (`turn_times`). The longest route is the sheet's where the board scores it, else the engine's
    measure of it."""
    board = state.board
    player = state.players[sheet.seat]
    routes = [board.routes[r] for r in player.routes]
    return SeatDetail(
        name=sheet.name,
        players=len(state.players),
        route_points=sheet.route_points,
        longest_route=sheet.longest_path or longest_path(state, list(player.routes)),
        trains_left=player.trains,
        bonuses=dict(sheet.bonuses),
        tickets=tuple(TicketLine(t.a, t.b, t.points, t.completed) for t in sheet.tickets),
        routes=tuple((board.cities[r.a].name, board.cities[r.b].name, r.length) for r in routes),
        turns=turns,
        turn_seconds=turn_seconds,
    )


def turn_times(log: TimedLog) -> dict[int, tuple[int, float]]:
    """Each seat's (turns, seconds) from the game's timed log, oldest first: a turn is a run of the seat's
    consecutive actions, timed from the action before it (the first action's own time for the game's first) to
    its last."""
    out: dict[int, tuple[int, float]] = {}
    run: tuple[int, datetime, datetime] | None = None  # seat, start, last action

    def close() -> None:
        if run is not None:
            seat, began, ended = run
            turns, seconds = out.get(seat, (0, 0.0))
            out[seat] = (turns + 1, seconds + max(0.0, (ended - began).total_seconds()))

    previous: datetime | None = None
    for seat, at in log:
        if run is not None and seat == run[0]:
            run = (run[0], run[1], at)
        else:
            close()
            run = None if seat is None else (seat, previous or at, at)
        previous = at
    close()
    return out

"""Score sheets: one seat's sheet while scoring fills it in, and the finished sheet everyone reads.

Apart from `engine.scoring` so that board modules can name the sheet they add to without importing the scoring
(which calls them through the turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class TicketResult:
    ticket: int
    a: str
    b: str
    points: int
    completed: bool


@dataclass
class ScoreSheet:
    """One seat's sheet while scoring fills it in (board modules add their bonuses); :func:`outcome` hands out
    the finished sheets as :class:`FinalSheet` values."""

    seat: int
    name: str
    route_points: int = 0
    tickets: list[TicketResult] = field(default_factory=list)
    ticket_points: int = 0
    completed_tickets: int = 0
    longest_path: int = 0
    bonuses: dict[str, int] = field(default_factory=dict)
    station_routes: list[int] = field(default_factory=list)  # the other players' routes the stations used
    tie_values: dict[str, int] = field(default_factory=dict)  # board modules' tie-break values (meeples...)
    total: int = 0
    rank: int = 0
    tie_break: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON data, without its seat (the CLI's score sheet)."""
        data = self.final().to_json()
        del data["seat"]
        return data

    def final(self) -> FinalSheet:
        return FinalSheet(
            seat=self.seat,
            name=self.name,
            route_points=self.route_points,
            tickets=tuple(self.tickets),
            ticket_points=self.ticket_points,
            completed_tickets=self.completed_tickets,
            longest_path=self.longest_path,
            bonuses=MappingProxyType(dict(self.bonuses)),
            total=self.total,
            rank=self.rank,
        )


@dataclass(frozen=True, slots=True)
class FinalSheet:
    """One seat's finished score sheet: the one shape the end message, the stored results and the score chart
    read. Tickets are public here: the rules reveal them at the end."""

    seat: int
    name: str
    route_points: int
    tickets: tuple[TicketResult, ...]
    ticket_points: int
    completed_tickets: int
    longest_path: int
    bonuses: Mapping[
        str, int
    ]  # bonus id (the board's `longest_path`, `globetrotter`...) -> points, 0 if missed
    total: int
    rank: int  # 1 = winner; tied seats share a rank

    @property
    def won(self) -> bool:
        return self.rank == 1

    @property
    def parts(self) -> dict[str, int]:
        """What made the total, keyed by what scored it: ``routes``, ``tickets``, then every bonus scored (by
        its id): the score chart's bars, which :meth:`render.words.PictureWords.part` names."""
        parts = {"routes": self.route_points, "tickets": self.ticket_points}
        parts.update((k, v) for k, v in self.bonuses.items() if v)
        return parts

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "route_points": self.route_points,
            "tickets": [
                {"a": t.a, "b": t.b, "points": t.points, "completed": t.completed} for t in self.tickets
            ],
            "ticket_points": self.ticket_points,
            "completed_tickets": self.completed_tickets,
            "longest_path": self.longest_path,
            "bonuses": dict(self.bonuses),
            "total": self.total,
            "rank": self.rank,
        }

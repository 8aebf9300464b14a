"""The storage's rows about people rather than games: results, statistics, ratings, a player's own choices and
their time (re-exported by `bot.storage.base`, the storage contract)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Protocol


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A stored result row (guild and board are copied from the game when results are recorded)."""

    game_id: str
    guild_id: int | None
    seat: int
    user_id: int | None
    board: str
    score: int
    rank: int
    won: bool
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class BoardStats:
    games: int
    wins: int
    mean_score: float
    best_score: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    guild_id: int | None
    games: int
    wins: int
    mean_score: float
    best_score: int
    per_board: dict[str, BoardStats] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user_id: int
    games: int
    wins: int
    mean_score: float
    best_score: int


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one server: over every board (``board`` empty) or on one board. ``rank`` is
    1 + the number of players of that server and board with a higher ordinal (equal ordinals share a rank)."""

    user_id: int
    board: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int


#: How a player is told it is their turn (and reminded): a mention in the game's thread, a direct message
#: with a link to the thread, or not at all.
NOTIFY_MODES: Final = ("mention", "dm", "none")


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """A player's own choices in one server; the defaults until they change one."""

    notify: str = "mention"
    confirm_claims: bool = True

    def __post_init__(self) -> None:
        if self.notify not in NOTIFY_MODES:
            raise ValueError(f"notify must be one of {NOTIFY_MODES}, not {self.notify!r}")


@dataclass(frozen=True, slots=True)
class PlayerTime:
    """A player's time, in every server (issue 33): their IANA time zone; their quiet hours, minutes after their
    local midnight (start included, end excluded; None: none); how many minutes a turn waits before they are
    pinged; whether they want a heads-up when the player before them starts; when their away mode ends (None:
    not away). The defaults until they change one."""

    time_zone: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    ping_delay: int = 0
    heads_up: bool = False
    away_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Digest:
    """A player's daily digest by direct message (issue 33): sent at `at_minute` after their local midnight
    (their PlayerTime zone); the next one is owed at `due_at`."""

    user_id: int
    at_minute: int
    due_at: datetime


# ---------------------------------------------------------------- statistics of finished games (issue 33, item 5)


@dataclass(frozen=True, slots=True)
class TicketLine:
    """One ticket a seat held at the end: its cities, its points and whether it was completed."""

    city_a: str
    city_b: str
    points: int
    done: bool


@dataclass(frozen=True, slots=True)
class SeatDetail:
    """What the statistics keep of one seat of a finished game, taken from the engine's final score sheet and the
    final position by the manager, with the seat's turns and their time from the game's log (bot.manager.results):
    the storage counts nothing of the rules."""

    name: str
    players: int
    route_points: int
    longest_route: int
    trains_left: int
    bonuses: Mapping[str, int]
    tickets: tuple[TicketLine, ...]
    routes: tuple[tuple[str, str, int], ...]  # each route claimed: its two cities and its length
    turns: int = 0  # the seat's turns (runs of its consecutive actions in the game's log)
    turn_seconds: float = 0.0  # their time, each from the action before it to its last action

    @property
    def bonus_points(self) -> int:
        return sum(self.bonuses.values())

    def routes_by_length(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for _a, _b, length in self.routes:
            counts[length] = counts.get(length, 0) + 1
        return dict(sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class SeatStats:
    """A stored statistics row: one seat of one finished game. ``turns`` and ``turn_seconds`` are the seat's
    detail's (`SeatDetail`: counted by the manager from the game's log);
    ``rating``: the seat's rating over every board of the server just after the game (None: not rated)."""

    game_id: str
    seat: int
    guild_id: int | None
    user_id: int | None
    name: str
    board: str
    players: int
    score: int
    rank: int
    won: bool
    tickets_done: int
    tickets_done_points: int
    tickets_failed: int
    tickets_failed_points: int
    longest_route: int
    route_points: int
    bonus_points: int
    trains_left: int
    turns: int
    turn_seconds: float
    rating: float | None
    finished_at: datetime
    routes_by_length: Mapping[int, int]
    bonuses: Mapping[str, int]
    tickets: tuple[TicketLine, ...]

    @property
    def mean_turn_seconds(self) -> float:
        return self.turn_seconds / self.turns if self.turns else 0.0

    def to_json(self) -> dict[str, Any]:
        """The row as JSON data (the export's line)."""
        return {
            "game_id": self.game_id, "finished_at": self.finished_at.isoformat(), "guild_id": self.guild_id,
            "board": self.board, "players": self.players, "seat": self.seat, "user_id": self.user_id,
            "name": self.name, "score": self.score, "rank": self.rank, "won": self.won,
            "tickets_done": self.tickets_done, "tickets_done_points": self.tickets_done_points,
            "tickets_failed": self.tickets_failed, "tickets_failed_points": self.tickets_failed_points,
            "longest_route": self.longest_route, "route_points": self.route_points,
            "bonus_points": self.bonus_points, "trains_left": self.trains_left, "turns": self.turns,
            "mean_turn_seconds": round(self.mean_turn_seconds, 1), "rating": self.rating,
            "routes_by_length": {str(k): v for k, v in self.routes_by_length.items()},
            "bonuses": dict(self.bonuses),
            "tickets": [[t.city_a, t.city_b, t.points, t.done] for t in self.tickets],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class RouteCount:
    """A route (its two cities, on a board) and how many times it was claimed."""

    board: str
    city_a: str
    city_b: str
    times: int


@dataclass(frozen=True, slots=True)
class GroupRecord:
    """Games and wins in one group of a player's games: one board and one player count."""

    board: str
    players: int
    games: int
    wins: int
    mean_score: float


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """A player's statistics over time (in one server, or everywhere)."""

    groups: tuple[GroupRecord, ...]
    best: SeatStats | None
    last: SeatStats | None
    favourite_routes: tuple[RouteCount, ...]
    ratings: tuple[tuple[datetime, float], ...]  # oldest first

    @property
    def games(self) -> int:
        return sum(g.games for g in self.groups)


@dataclass(frozen=True, slots=True)
class FameEntry:
    """One line of a server's hall of fame: who holds the record, with what, in which game."""

    record: str  # "score", "longest_route", "tickets_done"
    user_id: int
    value: int
    game_id: str


@dataclass(frozen=True, slots=True)
class GuildRecords:
    """A server's statistics: games finished per board, the most-claimed routes, the hall of fame."""

    games_by_board: Mapping[str, int]
    most_claimed: tuple[RouteCount, ...]
    fame: tuple[FameEntry, ...]

    @property
    def games(self) -> int:
        return sum(self.games_by_board.values())


class StatsQueries(Protocol):
    """The statistics part of the storage contract (``bot.storage._stats``); rows are written with a finished
    game's results (``SeatResult.detail``)."""

    async def game_stats(self, game_id: str) -> list[SeatStats]: ...

    async def player_history(
        self, user_id: int, guild_id: int | None, *, limit: int = 30
    ) -> PlayerHistory: ...

    async def guild_records(self, guild_id: int, *, limit: int = 5) -> GuildRecords: ...

    async def export_stats(
        self, guild_id: int, *, after: tuple[datetime, str] | None = None, limit: int = 500
    ) -> Sequence[SeatStats]:
        """A page of the server's statistics rows, whole games, oldest first (``after``: the last game's
        (finished_at, game_id) of the previous page)."""
        ...

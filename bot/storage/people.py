"""The storage's rows about people rather than games: results, statistics, ratings, a player's own choices and
their time (re-exported by `bot.storage.base`, the storage contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Final


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

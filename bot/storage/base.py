"""The storage contract: rows as small frozen dataclasses, one error family, and the repository protocol.

Nothing here knows about discord or the rules engine: a game's snapshot and its actions are opaque,
JSON-serialisable dicts that the engine produces and reads back.

Concurrency model: every accepted change to a game bumps its ``version`` by one. Writers pass the
version they last saw (``expected_version``); if the stored version differs, nothing is written and
:class:`VersionConflict` is raised, so the caller reloads and retries. Because of that guard a write
that failed with :class:`StorageUnavailable` can always be retried with the same expected version:
either it applies once, or it raises VersionConflict because the first attempt did land.
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from .errors import (
    GameNotFound,
    LeaseLost,
    PlaceTaken,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageError,
    StorageUnavailable,
    VersionConflict,
)
from .people import (
    NOTIFY_MODES,
    BoardStats,
    Digest,
    LeaderboardRow,
    PlayerPrefs,
    PlayerResult,
    PlayerStats,
    PlayerTime,
    Rating,
    SeatDetail,
    StatsQueries,
)
from .seat_marks import stored_ai_number

if TYPE_CHECKING:
    from .cluster import ClusterStatus, ProcessBeat

JSONDict = dict[str, Any]

__all__ = [
    "CLOSED_STATUSES",
    "OPEN_STATUSES",
    "UNSET",
    "ActionRecord",
    "BoardStats",
    "GameNotFound",
    "LeaseLost",
    "PlaceTaken",
    "GameRecord",
    "GameRepository",
    "GameStatus",
    "GameSummary",
    "JSONDict",
    "LeaderboardRow",
    "NewTimer",
    "Page",
    "NOTIFY_MODES",
    "PlayerPrefs",
    "PlayerResult",
    "PlayerStats",
    "Rating",
    "Seat",
    "SeatResult",
    "StorageBroken",
    "StorageBug",
    "StorageDown",
    "StorageError",
    "StorageUnavailable",
    "Timer",
    "TimerChange",
    "Unset",
    "VersionConflict",
]


# --------------------------------------------------------------------------- values


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


#: Statuses of a game that is still going on (it owns its channel or thread).
OPEN_STATUSES: Final[frozenset[GameStatus]] = frozenset({GameStatus.LOBBY, GameStatus.ACTIVE})
#: Statuses after which a game never changes again (``finished_at`` is set on entry).
CLOSED_STATUSES: Final[frozenset[GameStatus]] = frozenset({GameStatus.FINISHED, GameStatus.ABANDONED})
#: The most rows one listing returns (its ``limit``).
MAX_LISTED: Final = 1000


class Unset(enum.Enum):
    """Sentinel type for "leave this column as it is" where ``None`` is a meaningful value."""

    UNSET = enum.auto()


UNSET: Final = Unset.UNSET


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the table: a discord user (``user_id``) or an AI (``ai_level``), or still empty."""

    name: str
    user_id: int | None = None
    ai_level: str | int | None = None
    ai_number: int | None = None  # an AI seat the manager seated ("🤖2"): its number (`seat_marks.py`)

    def to_json(self) -> JSONDict:
        return {
            "user_id": self.user_id,
            "name": self.name,
            "ai_level": self.ai_level,
            "ai_number": self.ai_number,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        name, user_id, level = str(data.get("name", "")), data.get("user_id"), data.get("ai_level")
        n = data["ai_number"] if "ai_number" in data else stored_ai_number(name, user_id, level)
        return cls(name=name, user_id=user_id, ai_level=level, ai_number=n)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game without its (large) engine snapshot: what listings return."""

    id: str
    guild_id: int | None  # None: a game in a DM
    channel_id: int
    thread_id: int | None
    host_id: int
    board: str
    variant: str
    options: JSONDict
    status: GameStatus
    settings: JSONDict
    seats: tuple[Seat, ...]
    version: int
    action_count: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    def seat_of(self, user_id: int) -> int | None:
        """Index of the first seat held by ``user_id``, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True, slots=True)
class GameRecord(GameSummary):
    """A full game row, with the game's last saved position (None until the engine has produced one): the engine
    snapshot after its first ``snapshot_seq`` actions. The game now is that position played on through the
    actions after it (``load_actions(id, after_seq=snapshot_seq)``)."""

    snapshot: JSONDict | None = None
    snapshot_seq: int = 0


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action. ``seq`` runs 1, 2, 3 ... per game without gaps; ``version`` is the game's
    version right after this action was applied."""

    game_id: str
    seq: int
    seat: int | None
    action: JSONDict
    version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Timer:
    """A durable timer: fires ``kind`` (e.g. ``remind``, ``absent``) for a game at ``due_at``."""

    id: int
    game_id: str
    kind: str
    due_at: datetime
    payload: JSONDict
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timer row to insert (its id and creation time are given by storage). ``held_by``: inserted already
    claimed by that process until ``held_until`` (it is doing the work now; any process serves the row once
    that lease ends, as for a claimed row)."""

    kind: str
    due_at: datetime
    payload: JSONDict = field(default_factory=dict)
    held_by: str | None = None
    held_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class TimerChange:
    """A change of one game's timer rows, written in the same transaction as the change of the game that makes
    it due (``append_action(timers=...)``, ``update_game(timers=...)``) or alone (``change_timers``): first every
    row of the kinds in ``clear`` is deleted (every row of the game when ``clear_all``), then ``add`` is inserted.
    So a crash can never leave a game changed without the work that moves it on."""

    clear: tuple[str, ...] = ()
    add: tuple[NewTimer, ...] = ()
    clear_all: bool = False

    def __bool__(self) -> bool:
        return bool(self.clear or self.add or self.clear_all)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What the game manager reports for one seat of a finished game."""

    seat: int
    user_id: int | None
    score: int
    rank: int
    won: bool
    detail: SeatDetail | None = None  # what the statistics keep (bot.storage.people)


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing; pass ``next_cursor`` back as ``after`` to get the next one (None: last)."""

    items: list[GameSummary]
    next_cursor: str | None


# --------------------------------------------------------------------------- helpers shared by backends


def utcnow() -> datetime:
    return datetime.now(UTC)


def require_aware(value: datetime, what: str = "datetime") -> datetime:
    """Storage works in UTC: naive datetimes are refused rather than guessed."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (use datetime.now(UTC)), got {value!r}")
    return value.astimezone(UTC)


def normalise_statuses(status: GameStatus | str | Iterable[GameStatus | str] | None) -> list[str] | None:
    if status is None:
        return None
    if isinstance(status, str):
        return [GameStatus(status).value]
    return sorted({GameStatus(s).value for s in status})


# --------------------------------------------------------------------------- the contract


class ChangeFeed(Protocol):
    """The changes of games other processes write, heard as they commit (:meth:`GameRepository.changes_elsewhere`)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...


@runtime_checkable
class GameRepository(StatsQueries, Protocol):
    """What the game manager calls. Both backends (SQLite, PostgreSQL) pass the same contract tests.

    Use as ``async with open_repository(url) as repo:`` or call :meth:`close` yourself.
    """

    url: str

    async def __aenter__(self) -> GameRepository: ...

    async def __aexit__(self, *exc: object) -> None: ...

    async def connect(self) -> None:
        """Open connections and apply pending migrations (idempotent)."""
        ...

    async def close(self) -> None:
        """Close every connection; safe to call twice and after a failed connect."""
        ...

    async def schema_version(self) -> int: ...

    def changes_elsewhere(
        self,
        on_change: Callable[[str, int], None],
        *,
        on_reconnect: Callable[[], None],
        on_lost: Callable[[StorageError], None],
        on_back: Callable[[], None],
    ) -> ChangeFeed | None:
        """The feed (not started) of the changes other processes make: ``on_change(game_id, version)`` for each
        (PostgreSQL's LISTEN, bot.storage.pg_changes); ``on_reconnect`` after a gap (notices may be missed),
        ``on_lost``/``on_back`` as the database goes and returns. None where no other process writes (SQLite:
        one process per file)."""
        ...

    # games ---------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        board: str,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] = (),
        snapshot: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        status: GameStatus | str = GameStatus.LOBBY,
        game_id: str | None = None,
        only_if_place_free: bool = False,
        timers: TimerChange | None = None,
    ) -> GameRecord:
        """A new game. `only_if_place_free`: raise `PlaceTaken` (nothing written) when an open game already
        lives in the same place: the thread `thread_id`, else directly in the channel (``thread_id`` NULL),
        as `find_open_game` sees it. The check and the insert are one step for every process on the same
        database (SQLite: one writer; PostgreSQL: a transaction-scoped advisory lock on the place).
        `timers`: the new game's first timer rows (a lobby's expiry), written in the same transaction."""
        ...

    async def load_game(self, game_id: str) -> GameRecord:
        """Raises GameNotFound."""
        ...

    async def find_game(self, game_id: str) -> GameRecord | None: ...

    async def update_game(
        self,
        game_id: str,
        expected_version: int,
        *,
        status: GameStatus | str | None = None,
        settings: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] | None = None,
        options: Mapping[str, Any] | None = None,
        snapshot: Mapping[str, Any] | None = None,
        thread_id: int | None | Unset = UNSET,
        host_id: int | None = None,
        results: Sequence[SeatResult] | None = None,
        timers: TimerChange | None = None,
    ) -> int:
        """Change non-action fields under the version guard; returns the new version. ``timers``: the game's
        timer rows change in the same transaction (nothing changes on a conflict)."""
        ...

    async def append_action(
        self,
        game_id: str,
        expected_version: int,
        seat: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any] | None,
        status: GameStatus | str | None = None,
        *,
        results: Sequence[SeatResult] | None = None,
        timers: TimerChange | None = None,
    ) -> ActionRecord:
        """Append the action and bump the version in one transaction (with the saved position after it,
        `new_snapshot`, when given: None keeps the last one; the results and the change of the game's timer
        rows, when given)."""
        ...

    async def load_actions(self, game_id: str, *, after_seq: int = 0) -> list[ActionRecord]: ...

    async def load_log(self, game_id: str) -> list[list[Any]]:
        """The game's whole log as ``[seat, action]`` pairs in order (what a load replays): the actions of
        `load_actions` without their other columns, decoded at once."""
        ...

    async def save_snapshot(self, game_id: str, seq: int, snapshot: Mapping[str, Any]) -> bool:
        """Save `snapshot` as the game's position after its first `seq` actions, outside the version guard (a
        position is a function of the log: whoever writes it writes the same); only when the game has that many
        actions and its saved position is older. Whether it was written."""
        ...

    async def delete_game(self, game_id: str) -> bool: ...

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameRecord | None:
        """The lobby/active game living in ``thread_id`` or (when only channel_id is given) directly in
        ``channel_id`` without a thread. The most recently updated if several."""
        ...

    async def list_games(
        self,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        limit: int = 50,
        after: str | None = None,
    ) -> Page:
        """Newest first, keyset-paged. ``channel_id`` matches games in that channel (with or without a
        thread) and the game whose thread has that id."""
        ...

    def iter_game_ids(
        self,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        batch_size: int = 1000,
    ) -> AsyncIterator[str]:
        """Lazily yields game ids (ascending) in batches: constant memory whatever the table size."""
        ...

    async def games_for_player(
        self,
        user_id: int,
        *,
        status: GameStatus | str | Iterable[GameStatus | str] | None = None,
        guild_id: int | None = None,
        limit: int = 50,
    ) -> list[GameSummary]: ...

    # timers --------------------------------------------------------------
    async def add_timer(
        self, game_id: str, kind: str, due_at: datetime, payload: Mapping[str, Any] | None = None
    ) -> Timer: ...

    async def due_timers(self, now: datetime | None = None, *, limit: int = 100) -> list[Timer]: ...

    async def next_timer_due(self) -> datetime | None: ...

    # several processes over one database (bot/storage/_cluster.py)

    async def claim_due_timers(
        self, owner: str, now: datetime | None = None, *, lease: float = 30.0, limit: int = 100
    ) -> list[Timer]: ...

    async def release_timer(self, timer_id: int, owner: str) -> bool: ...

    async def renew_leases(self, owner: str, until: datetime, ids: Sequence[int] | None = None) -> int:
        """Extend every lease ``owner`` holds (with ``ids``: of those rows only) to ``until`` (it is still
        serving those rows); returns how many."""
        ...

    async def holds_timer(self, timer_id: int, owner: str) -> bool:
        """Whether the row exists and ``owner`` claimed it last (its lease may have ended, nobody took it)."""
        ...

    async def next_timer_servable(self) -> datetime | None: ...

    async def game_version(self, game_id: str) -> int | None: ...

    async def beat(self, process: ProcessBeat) -> None: ...

    async def forget_process(self, process_id: str, *, release_claims: bool = True) -> None: ...

    async def processes_seen(self, since: datetime) -> list[ProcessBeat]: ...

    async def cluster_status(
        self, now: datetime | None = None, *, seen_within: float = 60.0
    ) -> ClusterStatus: ...

    async def timers_for_game(self, game_id: str, kind: str | None = None) -> list[Timer]: ...

    async def delete_timer(self, timer_id: int, *, owner: str | None = None) -> bool:
        """Delete one row (with ``owner``: only while that process holds it); whether a row went."""
        ...

    async def delete_timers(self, game_id: str, kind: str | None = None) -> int: ...

    async def change_timers(
        self,
        game_id: str,
        change: TimerChange,
        *,
        expected_version: int | None = None,
        fence: tuple[int, str] | None = None,
    ) -> list[Timer]:
        """Apply ``change`` to the game's timer rows in one transaction; returns the rows inserted. Raises
        GameNotFound (nothing written) when there is no such game and rows were to be inserted; with
        ``expected_version``, VersionConflict (nothing written) when the game is not at that version (a
        process that decided from an older copy writes nothing), and the game's version moves on by one with
        the rows (every process's version check then sees the change: no copy with the old rows is served); with ``fence`` (a row's id and the process
        serving it), LeaseLost (nothing written) unless that process still holds that row: a process whose
        lease ended and was taken over never completes the row a second time."""
        ...

    # results and stats ---------------------------------------------------
    async def record_results(self, game_id: str, results: Sequence[SeatResult]) -> None: ...

    async def load_results(self, game_id: str) -> list[PlayerResult]: ...

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats: ...

    async def leaderboard(
        self, guild_id: int | None, board: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]: ...

    # ratings (written with a finished game's results: see ``_social.py``) ---
    async def rating(self, guild_id: int, user_id: int, board: str = "") -> Rating | None:
        """The player's rating in that server (over every board, or on ``board``); None before a rated game."""

    async def ratings(self, guild_id: int, board: str = "", limit: int = 10) -> list[Rating]:
        """The server's best ratings (over every board, or on ``board``), highest ordinal first."""

    async def is_rated(self, game_id: str) -> bool:
        """Whether that game has been rated."""

    # player preferences --------------------------------------------------
    async def load_prefs(self, user_id: int, guild_id: int | None) -> PlayerPrefs:
        """The player's choices in that server (None: outside any server); the defaults if never saved."""

    async def save_prefs(self, user_id: int, guild_id: int | None, prefs: PlayerPrefs) -> None: ...

    # a player's time (bot.storage._player_time)
    async def load_player_time(self, user_id: int) -> PlayerTime: ...

    async def save_player_time(self, user_id: int, prefs: PlayerTime) -> None: ...

    async def end_away(self, user_id: int, until: datetime) -> bool: ...

    async def claim_ping(
        self, timer_id: int, owner: str, game_id: str, version: int, wait_key: str, seat: int, what: str
    ) -> bool: ...

    async def postpone_timer(self, timer_id: int, owner: str, due: datetime) -> bool: ...

    async def ping_sent(self, game_id: str, wait_key: str, seat: int, what: str) -> bool: ...

    # the daily digest (bot.storage._digests)
    async def load_digest(self, user_id: int) -> Digest | None: ...

    async def save_digest(self, user_id: int, at_minute: int | None, due: datetime | None) -> None: ...

    async def due_digests(self, now: datetime, limit: int = 100) -> list[Digest]: ...

    async def move_digest(self, user_id: int, was: datetime, due: datetime) -> bool: ...

    async def next_digest_due(self) -> datetime | None: ...

    # a server's own settings (bot.storage._server_settings) ---------------
    async def load_server_language(self, guild_id: int) -> str | None:
        """The language that server's admins chose for its public messages; None if they never chose."""

    async def server_languages(self) -> dict[int, str]:
        """Every server's chosen language, by server id (the servers that chose one)."""

    async def save_server_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of a server's public messages (None: no choice any more)."""

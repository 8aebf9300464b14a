"""The async game manager: lifecycle, one serialised entry point for actions, persistence, timers, views.

Guarantees
----------
* One asyncio lock per game: every change of a game (action, lobby change, timer) runs under it, in one order.
* An action is applied to a COPY of the cached state; the cache is replaced only after the storage acknowledged
  the action (``append_action``: log row + snapshot + version in one transaction). On any storage failure the game
  is evicted from the cache, so the next access reloads what is stored: nothing is ever half-applied.
* ``StorageUnavailable`` is retried a few times with the same expected version (safe: see bot.storage.base); a
  ``VersionConflict`` after such a retry is checked against the log (did our write land after all?).
  A ``VersionConflict`` otherwise (another process wrote) reloads the game and re-checks the action.
* The game that ends is written FINISHED with its results in the same transaction as its last action.
* Timers are rows (``turn`` chains: reminder 1, reminder 2, absent-player policy; ``resume``: AI seats have moves
  to make). One dispatcher task serves them, woken by an asyncio.Event when a timer is added or the clock moves.
  New timers are written before stale ones are deleted and every timer re-checks its game when it fires, so a
  crash at any moment leaves a game with at least one timer that puts it back on track.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from bot.manager.ai import AIChooser, choose_ai_action, minimal_action
from bot.manager.clock import Clock, SystemClock
from bot.manager.events import (
    GameEvent,
    Outcome,
    PrivateEvent,
    final_sheets,
    private_bits,
    private_events,
    public_events,
    results_of,
    turn_token,
)
from bot.manager.settings import AI_LEVELS, GameSettings, SettingError
from bot.service import Text
from bot.storage import (
    OPEN_STATUSES,
    ActionRecord,
    GameNotFound,
    GameRecord,
    GameRepository,
    GameStatus,
    PlaceTaken,
    Seat,
    SeatResult,
    StorageError,
    StorageUnavailable,
    Timer,
    VersionConflict,
)
from engine import views
from engine.actions import Action, action_from_json
from engine.errors import GameDataError, IllegalAction
from engine.rules import apply, legal_actions, new_game, to_act
from engine.state import GameState
from maps import BoardDataError, load_board

__all__ = ["GameInfo", "GameManager", "Notifier", "NullNotifier", "Refused", "SeatInfo"]

log = logging.getLogger(__name__)
T = TypeVar("T")

TURN_TIMER = "turn"
RESUME_TIMER = "resume"
_PARKED_STAGE = 3  # "wait" policy: the chain is over for this turn; the row only marks it
_PARKED_FOR = timedelta(days=3650)
_RESUME_GRACE = timedelta(seconds=30)
_MAX_AUTOMATIC_STEPS = 5000


class Refused(Exception):
    """A request the manager turned down; nothing changed. `message` is for the player, `code` for code:
    no_game, not_seated, not_host, not_lobby, not_active, stale, illegal, seat_ai, storage, conflict,
    lobby_full, already_seated, channel_busy, bad_board, bad_setting, bad_action, too_few_players.
    `text`, when set, is the same message as a catalogue key and parameters for the bot to translate."""

    def __init__(self, code: str, message: str, text: Text | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.text = text


class Notifier(Protocol):
    """How the manager reaches the bot layer for things no command is waiting for. Errors are logged."""

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        """Moves made without a command (absent-player policy, AI seats resumed after a restart)."""

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        """Reminder number `n` (1 or 2) for the player who must act in `game_id`."""

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        """The absent-player policy is being applied to `seat` ("ai", "skip" or "wait")."""


class NullNotifier:
    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        return None

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        return None

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        return None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    user_id: int | None
    ai_level: str | None  # None: a person plays it; set on an AI seat or a seat handed to the AI
    score: int | None = None
    trains: int | None = None
    cards: int | None = None
    tickets: int | None = None
    to_act: bool = False
    next_timer: datetime | None = None  # next reminder / absent-policy moment while this seat must act


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A public summary of one game (``status``): lobby or play, no secret."""

    game_id: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    board: str
    variant: str
    options: tuple[str, ...]
    status: GameStatus
    settings: GameSettings
    seats: tuple[SeatInfo, ...]
    phase: str | None = None
    turn: int | None = None
    current: int | None = None
    to_act: tuple[int, ...] = ()
    tokens: Mapping[int, str] = field(default_factory=dict)
    last_round_left: int | None = None
    action_count: int = 0
    final: tuple[Mapping[str, Any], ...] = ()  # score sheets once finished


@dataclass(eq=False)
class _Game:
    id: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    board: str
    variant: str
    options: dict[str, Any]
    status: GameStatus
    raw_settings: dict[str, Any]
    seats: tuple[Seat, ...]
    version: int
    action_count: int
    state: GameState | None
    timers: list[Timer]
    last_move_at: datetime  # when the current wait began, at the latest (the last change of the game)

    @classmethod
    def from_record(cls, rec: GameRecord, timers: list[Timer]) -> _Game:
        state = GameState.from_dict(rec.snapshot) if rec.snapshot else None
        if state is not None and len(state.history) != rec.action_count:
            log.error(
                "game %s: snapshot has %d actions, log has %d", rec.id, len(state.history), rec.action_count
            )
        return cls(
            rec.id,
            rec.guild_id,
            rec.channel_id,
            rec.thread_id,
            rec.host_id,
            rec.board,
            rec.variant,
            dict(rec.options),
            rec.status,
            dict(rec.settings),
            tuple(rec.seats),
            rec.version,
            rec.action_count,
            state,
            list(timers),
            rec.updated_at,
        )

    @property
    def settings(self) -> GameSettings:
        try:
            return GameSettings.from_json(self.raw_settings)
        except SettingError:
            log.warning("game %s: stored settings invalid, using defaults", self.id)
            return GameSettings()

    @property
    def engine_options(self) -> tuple[str, ...]:
        return tuple(sorted(k for k, v in self.options.items() if v))

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    def user_ids(self) -> list[int | None]:
        return [s.user_id for s in self.seats]


class _Collector:
    """Gathers the events of the actions one request caused."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.events: list[GameEvent] = []
        self.private: list[PrivateEvent] = []
        self.seqs: list[int] = []
        self.results: tuple[SeatResult, ...] = ()

    def outcome(self, game: _Game) -> Outcome:
        state = game.state
        seats = tuple(to_act(state)) if state is not None and game.status == GameStatus.ACTIVE else ()
        tokens = {s: turn_token(state, s) for s in seats} if state is not None else {}
        return Outcome(
            self.game_id,
            game.status,
            tuple(self.events),
            tuple(self.private),
            seats,
            tokens,
            self.results,
            tuple(self.seqs),
        )


class _LockTable:
    """One asyncio.Lock per key, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, list[Any]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        entry = self._locks.get(key)
        if entry is None:
            entry = self._locks[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[key]


class GameManager:
    """Owns every game's lifecycle between the Discord adapter and the engine. See the module docstring.

    ``repo`` is a connected :class:`~bot.storage.GameRepository` (the manager does not close it unless
    ``owns_repo``). ``ai`` picks AI moves (default: engine.ai in a worker thread, random fallback).
    """

    def __init__(
        self,
        repo: GameRepository,
        *,
        notifier: Notifier | None = None,
        clock: Clock | None = None,
        cache_size: int = 256,
        retry_delays: Sequence[float] = (0.05, 0.2, 0.5),
        ai: AIChooser | None = None,
        ai_budget_ms: int | None = None,
        owns_repo: bool = False,
        max_sleep: float = 300.0,
    ) -> None:
        self._repo = repo
        self._notifier: Notifier = notifier or NullNotifier()
        self.clock: Clock = clock or SystemClock()
        self._cache: OrderedDict[str, _Game] = OrderedDict()
        self._cache_size = max(1, cache_size)
        self._retry_delays = tuple(retry_delays)
        self._ai_budget_ms = ai_budget_ms
        self._ai: AIChooser = ai or self._default_ai
        self._owns_repo = owns_repo
        self._locks = _LockTable()
        self._wake = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None
        self._max_sleep = max_sleep
        self._open_ids: set[str] = set()
        self._closing = False

    # ------------------------------------------------------------------ start / stop

    @property
    def repository(self) -> GameRepository:
        return self._repo

    async def start(self, *, dispatcher: bool = True) -> None:
        """Learn the ids of the open games (lazily: no game is loaded) and start the timer dispatcher, which
        serves the timer rows stored before a restart as well."""
        self._closing = False
        self._open_ids = {gid async for gid in self._repo.iter_game_ids(status=OPEN_STATUSES)}
        subscribe = getattr(self.clock, "subscribe", None)
        if subscribe is not None:
            subscribe(self._wake.set)
        if dispatcher and self._dispatcher is None:
            self._dispatcher = asyncio.create_task(self._dispatch_loop(), name="ttr-timer-dispatcher")

    async def close(self) -> None:
        self._closing = True
        unsubscribe = getattr(self.clock, "unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe(self._wake.set)
        task, self._dispatcher = self._dispatcher, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._owns_repo:
            await self._repo.close()

    async def __aenter__(self) -> GameManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def open_game_ids(self) -> frozenset[str]:
        """Ids of the lobby/active games (known since start, kept up to date by this manager)."""
        return frozenset(self._open_ids)

    # ------------------------------------------------------------------ cache and storage plumbing

    def _evict(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def _remember(self, game: _Game) -> None:
        """After a write: this object is the newest copy (a reader may have loaded an older one meanwhile)."""
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def _storage(self, op: Callable[[], Awaitable[T]]) -> T:
        """Run a storage call, retrying while the database is unavailable; then refuse."""
        last: StorageUnavailable | None = None
        for delay in (0.0, *self._retry_delays):
            if delay:
                await asyncio.sleep(delay)
            try:
                return await op()
            except StorageUnavailable as exc:
                last = exc
                log.warning("storage unavailable (%s), retrying", exc)
        raise Refused(
            "storage",
            "The game database is busy right now; nothing was changed. Please try again in a moment.",
            Text("refused.storage"),
        ) from last

    async def state_of(self, game_id: str) -> GameState | None:
        """The game's current engine state (None in the lobby), for reading only: the manager replaces the
        cached state after each accepted move and never changes it in place, so callers must not either."""
        return (await self._get(game_id)).state

    async def waiting_since(self, game_id: str) -> datetime:
        """When the current wait began (the game's last change)."""
        return (await self._get(game_id)).last_move_at

    async def _get(self, game_id: str) -> _Game:
        game = self._cache.get(game_id)
        if game is not None:
            self._cache.move_to_end(game_id)
            return game
        try:
            rec = await self._storage(lambda: self._repo.load_game(game_id))
        except GameNotFound:
            raise Refused("no_game", f"There is no game {game_id}.") from None
        timers: list[Timer] = []
        if rec.status == GameStatus.ACTIVE:
            timers = await self._storage(lambda: self._repo.timers_for_game(game_id))
        try:
            game = _Game.from_record(rec, timers)
        except GameDataError as exc:
            log.error("game %s: stored snapshot unreadable: %s", game_id, exc)
            raise Refused("no_game", f"Game {game_id} cannot be read; the admins were told.") from exc
        self._cache[game_id] = game
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return game

    async def _update(self, game: _Game, **fields: Any) -> None:
        """update_game under the version guard; on success the cached game follows. VersionConflict propagates
        (after evicting the game)."""
        try:
            version = await self._storage(lambda: self._repo.update_game(game.id, game.version, **fields))
        except (VersionConflict, Refused, GameNotFound):
            self._evict(game.id)
            raise
        game.version = version
        self._remember(game)
        if "status" in fields:
            game.status = GameStatus(fields["status"])
            if game.status in OPEN_STATUSES:
                self._open_ids.add(game.id)
            else:
                self._open_ids.discard(game.id)
        if "seats" in fields:
            game.seats = tuple(fields["seats"])
        if "settings" in fields:
            game.raw_settings = dict(fields["settings"])
        if "host_id" in fields:
            game.host_id = fields["host_id"]
        if "snapshot" in fields:
            game.state = GameState.from_dict(fields["snapshot"])

    async def _append(
        self,
        game: _Game,
        seat: int,
        action_json: dict[str, Any],
        work: GameState,
        status: GameStatus | None,
        results: Sequence[SeatResult] | None,
    ) -> ActionRecord:
        snapshot = work.to_dict()
        expected = game.version
        unavailable: StorageUnavailable | None = None
        for delay in (0.0, *self._retry_delays):
            if delay:
                await asyncio.sleep(delay)
            try:
                return await self._repo.append_action(
                    game.id, expected, seat, action_json, snapshot, status, results=results
                )
            except StorageUnavailable as exc:
                unavailable = exc
                log.warning(
                    "game %s: storage unavailable while saving an action (%s), retrying", game.id, exc
                )
            except VersionConflict:
                if unavailable is not None:  # maybe the attempt that "failed" did land
                    rows = await self._storage(
                        lambda: self._repo.load_actions(game.id, after_seq=game.action_count)
                    )
                    if (
                        len(rows) == 1
                        and rows[0].seat == seat
                        and rows[0].action == action_json
                        and rows[0].version == expected + 1
                    ):
                        return rows[0]
                self._evict(game.id)
                raise
        self._evict(game.id)
        raise Refused(
            "storage",
            "The game could not be saved right now, so your move was not played "
            "(nothing changed). Please try again in a moment.",
        ) from unavailable

    async def _locked_retry(self, game_id: str, body: Callable[[_Game], Awaitable[T]]) -> T:
        """Run `body` on the game under its lock; reload and run again when another writer got in first."""
        async with self._locks.hold(game_id):
            for _ in range(3):
                game = await self._get(game_id)
                try:
                    return await body(game)
                except VersionConflict:
                    self._evict(game_id)
            raise Refused(
                "conflict",
                "The game changed while your request was handled; please look again.",
                Text("refused.conflict"),
            )

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        board: str = "europe",
        variant: str | None = None,
        options: Sequence[str] = (),
        settings: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        join: bool = True,
    ) -> GameInfo:
        """Open a lobby in this channel (or thread); the host takes the first seat unless ``join=False``."""
        try:
            b = load_board(board)
            variant_id = variant or b.default_variant
            b.variant(variant_id)
            for opt in options:
                if opt not in b.options:
                    raise BoardDataError(
                        f"{b.name} has no option {opt!r} (options: {', '.join(b.options) or 'none'})"
                    )
        except BoardDataError as exc:
            raise Refused("bad_board", str(exc)) from None
        try:
            game_settings = GameSettings.from_json(settings)
        except (SettingError, TypeError) as exc:
            raise Refused("bad_setting", str(exc)) from None
        place = f"place:{thread_id}" if thread_id is not None else f"place:c{channel_id}"
        async with self._locks.hold(place):
            existing = await self._storage(
                lambda: self._repo.find_open_game(
                    channel_id=None if thread_id is not None else channel_id, thread_id=thread_id
                )
            )
            if existing is not None:
                raise Refused(
                    "channel_busy",
                    f"Game {existing.id} is already open here; finish or end it first.",
                    Text("refused.channel_busy", {"game": existing.id}),
                )
            seats = [Seat(host_name, host_id)] if join else []
            try:  # the lock above covers this process; storage checks again for every process
                rec = await self._storage(
                    lambda: self._repo.create_game(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        board=b.id,
                        variant=variant_id,
                        options={o: True for o in options},
                        settings=game_settings.to_json(),
                        seats=seats,
                        thread_id=thread_id,
                        status=GameStatus.LOBBY,
                        only_if_place_free=True,
                    )
                )
            except PlaceTaken as exc:
                raise Refused(
                    "channel_busy",
                    f"Game {exc.game_id} is already open here; finish or end it first.",
                    Text("refused.channel_busy", {"game": exc.game_id}),
                ) from None
        self._open_ids.add(rec.id)
        game = _Game.from_record(rec, [])
        self._cache[rec.id] = game
        return self._info(game)

    def _require(self, game: _Game, *statuses: GameStatus) -> None:
        if game.status in statuses:
            return
        if game.status == GameStatus.LOBBY:
            raise Refused(
                "not_active",
                f"Game {game.id} has not started yet.",
                Text("refused.not_started", {"game": game.id}),
            )
        if GameStatus.LOBBY in statuses and game.status == GameStatus.ACTIVE:
            raise Refused(
                "not_lobby",
                f"Game {game.id} has already started.",
                Text("refused.started", {"game": game.id}),
            )
        raise Refused(
            "not_active",
            f"Game {game.id} is over ({game.status.value}).",
            Text("refused.over", {"game": game.id}),
        )

    def _require_host(self, game: _Game, user_id: int, moderator: bool = False) -> None:
        if user_id != game.host_id and not moderator:
            raise Refused("not_host", "Only the host of the game can do that.")

    def _max_players(self, game: _Game) -> int:
        lo, hi = load_board(game.board).rules.get("players", [2, 5])
        wanted = game.settings.max_players
        return min(hi, wanted) if wanted else hi

    async def join(self, game_id: str, user_id: int, name: str) -> GameInfo:
        async def body(game: _Game) -> GameInfo:
            self._require(game, GameStatus.LOBBY)
            if game.seat_of(user_id) is not None:
                raise Refused(
                    "already_seated", "You are already in this game.", Text("refused.already_seated")
                )
            if len(game.seats) >= self._max_players(game):
                raise Refused(
                    "lobby_full",
                    f"Game {game.id} is full ({len(game.seats)} players).",
                    Text("refused.lobby_full", {"game": game.id, "n": len(game.seats)}),
                )
            await self._update(game, seats=(*game.seats, Seat(name, user_id)))
            return self._info(game)

        return await self._locked_retry(game_id, body)

    async def add_ai(
        self,
        game_id: str,
        user_id: int,
        level: str = "normal",
        name: str | None = None,
        *,
        moderator: bool = False,
    ) -> GameInfo:
        if level not in AI_LEVELS:
            raise Refused("bad_setting", f"AI levels are {', '.join(AI_LEVELS)}.")

        async def body(game: _Game) -> GameInfo:
            self._require(game, GameStatus.LOBBY)
            self._require_host(game, user_id, moderator)
            if len(game.seats) >= self._max_players(game):
                raise Refused(
                    "lobby_full",
                    f"Game {game.id} is full ({len(game.seats)} players).",
                    Text("refused.lobby_full", {"game": game.id, "n": len(game.seats)}),
                )
            n = sum(1 for s in game.seats if s.user_id is None) + 1
            seat = Seat(name or f"AI {n} ({level})", None, level)
            await self._update(game, seats=(*game.seats, seat))
            return self._info(game)

        return await self._locked_retry(game_id, body)

    async def remove_seat(
        self, game_id: str, user_id: int, seat: int, *, moderator: bool = False
    ) -> GameInfo:
        """The host removes a seat from the lobby (an AI, or a player who joined)."""

        async def body(game: _Game) -> GameInfo:
            self._require(game, GameStatus.LOBBY)
            self._require_host(game, user_id, moderator)
            if not 0 <= seat < len(game.seats):
                raise Refused("not_seated", f"There is no seat {seat + 1}.")
            if game.seats[seat].user_id == game.host_id:
                raise Refused("not_host", "The host leaves with leave, or ends the game.")
            await self._update(game, seats=game.seats[:seat] + game.seats[seat + 1 :])
            return self._info(game)

        return await self._locked_retry(game_id, body)

    async def leave(self, game_id: str, user_id: int) -> Outcome:
        """Leave a lobby (a host leaving passes the lobby to the next person, or closes it when alone), or
        resign from a running game: the seat goes to an AI (level normal) for good, and the player gets no
        result. When no person is left at the table, the game is abandoned."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.LOBBY, GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated", "You are not in this game.")
            out = _Collector(game.id)
            name = game.seats[seat].name
            if game.status == GameStatus.LOBBY:
                seats = game.seats[:seat] + game.seats[seat + 1 :]
                humans = [s for s in seats if s.user_id is not None]
                if user_id == game.host_id and not humans:
                    await self._update(game, seats=seats, status=GameStatus.ABANDONED)
                    out.events.append(
                        GameEvent(
                            game.id,
                            0,
                            "abandoned",
                            None,
                            Text("ev.lobby_closed", {"player": name}),
                            {},
                            "system",
                        )
                    )
                    return out.outcome(game)
                fields: dict[str, Any] = {"seats": seats}
                if user_id == game.host_id:
                    fields["host_id"] = humans[0].user_id
                await self._update(game, **fields)
                out.events.append(
                    GameEvent(game.id, 0, "left", None, Text("ev.left_lobby", {"player": name}), {}, "player")
                )
                return out.outcome(game)
            table = list(game.seats)
            table[seat] = Seat(name, None, "normal")
            fields = {"seats": table}
            humans = [s for s in table if s.user_id is not None]
            if not humans:
                fields["status"] = GameStatus.ABANDONED
            elif user_id == game.host_id:
                fields["host_id"] = humans[0].user_id
            await self._update(game, **fields)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "seat_ai",
                    seat,
                    Text("ev.resigned", {"player": name}),
                    {"seat": seat, "level": "normal"},
                    "player",
                )
            )
            if game.status == GameStatus.ABANDONED:
                await self._clear_timers(game)
                out.events.append(
                    GameEvent(
                        game.id,
                        0,
                        "abandoned",
                        None,
                        Text("ev.abandoned_empty"),
                        {},
                        "system",
                    )
                )
                return out.outcome(game)
            await self._after_moves(game, out)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def update_settings(
        self, game_id: str, user_id: int, *, moderator: bool = False, **changes: Any
    ) -> GameSettings:
        """The host changes settings (values may be typed text). Timers already running keep their times."""

        async def body(game: _Game) -> GameSettings:
            self._require(game, GameStatus.LOBBY, GameStatus.ACTIVE)
            self._require_host(game, user_id, moderator)
            try:
                new = game.settings.with_values(**changes)
            except SettingError as exc:
                raise Refused("bad_setting", str(exc)) from None
            await self._update(game, settings={**game.raw_settings, **new.to_json()})
            return new

        return await self._locked_retry(game_id, body)

    async def start_game(
        self, game_id: str, user_id: int, *, seed: int | None = None, moderator: bool = False
    ) -> Outcome:
        """The host starts the game: cards dealt, every seat offered its tickets (chosen in any order)."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.LOBBY)
            self._require_host(game, user_id, moderator)
            board = load_board(game.board)
            lo, hi = board.rules.get("players", [2, 5])
            if not lo <= len(game.seats) <= hi:
                raise Refused(
                    "too_few_players",
                    f"{board.name} is played by {lo} to {hi} players; this game has {len(game.seats)}.",
                    Text(
                        "refused.players", {"board": board.name, "min": lo, "max": hi, "n": len(game.seats)}
                    ),
                )
            try:
                state = new_game(
                    board,
                    [s.name for s in game.seats],
                    variant=game.variant,
                    options=game.engine_options,
                    seed=secrets.randbits(62) if seed is None else seed,
                )
            except (IllegalAction, BoardDataError) as exc:
                raise Refused("bad_board", str(exc)) from None
            # timers first (a crash before the status changes leaves timers of a lobby, which are dropped)
            game.state, game.status, game.last_move_at = state, GameStatus.ACTIVE, self.clock.now()
            try:
                await self._ensure_timers(game)
                await self._update(game, status=GameStatus.ACTIVE, snapshot=state.to_dict())
            except BaseException:
                self._evict(game.id)
                raise
            out = _Collector(game.id)
            names = ", ".join(s.name for s in game.seats)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "started",
                    None,
                    Text("ev.started", {"board": board.name, "players": names}),
                    {"players": [s.name for s in game.seats]},
                    "host",
                )
            )
            for seat, s in enumerate(game.seats):
                out.private.extend(
                    private_events(
                        game.id,
                        0,
                        seat,
                        s.user_id,
                        {"hand": {}, "tickets": []},
                        private_bits(state, seat),
                        "start",
                    )
                )
            await self._after_moves(game, out)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def abandon(self, game_id: str, user_id: int, *, moderator: bool = False) -> Outcome:
        """End a lobby or a running game now (host, or a server manager: the bot checks and passes
        ``moderator=True``). No results are recorded."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.LOBBY, GameStatus.ACTIVE)
            self._require_host(game, user_id, moderator)
            await self._update(game, status=GameStatus.ABANDONED)
            await self._clear_timers(game)
            out = _Collector(game.id)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "abandoned",
                    None,
                    Text("ev.ended", {"game": game.id}),
                    {"by_user": user_id},
                    "host",
                )
            )
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    # ------------------------------------------------------------------ seats and the AI

    async def hand_to_ai(self, game_id: str, user_id: int, level: str = "normal") -> Outcome:
        """The player lets an AI play their seat until they take it back (their result still counts)."""
        if level not in AI_LEVELS:
            raise Refused("bad_setting", f"AI levels are {', '.join(AI_LEVELS)}.")
        return await self._set_seat_ai(game_id, user_id, level)

    async def take_back(self, game_id: str, user_id: int) -> Outcome:
        return await self._set_seat_ai(game_id, user_id, None)

    async def _set_seat_ai(self, game_id: str, user_id: int, level: str | None) -> Outcome:
        """The caller's seat played by an AI of `level`, or by the caller again (None)."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated", "You are not in this game.")
            seats = list(game.seats)
            seats[seat] = Seat(seats[seat].name, user_id, level)
            await self._update(game, seats=seats)
            out = _Collector(game.id)
            name = seats[seat].name
            if level is not None:
                kind, text, data = (
                    "seat_ai",
                    Text("ev.seat_ai", {"player": name, "level": Text(f"level.{level}")}),
                    {"seat": seat, "level": level},
                )
            else:
                kind, text, data = "seat_human", Text("ev.seat_human", {"player": name}), {"seat": seat}
            out.events.append(GameEvent(game.id, 0, kind, seat, text, data, "player"))
            if level is not None:
                await self._after_moves(game, out)  # the AI may have a move to make right away
            else:
                await self._ensure_timers(game)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def kick(
        self, game_id: str, user_id: int, target_user_id: int, *, moderator: bool = False
    ) -> Outcome:
        """The host (or a server manager: ``moderator=True``) removes a player: from a lobby their seat goes;
        in a running game an AI (level normal) plays the seat for good and the player gets no result."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.LOBBY, GameStatus.ACTIVE)
            self._require_host(game, user_id, moderator)
            seat = game.seat_of(target_user_id)
            if seat is None:
                raise Refused("not_seated", "That player is not in this game.")
            if target_user_id == game.host_id:
                raise Refused("not_host", "The host cannot be removed; the host can leave or end the game.")
            out = _Collector(game.id)
            name = game.seats[seat].name
            if game.status == GameStatus.LOBBY:
                await self._update(game, seats=game.seats[:seat] + game.seats[seat + 1 :])
                out.events.append(
                    GameEvent(
                        game.id, 0, "left", seat, Text("ev.removed_lobby", {"player": name}), {}, "host"
                    )
                )
                return out.outcome(game)
            seats = list(game.seats)
            seats[seat] = Seat(name, None, "normal")
            await self._update(game, seats=seats)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "seat_ai",
                    seat,
                    Text("ev.removed", {"player": name}),
                    {"seat": seat, "level": "normal"},
                    "host",
                )
            )
            await self._after_moves(game, out)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def replace_player(
        self,
        game_id: str,
        user_id: int,
        target_user_id: int,
        new_user_id: int,
        new_name: str,
        *,
        moderator: bool = False,
    ) -> Outcome:
        """The host (or a server manager) gives a seat to another person, who keeps its cards and tickets
        (and its result). The seat is played by that person from now on (not by an AI)."""

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.LOBBY, GameStatus.ACTIVE)
            self._require_host(game, user_id, moderator)
            seat = game.seat_of(target_user_id)
            if seat is None:
                raise Refused("not_seated", "That player is not in this game.")
            if game.seat_of(new_user_id) is not None:
                raise Refused("already_seated", "The new player already has a seat in this game.")
            seats = list(game.seats)
            old_name = seats[seat].name
            seats[seat] = Seat(seats[seat].name, new_user_id, None)  # the engine knows the seat by its name
            fields: dict[str, Any] = {"seats": seats}
            if target_user_id == game.host_id:
                fields["host_id"] = new_user_id
            await self._update(game, **fields)
            out = _Collector(game.id)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "seat_human",
                    seat,
                    Text("ev.replaced", {"player": new_name, "old": old_name}),
                    {"seat": seat, "user_name": new_name},
                    "host",
                )
            )
            await self._ensure_timers(game)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def _default_ai(self, state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return await choose_ai_action(state, seat, level, rng, budget_ms=self._ai_budget_ms)

    async def _choose(self, game: _Game, seat: int, level: str) -> Action:
        assert game.state is not None
        rng = random.Random(f"{game.id}:{len(game.state.history)}:{seat}")
        return await self._ai(game.state, seat, level, rng)

    def _ai_seats_to_act(self, game: _Game) -> list[int]:
        if game.status != GameStatus.ACTIVE or game.state is None or game.state.finished:
            return []
        return [s for s in to_act(game.state) if game.seats[s].ai_level is not None]

    async def _run_ai(self, game: _Game, out: _Collector) -> None:
        """AI-controlled seats play until a person must act or the game is over."""
        steps = 0
        while True:
            seats = self._ai_seats_to_act(game)
            if not seats:
                return
            seat = seats[0]
            action = await self._choose(game, seat, str(game.seats[seat].ai_level))
            await self._commit(game, seat, action, out, "ai")
            steps += 1
            if steps >= _MAX_AUTOMATIC_STEPS:
                log.error("game %s: AI seats made %d moves in a row; stopping", game.id, steps)
                return

    async def _play_absent(self, game: _Game, seat: int, policy: str, out: _Collector) -> None:
        """The absent-player policy plays `seat`'s current turn (all its steps)."""
        state = game.state
        assert state is not None
        key = (state.phase, state.turn)
        level = game.settings.absent_ai_level
        for _ in range(100):
            state = game.state
            assert state is not None
            if (
                game.status != GameStatus.ACTIVE
                or state.finished
                or (state.phase, state.turn) != key
                or seat not in to_act(state)
                or game.seats[seat].ai_level is not None
            ):
                return
            if policy == "ai":
                action = await self._choose(game, seat, level)
            else:
                action = minimal_action(state, seat)
            await self._commit(game, seat, action, out, f"absent_{policy}")

    async def _after_moves(self, game: _Game, out: _Collector) -> None:
        """After a change: AI seats play, timers follow the new situation. A failure here never undoes what
        was already accepted; the ``resume`` timer carries on later."""
        try:
            if self._ai_seats_to_act(game):
                await self._ensure_timers(game)  # writes the resume timer before the AI moves
                await self._run_ai(game, out)
            await self._ensure_timers(game)
        except (Refused, StorageError) as exc:
            log.warning(
                "game %s: automatic moves or timers interrupted (%s); the timers will resume", game.id, exc
            )
            self._evict(game.id)
        except Exception:
            log.exception("game %s: automatic moves failed; the resume timer will try again", game.id)
            self._evict(game.id)

    # ------------------------------------------------------------------ actions

    async def act(
        self,
        game_id: str,
        user_id: int,
        action: Action | Mapping[str, Any],
        *,
        expected_turn: str | None = None,
    ) -> Outcome:
        """Play `action` for `user_id`'s seat. Refused (nothing changed) when the game is not running, the user
        has no seat or handed it to the AI, `expected_turn` is not the current turn token
        (:func:`bot.manager.events.turn_token`), the rules forbid it, or storage cannot save it. Then AI seats
        play their turns; the outcome holds every resulting event."""
        if not isinstance(action, Action):
            try:
                action = action_from_json(dict(action))
            except (GameDataError, TypeError) as exc:
                raise Refused("bad_action", f"That is not an action: {exc}") from None
        parsed: Action = action

        async def body(game: _Game) -> Outcome:
            self._require(game, GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated", "You are not playing in this game.")
            if game.seats[seat].ai_level is not None:
                raise Refused("seat_ai", "An AI is playing your seat; take it back first.")
            assert game.state is not None
            if expected_turn is not None and str(expected_turn) != turn_token(game.state, seat):
                raise Refused(
                    "stale",
                    "That button belongs to an earlier moment of the game, so nothing was "
                    "done. Please use the latest message.",
                )
            out = _Collector(game.id)
            await self._commit(game, seat, parsed, out, "player")
            await self._after_moves(game, out)
            return out.outcome(game)

        return await self._locked_retry(game_id, body)

    async def _commit(self, game: _Game, seat: int, action: Action, out: _Collector, by: str) -> None:
        """Apply on a copy, persist, then adopt the copy and describe it. Raises Refused / VersionConflict with
        the cache untouched (or evicted)."""
        state = game.state
        assert state is not None
        before_public = views.public_view(state)
        before_private = private_bits(state, seat)
        work = state.copy()
        try:
            apply(work, seat, action)
        except IllegalAction as exc:
            raise Refused("illegal", str(exc)) from None
        action_json = action.to_json()
        status: GameStatus | None = None
        results: tuple[SeatResult, ...] | None = None
        sheets: list[dict[str, Any]] | None = None
        if work.finished:
            sheets = final_sheets(work)
            results = results_of(sheets, game.user_ids())
            status = GameStatus.FINISHED
        rec = await self._append(game, seat, action_json, work, status, results)
        game.state, game.version, game.action_count = work, rec.version, rec.seq
        game.last_move_at = self.clock.now()
        self._remember(game)
        if status is not None:
            game.status = status
            self._open_ids.discard(game.id)
            out.results = results or ()
        board = work.board
        out.seqs.append(rec.seq)
        out.events.extend(
            public_events(
                game.id, rec.seq, board, before_public, views.public_view(work), action_json, by, sheets
            )
        )
        out.private.extend(
            private_events(
                game.id,
                rec.seq,
                seat,
                game.seats[seat].user_id,
                before_private,
                private_bits(work, seat),
                action.kind,
            )
        )

    # ------------------------------------------------------------------ timers
    #
    # One "turn" row per active game watches whoever (people) must act; it is NOT rewritten when the turn
    # passes (a move costs no timer write). Its payload names the wait it was armed for (``key``: phase, turn
    # and current seat) and the stage reached (0: before reminder 1, 1: before reminder 2, 2: before the
    # absent-player policy, 3: parked by the "wait" policy). When it fires for a wait that is over, it is
    # re-armed for the current wait, counted from the game's last move. A "resume" row exists while AI seats
    # have moves to make, so that a crash in the middle of them is picked up again.

    @staticmethod
    def _wait_key(state: GameState) -> str:
        return f"{state.phase}:{state.turn}:{state.current}"

    def _waiting(self, game: _Game) -> tuple[list[int], bool]:
        """(people who must act, whether AI-controlled seats must act)."""
        state = game.state
        if game.status != GameStatus.ACTIVE or state is None or state.finished:
            return [], False
        seats = to_act(state)
        humans = [s for s in seats if game.seats[s].ai_level is None]
        return humans, len(humans) < len(seats)

    async def _ensure_timers(self, game: _Game) -> None:
        """Make sure the rows exist that will move this game on; drop those that never will."""
        humans, ai = self._waiting(game)
        turn_rows = sorted(
            (t for t in game.timers if t.kind == TURN_TIMER),
            key=lambda t: (-int(t.payload.get("stage", 0)), t.id),
        )
        resume_rows = [t for t in game.timers if t.kind == RESUME_TIMER]
        now = self.clock.now()
        if humans:
            assert game.state is not None
            key = self._wait_key(game.state)
            due = max(now, game.last_move_at) + timedelta(hours=game.settings.remind_after_hours)
            if not turn_rows:
                await self._add_timer(game, TURN_TIMER, due, {"key": key, "stage": 0})
            elif turn_rows[0].payload.get("key") != key and turn_rows[0].due_at > due:
                # a row kept from an earlier wait must not fire later than this wait needs (reminders
                # already sent, or parked by the "wait" policy): start this wait's own chain
                await self._replace_timer(game, turn_rows[0], due, {"key": key, "stage": 0})
                turn_rows = turn_rows[1:]
        if ai and not resume_rows:
            await self._add_timer(game, RESUME_TIMER, now + _RESUME_GRACE, {})
        stale = turn_rows[1:]  # a crash between "add" and "drop" can leave two: keep the most advanced
        if not humans and not ai:
            stale = turn_rows
        if not ai:
            stale += resume_rows
        for t in stale:
            await self._drop_timer(game, t)

    async def _add_timer(self, game: _Game, kind: str, due: datetime, payload: dict[str, Any]) -> None:
        timer = await self._storage(lambda: self._repo.add_timer(game.id, kind, due, payload))
        game.timers.append(timer)
        self._wake.set()

    async def _clear_timers(self, game: _Game) -> None:
        await self._storage(lambda: self._repo.delete_timers(game.id))
        game.timers.clear()

    async def run_due_timers(self, limit: int = 100) -> int:
        """Serve every timer due by the clock now (the dispatcher calls this; tests may too). Returns how many
        were handled."""
        due = await self._repo.due_timers(self.clock.now(), limit=limit)
        for timer in due:
            try:
                await self._fire(timer)
            except StorageUnavailable:
                raise
            except Refused as exc:
                if exc.code == "storage":
                    raise StorageUnavailable(exc.message) from exc
                log.warning("timer %s of game %s: %s", timer.id, timer.game_id, exc.message)
                with contextlib.suppress(StorageError):
                    await self._repo.delete_timer(timer.id)
            except Exception:
                log.exception("timer %s of game %s failed; dropping it", timer.id, timer.game_id)
                with contextlib.suppress(StorageError):
                    await self._repo.delete_timer(timer.id)
        return len(due)

    async def _fire(self, timer: Timer) -> None:
        notes: list[Callable[[], Awaitable[None]]] = []
        async with self._locks.hold(timer.game_id):
            try:
                game = await self._get(timer.game_id)
            except Refused as exc:
                if exc.code == "no_game":
                    await self._repo.delete_timer(timer.id)
                    return
                raise
            if game.status != GameStatus.ACTIVE:
                await self._clear_timers(game)
                return
            mine = next((t for t in game.timers if t.id == timer.id), None)
            if mine is None:  # the cached list is newer than the query (already handled or replaced)
                game.timers = await self._storage(lambda: self._repo.timers_for_game(game.id))
                mine = next((t for t in game.timers if t.id == timer.id), None)
                if mine is None:
                    return
            out = _Collector(game.id)
            if mine.kind == RESUME_TIMER:
                await self._after_moves(game, out)
                if self._waiting(game)[1]:  # the AI could not finish (logged): try again a little later
                    await self._replace_timer(game, mine, self.clock.now() + _RESUME_GRACE, {})
                elif any(t.id == mine.id for t in game.timers):
                    await self._drop_timer(game, mine)
            elif mine.kind == TURN_TIMER:
                await self._fire_turn(game, mine, out, notes)
            else:
                await self._drop_timer(game, mine)
            if out.events:
                outcome = out.outcome(game)
                notes.append(lambda: self._notifier.on_turn(game.id, outcome))
        for note in notes:  # outside the lock: the bot may call back into the manager
            try:
                await note()
            except Exception:
                log.exception("notifier failed for game %s", timer.game_id)

    async def _fire_turn(
        self, game: _Game, timer: Timer, out: _Collector, notes: list[Callable[[], Awaitable[None]]]
    ) -> None:
        humans, _ai = self._waiting(game)
        others = [t for t in game.timers if t.kind == TURN_TIMER and t.id != timer.id]
        if not humans or any(
            int(t.payload.get("stage", 0)) >= int(timer.payload.get("stage", 0)) for t in others
        ):
            await self._drop_timer(game, timer)  # nobody to wait for, or a duplicate
            await self._ensure_timers(game)
            return
        assert game.state is not None
        settings = game.settings
        now = self.clock.now()
        key = self._wait_key(game.state)
        stage = int(timer.payload.get("stage", 0))
        if timer.payload.get("key") != key:  # armed for a wait that is over: this wait began at the last move
            due = game.last_move_at + timedelta(hours=settings.remind_after_hours)
            if due > now:
                await self._replace_timer(game, timer, due, {"key": key, "stage": 0})
                return
            stage = 0
        if stage >= _PARKED_STAGE:
            await self._replace_timer(game, timer, now + _PARKED_FOR, {"key": key, "stage": _PARKED_STAGE})
            return
        if stage < 2:
            wait = settings.remind_again_hours if stage == 0 else settings.absent_after_hours
            await self._replace_timer(
                game, timer, now + timedelta(hours=wait), {"key": key, "stage": stage + 1}
            )
            for seat in humans:
                user_id = game.seats[seat].user_id
                if user_id is not None:
                    notes.append(
                        functools.partial(self._notifier.on_reminder, game.id, seat, user_id, stage + 1)
                    )
            return
        policy = settings.absent_policy
        for seat in humans:
            notes.append(
                functools.partial(self._notifier.on_absent, game.id, seat, game.seats[seat].user_id, policy)
            )
        if policy == "wait":
            await self._replace_timer(game, timer, now + _PARKED_FOR, {"key": key, "stage": _PARKED_STAGE})
            return
        try:
            for seat in humans:
                await self._play_absent(game, seat, policy, out)
        except VersionConflict:
            self._evict(game.id)
            return
        await self._after_moves(game, out)
        await self._drop_timer(game, timer)
        await self._ensure_timers(game)

    async def _replace_timer(self, game: _Game, timer: Timer, due: datetime, payload: dict[str, Any]) -> None:
        """Add the successor first, then drop the old row: a crash in between leaves two, never none."""
        await self._add_timer(game, timer.kind, due, payload)
        await self._drop_timer(game, timer)

    async def _drop_timer(self, game: _Game, timer: Timer) -> None:
        await self._storage(lambda: self._repo.delete_timer(timer.id))
        game.timers = [t for t in game.timers if t.id != timer.id]

    async def _dispatch_loop(self) -> None:
        backoff = 1.0
        while not self._closing:
            try:
                self._wake.clear()
                handled = await self.run_due_timers()
                if handled:
                    continue
                nxt = await self._repo.next_timer_due()
                timeout = self._max_sleep
                if nxt is not None:
                    timeout = min(timeout, max(0.0, (nxt - self.clock.now()).total_seconds()))
                if timeout > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), timeout)
                backoff = 1.0
            except asyncio.CancelledError:
                raise
            except StorageError as exc:
                log.warning("timer dispatcher: storage problem (%s); retrying in %.0f s", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)
            except Exception:
                log.exception("timer dispatcher failed; restarting in %.0f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)

    # ------------------------------------------------------------------ views and records

    async def game_info(self, game_id: str) -> GameInfo:
        return self._info(await self._get(game_id))

    status = game_info  # the issue calls it status(game_id)

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameInfo | None:
        rec = await self._storage(
            lambda: self._repo.find_open_game(channel_id=channel_id, thread_id=thread_id)
        )
        return None if rec is None else await self.game_info(rec.id)

    async def games_of(self, user_id: int, *, open_only: bool = True) -> list[str]:
        rows = await self._storage(
            lambda: self._repo.games_for_player(user_id, status=OPEN_STATUSES if open_only else None)
        )
        return [r.id for r in rows]

    async def seat_of(self, game_id: str, user_id: int) -> int | None:
        return (await self._get(game_id)).seat_of(user_id)

    async def turn_token(self, game_id: str, user_id: int | None = None) -> str | None:
        game = await self._get(game_id)
        if game.state is None:
            return None
        seat = game.seat_of(user_id) if user_id is not None else None
        return turn_token(game.state, seat)

    async def legal_actions(self, game_id: str, user_id: int) -> list[Action]:
        """What `user_id` may play now (empty when it is not their turn or the AI plays their seat)."""
        game = await self._get(game_id)
        seat = game.seat_of(user_id)
        if game.state is None or seat is None or game.status != GameStatus.ACTIVE:
            return []
        if game.seats[seat].ai_level is not None:
            return []
        return legal_actions(game.state, seat)

    async def recent_events(self, game_id: str, limit: int = 10) -> list[GameEvent]:
        """The public events of the last `limit` actions, rebuilt by replaying the stored log (in a worker
        thread: a whole game replays in well under a second)."""
        game = await self._get(game_id)
        if game.state is None:
            return []
        record = await self.export_record(game_id)
        return await asyncio.to_thread(_replay_events, game_id, record, limit)

    async def public_view(self, game_id: str) -> dict[str, Any]:
        game = await self._get(game_id)
        if game.state is None:
            raise Refused("not_active", f"Game {game_id} has not started yet.")
        return views.public_view(game.state)

    async def player_view(self, game_id: str, user_id: int) -> dict[str, Any]:
        game = await self._get(game_id)
        if game.state is None:
            raise Refused("not_active", f"Game {game_id} has not started yet.")
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refused("not_seated", "You are not playing in this game.")
        return views.player_view(game.state, seat)

    async def export_record(self, game_id: str) -> dict[str, Any]:
        """The game as a record that ``engine.record.replay`` (``ttr replay FILE``) plays back exactly: the
        setup from the snapshot, the actions from the stored log."""
        game = await self._get(game_id)
        if game.state is None:
            raise Refused("not_active", f"Game {game_id} has not started yet.")
        rows = await self._storage(lambda: self._repo.load_actions(game_id))
        state = game.state
        return {
            "format": 1,
            "map": state.board.id,
            "variant": state.variant,
            "options": list(state.options),
            "players": [p.name for p in state.players],
            "seed": state.seed,
            "actions": [{"seat": r.seat, "action": r.action} for r in rows],
        }

    def _info(self, game: _Game) -> GameInfo:
        state = game.state
        acting = tuple(to_act(state)) if state is not None and game.status == GameStatus.ACTIVE else ()
        next_due: dict[int, datetime] = {}
        humans, _ai = self._waiting(game)
        rows = [t for t in game.timers if t.kind == TURN_TIMER]
        if humans and rows and state is not None:
            row = max(rows, key=lambda t: int(t.payload.get("stage", 0)))
            if row.payload.get("key") != self._wait_key(state):  # re-armed from the last move when it fires
                due = max(row.due_at, game.last_move_at + timedelta(hours=game.settings.remind_after_hours))
            else:
                due = row.due_at
            if int(row.payload.get("stage", 0)) < _PARKED_STAGE:
                next_due = dict.fromkeys(humans, due)
        seats = []
        for i, s in enumerate(game.seats):
            level = None if s.ai_level is None else str(s.ai_level)
            if state is not None and i < state.num_players:
                p = state.players[i]
                seats.append(
                    SeatInfo(
                        i,
                        s.name,
                        s.user_id,
                        level,
                        p.score,
                        p.trains,
                        sum(p.hand),
                        len(p.tickets),
                        i in acting,
                        next_due.get(i),
                    )
                )
            else:
                seats.append(SeatInfo(i, s.name, s.user_id, level))
        final: tuple[Mapping[str, Any], ...] = ()
        if state is not None and state.finished:
            final = tuple(final_sheets(state))
        return GameInfo(
            game.id,
            game.guild_id,
            game.channel_id,
            game.thread_id,
            game.host_id,
            game.board,
            game.variant,
            game.engine_options,
            game.status,
            game.settings,
            tuple(seats),
            phase=None if state is None else state.phase,
            turn=None if state is None else state.turn,
            current=None if state is None else state.current,
            to_act=acting,
            tokens={s: turn_token(state, s) for s in acting} if state is not None else {},
            last_round_left=None if state is None else state.last_round_left,
            action_count=game.action_count,
            final=final,
        )


def _replay_events(game_id: str, record: dict[str, Any], limit: int) -> list[GameEvent]:
    actions = record["actions"]
    state = new_game(
        record["map"],
        list(record["players"]),
        variant=record["variant"],
        options=tuple(record["options"]),
        seed=int(record["seed"]),
    )
    first = max(0, len(actions) - limit)
    events: list[GameEvent] = []
    for i, entry in enumerate(actions, start=1):
        action = action_from_json(entry["action"])
        before = views.public_view(state) if i > first else None
        apply(state, int(entry["seat"]), action)
        if before is not None:
            sheets = final_sheets(state) if state.finished else None
            events.extend(
                public_events(
                    game_id,
                    i,
                    state.board,
                    before,
                    views.public_view(state),
                    action.to_json(),
                    "player",
                    sheets,
                )
            )
    return events

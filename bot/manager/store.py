"""The games the manager holds in memory and the plumbing to storage: one record per game, an LRU cache, one lock
per game, and the storage calls with their retries.

Guarantees
----------
* One asyncio lock per game (:class:`LockTable`): every change of a game (action, lobby change, timer) runs under
  it, in one order.
* The cache is replaced only after storage acknowledged a write; on any storage failure the game is evicted, so
  the next access reloads what is stored: nothing is ever half-applied.
* ``StorageUnavailable`` is retried a few times with the same expected version (safe: see bot.storage.base); a
  ``VersionConflict`` after such a retry is checked against the log (did our write land after all?). A
  ``VersionConflict`` otherwise (another process wrote) reloads the game and runs the request again
  (:meth:`GameStore.locked`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.manager.game_settings import GameSettings, SettingError
from bot.manager.refusals import Refused
from bot.storage import (
    OPEN_STATUSES,
    ActionRecord,
    GameNotFound,
    GameRecord,
    GameRepository,
    GameStatus,
    Seat,
    SeatResult,
    StorageUnavailable,
    Timer,
    VersionConflict,
)
from engine.errors import GameDataError
from engine.rules import to_act
from engine.state import GameState
from maps import load_board

__all__ = ["GameStore", "LiveGame", "LockTable"]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Kinds of timer rows (see bot.manager.timers): a "turn" chain per game while people must act, a "resume" row
#: while AI seats have moves to make.
TURN_TIMER = "turn"
RESUME_TIMER = "resume"
PARKED_STAGE = 3  # "wait" policy: the chain is over for this turn; the row only marks it


@dataclass(eq=False)
class LiveGame:
    """One game as the manager holds it: the stored row, the engine state and the game's timer rows."""

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
    def from_record(cls, rec: GameRecord, timers: list[Timer]) -> LiveGame:
        state = GameState.from_dict(rec.snapshot) if rec.snapshot else None
        if state is not None and len(state.history) != rec.action_count:
            log.error(
                "game %s: snapshot has %d actions, log has %d", rec.id, len(state.history), rec.action_count
            )
        return cls(
            id=rec.id,
            guild_id=rec.guild_id,
            channel_id=rec.channel_id,
            thread_id=rec.thread_id,
            host_id=rec.host_id,
            board=rec.board,
            variant=rec.variant,
            options=dict(rec.options),
            status=rec.status,
            raw_settings=dict(rec.settings),
            seats=tuple(rec.seats),
            version=rec.version,
            action_count=rec.action_count,
            state=state,
            timers=list(timers),
            last_move_at=rec.updated_at,
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

    # ------------------------------------------------------------------ checks shared by the commands

    def require(self, *statuses: GameStatus) -> None:
        """Refuse unless the game is in one of `statuses`."""
        if self.status in statuses:
            return
        if self.status == GameStatus.LOBBY:
            raise Refused("not_started", game=self.id)
        if GameStatus.LOBBY in statuses and self.status == GameStatus.ACTIVE:
            raise Refused("started", game=self.id)
        raise Refused("over", game=self.id)

    def require_host(self, user_id: int, moderator: bool = False) -> None:
        if user_id != self.host_id and not moderator:
            raise Refused("not_host")

    def require_room(self) -> None:
        """Refuse a new seat when the lobby is full (the board's maximum, or the host's ``max_players``)."""
        _lo, hi = load_board(self.board).rules.get("players", [2, 5])
        wanted = self.settings.max_players
        if len(self.seats) >= (min(hi, wanted) if wanted else hi):
            raise Refused("lobby_full", game=self.id, n=len(self.seats))

    # ------------------------------------------------------------------ who the game waits for

    def waiting(self) -> tuple[list[int], bool]:
        """(people who must act, whether AI-controlled seats must act)."""
        state = self.state
        if self.status != GameStatus.ACTIVE or state is None or state.finished:
            return [], False
        seats = to_act(state)
        humans = [s for s in seats if self.seats[s].ai_level is None]
        return humans, len(humans) < len(seats)

    def ai_seats_to_act(self) -> list[int]:
        state = self.state
        if self.status != GameStatus.ACTIVE or state is None or state.finished:
            return []
        return [s for s in to_act(state) if self.seats[s].ai_level is not None]

    def wait_key(self) -> str:
        """Names the current wait (phase, turn, current seat): a turn timer armed for another wait is stale."""
        state = self.state
        assert state is not None
        return f"{state.phase}:{state.turn}:{state.current}"

    def reminder_due(self) -> dict[int, datetime]:
        """Seat -> next reminder or absent-policy moment, for the people who must act now (none when parked)."""
        humans, _ai = self.waiting()
        rows = [t for t in self.timers if t.kind == TURN_TIMER]
        if not humans or not rows or self.state is None:
            return {}
        row = max(rows, key=lambda t: int(t.payload.get("stage", 0)))
        if int(row.payload.get("stage", 0)) >= PARKED_STAGE:
            return {}
        due = row.due_at
        if row.payload.get("key") != self.wait_key():  # re-armed from the last move when it fires
            due = max(due, self.last_move_at + timedelta(hours=self.settings.remind_after_hours))
        return dict.fromkeys(humans, due)


class LockTable:
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


class GameStore:
    """The cache of games, their locks and every storage call the manager makes. See the module docstring."""

    def __init__(
        self, repo: GameRepository, *, cache_size: int = 256, retry_delays: Sequence[float] = (0.05, 0.2, 0.5)
    ) -> None:
        self.repo = repo
        self.locks = LockTable()
        self.open_ids: set[str] = set()  # lobby/active games, known since start and kept up to date
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_size = max(1, cache_size)
        self._retry_delays = tuple(retry_delays)

    async def learn_open_games(self) -> None:
        """The ids of the open games (lazily: no game is loaded)."""
        self.open_ids = {gid async for gid in self.repo.iter_game_ids(status=OPEN_STATUSES)}

    # ------------------------------------------------------------------ the cache

    def evict(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def remember(self, game: LiveGame) -> None:
        """After a write: this object is the newest copy (a reader may have loaded an older one meanwhile)."""
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def adopt(self, rec: GameRecord) -> LiveGame:
        """A game just created: cached and counted open."""
        game = LiveGame.from_record(rec, [])
        self.open_ids.add(rec.id)
        self.remember(game)
        return game

    async def get(self, game_id: str) -> LiveGame:
        """The cached game, or the stored one (then cached)."""
        game = self._cache.get(game_id)
        if game is not None:
            self._cache.move_to_end(game_id)
            return game
        try:
            rec = await self.storage(lambda: self.repo.load_game(game_id))
        except GameNotFound:
            raise Refused("no_game", game=game_id) from None
        timers: list[Timer] = []
        if rec.status == GameStatus.ACTIVE:
            timers = await self.storage(lambda: self.repo.timers_for_game(game_id))
        try:
            game = LiveGame.from_record(rec, timers)
        except GameDataError as exc:
            log.error("game %s: stored snapshot unreadable: %s", game_id, exc)
            raise Refused("unreadable", game=game_id) from exc
        self.remember(game)
        return game

    # ------------------------------------------------------------------ storage calls

    async def storage(self, op: Callable[[], Awaitable[T]]) -> T:
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
        raise Refused("storage") from last

    async def update(self, game: LiveGame, **fields: Any) -> None:
        """update_game under the version guard; on success the cached game follows. VersionConflict propagates
        (after evicting the game)."""
        try:
            version = await self.storage(lambda: self.repo.update_game(game.id, game.version, **fields))
        except (VersionConflict, Refused, GameNotFound):
            self.evict(game.id)
            raise
        game.version = version
        self.remember(game)
        if "status" in fields:
            game.status = GameStatus(fields["status"])
            if game.status in OPEN_STATUSES:
                self.open_ids.add(game.id)
            else:
                self.open_ids.discard(game.id)
        if "seats" in fields:
            game.seats = tuple(fields["seats"])
        if "settings" in fields:
            game.raw_settings = dict(fields["settings"])
        if "host_id" in fields:
            game.host_id = fields["host_id"]
        if "snapshot" in fields:
            game.state = GameState.from_dict(fields["snapshot"])

    async def append(
        self,
        game: LiveGame,
        seat: int,
        action_json: dict[str, Any],
        work: GameState,
        status: GameStatus | None,
        results: Sequence[SeatResult] | None,
    ) -> ActionRecord:
        """Store one action with the new snapshot (and the results when it ends the game), in one transaction."""
        snapshot = work.to_dict()
        expected = game.version
        unavailable: StorageUnavailable | None = None
        for delay in (0.0, *self._retry_delays):
            if delay:
                await asyncio.sleep(delay)
            try:
                return await self.repo.append_action(
                    game.id, expected, seat, action_json, snapshot, status, results=results
                )
            except StorageUnavailable as exc:
                unavailable = exc
                log.warning(
                    "game %s: storage unavailable while saving an action (%s), retrying", game.id, exc
                )
            except VersionConflict:
                if unavailable is not None:  # maybe the attempt that "failed" did land
                    rows = await self.storage(
                        lambda: self.repo.load_actions(game.id, after_seq=game.action_count)
                    )
                    if (
                        len(rows) == 1
                        and rows[0].seat == seat
                        and rows[0].action == action_json
                        and rows[0].version == expected + 1
                    ):
                        return rows[0]
                self.evict(game.id)
                raise
        self.evict(game.id)
        raise Refused("storage") from unavailable

    async def locked(self, game_id: str, body: Callable[[LiveGame], Awaitable[T]]) -> T:
        """Run `body` on the game under its lock; reload and run again when another writer got in first."""
        async with self.locks.hold(game_id):
            for _ in range(3):
                game = await self.get(game_id)
                try:
                    return await body(game)
                except VersionConflict:
                    self.evict(game_id)
            raise Refused("conflict")

"""The games the manager holds in memory and the plumbing to storage: one record per game, an LRU cache, one lock
per game, and the storage calls with their retries.

Guarantees
----------
* One asyncio lock per game (:class:`LockTable`): every change of a game (action, lobby change, timer) runs under
  it, in one order.
* The cache is replaced only after storage acknowledged a write; on any storage failure the game is evicted, so
  the next access reloads what is stored: nothing is ever half-applied.
* The work that moves a game on (its timer rows, see :meth:`LiveGame.due_work`) is written in the same transaction
  as the change that makes it due (:meth:`GameStore.append`, :meth:`GameStore.update`): a crash can never leave a
  game that nothing will move on.
* ``StorageUnavailable`` is retried a few times with the same expected version (safe: see bot.storage.base); a
  ``VersionConflict`` after such a retry is checked against the log for a move, against the stored game for any
  other change or a new lobby (did our write land after all? :mod:`bot.manager.retries`), in the one retry loop
  (:meth:`GameStore.storage`). A timer-only write
  moves the version on too, so every process sees it before it serves the game again. A
  ``VersionConflict`` otherwise (another process wrote) reloads the game and runs the request again
  (:meth:`GameStore.locked`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.manager.clock import Clock
from bot.manager.events import GameEvent
from bot.manager.game_settings import GameSettings, SettingError
from bot.manager.locks import LockTable
from bot.manager.outage import Outage
from bot.manager.positions import (
    SAVE_POSITION_EVERY,
    catch_up,
    changed_fields,
    position_due,
    share_newest,
    state_of,
)
from bot.manager.refusals import Refused
from bot.manager.retries import appended, broken_refusal, gave_up, landed
from bot.manager.tell import held, notice_rows, over_rows, owed_position, tell_rows
from bot.manager.timer_rows import HELD_KINDS, NOTED_KINDS, LobbyWatch, Resume, TimerKind, TurnWait
from bot.storage import (
    OPEN_STATUSES,
    ActionRecord,
    GameNotFound,
    GameRecord,
    GameRepository,
    GameStatus,
    NewTimer,
    PlaceTaken,
    Seat,
    SeatResult,
    StorageBroken,
    StorageUnavailable,
    Timer,
    TimerChange,
    VersionConflict,
)
from engine.errors import GameDataError
from engine.record import saved_position
from engine.rules import to_act
from engine.state import SETUP, GameState
from maps import load_board

__all__ = ["GameStore", "LiveGame", "LockTable"]

log = logging.getLogger(__name__)
T = TypeVar("T")

PARKED_FOR = timedelta(days=3650)
RESUME_GRACE = timedelta(seconds=30)  # AI seats resume this long after a crash interrupted their moves


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
    #: how long a lobby waits after its last change before it expires (None: never): the process's setting
    #: (:attr:`GameStore.lobby_expiry`), held here so that :meth:`due_work` stays a function of the game
    lobby_expiry: timedelta | None = None
    #: how many of its actions the game's stored position has applied (bot.storage: ``GameRecord.snapshot_seq``)
    snapshot_seq: int = 0

    @classmethod
    def from_record(
        cls,
        rec: GameRecord,
        timers: list[Timer],
        lobby_expiry: timedelta | None = None,
        log: Sequence[list[Any]] = (),
    ) -> LiveGame:
        """The game of `rec`: its saved position played on through `log`, its whole log (bot.manager.positions)."""
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
            state=state_of(rec, log),
            timers=list(timers),
            last_move_at=rec.updated_at,
            lobby_expiry=lobby_expiry,
            snapshot_seq=rec.snapshot_seq,
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
        if GameStatus.LOBBY in statuses and self.status == GameStatus.ABANDONED and self.state is None:
            raise Refused(
                "lobby_closed", game=self.id
            )  # (its buttons outlived it: a crash before the notice)
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

    def turn_started(self, seat: int) -> bool:
        """The seat began its turn and has not finished it (drew one card, waits for a tunnel payment...): a
        decision it opened itself is pending. The start-of-game ticket choice is not one."""
        state = self.state
        return state is not None and state.phase != SETUP and seat in state.pending

    def due_work(self, now: datetime, automatic: bool = False) -> TimerChange:
        """The change of this game's timer rows its situation needs (empty when the rows are right): a ``turn``
        row while people must act (armed for the current wait, or kept from an earlier wait that fires no later
        than this one needs: it re-arms itself from the last move), a ``resume`` row while AI seats must act,
        none when the game is over (but :func:`~bot.manager.tell.over_rows`; a running game's ``remind`` and
        ``absent`` rows are left to their post); a ``tell`` row while a turn message is owed (:meth:`turn_message_owed`;
        `automatic`: the change is a move nobody clicked), the final one too (a finished game keeps its
        ``tell`` row, and only it, until the final scores are posted); a ``lobby`` row while a lobby waits
        (:meth:`lobby_work`); a ``notice`` row while an expired lobby's notice is owed (bot.manager.tell). A pure
        function of the game: the manager writes the result with the change that made it due."""
        if self.status == GameStatus.LOBBY:
            return self.lobby_work()
        if self.status == GameStatus.ABANDONED:
            return notice_rows(self.raw_settings, self.timers, now)
        humans, ai = self.waiting()
        if self.status != GameStatus.ACTIVE or (not humans and not ai):
            owed = self.turn_message_owed(automatic) if self.status == GameStatus.FINISHED else None
            return over_rows(self.timers, owed, now + RESUME_GRACE)
        clear: list[str] = []
        add: list[NewTimer] = []
        turn_rows = sorted(
            ((TurnWait.of(t), t) for t in self.timers if t.kind == TimerKind.TURN),
            key=lambda wt: (-wt[0].stage, wt[1].due_at, wt[1].id),
        )
        resume_rows = [t for t in self.timers if t.kind == TimerKind.RESUME]
        if humans:
            key = self.wait_key()
            due = max(now, self.last_move_at) + timedelta(hours=self.settings.remind_after_hours)
            kept = turn_rows[0] if turn_rows else None
            if kept is not None and kept[0].key != key and kept[1].due_at > due:
                kept = None  # a row of an earlier wait that would fire too late: this wait's own chain
            if kept is None:
                add.append(TurnWait(key, 0).row(due))
            elif len(turn_rows) > 1:  # left by an older version's crash between "add" and "drop"
                add.append(kept[0].row(kept[1].due_at))
            if turn_rows and add:
                clear.append(TimerKind.TURN)
        elif turn_rows:
            clear.append(TimerKind.TURN)
        if ai and not resume_rows:
            add.append(Resume().row(now + RESUME_GRACE))
        elif ai and len(resume_rows) > 1:
            clear.append(TimerKind.RESUME)
            add.append(Resume().row(min(t.due_at for t in resume_rows)))
        elif not ai and resume_rows:
            clear.append(TimerKind.RESUME)
        tell_rows(
            self.timers, None if ai else self.turn_message_owed(automatic), now + RESUME_GRACE, clear, add
        )
        if any(t.kind == TimerKind.LOBBY for t in self.timers):  # the lobby started: it expires no more
            clear.append(TimerKind.LOBBY)
        return TimerChange(clear=tuple(clear), add=tuple(add))

    def lobby_work(self) -> TimerChange:
        """A lobby's rows: one ``lobby`` row while lobbies expire (:attr:`lobby_expiry`), none otherwise. The
        row is written with the lobby and NOT rewritten by its changes (joins, settings...): when it fires,
        :mod:`bot.manager.lobbies` re-arms it from the lobby's last change, or expires the lobby. A lobby
        without it (from before expiry, or after a change of the setting) gets it, due one delay after its
        last change."""
        rows = [t for t in self.timers if t.kind == TimerKind.LOBBY]
        if self.lobby_expiry is None:
            return TimerChange(clear_all=True) if self.timers else TimerChange()
        if len(rows) == 1 and len(self.timers) == 1:
            return TimerChange()
        due = min((t.due_at for t in rows), default=self.last_move_at + self.lobby_expiry)
        return TimerChange(clear_all=bool(self.timers), add=(LobbyWatch().row(due),))

    def turn_message_owed(self, automatic: bool = False) -> int | None:
        """The log position a turn message owes (None: nothing owed; :func:`bot.manager.tell.owed_position`)."""
        return owed_position(self.state, self.raw_settings, self.timers, automatic)

    def adopt_timers(self, change: TimerChange, added: Sequence[Timer] | None, now: datetime) -> None:
        """The cached rows follow a change storage acknowledged. ``added``: the rows as storage returned them;
        None when it did not (an action or an update): then they are kept with id 0, and whoever needs the
        real ids (the dispatcher) reads them back."""
        if change.clear_all:
            self.timers = []
        elif change.clear:
            self.timers = [t for t in self.timers if t.kind not in change.clear]
        if added is None:
            added = [Timer(0, self.id, n.kind, n.due_at, dict(n.payload), now) for n in change.add]
        self.timers.extend(added)

    def reminder_due(self) -> dict[int, datetime]:
        """Seat -> next reminder or absent-policy moment, for the people who must act now (none when parked)."""
        humans, _ai = self.waiting()
        rows = [(TurnWait.of(t), t) for t in self.timers if t.kind == TimerKind.TURN]
        if not humans or not rows or self.state is None:
            return {}
        wait, row = max(rows, key=lambda wt: wt[0].stage)
        if wait.parked:
            return {}
        due = row.due_at
        if wait.key != self.wait_key():  # re-armed from the last move when it fires
            due = max(due, self.last_move_at + timedelta(hours=self.settings.remind_after_hours))
        return dict.fromkeys(humans, due)


class GameStore:
    """The cache of games, their locks and every storage call the manager makes. See the module docstring."""

    def __init__(
        self,
        repo: GameRepository,
        clock: Clock,
        *,
        cache_size: int = 256,
        retry_delays: Sequence[float] = (0.05, 0.1, 0.2, 0.4, 0.8),
        save_position_every: int = SAVE_POSITION_EVERY,
    ) -> None:
        self.repo = repo
        self.save_position_every = max(1, save_position_every)
        self.clock = clock
        #: called after timer rows were written, with when the first can be served (None: unknown): the
        #: dispatcher looks again
        self.on_timers_written: Callable[[datetime | None], None] = lambda due: None
        #: (process id, lease seconds) of the dispatcher: a ``tell`` row this process writes is its own for a
        #: lease (it posts the message meanwhile), then anyone's (:meth:`_held`)
        self.holder: tuple[str, float] | None = None
        #: called with the game's id when a write claimed such a row for this process (its lease is renewed
        #: while the message is built and posted, bot.manager.timers)
        self.on_held: Callable[[str], None] = lambda game_id: None
        self.on_released: Callable[[str], None] = lambda game_id: None  # this process's write cleared it
        #: cached at version v, with the public events of the move that made it (live map; () for other changes)
        self.on_changed: Callable[[str, int, tuple[GameEvent, ...]], None] = lambda gid, v, events: None
        self.locks = LockTable()
        self.open_ids: set[str] = set()  # lobby/active games, known since start and kept up to date
        #: how long a lobby waits after its last change before it expires (None: lobbies never expire)
        self.lobby_expiry: timedelta | None = None
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_size = max(1, cache_size)
        #: games served from the cache, and loaded from storage (their ratio: bench/bench_storage.py)
        self.hits = self.loads = 0
        self.retry_delays = tuple(retry_delays)
        self.outage = Outage()  # the database's outages: the host's one line when one begins, one at its end
        #: other processes may write the same games (PostgreSQL): a cached game is served only after a cheap
        #: ``SELECT version`` says it is still the newest; on SQLite this process is the only writer
        self.check_versions = getattr(getattr(type(repo), "dialect", None), "name", "") == "postgres"

    async def learn_open_games(self) -> None:
        """The ids of the open games (lazily: no game is loaded)."""
        self.open_ids = {gid async for gid in self.repo.iter_game_ids(status=OPEN_STATUSES)}

    # ------------------------------------------------------------------ the cache
    def evict(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def remember(self, game: LiveGame, events: tuple[GameEvent, ...] = ()) -> None:
        """After a write: this object is the newest copy (a reader may have loaded an older one meanwhile)."""
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        self.on_changed(game.id, game.version, events)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def adopt(self, rec: GameRecord, timers: TimerChange | None = None) -> LiveGame:
        """A game just created (with its first timer rows, `timers`): cached and counted open."""
        game = LiveGame.from_record(rec, [], self.lobby_expiry)
        if timers:
            game.adopt_timers(timers, None, rec.created_at)
            self.on_timers_written(None)
        self.open_ids.add(rec.id)
        self.remember(game)
        return game

    async def get(self, game_id: str) -> LiveGame:
        """The cached game, or the stored one (then cached)."""
        game = self._cache.get(game_id)
        if game is not None:
            if (
                not self.check_versions
                or await self.storage(lambda: self.repo.game_version(game_id)) == game.version
            ):
                if self._cache.get(game_id) is game:  # (a concurrent reader may have replaced it meanwhile)
                    self._cache.move_to_end(game_id)
                self.hits += 1
                return game
            if self._cache.get(game_id) is game:
                self.evict(game_id)  # another process wrote it (or deleted it): load the stored one
        self.loads += 1
        try:
            rec = await self.storage(lambda: self.repo.load_game(game_id))
        except GameNotFound:
            raise Refused("no_game", game=game_id) from None
        # its timer rows (an ended game may keep one: its final message or expiry notice, not posted yet) and its
        # log (the history, and the moves after its saved position), read after the row, side by side
        timers, log_ = await asyncio.gather(
            self.storage(lambda: self.repo.timers_for_game(game_id)),
            self.storage(lambda: self.repo.load_log(game_id)),
        )
        try:
            game = LiveGame.from_record(rec, timers, self.lobby_expiry, log_)
        except GameDataError as exc:
            log.error("game %s: stored snapshot unreadable: %s", game_id, exc)
            raise Refused("unreadable", game=game_id) from exc
        self.remember(game)
        if game.state is not None:  # (stored before V006, or a crash: the next load replays less)
            game.snapshot_seq = await catch_up(self.repo, game, game.state, self.save_position_every)
        return game

    # ------------------------------------------------------------------ storage calls
    async def storage(
        self,
        op: Callable[[], Awaitable[T]],
        *,
        doing: str = "",
        wrote: bool = False,
        landed: Callable[[Exception], Awaitable[T | None]] | None = None,
    ) -> T:
        """Run a storage call (`doing`: " while ...", for the host; `wrote`: a write), retrying while the
        database is unavailable; then refuse. A fault no retry can fix is refused at once
        (``storage_unavailable``) and logged once, as what the host must do. A write's VersionConflict or
        PlaceTaken after a lost acknowledgement may be the write itself: `landed(conflict)` returns what it
        wrote (the answer) or None (the conflict propagates) (bot.manager.retries)."""
        last: StorageUnavailable | None = None
        for delay in (0.0, *self.retry_delays):
            if delay:
                await asyncio.sleep(delay)
            try:
                result = await op()
            except StorageUnavailable as exc:
                if not self.outage.retrying(last := exc, doing):
                    break
            except StorageBroken as exc:
                raise broken_refusal(exc, self.outage) from None
            except (VersionConflict, PlaceTaken) as exc:
                if last is None or landed is None or (ours := await landed(exc)) is None:
                    raise
                log.info("storage: the acknowledgement of a write%s was lost; it had landed", doing)
                return ours
            else:
                self.outage.recovered(wrote=wrote)
                return result
        raise gave_up(last, self.outage) from last

    def _written(self, game_id: str, change: TimerChange) -> None:
        """Rows were written: the dispatcher looks again; a row claimed as written has its lease kept."""
        if change.add:
            # when the first can be served: its due time, or the end of the lease it is written under if later
            self.on_timers_written(min(max(n.due_at, n.held_until or n.due_at) for n in change.add))
        if any(n.held_by is not None and n.kind in HELD_KINDS for n in change.add):
            self.on_held(game_id)
        elif change.clear_all or any(kind in NOTED_KINDS for kind in change.clear):
            self.on_released(game_id)

    async def change_timers(
        self, game: LiveGame, change: TimerChange, *, fence: tuple[int, str] | None = None
    ) -> None:
        """Write a change of the game's timer rows alone (no change of the game itself); `fence`: only while
        that process still holds that row (LeaseLost else, nothing written)."""
        if not change:
            return
        change = held(change, self.holder, self.clock.now())
        try:  # under the version guard: a copy older than the stored game (another process moved it) writes nothing
            added = await self.storage(
                lambda: self.repo.change_timers(game.id, change, expected_version=game.version, fence=fence)
            )
        except (VersionConflict, GameNotFound):
            self.evict(game.id)
            raise
        game.version += 1  # (a guarded timer write moves the version on, as a move does: bot.storage)
        game.adopt_timers(change, added, self.clock.now())
        self._written(game.id, change)

    async def update(self, game: LiveGame, **fields: Any) -> None:
        """update_game under the version guard, with the timer rows the changed game needs in the same
        transaction; on success the cached game follows. VersionConflict propagates (after evicting the game)."""
        changed = changed_fields(fields)
        future = dataclasses.replace(game, timers=list(game.timers), **changed)
        now = self.clock.now()
        change = held(future.due_work(now), self.holder, now)
        if "snapshot" in fields:  # stored as the position after the game's actions so far, its log apart
            assert future.state is not None
            fields = {**fields, "snapshot": saved_position(future.state)}
        expected = game.version

        async def ours(_: Exception) -> int | None:
            stored = await self.storage(lambda: self.repo.find_game(game.id))
            return expected + 1 if stored is not None and landed(stored, expected + 1, fields) else None

        try:
            version = await self.storage(
                lambda: self.repo.update_game(game.id, expected, **fields, timers=change or None),
                doing=f" while saving a change of game {game.id}",
                wrote=True,
                landed=ours,
            )
        except (VersionConflict, Refused, GameNotFound):
            self.evict(game.id)
            raise
        game.version = version
        game.adopt_timers(change, None, now)
        if future.status == GameStatus.LOBBY:  # a lobby's last change: its expiry counts from here
            game.last_move_at = now
        for name, value in changed.items():  # (the very values the future game was made of)
            setattr(game, name, value)
        if "status" in changed:
            (self.open_ids.add if game.status in OPEN_STATUSES else self.open_ids.discard)(game.id)
        if "state" in changed:  # the position just saved is the one after every action so far
            game.snapshot_seq = game.action_count
        self._written(game.id, change)
        self.remember(game)

    async def append(
        self,
        game: LiveGame,
        seat: int,
        action_json: dict[str, Any],
        work: GameState,
        status: GameStatus | None,
        results: Sequence[SeatResult] | None,
        automatic: bool = False,
        also: Sequence[NewTimer] = (),
    ) -> ActionRecord:
        """Store one action (and the game's position every :attr:`save_position_every` moves and at its end; the
        results then, the timer rows the new situation needs, and `also`: an absent-player move's announcement),
        in one transaction. On success the cached rows follow; the caller adopts ``work``."""
        share_newest(work)
        snapshot = None
        if position_due(game.action_count + 1, game.snapshot_seq, work.finished, self.save_position_every):
            snapshot = saved_position(work)
        now = self.clock.now()
        future = dataclasses.replace(game, state=work, status=status or game.status, last_move_at=now)
        before = game.state
        # a turn message is owed when a move nobody clicked passes the turn or ends the game (the bot
        # publishes one then)
        passes = (
            before is None
            or work.finished
            or (before.phase, before.turn, before.current) != (work.phase, work.turn, work.current)
        )
        change = future.due_work(now, automatic and passes)
        if also:  # (first: served first after a crash, before the turn message it comes with)
            change = dataclasses.replace(change, add=(*also, *change.add))
        change = held(change, self.holder, now)
        expected = game.version

        async def ours(
            _: Exception,
        ) -> ActionRecord | None:  # the log: the one action after those known, ours
            rows = await self.storage(lambda: self.repo.load_actions(game.id, after_seq=game.action_count))
            return rows[0] if appended(rows, seat, action_json, expected + 1) else None

        try:
            record = await self.storage(
                lambda: self.repo.append_action(
                    game.id,
                    expected,
                    seat,
                    action_json,
                    snapshot,
                    status,
                    results=results,
                    timers=change or None,
                ),
                doing=f" while saving an action of game {game.id}",
                wrote=True,
                landed=ours,
            )
        except (VersionConflict, Refused, GameNotFound):
            self.evict(game.id)
            raise
        if snapshot is not None:
            game.snapshot_seq = record.seq
        game.adopt_timers(change, None, now)
        self._written(game.id, change)
        return record

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

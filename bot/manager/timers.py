"""Durable timers of asynchronous play and THE dispatcher that serves them.

Work that must outlive the process is a timer row: its kind and payload are in :mod:`bot.manager.timer_rows`. Each
row is written in the transaction of the change that makes it due (:meth:`~bot.manager.store.LiveGame.due_work`,
bot.manager.tell); a row is replaced by one write (the old rows of its kind deleted, the new one inserted). The
dispatcher claims a due row for a lease and, under the game's lock, once it found the row still stored, serves it
by the handler of its kind (:data:`_HANDLERS`; a game over meanwhile only gets the rows it needs now).

| kind     | payload      | written with                       | cleared by                | sends                     |
|----------|--------------|------------------------------------|---------------------------|---------------------------|
| `turn`   | `TurnWait`   | a wait for people; its re-arms     | no person to wait for     | (`remind`, `absent` rows) |
| `remind` | `Remind`     | the `turn` re-arm to stage n       | its post; stale: dropped  | ``on_reminder``           |
| `absent` | `Absent`     | its policy's move ("wait": re-arm) | its post; stale: dropped  | ``on_absent``             |
| `resume` | `Resume`     | AI seats to move                   | their moves               | the moves: ``on_turn``    |
| `tell`   | `Tell`       | a move nobody clicked              | the ``told_through`` note | ``on_turn``               |
| `lobby`  | `LobbyWatch` | a new lobby; its re-arms           | the start; the expiry     | (expiry: a `notice` row)  |
| `notice` | `Notice`     | a lobby's expiry                   | the ``expiry_told`` note  | ``on_lobby_expired``      |
| `ping`   | `Ping`       | a held notification (player_time)  | its claim; stale: dropped | ``on_ping``               |
| `away`   | `AwayEnd`    | a player's away mode               | its end                   | (a `ping` row: back)      |

Beside the rows of games, :meth:`TurnTimers.run_due` serves the players' daily digests (bot.manager.digests: a row
per player, not per game, sent by the process that moves its due time on) and sleeps until the next one too.

The `turn` row (one per active game) is NOT rewritten when the turn passes (a move costs no timer write): its key
names the wait it was armed for (phase, turn and current seat), its stage the step reached (0: before reminder 1,
1: before reminder 2, 2: before the absent-player policy, 3: parked by the "wait" policy). Fired for a wait that is
over, it is re-armed for the current wait, counted from the game's last move. A `remind` row, or a "wait" `absent`
row, found after its writer died is dropped, not sent late, when the wait it was written for is over
(:func:`bot.manager.notifier.current`); an "ai" or "skip" announcement is sent (it was written with its move).

Exactly once. The `tell`, `notice`, `remind` and `absent` rows are claimed by the process that writes them, which
posts their message at once, renewing the lease meanwhile (:meth:`~bot.manager.leases.Leases.keep`), and only while
it still holds the row (:meth:`~bot.manager.leases.Leases.post`, :meth:`~bot.manager.leases.Leases.may_tell`). A
write that completes a row is fenced by the claim (``LeaseLost``: nothing written, nothing sent, when another
process took the row over); moves are guarded by the game's version. A process killed with ``kill -9`` loses its
claims when their lease ends (30 s by default) and another serves the rows then. The one at-least-once window is a
kill between Discord's acknowledgement and the write that clears the row (its note, or its deletion): one database
write long. Every row re-checks its game when it fires, and at start-up :meth:`TurnTimers.sweep` gives the rows any
running game lacks: a crash at any moment leaves every game with the row that moves it on.

The dispatcher (:meth:`TurnTimers.start`) is one task that sleeps until the next row is servable, or until woken:
when a row is added, or when the clock moves (a clock with ``subscribe``, like :class:`~bot.manager.clock.ManualClock`,
wakes it at once, so tests advance time without sleeping). It tells the bot layer through the :class:`Notifier`,
outside the game's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime, timedelta
from typing import TypeVar

from bot.manager import lobbies
from bot.manager.clock import Clock
from bot.manager.cluster import Member
from bot.manager.digests import serve_digests
from bot.manager.leases import Leases
from bot.manager.moves import Collector, Moves
from bot.manager.notifier import Notifier, NullNotifier, announcement, current
from bot.manager.player_time import ABSENT_STAGE, away, later, serve_away, serve_ping, waiting_times
from bot.manager.read import Outcome, outcome_of
from bot.manager.refusals import Refused
from bot.manager.store import PARKED_FOR, RESUME_GRACE, GameStore, LiveGame
from bot.manager.tell import absent, reminder
from bot.manager.timer_rows import PARKED_STAGE, Absent, Payload, Remind, Resume, TimerKind, TurnWait, kind_of
from bot.storage import (
    OPEN_STATUSES,
    GameNotFound,
    LeaseLost,
    NewTimer,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageError,
    StorageUnavailable,
    Timer,
    TimerChange,
    VersionConflict,
)

__all__ = ["Notifier", "NullNotifier", "TurnTimers"]

T = TypeVar("T")

log = logging.getLogger(__name__)

#: a call made once the game's lock is released (a message to post)
Note = Callable[[], Awaitable[None]]
#: serves a due row of one kind: (timers, the game, the row, the moves it makes, the calls owed after the lock)
Handler = Callable[["TurnTimers", LiveGame, Timer, Collector, list[Note]], Awaitable[None]]


def _set_result_unless_cancelled(future: asyncio.Future[None], result: None) -> None:
    # the name asyncio.sleep's own callback has (asyncio.futures._set_result_unless_cancelled)
    if not future.done():
        future.set_result(result)


def _ids_of(rows: list[Timer]) -> Callable[[], Awaitable[list[int]]]:
    async def ids() -> list[int]:
        return [t.id for t in rows]

    return ids


def _readable(rows: list[Timer], kind: type[Remind | Absent]) -> Iterator[tuple[Timer, Remind | Absent]]:
    """`rows` (of `kind`) with their payloads; a row that cannot be read is logged and skipped."""
    for row in rows:
        try:
            yield row, kind.of(row)
        except ValueError as exc:
            log.error("game %s: %s", row.game_id, exc)


class TurnTimers:
    """The timer rows of the games in `store`, the moves they trigger (through `moves`) and the dispatcher."""

    def __init__(
        self,
        store: GameStore,
        moves: Moves,
        clock: Clock,
        notifier: Notifier,
        *,
        max_sleep: float = 300.0,
        member: Member | None = None,
    ) -> None:
        self._store = store
        #: who claims the rows this dispatcher serves, and for how long
        self.member = member or Member()
        if store.check_versions:  # other processes: look again at least once per lease (their dead claims)
            max_sleep = min(max_sleep, self.member.lease)
        store.on_timers_written = self._rows_written
        store.holder = (self.member.process_id, self.member.lease)
        #: the leases this process holds on rows, and the messages it owes under them
        self.leases = Leases(store, self.member, clock)
        store.on_held = self.leases.keep
        store.on_released = self.leases.release
        self._moves = moves
        self._clock = clock
        self.notifier = notifier
        self._max_sleep = max_sleep
        self._woken = False  # poked since the dispatcher last looked at storage
        self._sleeper: asyncio.Future[None] | None = None
        self._wakes_at: datetime | None = None  # by the clock, while the dispatcher sleeps
        self._idle = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ after every change of a game

    async def after_change(self, game: LiveGame, out: Collector) -> None:
        """After a change: AI seats play. The change already stored the ``resume`` row that makes them play
        after a crash, and each of their moves stores the rows of its own situation; a failure here never
        undoes what was accepted: the ``resume`` row carries on later."""
        try:
            if game.ai_seats_to_act():
                await self._moves.run_ai(game, out)
        except (Refused, StorageError) as exc:
            log.warning(
                "game %s: automatic moves or timers interrupted (%s); the timers will resume", game.id, exc
            )
            self._store.evict(game.id)
        except Exception:
            log.exception("game %s: automatic moves failed; the resume timer will try again", game.id)
            self._store.evict(game.id)

    async def ensure(self, game: LiveGame, served: Timer | None = None) -> None:
        """Write the rows that will move this game on, if they are not right (:meth:`LiveGame.due_work`);
        `served`: the row this process is serving (the write needs its claim, :meth:`_fence`)."""
        change = game.due_work(self._clock.now())
        await self._store.change_timers(game, change, fence=self._fence(game, served))

    def _fence(self, game: LiveGame, served: Timer | None) -> tuple[int, str] | None:
        """The claim a write serving `served` needs: none once this process's own change of the game (an
        automatic move, under the version guard) replaced the row."""
        if served is None or not any(t.id == served.id for t in game.timers):
            return None
        return (served.id, self.member.process_id)

    async def _set(
        self,
        game: LiveGame,
        payload: Payload,
        due: datetime,
        served: Timer,
        also: tuple[NewTimer, ...] = (),
        clear: tuple[str, ...] = (),
    ) -> None:
        """The game's one row of the payload's kind is now one carrying `payload`, due at `due` (in one write,
        while this process holds `served`), with the rows `also` (the announcements this step owes,
        bot.manager.tell) and none left of the kinds `clear`."""
        change = TimerChange(clear=(payload.kind, *clear), add=(payload.row(due), *also))
        await self._store.change_timers(game, change, fence=self._fence(game, served))

    async def _drop(self, game: LiveGame, timer: Timer) -> None:
        await self._store.change_timers(
            game, TimerChange(clear=(timer.kind,)), fence=self._fence(game, timer)
        )

    async def sweep(self) -> int:
        """Start-up: give every running game whose next step has no row to move it on (left by a version that
        wrote its rows after the change, or by hand) the rows it needs. Returns how many games needed them."""
        store = self._store
        fixed = 0
        ids = [gid async for gid in store.repo.iter_game_ids(status=OPEN_STATUSES)]  # lobbies expire too

        async def give_rows(game: LiveGame) -> bool:
            change = game.due_work(self._clock.now())
            if change:
                await store.change_timers(game, change)
            return bool(change)

        for gid in ids:
            # another process may move the game meanwhile (it writes its rows with its move): `locked` reads
            # it again and looks afresh, so starting beside a busy process never fails on a lost race
            try:
                fixed += await store.locked(gid, give_rows)
            except Refused as exc:
                log.warning("game %s: cannot check its timers at start-up (%s)", gid, exc)
            except GameNotFound:  # deleted meanwhile: nothing to move on
                log.info("game %s: gone before its timers were checked at start-up", gid)
        if fixed:
            log.info("start-up: %d running game(s) had no timer to move them on; scheduled", fixed)
        return fixed

    # ------------------------------------------------------------------ firing

    async def run_due(self, limit: int = 100) -> int:
        """Serve every timer due by the clock now (the dispatcher calls this; tests may too). Returns how many
        were handled."""
        # claimed for a lease: no other process serves these rows meanwhile (the change that serves a row
        # replaces or deletes it; a row this process cannot serve is served by anyone once the lease ends)
        claim, member, now = self._store.repo.claim_due_timers, self.member, self._clock.now()
        due = await self._storage(claim(member.process_id, now, lease=member.lease, limit=limit))
        if due:
            renewing = asyncio.create_task(self.leases.renew(_ids_of(due)), name="ttr-timer-leases")
            try:
                await self._serve(due)
            finally:
                renewing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await renewing
        # the games' rows first, then the daily digests (not timer rows: a row per player, bot.manager.digests)
        return len(due) + await self._storage(serve_digests(self, limit))

    async def _storage(self, call: Awaitable[T]) -> T:
        """`call`; a database fault is reported once per outage and raised as unavailable (the rows stay)."""
        try:
            return await call
        except StorageBroken as exc:
            if not isinstance(exc, StorageBug):
                self._store.outage.failed(exc)  # (the host's one line per outage)
            raise StorageUnavailable(str(exc)) from exc

    async def _serve(self, due: list[Timer]) -> None:
        repo = self._store.repo
        owner = self.member.process_id
        for timer in due:
            try:
                await self._fire(timer)
            except StorageUnavailable:
                raise
            except LeaseLost:  # another process took the row over (this one stalled past its lease)
                log.info("timer %s of game %s: served by another process", timer.id, timer.game_id)
            except (
                VersionConflict
            ):  # another process changed the game meanwhile: served again, from its state
                self._store.evict(timer.game_id)
                with contextlib.suppress(StorageError):
                    await repo.release_timer(timer.id, owner)
            except Refused as exc:
                if exc.code in (
                    "storage",
                    "storage_down",
                    "storage_unavailable",
                ):  # the row stays: served later
                    raise StorageUnavailable(str(exc)) from exc
                log.warning("timer %s of game %s: %s", timer.id, timer.game_id, exc)
                with contextlib.suppress(StorageError):
                    await repo.delete_timer(timer.id, owner=owner)
            except Exception:
                log.exception("timer %s of game %s failed; dropping it", timer.id, timer.game_id)
                with contextlib.suppress(StorageError):
                    await repo.delete_timer(timer.id, owner=owner)

    async def _fire(self, timer: Timer) -> None:
        notes: list[Note] = []
        store = self._store
        async with store.locks.hold(timer.game_id):
            try:
                game = await store.get(timer.game_id)
            except Refused as exc:
                if exc.code == "no_game":
                    await store.repo.delete_timer(timer.id, owner=self.member.process_id)
                    return
                raise
            # the stored rows, with their ids: this one may have been replaced since the query
            game.timers = await store.storage(lambda: store.repo.timers_for_game(game.id))
            mine = next((t for t in game.timers if t.id == timer.id), None)
            if mine is None:
                return
            out = Collector(game.id)
            kind = kind_of(mine)
            if game.status not in OPEN_STATUSES and (kind is None or kind.moves_game_on):
                await self.ensure(game, mine)  # over: no row but a final message owed
            elif kind is None:  # a kind this version does not know: nothing to do with it
                await self._drop(game, mine)
            else:
                await _HANDLERS[kind](self, game, mine, out, notes)
            if out.events:
                outcome = outcome_of(game, out)
                notes.append(functools.partial(self.notifier.on_turn, game.id, outcome))
        for note in notes:  # outside the lock: the bot may call back into the manager
            try:
                await note()
            except Exception:
                log.exception("notifier failed for game %s", timer.game_id)

    # ------------------------------------------------------------------ the handlers, one per kind (_HANDLERS)

    async def _serve_tell(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """A turn message owed (the final scores too): its note clears the row."""
        if game.turn_message_owed() is not None and not game.ai_seats_to_act():
            post = functools.partial(self.notifier.on_turn, game.id, outcome_of(game, out))
            notes.append(functools.partial(self.leases.post, game.id, row, post))
        else:
            await self.ensure(game, row)

    async def _serve_notice(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """An expired lobby's notice, not posted (a crash before the post)."""
        if lobbies.notice_owed(game):
            notes.append(functools.partial(self.announce_expiry, game.id, lobbies.expired_outcome(game)))
        else:
            await self.ensure(game, row)

    async def _serve_remind(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """A reminder left by a crash."""
        await self._serve_announcement(game, row, Remind.of(row), notes)

    async def _serve_absent(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """An absent-player announcement left by a crash."""
        await self._serve_announcement(game, row, Absent.of(row), notes)

    async def _serve_announcement(
        self, game: LiveGame, row: Timer, owed: Remind | Absent, notes: list[Note]
    ) -> None:
        if current(game, owed):
            send = announcement(self.notifier, game.id, owed)
            notes.append(functools.partial(self.leases.post, game.id, row, send))
        else:  # stale: the wait it was written for is over (a move meanwhile): dropped, not sent late
            log.info("timer %s of game %s: %s no longer current", row.id, game.id, row.kind)
            await self._store.repo.delete_timer(row.id, owner=self.member.process_id)
            game.timers = [t for t in game.timers if t.id != row.id]

    async def _serve_resume(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """AI seats have moves to make (a crash interrupted them)."""
        await self.after_change(game, out)
        if game.waiting()[1]:  # the AI could not finish (logged): try again a little later
            await self._set(game, Resume(), self._clock.now() + RESUME_GRACE, row)
        elif any(t.id == row.id for t in game.timers):
            await self._drop(game, row)

    async def _serve_lobby(self, game: LiveGame, row: Timer, out: Collector, notes: list[Note]) -> None:
        """A lobby nobody started."""
        await lobbies.fire(self._store, self._clock, self.announce_expiry, game, row, notes)

    async def _serve_turn(self, game: LiveGame, timer: Timer, out: Collector, notes: list[Note]) -> None:
        """People must act: the next step of the wait (a reminder, the absent-player policy), or a re-arm."""
        humans, _ai = game.waiting()
        wait = TurnWait.of(timer)
        others = [t for t in game.timers if t.kind == TimerKind.TURN and t.id != timer.id]
        if not humans or any(TurnWait.of(t).stage > wait.stage for t in others):
            # nobody to wait for, or a duplicate behind another: the rows needed now
            await self.ensure(game, timer)
            return
        # (a duplicate left by an older version goes with this one: every path below rewrites the kind)
        settings = game.settings
        now = self._clock.now()
        key = game.wait_key()
        stage = wait.stage
        gone = {seat for seat, p in (await waiting_times(self._store, game, humans)).items() if away(p, now)}
        if wait.key != key or (stage == 0 and settings.waking_clock and not gone):
            # armed for a wait that is over (this wait began at the last move), or by the wall clock for a game
            # that counts waking hours only
            due = await later(self._store, game, humans, game.last_move_at, settings.remind_after_hours)
            if due > now and not gone:
                await self._set(game, TurnWait(key, 0), due, timer)
                return
            stage = 0
        if gone and gone.issuperset(humans) and stage < ABSENT_STAGE:
            stage = ABSENT_STAGE  # away (bot.manager.player_time): the absent-player policy at once
        if stage >= PARKED_STAGE:
            await self._set(game, TurnWait(key, PARKED_STAGE), now + PARKED_FOR, timer)
            return
        if stage < 2:  # reminder stage + 1: its rows are written with the re-arm that passes the stage
            hours = settings.remind_again_hours if stage == 0 else settings.absent_after_hours
            owed = tuple(
                reminder(now, key, seat, user_id, stage + 1)
                for seat in humans
                if (user_id := game.seats[seat].user_id) is not None
            )
            due = await later(self._store, game, humans, now, hours)
            await self._set(game, TurnWait(key, stage + 1), due, timer, owed, clear=(TimerKind.REMIND,))
            if owed:
                notes.append(functools.partial(self._announce, game.id, Remind, key, keep=False))
            return
        # a player who has started their turn is there: the takeover waits the turn's grace time (the
        # absent-player delay) after their last action, never plays the rest of a turn they are playing
        # (a seat whose takeover began, its announcement row written with the policy's first move, did not start
        # its turn itself: a process that died between the policy's moves left it half-played; it goes on now)
        absent_rows = [t for t in game.timers if t.kind == TimerKind.ABSENT]
        taken = {owed.seat for _row, owed in _readable(absent_rows, Absent) if owed.key == key}
        grace_end = game.last_move_at + timedelta(hours=settings.absent_after_hours)
        if any(game.turn_started(seat) for seat in humans if seat not in taken | gone) and grace_end > now:
            await self._set(game, TurnWait(key, 2), grace_end, timer)
            return
        # the announcements: written with the re-arm that parks the row ("wait"), or with each seat's first
        # move ("ai", "skip": announced exactly when a move is made); once per seat and wait
        policy = settings.absent_policy
        announced = {
            seat: absent(now, key, seat, game.seats[seat].user_id, policy)
            for seat in humans
            if seat not in taken and seat not in gone  # (the away told the others once: player_time)
        }
        notes.append(functools.partial(self._announce, game.id, Absent, key, keep=policy != "wait"))
        if policy == "wait":
            parked = tuple(announced.values())
            parked_wait = TurnWait(key, PARKED_STAGE)
            await self._set(game, parked_wait, now + PARKED_FOR, timer, parked, clear=(TimerKind.REMIND,))
            return
        try:
            for seat in humans:
                await self._moves.play_absent(game, seat, policy, out, announced.get(seat))
        except VersionConflict:  # someone else moved the game: announced only for the moves made (their rows)
            self._store.evict(game.id)
            return
        await self.after_change(game, out)
        # this row is spent: the next wait gets its own chain (written with the deletion)
        game.timers = [t for t in game.timers if t.kind != TimerKind.TURN]
        change = game.due_work(self._clock.now())
        await self._store.change_timers(
            game,
            dataclasses.replace(change, clear=tuple({*change.clear, TimerKind.TURN})),
            fence=self._fence(game, timer),
        )

    async def _announce(self, game_id: str, kind: type[Remind | Absent], key: str, *, keep: bool) -> None:
        """Post the reminders or absent-player announcements (rows of `kind`, one per seat) this process just
        wrote for the wait `key`, each once (:meth:`Leases.post`: while this process holds the row; deleted once
        the notifier returned). `keep`: more rows of the game are held for a message to come (the turn message
        after absent-player moves): their lease is renewed again afterwards."""
        repo = self._store.repo
        rows = await self._store.storage(lambda: repo.timers_for_game(game_id, kind.kind))
        for i, (row, owed) in enumerate((r, o) for r, o in _readable(rows, kind) if o.key == key):
            if i:
                self.leases.keep(game_id)  # (the post before stopped the renewal)
            try:
                await self.leases.post(game_id, row, announcement(self.notifier, game_id, owed))
            except Exception:  # the row stays: served again when its lease ends
                log.exception("notifier failed for game %s", game_id)
        if keep:
            self.leases.keep(game_id)

    async def announce_expiry(self, game_id: str, outcome: Outcome) -> None:
        """The notifier hears that the lobby `game_id` expired, once: through its ``notice`` row, while this
        process holds it (:mod:`bot.manager.lobbies`)."""
        rows = await self._store.repo.timers_for_game(game_id, TimerKind.NOTICE)
        post = functools.partial(self.notifier.on_lobby_expired, game_id, outcome)
        if rows:
            await self.leases.post(game_id, rows[0], post)
        else:
            log.info("game %s: no expiry notice owed any more", game_id)

    # ------------------------------------------------------------------ the dispatcher

    @property
    def running(self) -> bool:
        return self._task is not None

    def serve_none(self) -> None:
        """This process will run no dispatcher (``ttr web``): a message its writes make owed is not its own to
        post, so the row is due now and its claim ends at once (a lease of nothing, never renewed): a bot
        process's dispatcher serves it at its next look. Before, the row was claimed and its lease renewed for
        10 leases by a process that never posts: the chat heard of a move made on the map seconds late."""
        self._store.holder = (self.member.process_id, 0.0)
        self._store.on_held = lambda game_id: None

    def start(self) -> None:
        """Start the dispatcher (in the running event loop); it serves the rows stored before a restart too."""
        if self._task is not None:
            return
        subscribe = getattr(self._clock, "subscribe", None)
        if subscribe is not None:
            subscribe(self._poke)
        self._idle.clear()
        self._task = asyncio.create_task(self._dispatch_loop(), name="ttr-timer-dispatcher")

    async def stop(self) -> None:
        """Stop the dispatcher (a timer being served is cancelled; its row stays and fires after a restart)."""
        unsubscribe = getattr(self._clock, "unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe(self._poke)
        self.leases.stop()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def settled(self) -> None:
        """Wait until the dispatcher has served every timer due by the clock now and sleeps (tests: move a
        ManualClock, then await this)."""
        if self._task is None:
            raise RuntimeError("the timer dispatcher is not running")
        idle = asyncio.ensure_future(self._idle.wait())
        done, _ = await asyncio.wait({idle, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if idle not in done:
            idle.cancel()
            raise RuntimeError("the timer dispatcher stopped")

    def _poke(self) -> None:
        """A timer was added or the clock moved: look again now."""
        self._idle.clear()
        self._woken = True
        if self._sleeper is not None and not self._sleeper.done():
            self._sleeper.set_result(None)

    def _rows_written(self, due: datetime | None) -> None:
        """Timer rows were written, the first servable at `due` (due, and its lease over): look again now,
        unless the dispatcher sleeps and wakes before that anyway (it reads the next row when it wakes). A move
        writes its turn's rows: this spares the dispatcher a wake and two reads of storage per move."""
        wakes_at = self._wakes_at
        if due is not None and wakes_at is not None and self._sleeper is not None and due >= wakes_at:
            return
        self._poke()

    async def _sleep(self, seconds: float) -> None:
        """``asyncio.sleep(seconds)``, cut short by :meth:`_poke`. Built the way asyncio.sleep is (a future the
        loop resolves later), so a harness with virtual time (SimCord) sees a plain sleep."""
        loop = asyncio.get_running_loop()
        self._sleeper = loop.create_future()
        self._wakes_at = self._clock.now() + timedelta(seconds=seconds)
        handle = loop.call_later(seconds, _set_result_unless_cancelled, self._sleeper, None)
        try:
            await self._sleeper
        finally:
            handle.cancel()
            self._sleeper = None
            self._wakes_at = None

    async def _dispatch_loop(self) -> None:
        backoff = 1.0
        while True:
            try:
                self._woken = False
                if await self.run_due():
                    continue
                nxt = await self._store.repo.next_timer_servable()
                digest = await self._store.repo.next_digest_due()
                nxt = digest if nxt is None or (digest is not None and digest < nxt) else nxt
                self._store.outage.recovered()
                timeout = self._max_sleep
                if nxt is not None:
                    timeout = min(timeout, max(0.0, (nxt - self._clock.now()).total_seconds()))
                if timeout > 0 and not self._woken:
                    self._idle.set()
                    await self._sleep(timeout)
                backoff = 1.0
            except asyncio.CancelledError:
                raise
            except StorageError as exc:
                if isinstance(exc, StorageDown):
                    self._store.outage.failed(exc)  # (the host's one line per outage, not one per retry)
                self._store.outage.retrying(exc, f" for the timer dispatcher, again in {backoff:.0f} s")
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)
            except Exception:
                log.exception("timer dispatcher failed; restarting in %.0f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)


#: How each kind of row is served (the module docstring has the table of what each row is).
_HANDLERS: dict[TimerKind, Handler] = {
    TimerKind.TURN: TurnTimers._serve_turn,
    TimerKind.RESUME: TurnTimers._serve_resume,
    TimerKind.LOBBY: TurnTimers._serve_lobby,
    TimerKind.TELL: TurnTimers._serve_tell,
    TimerKind.NOTICE: TurnTimers._serve_notice,
    TimerKind.REMIND: TurnTimers._serve_remind,
    TimerKind.ABSENT: TurnTimers._serve_absent,
    TimerKind.PING: serve_ping,
    TimerKind.AWAY: serve_away,
}

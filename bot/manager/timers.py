"""Durable timers of asynchronous play and THE dispatcher that serves them.

Timers are rows (``turn`` chains: reminder 1, reminder 2, absent-player policy; ``resume``: AI seats have moves
to make). One "turn" row per active game watches whoever (people) must act; it is NOT rewritten when the turn
passes (a move costs no timer write). Its payload names the wait it was armed for (``key``: phase, turn and
current seat) and the stage reached (0: before reminder 1, 1: before reminder 2, 2: before the absent-player
policy, 3: parked by the "wait" policy). When it fires for a wait that is over, it is re-armed for the current
wait, counted from the game's last move. A "resume" row exists while AI seats have moves to make, so that a
crash in the middle of them is picked up again. A "tell" row exists while moves nobody clicked (AI seats,
the absent-player policy) owe a turn message, the final scores of a game such a move ended too (a finished
game keeps that row, and only it): it is written with the move, claimed by the writing process for a lease; the
bot posts the message at once, and the ``told_through`` note it writes once Discord acknowledged the post
clears the row in the same transaction. If the process dies anywhere before that note, any process serves the
row when the lease ends (posting once); a kill between the acknowledgement and the note posts twice (the one
at-least-once window, one database write long). A ``notice`` row does the same for the notice of an expired
lobby (bot.manager.lobbies). Reminders and absent-player announcements are such rows too (bot.manager.tell):
a ``remind`` row per seat, written in the transaction of the ``turn`` row's re-arm that passes the stage, and
an ``absent`` row per seat, written with the first move the ``ai`` or ``skip`` policy makes for it (or with
the re-arm that parks the row, under ``wait``); each carries what to send (seat, user, n or policy), and is
deleted once the notifier returned (:meth:`TurnTimers._announce`), so the window is between the post and that
deletion. Found by the dispatcher after its writer died, a reminder (or ``wait`` announcement) whose wait is
over (a move meanwhile) is dropped, not sent late (:func:`bot.manager.notifier.current`). The process that
wrote such a row renews its lease while the message is built and posted (:meth:`bot.manager.leases.Leases.keep`), and
checks it just before posting (:meth:`~bot.manager.leases.Leases.may_tell`, :meth:`~bot.manager.leases.Leases.post`). The rows a change
makes due are written in the same transaction as the change (:meth:`~bot.manager.store.LiveGame.due_work`); a
row is replaced by one write (old rows of its kind deleted, the new one inserted); every timer re-checks its
game when it fires; and at start-up :meth:`TurnTimers.sweep` gives the rows any running game lacks. So a crash
at any moment leaves every game with the timer that moves it on.

The dispatcher (:meth:`TurnTimers.start`) is one task that sleeps until the next stored timer is due, or until
it is woken: when a timer is added, or when the clock moves (a clock with ``subscribe``, like
:class:`~bot.manager.clock.ManualClock`, wakes it at once, so tests advance time without sleeping). It tells the
bot layer through the :class:`Notifier`, outside the game's lock.

Across processes (PostgreSQL) each due row is served by one process: it claims the row for a lease
(``claim_due_timers``), renews the leases of the rows it holds while it serves them (a slow AI, a slow post;
at most ``MAX_RENEWALS`` thirds of a lease), and the timer write that completes a row is fenced by the claim
(LeaseLost, nothing written, no notification, when another process took the row over); moves are guarded by
the game's version. A process killed with ``kill -9`` loses its claims when their lease ends (30 s by default)
and another process serves them then: no reminder, absent-player announcement or turn, AI move or turn message
(but for the windows above) is done twice, and none is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot.manager import lobbies
from bot.manager.clock import Clock
from bot.manager.cluster import Member
from bot.manager.leases import Leases
from bot.manager.moves import Collector, Moves
from bot.manager.notifier import Notifier, NullNotifier, announcement, current
from bot.manager.read import Outcome, outcome_of
from bot.manager.refusals import Refused
from bot.manager.store import (
    LOBBY_TIMER,
    PARKED_FOR,
    PARKED_STAGE,
    RESUME_GRACE,
    RESUME_TIMER,
    TURN_TIMER,
    GameStore,
    LiveGame,
)
from bot.manager.tell import (
    ABSENT_TIMER,
    ANNOUNCE_KINDS,
    NOTICE_TIMER,
    REMIND_TIMER,
    TELL_TIMER,
    absent,
    reminder,
)
from bot.storage import (
    OPEN_STATUSES,
    GameNotFound,
    LeaseLost,
    NewTimer,
    StorageBroken,
    StorageError,
    StorageUnavailable,
    Timer,
    TimerChange,
    VersionConflict,
)

__all__ = ["Notifier", "NullNotifier", "TurnTimers"]

log = logging.getLogger(__name__)


def _set_result_unless_cancelled(future: asyncio.Future[None], result: None) -> None:
    # the name asyncio.sleep's own callback has (asyncio.futures._set_result_unless_cancelled)
    if not future.done():
        future.set_result(result)


def _ids_of(rows: list[Timer]) -> Callable[[], Awaitable[list[int]]]:
    async def ids() -> list[int]:
        return [t.id for t in rows]

    return ids


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
        store.on_timers_written = self._poke
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
        kind: str,
        due: datetime,
        payload: dict[str, Any],
        served: Timer,
        also: tuple[NewTimer, ...] = (),
        clear: tuple[str, ...] = (),
    ) -> None:
        """The game's one row of `kind` is now this one (in one write, while this process holds `served`), with
        the rows `also` (the announcements this step owes, bot.manager.tell) and none left of the kinds
        `clear`."""
        change = TimerChange(clear=(kind, *clear), add=(NewTimer(kind, due, payload), *also))
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
        repo = self._store.repo
        owner = self.member.process_id
        # claimed for a lease: no other process serves these rows meanwhile (the change that serves a row
        # replaces or deletes it; a row this process cannot serve is served by anyone once the lease ends)
        try:
            due = await repo.claim_due_timers(owner, self._clock.now(), lease=self.member.lease, limit=limit)
        except StorageBroken as exc:  # the rows stay, to be served once the database is fixed
            log.error("storage cannot be used: %s. %s", exc, exc.advice)
            raise StorageUnavailable(str(exc)) from exc
        if not due:
            return 0
        renewing = asyncio.create_task(self.leases.renew(_ids_of(due)), name="ttr-timer-leases")
        try:
            await self._serve(due)
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        return len(due)

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
        notes: list[Callable[[], Awaitable[None]]] = []
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
            if mine.kind == TELL_TIMER:  # a turn message owed (the final scores too): its note clears the row
                if game.turn_message_owed() is not None and not game.ai_seats_to_act():
                    post = functools.partial(self.notifier.on_turn, game.id, outcome_of(game, out))
                    notes.append(functools.partial(self.leases.post, game.id, mine, post))
                else:
                    await self.ensure(game, mine)
            elif mine.kind == NOTICE_TIMER:  # an expired lobby's notice, not posted (a crash before the post)
                if lobbies.notice_owed(game):
                    notes.append(
                        functools.partial(self.announce_expiry, game.id, lobbies.expired_outcome(game))
                    )
                else:
                    await self.ensure(game, mine)
            elif mine.kind in ANNOUNCE_KINDS:  # a reminder or absent-player announcement left by a crash
                if current(game, mine):
                    send = announcement(self.notifier, game.id, mine)
                    notes.append(functools.partial(self.leases.post, game.id, mine, send))
                else:  # stale: the wait it was written for is over (a move meanwhile): dropped, not sent late
                    log.info("timer %s of game %s: %s no longer current", mine.id, game.id, mine.kind)
                    await store.repo.delete_timer(mine.id, owner=self.member.process_id)
                    game.timers = [t for t in game.timers if t.id != mine.id]
            elif game.status not in OPEN_STATUSES:  # over: no row but a final message owed
                await self.ensure(game, mine)
            elif mine.kind == RESUME_TIMER:
                await self.after_change(game, out)
                if game.waiting()[1]:  # the AI could not finish (logged): try again a little later
                    await self._set(game, RESUME_TIMER, self._clock.now() + RESUME_GRACE, {}, mine)
                elif any(t.id == mine.id for t in game.timers):
                    await self._drop(game, mine)
            elif mine.kind == TURN_TIMER:
                await self._fire_turn(game, mine, out, notes)
            elif mine.kind == LOBBY_TIMER:  # a lobby nobody started
                await lobbies.fire(store, self._clock, self.announce_expiry, game, mine, notes)
            else:
                await store.change_timers(
                    game, TimerChange(clear=(mine.kind,)), fence=self._fence(game, mine)
                )
            if out.events:
                outcome = outcome_of(game, out)
                notes.append(functools.partial(self.notifier.on_turn, game.id, outcome))
        for note in notes:  # outside the lock: the bot may call back into the manager
            try:
                await note()
            except Exception:
                log.exception("notifier failed for game %s", timer.game_id)

    async def _fire_turn(
        self, game: LiveGame, timer: Timer, out: Collector, notes: list[Callable[[], Awaitable[None]]]
    ) -> None:
        humans, _ai = game.waiting()
        others = [t for t in game.timers if t.kind == TURN_TIMER and t.id != timer.id]
        if not humans or any(
            int(t.payload.get("stage", 0)) > int(timer.payload.get("stage", 0)) for t in others
        ):
            # nobody to wait for, or a duplicate behind another: the rows needed now
            await self.ensure(game, timer)
            return
        # (a duplicate left by an older version goes with this one: every path below rewrites the kind)
        settings = game.settings
        now = self._clock.now()
        key = game.wait_key()
        stage = int(timer.payload.get("stage", 0))
        if timer.payload.get("key") != key:  # armed for a wait that is over: this wait began at the last move
            due = game.last_move_at + timedelta(hours=settings.remind_after_hours)
            if due > now:
                await self._set(game, TURN_TIMER, due, {"key": key, "stage": 0}, timer)
                return
            stage = 0
        if stage >= PARKED_STAGE:
            await self._set(game, TURN_TIMER, now + PARKED_FOR, {"key": key, "stage": PARKED_STAGE}, timer)
            return
        if stage < 2:  # reminder stage + 1: its rows are written with the re-arm that passes the stage
            wait = settings.remind_again_hours if stage == 0 else settings.absent_after_hours
            owed = tuple(
                reminder(now, key, seat, user_id, stage + 1)
                for seat in humans
                if (user_id := game.seats[seat].user_id) is not None
            )
            payload = {"key": key, "stage": stage + 1}
            due = now + timedelta(hours=wait)
            await self._set(game, TURN_TIMER, due, payload, timer, owed, clear=(REMIND_TIMER,))
            if owed:
                notes.append(functools.partial(self._announce, game.id, REMIND_TIMER, key, keep=False))
            return
        # a player who has started their turn is there: the takeover waits the turn's grace time (the
        # absent-player delay) after their last action, never plays the rest of a turn they are playing
        # (a seat whose takeover began, its announcement row written with the policy's first move, did not start
        # its turn itself: a process that died between the policy's moves left it half-played; it goes on now)
        taken = {
            int(t.payload.get("seat", -1))
            for t in game.timers
            if t.kind == ABSENT_TIMER and t.payload.get("key") == key
        }
        grace_end = game.last_move_at + timedelta(hours=settings.absent_after_hours)
        if any(game.turn_started(seat) for seat in humans if seat not in taken) and grace_end > now:
            await self._set(game, TURN_TIMER, grace_end, {"key": key, "stage": 2}, timer)
            return
        # the announcements: written with the re-arm that parks the row ("wait"), or with each seat's first
        # move ("ai", "skip": announced exactly when a move is made); once per seat and wait
        policy = settings.absent_policy
        announced = {
            seat: absent(now, key, seat, game.seats[seat].user_id, policy)
            for seat in humans
            if seat not in taken
        }
        notes.append(functools.partial(self._announce, game.id, ABSENT_TIMER, key, keep=policy != "wait"))
        if policy == "wait":
            payload = {"key": key, "stage": PARKED_STAGE}
            parked = tuple(announced.values())
            await self._set(game, TURN_TIMER, now + PARKED_FOR, payload, timer, parked, clear=(REMIND_TIMER,))
            return
        try:
            for seat in humans:
                await self._moves.play_absent(game, seat, policy, out, announced.get(seat))
        except VersionConflict:  # someone else moved the game: announced only for the moves made (their rows)
            self._store.evict(game.id)
            return
        await self.after_change(game, out)
        # this row is spent: the next wait gets its own chain (written with the deletion)
        game.timers = [t for t in game.timers if t.kind != TURN_TIMER]
        change = game.due_work(self._clock.now())
        await self._store.change_timers(
            game,
            dataclasses.replace(change, clear=tuple({*change.clear, TURN_TIMER})),
            fence=self._fence(game, timer),
        )

    async def _announce(self, game_id: str, kind: str, key: str, *, keep: bool) -> None:
        """Post the reminders or absent-player announcements (rows of `kind`, one per seat) this process just
        wrote for the wait `key`, each once (:meth:`Leases.post`: while this process holds the row; deleted once
        the notifier returned). `keep`: more rows of the game are held for a message to come (the turn message
        after absent-player moves): their lease is renewed again afterwards."""
        repo = self._store.repo
        rows = await self._store.storage(lambda: repo.timers_for_game(game_id, kind))
        for i, row in enumerate(r for r in rows if r.payload.get("key") == key):
            if i:
                self.leases.keep(game_id)  # (the post before stopped the renewal)
            try:
                await self.leases.post(game_id, row, announcement(self.notifier, game_id, row))
            except Exception:  # the row stays: served again when its lease ends
                log.exception("notifier failed for game %s", game_id)
        if keep:
            self.leases.keep(game_id)

    async def announce_expiry(self, game_id: str, outcome: Outcome) -> None:
        """The notifier hears that the lobby `game_id` expired, once: through its ``notice`` row, while this
        process holds it (:mod:`bot.manager.lobbies`)."""
        rows = await self._store.repo.timers_for_game(game_id, NOTICE_TIMER)
        post = functools.partial(self.notifier.on_lobby_expired, game_id, outcome)
        if rows:
            await self.leases.post(game_id, rows[0], post)
        else:
            log.info("game %s: no expiry notice owed any more", game_id)

    # ------------------------------------------------------------------ the dispatcher

    @property
    def running(self) -> bool:
        return self._task is not None

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

    async def _sleep(self, seconds: float) -> None:
        """``asyncio.sleep(seconds)``, cut short by :meth:`_poke`. Built the way asyncio.sleep is (a future the
        loop resolves later), so a harness with virtual time (SimCord) sees a plain sleep."""
        loop = asyncio.get_running_loop()
        self._sleeper = loop.create_future()
        handle = loop.call_later(seconds, _set_result_unless_cancelled, self._sleeper, None)
        try:
            await self._sleeper
        finally:
            handle.cancel()
            self._sleeper = None

    async def _dispatch_loop(self) -> None:
        backoff = 1.0
        while True:
            try:
                self._woken = False
                if await self.run_due():
                    continue
                nxt = await self._store.repo.next_timer_servable()
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
                log.warning("timer dispatcher: storage problem (%s); retrying in %.0f s", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)
            except Exception:
                log.exception("timer dispatcher failed; restarting in %.0f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 60.0)

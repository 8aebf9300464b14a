"""The leases this process holds on timer rows, and the messages it owes under them.

A row is claimed for a lease (``claim_due_timers``, or by the write that owes a message: bot.manager.tell);
while this process serves it (a slow AI, a slow post) the lease is renewed every third of a lease, for at most
``MAX_RENEWALS`` renewals. An owed message (a turn message, the final scores, an expired lobby's notice, a
reminder, an absent-player announcement) is posted only while this process still holds its row, and its row
goes once posted; a post that raised leaves the row, served again when the lease ends, and is given up after
``MAX_POST_FAILURES`` tries in this process. See bot.manager.timers for the rows and the dispatcher."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.manager.clock import Clock
from bot.manager.cluster import Member
from bot.manager.store import GameStore
from bot.manager.tell import TOLD_THROUGH
from bot.manager.timer_rows import HELD_KINDS, TimerKind
from bot.storage import StorageError, Timer

__all__ = ["MAX_POST_FAILURES", "MAX_RENEWALS", "Leases"]

log = logging.getLogger(__name__)

#: a batch of rows keeps its leases for at most this many renewals (a third of a lease each): 10 leases
MAX_RENEWALS = 30
#: an owed message whose post raised this many times in this process (a bug, not Discord refusing it: that is
#: logged and dropped by the bot) is given up: its row deleted, with an error for the host, not tried forever
MAX_POST_FAILURES = 10


class Leases:
    """This process's (`member`'s) leases on the timer rows of `store`: renewed while served; owed messages
    posted under them."""

    def __init__(self, store: GameStore, member: Member, clock: Clock) -> None:
        self._store = store
        self.member = member
        self._clock = clock
        #: game -> the task renewing the lease of the row a write of this process claimed (see :meth:`keep`)
        self.keeping: dict[str, asyncio.Task[None]] = {}
        self._post_failures: dict[int, int] = {}  # row id -> failed posts of its message in this process
        #: a clean stop began (:meth:`finish`): no owed message starts any more; those in flight finish
        self.closing = False
        self._posting = 0  # posts of :meth:`post` under way (the message, then its row's deletion)
        #: games whose turn message the bot posts now (:meth:`may_tell` said yes), until its note is written
        self._telling: set[str] = set()

    def stop(self) -> None:
        """No more renewals of the rows written by this process (they are served again after their lease)."""
        for keeping in list(self.keeping.values()):
            keeping.cancel()

    async def renew(self, rows: Callable[[], Awaitable[list[int]]]) -> None:
        """While this process serves claimed rows (a slow AI, a slow post), their leases are extended every third
        of a lease: no other process takes over a row a live process is serving. `rows`: the ids of the rows
        to renew now (none left: stop). Work hung for ``MAX_RENEWALS / 3`` leases (a post that never
        returns) lets its rows go: another process serves them (this one's fenced writes then write nothing; a
        post it still makes is the one double left). Only those rows: a row whose post failed is not kept
        alive by other work, it is served again when its lease ends."""
        every = self.member.lease / 3
        for _ in range(MAX_RENEWALS):
            await asyncio.sleep(every)
            until = self._clock.now() + timedelta(seconds=self.member.lease)
            try:
                ids = await rows()
                if not ids or not await self._store.repo.renew_leases(self.member.process_id, until, ids):
                    return  # nothing held any more: served (or taken over)
            except StorageError as exc:  # the fence still stops a second completion
                log.warning("could not renew the timer leases (%s)", exc)
        log.warning("timer rows served for %d leases: left to the other processes", MAX_RENEWALS // 3)

    def keep(self, game_id: str) -> None:
        """A write of this process claimed a ``tell`` or ``notice`` row of `game_id` (it owes that message and
        posts it now: a click that made AI seats move, an expired lobby): its lease is renewed while the
        message is built and posted, so no other process takes the row over meanwhile (the dispatcher's own
        renewal, :meth:`renew`, until the note clears the row or the claim is lost)."""
        task = self.keeping.get(game_id)
        if task is not None and not task.done():
            return
        task = asyncio.get_running_loop().create_task(
            self.renew(functools.partial(self._owed_rows, game_id)), name=f"ttr-keep-{game_id}"
        )
        self.keeping[game_id] = task
        task.add_done_callback(functools.partial(self._kept, game_id))

    def release(self, game_id: str) -> None:
        """The row :meth:`keep` renews is gone (this process's note cleared it) or its post failed."""
        self._telling.discard(game_id)
        keeping = self.keeping.pop(game_id, None)
        if keeping is not None:
            keeping.cancel()

    def _kept(self, game_id: str, task: asyncio.Task[None]) -> None:
        if self.keeping.get(game_id) is task:
            del self.keeping[game_id]

    async def _owed_rows(self, game_id: str) -> list[int]:
        """The ``tell`` and ``notice`` rows of `game_id` this process still holds."""
        owner, repo = self.member.process_id, self._store.repo
        rows = [t for t in await repo.timers_for_game(game_id) if t.kind in HELD_KINDS]
        return [row.id for row in rows if await repo.holds_timer(row.id, owner)]

    async def post(self, game_id: str, timer: Timer, post: Callable[[], Awaitable[None]]) -> None:
        """Post an owed message (the turn message, the final scores of a game an automatic move ended, the
        notice of an expired lobby) once: only while this process still holds its row `timer` (its lease
        renewed meanwhile), and the note the bot writes once the post is acknowledged clears the row. A notifier
        that took the message without that note (no bot attached) has the row deleted here; one that failed (or
        a kill) leaves it, to be served again when its lease ends."""
        owner = self.member.process_id
        if self.closing:  # abandoned: its row is served by the next process (the clean stop frees the claims)
            log.info("timer %s of game %s: stopping, left to the next process", timer.id, game_id)
            self.release(game_id)
            return
        if not await self._store.repo.holds_timer(timer.id, owner):  # told meanwhile, or taken over
            log.info("timer %s of game %s: no longer this process's to serve", timer.id, game_id)
            return
        self._posting += 1
        try:
            await self._post(game_id, timer, post)
        finally:
            self._posting -= 1

    async def _post(self, game_id: str, timer: Timer, post: Callable[[], Awaitable[None]]) -> None:
        owner = self.member.process_id
        try:
            await post()
        except Exception:
            failures = self._post_failures[timer.id] = self._post_failures.get(timer.id, 0) + 1
            if failures >= MAX_POST_FAILURES:
                del self._post_failures[timer.id]
                log.error(
                    "game %s: its %s message failed %d times; given up (timer %s deleted)",
                    game_id, timer.kind, failures, timer.id,
                )  # fmt: skip
                with contextlib.suppress(StorageError):
                    await self._store.repo.delete_timer(timer.id, owner=owner)
            raise
        finally:  # posted (the row goes) or failed (served again once its lease ends): no more renewal
            self.release(game_id)
        self._post_failures.pop(timer.id, None)
        await self._store.repo.delete_timer(timer.id, owner=owner)

    async def may_tell(self, game_id: str, through: int) -> bool:
        """Whether this process may post the turn message owed by automatic moves of `game_id` up to log
        position `through`, checked just before it does (the fence of a message whose row the writer claimed):
        not when a posted message told that far already (the ``told_through`` note: another process served the
        row), nor when the game's ``tell`` row is another process's (it took the row over and posts it)."""
        repo, owner = self._store.repo, self.member.process_id
        if self.closing:  # a clean stop: not started now, left to the next process (posted once, by it)
            self.release(game_id)
            return False
        rows = await self._store.storage(lambda: repo.timers_for_game(game_id, TimerKind.TELL))
        # the note is read after the rows: the other process's note clears its row in the same transaction, so
        # rows gone means that note is seen here (read the other way round, both could be missed)
        game = await self._store.get(game_id)
        if int(game.raw_settings.get(TOLD_THROUGH) or 0) >= through:
            return False
        mine = not rows or any([await repo.holds_timer(row.id, owner) for row in rows])
        if mine and rows:  # in flight until its note clears the row (:meth:`release`)
            self._telling.add(game_id)
        return mine

    async def finish(self, timeout: float) -> bool:
        """A clean stop (SIGTERM, a deploy): no owed message starts any more (each is left, unposted, to the
        next process: the stop frees this process's claims), and the ones in flight (posted, their note or
        deletion not yet written) finish, for at most `timeout` seconds, so none is posted twice. Returns
        whether they all did (else they are in the kill -9 window: maybe posted again after the lease)."""
        self.closing = True
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (self._posting or self._telling) and loop.time() < end:
            await asyncio.sleep(0.01)
        if self._posting or self._telling:
            log.warning(
                "stopping with %d message(s) in flight: they may be posted again",
                self._posting + len(self._telling),
            )
            return False
        return True

"""The daily digest by direct message (issue 33, item 4): a player who turned it on (``/ttr prefs digest:``) gets,
once a day at the minute of their day they chose (their time zone, bot.manager.player_time), never in their quiet
hours (it waits for their end), the list ``/ttr games`` shows; nothing on a day they sit in no open game.

A digest is not a timer row (those belong to a game): it is a ``digests`` row per player
(bot.storage._digests), whose ``due_at`` is the moment the next one is owed. The dispatcher
(:meth:`bot.manager.timers.TurnTimers.run_due`) serves the due ones: the process that moves ``due_at`` on from the
value it read (a compare-and-set) sends the digest, so two processes never both send one day's. It is moved on
before the send: a process killed between the two loses that day's digest rather than sending it twice.

The manager gives facts (the player's id); the bot layer makes the words (``Notifier.on_digest``)."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Protocol

from bot.manager.clock import Clock
from bot.manager.player_time import next_digest, parse_clock, quiet_over
from bot.manager.refusals import Refused
from bot.manager.store import GameStore
from bot.storage import OPEN_STATUSES, Digest

if TYPE_CHECKING:
    from bot.manager.notifier import Notifier

__all__ = ["DEFAULT_DIGEST", "DailyDigests", "next_digest", "parse_digest", "serve_digests"]

log = logging.getLogger(__name__)
DEFAULT_DIGEST = 8 * 60  # ``digest:on``: 08:00, their time


class Dispatcher(Protocol):
    """What of the dispatcher (`bot.manager.timers.TurnTimers`) serving the digests uses."""

    _store: GameStore
    _clock: Clock
    notifier: Notifier


def parse_digest(text: str) -> int | None:
    """``"on"`` (08:00), ``"18:30"`` or ``"7"`` -> minutes after midnight; ``"off"`` -> None; ValueError else."""
    word = text.strip().lower()
    if word in ("off", "none", "no", "-"):
        return None
    if word in ("on", "yes"):
        return DEFAULT_DIGEST
    return parse_clock(word)


async def serve_digests(timers: Dispatcher, limit: int = 100) -> int:
    """Send the digests due by the clock now, each by the one process that moves it on. Returns how many rows
    were looked at."""
    repo, now = timers._store.repo, timers._clock.now()
    due = await repo.due_digests(now, limit)
    for digest in due:
        prefs = await repo.load_player_time(digest.user_id)
        awake = quiet_over(now, prefs)
        if awake > now:  # their quiet hours began since it was scheduled: it waits for their end
            await repo.move_digest(digest.user_id, digest.due_at, awake)
            continue
        if not await repo.move_digest(
            digest.user_id, digest.due_at, next_digest(now, digest.at_minute, prefs)
        ):
            continue  # another process moved it first: that one sends it
        if not await repo.games_for_player(digest.user_id, status=OPEN_STATUSES, limit=1):
            continue  # no open game: nothing to say today
        try:
            await timers.notifier.on_digest(digest.user_id)
        except Exception:
            log.exception("the daily digest of a player failed")
    return len(due)


class DailyDigests:
    """A player's daily digest (a base class of :class:`bot.manager.GameManager`)."""

    _store: GameStore
    clock: Clock

    async def daily_digest(self, user_id: int) -> int | None:
        """The minute of their day the player's digest is sent at; None: off."""
        repo = self._store.repo
        found: Digest | None = await self._store.storage(lambda: repo.load_digest(user_id))
        return None if found is None else found.at_minute

    async def set_daily_digest(self, user_id: int, digest: str | None = None) -> int | None:
        """Turn the player's digest on at a time of their day (``"on"``, ``"18:00"``) or off (``"off"``); None:
        keep it, scheduled again from their time preferences now (after a change of time zone or quiet hours).
        A value that cannot be read is refused (``bad_time_pref``). Returns the minute it is sent at, or None."""
        repo, now = self._store.repo, self.clock.now()
        if digest is None:
            at = await self.daily_digest(user_id)
        else:
            try:
                at = parse_digest(digest)
            except ValueError:
                raise Refused("bad_time_pref", name="digest", value=digest) from None
        if digest is None and at is None:
            return None
        prefs = await self._store.storage(functools.partial(repo.load_player_time, user_id))
        due = None if at is None else next_digest(now, at, prefs)
        await self._store.storage(lambda: repo.save_digest(user_id, at, due))
        if due is not None:  # this process's dispatcher may sleep past it: it looks again
            self._store.on_timers_written(due)
        return at

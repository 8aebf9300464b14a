"""What the host reads of a database that is down: one ERROR line when the outage begins, one WARNING when it
ends, whatever the number of requests refused meanwhile.

A player's request during an outage is refused (``storage_down``: "cannot be reached right now; nothing was
changed"; ``storage_unavailable`` when the host must act); a log line per request would bury the host under
thousands of identical errors (every command, every page of the live map, every retry). So the manager's
:class:`~bot.manager.store.GameStore` keeps one :class:`Outage`, which the chat and the live map share through
the manager: :meth:`Outage.failed` from every place that gives up on the database (requests, the timer
dispatcher), :meth:`Outage.recovered` after every storage call that worked. A fault of the bot itself
(:class:`~bot.storage.StorageBug`) is not an outage: it is logged each time, as any bug.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.storage import StorageBroken, StorageDown, StorageError

__all__ = ["Outage"]

log = logging.getLogger(__name__)


class Outage:
    """Whether the database is down, as this process last saw it, and the host's lines about it.
    `clock`: seconds, monotonic (the outage's length in the line that ends it)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._began: float | None = None
        self._refused = 0
        self._writes_only = False  # the outage is of writes (a read-only or full disk): reads do not end it

    @property
    def down(self) -> bool:
        """An outage is under way (its ERROR line is written): further faults are only counted."""
        return self._began is not None

    def failed(self, exc: StorageError) -> None:
        """The database could not be used (retries spent, or a fault no retry can fix): the ERROR line once
        per outage, with the cause (and, for a fault the host must fix, what to do); after that, counted."""
        if self._began is not None:
            self._refused += 1
            log.debug("storage still cannot be used: %s", exc)
            return
        self._began = self._clock()
        self._refused = 1
        self._writes_only = isinstance(exc, StorageBroken)
        if isinstance(exc, StorageBroken):
            log.error(
                "storage cannot be used: %s. %s (players are told nothing was changed; logged once until it"
                " works again)",
                exc,
                exc.advice,
            )
        else:
            log.error(
                "storage cannot be reached: %s (players are told nothing was changed; logged once until it is"
                " back)",
                exc,
            )

    def recovered(self, *, wrote: bool = False) -> None:
        """A storage call worked (`wrote`: a write): an outage under way ends (one WARNING line, its length and
        what it refused). A fault the host must fix (a read-only file, a full disk) often lets reads through:
        only a write ends that one."""
        if self._began is None or (self._writes_only and not wrote):
            return
        lasted, refused = self._clock() - self._began, self._refused
        self._began = None
        self._refused = 0
        log.warning(
            "storage works again after %.0f s down (%d refusals or failed tries meanwhile)", lasted, refused
        )

    def retrying(self, exc: StorageError, doing: str = "") -> bool:
        """A storage call failed and may be tried again (`doing`: " while ..."): a WARNING while the database is
        believed up, DEBUG during an outage (its ERROR line said it all). Whether to try again: not when the
        database is known to be down and refuses again (nothing was sent; the player hears at once instead of
        after every retry's wait)."""
        if self.down and isinstance(exc, StorageDown):
            log.debug("storage still down%s (%s)", doing, exc)
            return False
        log.log(
            logging.DEBUG if self.down else logging.WARNING,
            "storage unavailable%s (%s), retrying",
            doing,
            exc,
        )
        return True

"""The manager's one door: only :class:`~bot.manager.refusals.Refused` leaves it.

Every public coroutine of :class:`bot.manager.GameManager` (its queries and commands) turns a storage fault that
reaches it into the refusal of issue 22's classification (:mod:`bot.manager.retries`): retry now (``storage``),
retry later (``storage_down``), the host must act (``storage_unavailable``), and a game gone is ``no_game``,
never a fault of the database. So the presentation (bot.play, bot.web) catches ``Refused`` alone and never
imports bot.storage. The lifecycle (start, close, join_cluster...) is the composition root's and lets its
errors through: a database the bot cannot use stops the start-up.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.manager.outage import Outage
from bot.manager.refusals import Refused
from bot.manager.retries import broken_refusal, gave_up
from bot.storage import (
    GameNotFound,
    LeaseLost,
    PlaceTaken,
    StorageBroken,
    StorageError,
    StorageUnavailable,
    VersionConflict,
)

__all__ = ["LIFECYCLE", "as_refused", "only_refusals"]


#: Public coroutines that are not requests: the start-up and the stop own their errors.
LIFECYCLE = frozenset({"start", "close", "join_cluster", "finish_posts", "run_due_timers"})

C = TypeVar("C", bound=type)


def as_refused(exc: StorageError, outage: Outage) -> Refused:
    """The refusal a player reads for a storage fault (and, for the database's, the host's one line per outage
    of `outage`)."""
    if isinstance(exc, GameNotFound):
        return Refused("no_game", game=exc.game_id)
    if isinstance(exc, PlaceTaken):
        return Refused("channel_busy", game=exc.game_id)
    if isinstance(exc, VersionConflict | LeaseLost):
        return Refused("conflict")
    if isinstance(exc, StorageBroken):
        return broken_refusal(exc, outage)
    if isinstance(exc, StorageUnavailable):
        return gave_up(exc, outage)
    outage.failed(exc)  # (the stores classify every driver error: a new kind counts as the database down)
    return Refused("storage_down")


def _guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except StorageError as exc:
            raise as_refused(exc, args[0].outage) from exc

    guarded.__only_refusals__ = True  # type: ignore[attr-defined]
    return guarded


def only_refusals(cls: C) -> C:
    """Class decorator: every public coroutine method of `cls` (its bases' included) lets only Refused out.
    `cls` has an ``outage`` (:class:`~bot.manager.outage.Outage`): the host's lines about the database."""
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if name.startswith("_") or name in LIFECYCLE or not inspect.iscoroutinefunction(value):
                continue
            if not getattr(getattr(cls, name), "__only_refusals__", False):
                setattr(cls, name, _guarded(getattr(cls, name)))
    return cls

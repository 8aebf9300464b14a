"""Hooking the metrics to the parts the composition root builds (bot.wiring), through what they already offer:

* the repository: its public coroutine methods are wrapped on the instance (not the class) so that every
  storage error reaching the bot is counted by class, each stored move (``append_action``: the move's one
  transaction) by its action's kind, and the timer rows claimed a lease or more after they were due (taken over
  from a process that stopped serving them, or late);
* the pictures: each picture's time (the render pool's queue included);
* the render pool's own counters (jobs in flight, replaced workers) and the live map's open pages, read at
  scrape time;
* the database's timer rows and games, read at scrape time (``cluster_status``, the query `ttr cluster-status`
  makes).
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from bot.ops.metrics import Metrics, Sampled
from bot.storage import GameRepository, StorageError

#: An action's kind as the engine names it (``claim_route``); anything else is counted as "other".
_KIND = re.compile(r"[a-z][a-z_]{0,31}")
PICTURES = ("board", "hand", "ticket_map", "summary")


def action_kind(action: Mapping[str, Any]) -> str:
    kind = action.get("type") if isinstance(action, Mapping) else None
    return kind if isinstance(kind, str) and _KIND.fullmatch(kind) else "other"


def watch_repository(repo: GameRepository, metrics: Metrics) -> GameRepository:
    """Count `repo`'s storage errors by class and its stored moves by kind (wraps its methods in place)."""
    for name, _method in inspect.getmembers(type(repo), inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue
        method = _counted(getattr(repo, name), metrics)
        counted = _COUNTS.get(name)
        setattr(repo, name, counted(method, metrics) if counted is not None else method)
    return repo


def _claims_counted(method: Callable[..., Awaitable[Any]], metrics: Metrics) -> Callable[..., Any]:
    """Rows claimed more than a lease after they were due: taken over from a process whose lease ran out (killed,
    stalled), or served that late. (A claim does not say whose lease it ended: this is the figure that shows both.)"""
    late = metrics.timers_claimed_late

    @functools.wraps(method)
    async def claim(owner: str, now: datetime | None = None, *, lease: float = 30.0, limit: int = 100) -> Any:
        rows = await method(owner, now, lease=lease, limit=limit)
        moment = now or datetime.now(UTC)
        taken = sum(1 for row in rows if (moment - row.due_at).total_seconds() > lease)
        if taken:
            late.inc(taken)
        return rows

    return claim


def _moves_counted(method: Callable[..., Awaitable[Any]], metrics: Metrics) -> Callable[..., Any]:
    """Each stored move (``append_action``) counted by its action's kind, the action found by its parameter's name
    in the method's own signature (passed by position or keyword alike; no second copy of the signature)."""
    moves = metrics.moves
    signature = inspect.signature(method)

    @functools.wraps(method)
    async def append_action(*args: Any, **kwargs: Any) -> Any:
        record = await method(*args, **kwargs)
        moves.labels(action_kind(signature.bind(*args, **kwargs).arguments["action"])).inc()
        return record

    return append_action


#: the repository's methods with a figure of their own, by name (each also counts its storage errors)
_COUNTS: dict[str, Callable[[Callable[..., Awaitable[Any]], Metrics], Callable[..., Any]]] = {
    "append_action": _moves_counted,
    "claim_due_timers": _claims_counted,
}


def _counted(method: Callable[..., Awaitable[Any]], metrics: Metrics) -> Callable[..., Any]:
    errors = metrics.storage_errors

    @functools.wraps(method)
    async def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except StorageError as exc:
            errors.labels(type(exc).__name__).inc()
            raise

    return counted


def watch_pictures(pictures: Any, metrics: Metrics) -> None:
    """Time each picture `pictures` draws (wraps its methods in place); with a render pool, expose its counters."""
    for name in PICTURES:
        method = getattr(pictures, name, None)
        if method is not None and inspect.iscoroutinefunction(method):
            setattr(pictures, name, _timed(method, name, metrics))
    if hasattr(type(pictures), "pool"):  # PoolPictures: the render pool (made on first use)
        watch_render_pool(lambda: pictures.pool, metrics.sampled)


def _timed(method: Callable[..., Awaitable[Any]], name: str, metrics: Metrics) -> Callable[..., Any]:
    histogram = metrics.pictures

    @functools.wraps(method)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        result = await method(*args, **kwargs)
        label = "turn" if name == "board" and kwargs.get("turn") else name
        histogram.labels(label).observe(time.perf_counter() - started)
        return result

    return timed


def watch_render_pool(pool_of: Callable[[], Any], sampled: Sampled) -> None:
    """The render pool's counters (render.pool.RenderPool.warm_state), read at scrape time."""
    sampled.render_queue = lambda: sum(w.busy for w in pool_of().warm_state())
    sampled.render_restarts = lambda: sum(w.replaced for w in pool_of().warm_state())
    sampled.render_workers_up = lambda: sum(1 for pid in pool_of().worker_pids() if alive(pid))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch_map_pages(hub: Any, sampled: Sampled) -> None:
    """The live map's open pages (bot.web.live.LiveHub's games, each with its pages)."""
    sampled.map_pages = lambda: sum(len(game.pages) for game in list(getattr(hub, "_games", {}).values()))


def database_sampler(repo: GameRepository, *, now: Callable[[], datetime] | None = None) -> Any:
    """A sampler reading the timer rows and games of `repo` (all processes': the database is shared)."""

    async def database(sampled: Sampled) -> None:
        moment = now() if now is not None else datetime.now(UTC)
        status = await repo.cluster_status(moment, seen_within=60.0)
        sampled.timer_rows_due = status.timers_due
        sampled.timer_rows_claimed = status.timers_claimed
        sampled.timer_rows_later = status.timers_later
        late = 0.0 if status.next_due is None else (moment - status.next_due).total_seconds()
        sampled.oldest_overdue_seconds = max(0.0, late)
        sampled.games = dict(status.games_by_status)
        sampled.sampled_at = time.time()

    return database

"""The two halves of a kill-at-every-call test of durable work: the due rows served by a process whose storage
dies at its n-th call, then a fresh process on the same file that runs past the dead one's leases. The notifier
is the test's own fake bot: it gets the manager it talks back to (to write its notes) as ``manager``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.manager import GameManager, ManualClock
from bot.manager.ai import AIChooser
from bot.storage import GameRepository, open_repository
from helpers.manager_games import random_ai


class Killed(BaseException):
    """Stands for kill -9: nothing catches it, nothing after it runs."""


class KillAt:
    """A repository that dies instead of making its `at`-th call (every call counts, reads too)."""

    def __init__(self, inner: GameRepository, at: int | None) -> None:
        self._inner = inner
        self._at = at
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name.startswith("_") or not asyncio.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls == self._at:
                raise Killed(name)
            return await attr(*args, **kwargs)

        return call


async def serve_killed(
    path: Path, now: datetime, notifier: Any, at: int | None, ai: AIChooser = random_ai
) -> tuple[int, str]:
    """The rows due at `now` fire in a process whose storage dies at its `at`-th call (None: never); returns
    the calls made and what it died at ("" if it did not)."""
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        killer = KillAt(repo, at)
        manager = GameManager(killer, clock=clock, ai=ai, notifier=notifier, retry_delays=())  # type: ignore[arg-type]
        notifier.manager = manager
        died = ""
        try:
            await manager.run_due_timers()
        except Killed as exc:
            died = str(exc)
        await manager.timers.stop()  # (its lease keepers: nothing runs after a kill)
        return killer.calls, died


@asynccontextmanager
async def restarted_past_leases(
    path: Path, now: datetime, notifier: Any, ai: AIChooser = random_ai
) -> AsyncIterator[GameRepository]:
    """A fresh process on the file, its dispatcher running through two simulated minutes (the dead one's
    leases end, what they held is served); yields its repository, the process still up."""
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=ai, notifier=notifier)
        notifier.manager = manager
        await manager.start()
        try:
            for _ in range(4):
                await asyncio.wait_for(manager.timers.settled(), 10)
                clock.advance(seconds=31)
            await asyncio.wait_for(manager.timers.settled(), 10)
            yield repo
        finally:
            await manager.close()

"""This process among the bot processes that share one database: its identity (the owner of the timer rows it
claims), how long a claim lasts, and its heartbeat row (``ttr cluster-status`` reads them).

On PostgreSQL several processes may run, each with its own Discord shards; any of them may change any game
(the version guard and a version check on every cached read keep them right) and each due timer row is served
by exactly one of them (claimed with a lease, ``bot/storage/_cluster.py``). A process killed with its claims
loses them when their lease ends; another process serves them then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from dataclasses import dataclass, field
from datetime import datetime

from bot.manager.clock import Clock
from bot.manager.outage import Outage
from bot.storage import GameRepository, ProcessBeat, StorageBroken, StorageBug, StorageDown, StorageError

log = logging.getLogger(__name__)

#: how long a claimed timer row is this process's; a dead process's rows are served by another after it
DEFAULT_LEASE = 30.0


#: how often a process on PostgreSQL writes its heartbeat row
BEAT_EVERY = 10.0


def liveness(
    last_seen: datetime, now: datetime, *, every: float = BEAT_EVERY, lease: float = DEFAULT_LEASE
) -> str:
    """What a heartbeat row of this age says of its process (``ttr cluster-status``): ``up`` (beating: at most
    two beats missed), ``late`` (no beat for longer: stalled or just killed; the rows it claimed stay its own
    until their leases end), ``gone`` (no beat for a whole lease: dead or stalled past its leases, whose rows the
    other processes serve now; a clean stop removes its row instead). Only ``up`` processes cover shards."""
    age = (now - last_seen).total_seconds()
    if age <= 2 * every:
        return "up"
    return "late" if age < lease else "gone"


def new_process_id() -> str:
    """Unique among processes that ever ran: host, pid and a random part (a pid is reused after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass(slots=True)
class Member:
    """This process's identity and lease length; ``shard_ids`` as shown ("all", "0-3")."""

    process_id: str = field(default_factory=new_process_id)
    lease: float = DEFAULT_LEASE
    shard_ids: str = "all"
    shard_count: int | None = None
    started_at: datetime | None = None

    def beat_row(self, now: datetime) -> ProcessBeat:
        return ProcessBeat(
            self.process_id,
            socket.gethostname(),
            os.getpid(),
            self.shard_ids,
            self.shard_count,
            self.started_at or now,
            now,
        )


class Heartbeat:
    """Writes this process's heartbeat row every ``every`` seconds until stopped; on a clean stop the row goes
    and this process's claims are given back at once."""

    def __init__(
        self,
        repo: GameRepository,
        member: Member,
        clock: Clock,
        *,
        every: float = BEAT_EVERY,
        outage: Outage | None = None,
    ) -> None:
        self._repo = repo
        self._outage = outage or Outage()
        self.member = member
        self._clock = clock
        self._every = every
        self._task: asyncio.Task[None] | None = None
        self._started = False

    async def start(self, *, periodic: bool = True) -> None:
        """Write the row now and, when ``periodic``, every ``every`` seconds (other processes may share the
        database: on SQLite, one process per file, the row is written once and shows this process's pid)."""
        self.member.started_at = self.member.started_at or self._clock.now()
        await self._repo.beat(self.member.beat_row(self._clock.now()))
        self._started = True
        if periodic:
            self._task = asyncio.create_task(self._loop(), name="ttr-heartbeat")

    async def beat(self) -> None:
        """Write the row now (the shards changed: Discord told the count after the start)."""
        await self._repo.beat(self.member.beat_row(self._clock.now()))

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self.beat()
            except StorageError as exc:
                if isinstance(exc, StorageDown | StorageBroken) and not isinstance(exc, StorageBug):
                    self._outage.failed(exc)  # (the host's one line per outage, not one per beat)
                self._outage.retrying(exc, " for the heartbeat")
            else:
                self._outage.recovered(wrote=True)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if not self._started:
            return
        self._started = False
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await self._repo.forget_process(self.member.process_id)
        except StorageError as exc:
            log.warning("heartbeat row not removed (%s); it ages out", exc)

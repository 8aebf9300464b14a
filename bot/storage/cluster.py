"""What several bot processes over one database share: who runs (heartbeat rows), which timer rows a process
has claimed (leases), and the figures ``ttr cluster-status`` shows. The queries are in ``_cluster.py``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ProcessBeat:
    """One running bot process, as its heartbeat row says."""

    process_id: str
    host: str
    pid: int
    shard_ids: str  # "0-3", "0,2,4" or "all"
    shard_count: int | None
    started_at: datetime
    last_seen: datetime


@dataclass(frozen=True, slots=True)
class ClusterStatus:
    """What ``ttr cluster-status`` prints."""

    processes: list[ProcessBeat]
    games_by_status: dict[str, int]
    timers_due: int  # due now and not claimed (or their lease ended)
    timers_claimed: int  # claimed by a process whose lease still runs
    timers_later: int  # not yet due
    next_due: datetime | None

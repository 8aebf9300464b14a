"""The process's metrics, in Prometheus' format (the ``prometheus-client`` library).

One :class:`Metrics` per process (a registry of its own, so that tests and a second bot in one interpreter never
mix their figures). Labels are small fixed sets (an action's kind, an interaction's kind, a route template, a
status, an error class): never a player, a game, a guild, a channel, a token or any other id (tests/ops checks
the scraped text). Figures read from elsewhere at scrape time (the database's timer rows and games, the render
pool's own counters, the live map's open pages) come from :class:`Sampled`, refreshed by :meth:`Metrics.scrape`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

#: Answers to Discord's interactions must start within 3 s; the buckets are finer below that.
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
PICTURE_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.5, 5.0, 10.0)
#: How long a scrape waits for the figures it reads from the database before it answers with the last ones.
SAMPLE_TIMEOUT = 2.0

Sampler = Callable[["Sampled"], Awaitable[None]]


@dataclass
class Sampled:
    """Figures read at scrape time; -1 (or an empty dict) until first read."""

    timer_rows_due: int = -1
    timer_rows_claimed: int = -1
    timer_rows_later: int = -1
    oldest_overdue_seconds: float = 0.0
    games: dict[str, int] = field(default_factory=dict)
    sampled_at: float = 0.0  # time.time() of the last successful database read
    #: read synchronously at each scrape (the render pool's counters, the live map's pages)
    render_queue: Callable[[], int] | None = None
    render_workers_up: Callable[[], int] | None = None
    render_restarts: Callable[[], int] | None = None
    map_pages: Callable[[], int] | None = None


class _SampledCollector(Collector):
    def __init__(self, sampled: Sampled) -> None:
        self.sampled = sampled

    def collect(self) -> Iterator[Metric]:
        s = self.sampled
        if s.timer_rows_due >= 0:
            rows = GaugeMetricFamily(
                "ttr_timer_rows", "Timer rows (durable work) by state, all processes'", labels=["state"]
            )
            rows.add_metric(["due"], s.timer_rows_due)
            rows.add_metric(["claimed"], s.timer_rows_claimed)
            rows.add_metric(["later"], s.timer_rows_later)
            yield rows
            yield GaugeMetricFamily(
                "ttr_timer_oldest_overdue_seconds",
                "How long the oldest timer row that is due and free has waited to be served (0: none late)",
                value=s.oldest_overdue_seconds,
            )
            games = GaugeMetricFamily("ttr_games", "Games stored, by status", labels=["status"])
            for status, n in sorted(s.games.items()):
                games.add_metric([status], n)
            yield games
            yield GaugeMetricFamily(
                "ttr_database_sampled_timestamp_seconds",
                "When the figures read from the database were read (Unix time)",
                value=s.sampled_at,
            )
        for name, doc, read in (
            ("ttr_render_queue", "Pictures and warm jobs submitted to the render workers, not finished", s.render_queue),
            ("ttr_render_workers_up", "Render worker processes running", s.render_workers_up),
            ("ttr_map_pages_open", "Live map pages open on this process", s.map_pages),
        ):  # fmt: skip
            if read is not None:
                yield GaugeMetricFamily(name, doc, value=_safe(read))
        if s.render_restarts is not None:
            yield CounterMetricFamily(
                "ttr_render_worker_restarts", "Render worker processes that died and were replaced",
                value=_safe(s.render_restarts),
            )  # fmt: skip


def _safe(read: Callable[[], int]) -> int:
    try:
        return read()
    except Exception:  # a figure that cannot be read never fails the scrape
        log.debug("metric read failed", exc_info=True)
        return 0


class Metrics:
    """Every figure this process exposes. See the module docstring."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.moves = Counter(
            "ttr_moves", "Moves applied and stored by this process, by kind of action", ["kind"], registry=registry,
        )  # fmt: skip
        self.answer_seconds = Histogram(
            "ttr_interaction_answer_seconds",
            "From an interaction's arrival to the end of the bot's first answer to it, by kind "
            "(command, component: a button or menu, modal, autocomplete)",
            ["kind"], buckets=ANSWER_BUCKETS, registry=registry,
        )  # fmt: skip
        self.discord_requests = Counter(
            "ttr_discord_requests", "Requests to Discord's HTTP API, by method, route template and status",
            ["method", "route", "status"], registry=registry,
        )  # fmt: skip
        self.discord_seconds = Histogram(
            "ttr_discord_request_seconds", "Time of requests to Discord's HTTP API, by method and route template",
            ["method", "route"], registry=registry,
        )  # fmt: skip
        self.rate_limited = Counter(
            "ttr_discord_rate_limited", "Answers 429 from Discord (rate limited), by scope (user, global, shared)",
            ["scope"], registry=registry,
        )  # fmt: skip
        self.rate_limit_wait = Counter(
            "ttr_discord_rate_limit_wait_seconds",
            "Seconds Discord asked the bot to wait: Retry-After of 429 answers, and the reset of each bucket "
            "that the answer says is used up (discord.py waits them before the bucket's next request)",
            registry=registry,
        )
        self.pictures = Histogram(
            "ttr_picture_seconds", "Time to get a picture from the render workers, by picture",
            ["picture"], buckets=PICTURE_BUCKETS, registry=registry,
        )  # fmt: skip
        self.storage_errors = Counter(
            "ttr_storage_errors", "Storage errors raised to the bot, by class (VersionConflict: a race lost)",
            ["error"], registry=registry,
        )  # fmt: skip
        self.timers_claimed_late = Counter(
            "ttr_timer_rows_claimed_late",
            "Timer rows this process claimed more than a lease after they were due: taken over from a process "
            "whose lease ran out (killed, stalled), or served that late",
            registry=registry,
        )
        self.shards = Gauge(
            "ttr_gateway_shards",
            "Discord gateway shards of this process, by state",
            ["state"],
            registry=registry,
        )
        self.sampled = Sampled()
        registry.register(_SampledCollector(self.sampled))
        self.samplers: list[Sampler] = []
        self._sampling: asyncio.Lock | None = None

    async def refresh(self) -> None:
        """Read the scrape-time figures (at most one read at a time; a slow one gives up after SAMPLE_TIMEOUT and
        the last figures are served)."""
        if self._sampling is None:
            self._sampling = asyncio.Lock()
        if self._sampling.locked():
            return
        async with self._sampling:
            for sample in self.samplers:
                try:
                    await asyncio.wait_for(sample(self.sampled), SAMPLE_TIMEOUT)
                except Exception as exc:  # noqa: BLE001 - the scrape still answers, with the last figures
                    log.warning("metrics: cannot read %s (%s)", getattr(sample, "__name__", "figures"), exc)

    async def scrape(self) -> bytes:
        """The text Prometheus reads (its ``text/plain; version=0.0.4`` format)."""
        await self.refresh()
        return generate_latest(self.registry)

    def value(self, name: str, **labels: str) -> float | None:
        """One sample's value (tests, benches): ``value("ttr_moves_total", kind="draw_card")``."""
        return self.registry.get_sample_value(name, labels)

"""What the composition root (bot.wiring) runs to make the process observable: the metrics, the readiness
checks, Discord's traffic watch and the ``METRICS_PORT`` server. One object per process: the wiring gives it
each part as it builds it (the repository, the pictures, the live map's pages), the Discord adapter the bot."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from bot.config import Settings
from bot.ops.discord_watch import DiscordWatch
from bot.ops.endpoints import OpsServer, Readiness, routes
from bot.ops.metrics import Metrics
from bot.ops.watch import (
    alive,
    database_sampler,
    watch_map_pages,
    watch_pictures,
    watch_repository,
)
from bot.storage import GameRepository

log = logging.getLogger(__name__)


class Operations:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.readiness = Readiness()
        self.discord = DiscordWatch(self.metrics)
        self.server: OpsServer | None = None

    # ------------------------------------------------------------------ the parts

    def watch_repository(self, repo: GameRepository) -> None:
        """Count the repository's errors and moves; read its timer rows and games at scrape time; ready while
        it answers."""
        watch_repository(repo, self.metrics)
        self.metrics.samplers.append(database_sampler(repo))

        async def database() -> bool:
            await (
                repo.next_timer_due()
            )  # a real read of the bot's tables: the first entry of the timers' index
            return True

        self.readiness.add("database", database)

    def watch_pictures(self, pictures: Any) -> None:
        watch_pictures(pictures, self.metrics)
        if hasattr(type(pictures), "pool"):

            async def render_pool() -> bool:
                pool = pictures.pool
                return any(alive(pid) for pid in pool.worker_pids())

            self.readiness.add("render_pool", render_pool)

    def watch_map_pages(self, hub: Any) -> None:
        watch_map_pages(hub, self.metrics.sampled)

    def watch_bot(self, bot: Any) -> None:
        """The Discord bot (built by the adapter with :meth:`bot_options`): interactions' latency, shards."""
        self.discord.watch_bot(bot)

        async def gateway() -> bool:
            return self.discord.gateway_ready()

        async def shards(_sampled: object) -> None:  # (the gauge, at each scrape)
            self.discord.shards()

        self.readiness.add("gateway", gateway)
        self.metrics.samplers.append(shards)

    def bot_options(self) -> dict[str, Any]:
        return self.discord.bot_options()

    # ------------------------------------------------------------------ serving

    def routes(self) -> list[web.RouteDef]:
        return routes(self.metrics, self.readiness)

    @property
    def on_web_server(self) -> bool:
        """Whether the live map's web server serves the endpoints (no METRICS_PORT of their own)."""
        return self.settings.metrics_port is None

    async def start(self) -> None:
        if self.settings.metrics_port is not None:
            self.server = OpsServer(self.metrics, self.readiness, self.settings.metrics_port)
            await self.server.start()

    async def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            await server.stop()

"""``/metrics``, ``/healthz`` and ``/readyz``: on the live map's web server when it runs, and on ``METRICS_PORT``
(a small aiohttp application of their own) when that is set.

``/healthz`` says the process answers (its event loop runs). ``/readyz`` says it can do its work: each check of
:class:`Readiness` (the database answers, the gateway's shards are connected, the render pool is up) within a
short time; 503 with the failing checks' names otherwise. Neither says anything secret: check names and ``ok``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.config import SettingsError
from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)

#: A readiness check answers within this time, or counts as failed.
CHECK_TIMEOUT = 2.0

Check = Callable[[], Awaitable[bool]]


@dataclass
class Readiness:
    """Named checks, all of which must pass for ``/readyz``."""

    checks: dict[str, Check] = field(default_factory=dict)

    def add(self, name: str, check: Check) -> None:
        self.checks[name] = check

    async def failing(self) -> list[str]:
        names = list(self.checks)
        results = await asyncio.gather(*(self._one(self.checks[n]) for n in names))
        return [name for name, ok in zip(names, results, strict=True) if not ok]

    @staticmethod
    async def _one(check: Check) -> bool:
        try:
            return bool(await asyncio.wait_for(check(), CHECK_TIMEOUT))
        except Exception as exc:  # noqa: BLE001 - a check that raises is a failing check
            log.debug("readiness check failed: %s", type(exc).__name__)
            return False


def routes(metrics: Metrics, readiness: Readiness) -> list[web.RouteDef]:
    async def serve_metrics(_request: web.Request) -> web.Response:
        body = await metrics.scrape()
        response = web.Response(body=body)
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def healthz(_request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def readyz(_request: web.Request) -> web.Response:
        failing = await readiness.failing()
        checks = {name: name not in failing for name in readiness.checks}
        return web.json_response(
            {"status": "ready" if not failing else "unready", "checks": checks},
            status=503 if failing else 200,
        )

    return [web.get("/metrics", serve_metrics), web.get("/healthz", healthz), web.get("/readyz", readyz)]


class OpsServer:
    """``/metrics``, ``/healthz``, ``/readyz`` on a port of their own (``METRICS_PORT``)."""

    def __init__(self, metrics: Metrics, readiness: Readiness, port: int, host: str = "0.0.0.0") -> None:
        self.metrics, self.readiness, self.port, self.host = metrics, readiness, port, host
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.add_routes(routes(self.metrics, self.readiness))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:  # (said as a setting to change, not as Discord unreachable)
            await runner.cleanup()
            raise SettingsError(
                f"METRICS_PORT {self.port}: cannot listen there ({exc.strerror or exc})"
            ) from None
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        log.info("metrics and health checks on port %d", self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

"""Discord's traffic in the metrics: requests by route template and status through discord.py's ``http_trace`` (an
aiohttp trace config, here on a session against a fake Discord), rate-limit answers, interactions' answer time."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import pytest
from aiohttp import web
from ops_net import free_port

from bot.ops.discord_watch import DiscordWatch, route_template
from bot.ops.metrics import Metrics


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/v10/channels/123456789012345678/messages", "/channels/{id}/messages"),
        ("/api/v10/interactions/1111/aW50ZXJhY3Rpb246MTIz.secret/callback", "/interactions/{id}/{token}/callback"),
        ("/api/v10/webhooks/22/tok.en-secret/messages/@original", "/webhooks/{id}/{token}/messages/@original"),
        ("/api/v10/channels/1/messages/2/reactions/%F0%9F%9A%82/@me", "/channels/{id}/messages/{id}/reactions/{x}/@me"),
        ("/api/v10/guilds/5/members/search?query=Ann", "/guilds/{id}/members/search"),
        ("/api/v10/channels/1/Ann'sThread", "/channels/{id}/{x}"),
    ],
)  # fmt: skip
def test_route_templates_keep_only_the_apis_words(path: str, template: str) -> None:
    assert route_template(path) == template


async def fake_discord(port: int) -> web.AppRunner:
    async def callback(_request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def message(_request: web.Request) -> web.Response:
        return web.json_response({}, headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "1.5"})

    async def limited(_request: web.Request) -> web.Response:
        return web.json_response(
            {"retry_after": 2.0}, status=429, headers={"Retry-After": "2", "X-RateLimit-Scope": "user"}
        )

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    app.router.add_post("/api/v10/channels/{id}/messages", message)
    app.router.add_patch("/api/v10/channels/{id}", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


async def test_requests_rate_limits_and_answer_times_are_counted() -> None:
    metrics = Metrics()
    watch = DiscordWatch(metrics)
    port = free_port()
    runner = await fake_discord(port)
    api = f"http://127.0.0.1:{port}/api/v10"
    try:
        command = SimpleNamespace(id=777000111, type=SimpleNamespace(name="application_command"))
        await watch.interaction_arrived(command)
        async with aiohttp.ClientSession(trace_configs=[watch.trace]) as session:
            async with session.post(f"{api}/interactions/777000111/secret-token-abc/callback", json={}):
                pass
            async with session.post(f"{api}/channels/4242/messages", json={}):
                pass
            async with session.patch(f"{api}/channels/4242", json={}):
                pass
    finally:
        await runner.cleanup()

    value = metrics.value
    assert (
        value("ttr_discord_requests_total", method="POST", route="/channels/{id}/messages", status="200") == 1
    )
    assert value("ttr_discord_requests_total", method="PATCH", route="/channels/{id}", status="429") == 1
    assert (
        value(
            "ttr_discord_requests_total",
            method="POST",
            route="/interactions/{id}/{token}/callback",
            status="204",
        )
        == 1
    )
    assert value("ttr_discord_rate_limited_total", scope="user") == 1
    assert value("ttr_discord_rate_limit_wait_seconds_total") == pytest.approx(
        3.5
    )  # 429's 2 s, the bucket's 1.5
    assert value("ttr_interaction_answer_seconds_count", kind="command") == 1
    assert watch.arrived == {}  # answered: forgotten


class FakeShard:
    def __init__(self, closed: bool) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        return self.closed


class FakeBot:
    """What the watch reads of discord.py's AutoShardedBot."""

    def __init__(self) -> None:
        self.shard_ids = [0, 1]
        self.shard_count = 2
        self.shards = {0: FakeShard(False), 1: FakeShard(True)}
        self.ready = True
        self.listeners: list[tuple[object, str]] = []

    def is_ready(self) -> bool:
        return self.ready

    def add_listener(self, func: object, name: str) -> None:
        self.listeners.append((func, name))


async def test_readiness_waits_for_every_shard_of_the_process() -> None:
    from bot.config import Settings
    from bot.ops.operations import Operations

    ops = Operations(Settings())
    bot = FakeBot()
    ops.watch_bot(bot)
    assert [name for _f, name in bot.listeners] == ["on_interaction"]
    assert await ops.readiness.failing() == ["gateway"]  # shard 1 is not connected
    await ops.metrics.scrape()
    assert ops.metrics.value("ttr_gateway_shards", state="connected") == 1
    bot.shards[1].closed = False
    assert await ops.readiness.failing() == []
    bot.ready = False  # (logging in again)
    assert await ops.readiness.failing() == ["gateway"]

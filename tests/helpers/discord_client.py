"""A stand-in for Discord's client and its Activity proxy, for browser tests of the live map as an Activity.

One HTTPS server on 127.0.0.1 answers two host names, which chromium resolves to it
(`--host-resolver-rules`, see `chromium_args`):

- ``https://discord.com`` serves the client page (`discord_client_page/`): it frames the Activity the way
  Discord's client does and speaks the Embedded App SDK's postMessage protocol; the SDK accepts messages only
  from its own origin, a list of Discord origins (``https://discord.com`` among them) and ``null``
  (`ALLOWED_ORIGINS` in the SDK's output/Discord.mjs), so the client page is served from the real name.
- ``https://<client id>.discordsays.com`` is Discord's proxy in front of the Activity: every request (with or
  without the ``/.proxy`` prefix) and the WebSocket go to the map server, and the map server's
  Content-Security-Policy is replaced by one like Discord's.
- ``https://cdn.discordapp.com`` is Discord's CDN: ``/avatars/<user id>/<hash>.png`` answers the pictures added
  with `DiscordClient.add_avatar` (any other: 404), as a participant's avatar is fetched.

The certificate is self-signed (made by `openssl`), so the browser context ignores certificate errors; nothing
else is faked: the page runs its real build with the unmodified SDK.
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
import ssl
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

PAGE_DIR = Path(__file__).with_name("discord_client_page")
CLIENT_HOST = "discord.com"
#: Discord's CDN (participants' avatars): Discord's CSP lets an Activity show its pictures
CDN_HOST = "cdn.discordapp.com"
#: hop-by-hop headers a proxy never forwards, and those aiohttp sets itself
_NOT_FORWARDED = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "content-encoding",
    "accept-encoding",
}


def discord_csp(activity_host: str, nonce: str) -> str:
    """The Content-Security-Policy Discord's proxy puts on an Activity's answers instead of the app's own.

    `script-src` is the one Discord's proxy is seen sending (discord/embedded-app-sdk issue #321: "script-src
    'self' 'unsafe-eval' 'nonce-…' blob:"): no inline script without Discord's nonce, which the app never has.
    The rest keeps the Activity to its own mapped origin, as Discord's documentation says (external requests go
    through URL mappings): connections to itself only (HTTPS and WebSocket), no worker, no object, no frame."""
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' 'unsafe-eval' 'nonce-{nonce}' blob:",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob: https://cdn.discordapp.com https://media.discordapp.net",
            "font-src 'self' data:",
            f"connect-src 'self' https://{activity_host} wss://{activity_host}",
            "worker-src 'none'",
            "object-src 'none'",
            "frame-src 'none'",
            "base-uri 'self'",
        ]
    )


def _certificate(directory: Path, activity_host: str) -> ssl.SSLContext:
    cert, key = directory / "stand-in-cdn.crt", directory / "stand-in-cdn.key"
    if not cert.exists():
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                f"/CN={CLIENT_HOST}",
                "-addext",
                f"subjectAltName=DNS:{CLIENT_HOST},DNS:{activity_host},DNS:{CDN_HOST}",
                "-keyout",
                str(key),
                "-out",
                str(cert),
            ],
            check=True,
            capture_output=True,
        )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


@dataclass
class DiscordClient:
    """The running stand-in: where it listens, and how to open an Activity in it."""

    client_id: str
    upstream: str  # the map server, e.g. http://127.0.0.1:1234
    port: int
    #: every CSP header the proxy sent (one per answer), for the tests
    policies: list[str]
    _server: _Server = field(repr=False)

    @property
    def sockets_opened(self) -> int:
        """WebSockets the proxy has passed on so far."""
        return self._server.opened

    async def drop_sockets(self) -> int:
        """Every WebSocket through the proxy cut at once, as a phone that slept finds them; how many."""
        return await self._server.drop_sockets()

    def add_avatar(self, user_id: str, avatar: str, color: tuple[int, int, int] = (88, 101, 242)) -> None:
        """A 64-pixel avatar on the CDN for `user_id` under the hash `avatar`."""
        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGB", (64, 64), color).save(buf, format="PNG")
        self._server.avatars[f"/avatars/{user_id}/{avatar}.png"] = buf.getvalue()

    @property
    def cdn_requests(self) -> list[str]:
        """The CDN's paths asked so far (with their status: "200 /avatars/...")."""
        return self._server.cdn_requests

    @property
    def activity_host(self) -> str:
        return f"{self.client_id}.discordsays.com"

    @property
    def activity_origin(self) -> str:
        return f"https://{self.activity_host}"

    def chromium_args(self) -> list[str]:
        """Chromium's flags that send both names to this server (and nothing else: other names fail)."""
        return [
            f"--host-resolver-rules=MAP {CLIENT_HOST} 127.0.0.1:{self.port},"
            f"MAP {self.activity_host} 127.0.0.1:{self.port},MAP {CDN_HOST} 127.0.0.1:{self.port},"
            "MAP * ~NOTFOUND",
            "--ignore-certificate-errors",
        ]

    def url(
        self,
        *,
        user: dict[str, str],
        code: str,
        access_token: str,
        channel_id: str,
        guild_id: str = "1",
        platform: str = "desktop",
        instance_id: str = "",
        custom_id: str | None = None,
        activity_path: str = "/",
        grant: tuple[str, ...] | None = None,
        rpc_ms: int = 0,
    ) -> str:
        """The client page opening the Activity in `channel_id` for `user`, whose authorization gives `code`;
        `grant`: the scopes the user consents to (None: every scope the Activity asks); `rpc_ms`: how long the
        client takes to answer each message of the Activity (benches: Discord's client's own time)."""
        launch = str(secrets.randbelow(10**18))
        location = f"gc-{guild_id}-{channel_id}"
        query = {
            "client_id": self.client_id,
            "activity_origin": self.activity_origin,
            "activity_path": activity_path,
            "platform": platform,
            "instance_id": instance_id or f"i-{launch}-{location}",
            "location_id": location,
            "launch_id": launch,
            "guild_id": guild_id,
            "channel_id": channel_id,
            "code": code,
            "access_token": access_token,
            "user": json.dumps(user),
            "locale": user.get("locale", "en-US"),
        }
        if custom_id is not None:
            query["custom_id"] = custom_id
        if grant is not None:
            query["grant"] = ",".join(grant)
        if rpc_ms:
            query["rpc_ms"] = str(rpc_ms)
        return f"https://{CLIENT_HOST}/activities/{self.client_id}?{urlencode(query)}"


#: Chromium's flags for one renderer holding the client page and its Activity's frame: the CPU slowdown a bench
#: asks of the page (CDP's Emulation.setCPUThrottlingRate) then reaches the frame too
SHARED_PROCESS = ["--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process"]


class _Server:
    def __init__(self, client_id: str, upstream: str, latency: float = 0.0) -> None:
        self.latency = latency  # seconds of round trip added to each request through the proxy (benches)
        self.client_id = client_id
        self.activity_host = f"{client_id}.discordsays.com"
        self.upstream = upstream.rstrip("/")
        self.policies: list[str] = []
        self.session: aiohttp.ClientSession | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        self.opened = 0
        self.avatars: dict[str, bytes] = {}  # CDN path -> PNG
        self.cdn_requests: list[str] = []

    async def drop_sockets(self) -> int:
        dropped = list(self.sockets)
        for ws in dropped:
            with suppress(Exception):
                await ws.close(code=1001)  # going away
        return len(dropped)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        host = request.host.split(":")[0]
        if host == CLIENT_HOST:
            return await self.client_page(request)
        if host == self.activity_host:
            return await self.proxy(request)
        if host == CDN_HOST:
            return self.cdn(request)
        return web.Response(status=421, text="misdirected")

    def cdn(self, request: web.Request) -> web.StreamResponse:
        picture = self.avatars.get(request.path)
        self.cdn_requests.append(f"{200 if picture else 404} {request.path}")
        if picture is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=picture, content_type="image/png", headers={"Cache-Control": "no-store"})

    async def client_page(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path == f"/activities/{self.client_id}":
            file = PAGE_DIR / "client.html"
        elif path.startswith("/stand-in/") and "/" not in path.removeprefix("/stand-in/"):
            file = PAGE_DIR / path.removeprefix("/stand-in/")
        else:
            raise web.HTTPNotFound()
        if not file.is_file():
            raise web.HTTPNotFound()
        types = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
        return web.Response(
            body=file.read_bytes(),
            content_type=types[file.suffix],
            headers={
                "Content-Security-Policy": "default-src 'self'; style-src 'self'; img-src 'self' data:; "
                f"frame-src https://{self.activity_host}",
                "Cache-Control": "no-store",
            },
        )

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        if self.latency:  # (the page a network away from Discord's proxy: each request's round trip)
            await asyncio.sleep(self.latency)
        path = request.raw_path
        if path.startswith("/.proxy/"):
            path = path.removeprefix("/.proxy")
        target = self.upstream + path
        assert self.session is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _NOT_FORWARDED}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.proxy_socket(request, target, headers)
        async with self.session.request(
            request.method,
            target,
            headers=headers,
            data=await request.read() if request.can_read_body else None,
            allow_redirects=False,
        ) as up:
            body = await up.read()
            out = {k: v for k, v in up.headers.items() if k.lower() not in _NOT_FORWARDED}
            for name in list(out):
                if name.lower() in ("content-security-policy", "content-security-policy-report-only"):
                    del out[name]
            policy = discord_csp(self.activity_host, secrets.token_urlsafe(16))
            out["Content-Security-Policy"] = policy
            self.policies.append(policy)
            return web.Response(status=up.status, body=body, headers=out)

    async def proxy_socket(
        self, request: web.Request, target: str, headers: dict[str, str]
    ) -> web.StreamResponse:
        assert self.session is not None
        headers = {k: v for k, v in headers.items() if not k.lower().startswith("sec-websocket")}
        upstream = await self.session.ws_connect(target.replace("http", "ws", 1), headers=headers)
        down = web.WebSocketResponse()
        await down.prepare(request)
        self.sockets.add(down)
        self.opened += 1

        async def pump(source: Any, sink: Any) -> None:
            async for msg in source:
                if source is upstream and self.latency:  # (to the page: half a round trip)
                    await asyncio.sleep(self.latency / 2)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    await sink.send_str(msg.data)
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    await sink.send_bytes(msg.data)
                else:
                    break

        tasks = [asyncio.create_task(pump(upstream, down)), asyncio.create_task(pump(down, upstream))]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        with suppress(Exception):
            await upstream.close()
        with suppress(Exception):
            await down.close()
        self.sockets.discard(down)
        return down


@asynccontextmanager
async def discord_client(
    upstream: str, client_id: str, directory: Path, *, latency: float = 0.0
) -> AsyncIterator[DiscordClient]:
    """The stand-in in front of the map server at `upstream` (its base URL), for as long as the block runs;
    `latency`: seconds of round trip added to each request through the proxy (benches)."""
    server = _Server(client_id, upstream, latency)
    tls = _certificate(directory, server.activity_host)
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=tls)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.session = aiohttp.ClientSession()
    try:
        yield DiscordClient(client_id, upstream, port, server.policies, server)
    finally:
        await server.session.close()
        await runner.cleanup()

"""The live map's connections, bounded: how many are held at once (in all, and per client address), and how a
flood of refused or malformed requests shows in the log (counted, one summary line a minute; each at DEBUG).

A connection that sends no complete request within the idle time-out (nothing at all, headers sent a byte at a
time, a kept-alive connection left idle) is closed by aiohttp's keep-alive timer, which runs from the moment the
connection opens (`GuardedRunner` sets it). Over the caps, a new connection is answered at once with a 503 in
the catalogue's words and closed, rather than left waiting: the host's file descriptors are never all taken.
The caps are counted as each connection is made (aiohttp's handler of it, subclassed), before a byte of the
request is read, and a refused one never starts a handler; connections from a trusted reverse proxy are not counted per address (they carry
everyone's).
"""

from __future__ import annotations

import json
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from bot.i18n import default_catalog
from bot.messages import Text
from bot.web.addresses import ClientAddresses

log = logging.getLogger(__name__)

#: The most connections held when the host sets none: half the process's file descriptors, at most this.
MOST_CONNECTIONS = 1000
#: The Server header of every answer: the software, no version (aiohttp's names its own and Python's).
SERVER = "ttr-live-map"
#: How often the counts of refused and malformed requests are written to the log (seconds).
SUMMARY_EVERY = 60.0


def default_most_connections() -> int:
    """Half the file descriptors this process may open (the rest for the database, the pictures, Discord), at
    most MOST_CONNECTIONS."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return MOST_CONNECTIONS
    return max(16, min(MOST_CONNECTIONS, soft // 2))


def refusal(locale: str) -> bytes:
    """The whole answer to a connection over the caps: a 503 in the one error shape, then the connection closed."""
    text = default_catalog().render(Text("web.error.busy"), locale) or ""
    body = json.dumps({"ok": False, "error": {"code": "busy", "text": text}}, ensure_ascii=False).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\nServer: {SERVER}\r\n\r\n"
    )
    return head.encode() + body


class Tally:
    """Counts events that must not each write a log line; one summary line at most every `every` seconds."""

    def __init__(self, every: float = SUMMARY_EVERY, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self._clock = clock
        self._since = clock()
        self.counts: Counter[str] = Counter()
        self.total: Counter[str] = Counter()  # since the start (tests, benches)

    def add(self, what: str) -> None:
        self.counts[what] += 1
        self.total[what] += 1
        now = self._clock()
        if now - self._since >= self.every:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        now = self._clock() if now is None else now
        if self.counts:
            what = ", ".join(f"{n} {kind}" for kind, n in sorted(self.counts.items()))
            log.warning("live map: in the last %.0f s: %s", now - self._since, what)
        self.counts.clear()
        self._since = now


class Connections:
    """The connections held, per client address and in all, and the refusal beyond the caps."""

    def __init__(
        self,
        *,
        most: int,
        per_address: int,
        addresses: ClientAddresses,
        locale: str = "en",
        tally: Tally | None = None,
    ) -> None:
        self.most = most
        self.per_address = per_address
        self.addresses = addresses
        self.tally = tally or Tally()
        self._refusal = refusal(locale)
        self._held: dict[RequestHandler, str] = {}
        self._by_address: Counter[str] = Counter()

    @property
    def held(self) -> int:
        return len(self._held)

    def attach(self, server: web.Server) -> None:
        """Count and cap the connections `server` is given: its handlers become `_GuardedHandler`s."""
        # aiohttp makes each connection's handler in `web.Server.__call__` and offers no hook there: the server
        # made by `AppRunner` becomes the subclass that makes ours (same fields, one method more)
        server.__class__ = _GuardedServer
        server._ttr_guard = self  # type: ignore[attr-defined]  # (aiohttp's Server has a `connections` of its own)

    def admit(self, handler: RequestHandler, transport: Any) -> bool:
        """Whether a new connection is held (counted) or refused: then it is answered and closed at once."""
        peer = _peer(transport)
        proxy = self.addresses.is_trusted(peer)
        if self.held >= self.most or (not proxy and self._by_address[peer] >= self.per_address):
            self.tally.add("connections refused (too many)")
            log.debug("live map: a connection from %r refused (%d held)", peer, self.held)
            transport.write(self._refusal)
            transport.close()
            return False
        self._held[handler] = "" if proxy else peer
        if not proxy:
            self._by_address[peer] += 1
        return True

    def release(self, handler: RequestHandler) -> None:
        peer = self._held.pop(handler, None)
        if peer:
            self._by_address[peer] -= 1
            if self._by_address[peer] <= 0:
                del self._by_address[peer]


class GuardedRunner(web.AppRunner):
    """aiohttp's application runner with the connections counted and capped (`Connections`), and aiohttp's
    own complaints about malformed requests counted (`QuietMalformed`) rather than logged with a traceback each."""

    def __init__(self, app: web.Application, connections: Connections, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.connections = connections
        self._quiet = QuietMalformed(connections.tally)

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        self.connections.attach(server)
        logging.getLogger("aiohttp.server").addFilter(self._quiet)
        return server

    async def cleanup(self) -> None:
        logging.getLogger("aiohttp.server").removeFilter(self._quiet)
        self.connections.tally.flush()
        await super().cleanup()


class QuietMalformed(logging.Filter):
    """aiohttp logs each request it cannot parse ("Error handling request", at ERROR with a traceback): counted
    here and summarised instead (at DEBUG each, without the traceback)."""

    def __init__(self, tally: Tally) -> None:
        super().__init__()
        self.tally = tally

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and str(record.msg).startswith("Error handling request"):
            self.tally.add("malformed requests")
            error = record.exc_info[1] if record.exc_info else None
            log.debug("live map: a malformed request (%s)", type(error).__name__)
            return False
        return True


class _GuardedHandler(RequestHandler):
    """aiohttp's connection handler, counted by `Connections` (a refused one never starts), its own answer to a
    request it cannot parse carrying our Server header."""

    __slots__ = ()

    def connection_made(self, transport: Any) -> None:
        guard: Connections = getattr(self._manager, "_ttr_guard")  # noqa: B009
        if guard.admit(self, transport):
            super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._manager is not None:
            guard: Connections = getattr(self._manager, "_ttr_guard")  # noqa: B009
            guard.release(self)
        super().connection_lost(exc)

    def handle_error(self, *args: Any, **kwargs: Any) -> web.StreamResponse:
        response = super().handle_error(*args, **kwargs)
        response.headers["Server"] = SERVER
        return response


class _GuardedServer(web.Server):
    """aiohttp's server making `_GuardedHandler`s (as `web.Server.__call__` makes its own handlers)."""

    def __call__(self) -> RequestHandler:
        return _GuardedHandler(self, loop=self._loop, **self._kwargs)


def _peer(transport: Any) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""

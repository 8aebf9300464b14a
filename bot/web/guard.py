"""The limits and headers of the live map's server: rate limits (token buckets per user or address), the
security headers (a CSP that works inside Discord's ``/.proxy/`` and in a browser), and the middleware that
turns every failure into the one error shape, in the reader's language, without a secret or a traceback."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import HttpVersion10, web

from bot.manager import Refused
from bot.web.connections import SERVER, SUMMARY_EVERY, Tally
from bot.web.errors import WebError, from_refused, web_error
from bot.web.inputs import shown

log = logging.getLogger(__name__)

#: Inside Discord the page is framed by discord.com (through <client id>.discordsays.com/.proxy/); every URL
#: of the page is relative, so 'self' covers scripts, styles, images and the WebSocket.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self' wss: https://discord.com; font-src 'self' data:; object-src 'none'; base-uri 'self'; "
    "form-action 'none'; frame-ancestors 'self' https://discord.com https://*.discord.com "
    "https://*.discordsays.com"
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a personal link carries its token: never sent on
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
}


async def server_header(_request: web.Request, response: web.StreamResponse) -> None:
    """(`on_response_prepare`: every answer of the application, WebSocket upgrades and files included)"""
    response.headers["Server"] = SERVER


class RateLimit:
    """A token bucket per key: `rate` per second on average, bursts of `burst`. `clock` for tests."""

    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[Any, tuple[float, float]] = {}

    def allow(self, key: Any) -> bool:
        now = self._clock()
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if len(self._buckets) > 50_000:  # forget idle keys rather than grow without end
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True


Locale = Callable[[web.Request], str]


def error_response(error: WebError, locale: str) -> web.Response:
    return web.json_response(
        {"ok": False, "error": error.body(locale)}, status=error.status, headers={"Cache-Control": "no-store"}
    )


def middlewares(
    locale_of: Locale, tally: Tally | None = None
) -> list[Callable[..., Awaitable[web.StreamResponse]]]:
    """The guard of every route; `tally` counts the failures past the first traceback of each minute."""
    traced = [-SUMMARY_EVERY]  # when a traceback was last written

    @web.middleware
    async def guarded(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
        if request.version < HttpVersion10:  # HTTP/0.9 (aiohttp's parser takes a bare "GET /"): refused
            refused = error_response(web_error("bad_request", 505), locale_of(request))
            refused.force_close()
            return refused
        try:
            response = await handler(request)
        except WebError as exc:
            response = error_response(exc, locale_of(request))
        except Refused as exc:  # a refusal no route worded (the database down, say): the chat's words
            response = error_response(from_refused(exc), locale_of(request))
        except web.HTTPRequestEntityTooLarge:
            response = error_response(web_error("too_big", 413), locale_of(request))
        except web.HTTPNotFound:
            response = error_response(web_error("not_found", 404), locale_of(request))
        except web.HTTPMethodNotAllowed:
            response = error_response(web_error("bad_request", 405), locale_of(request))
        except web.HTTPException:
            raise
        except Exception:  # a bug: logged with its traceback (no request body), the reader gets an apology
            now = time.monotonic()
            if tally is None or now - traced[0] >= SUMMARY_EVERY:  # one traceback a minute; the rest counted
                traced[0] = now
                log.exception("live map: %s %s failed", shown(request.method, 16), shown(request.path))
            else:
                tally.add("requests failed (as logged above)")
            response = error_response(web_error("internal", 500), locale_of(request))
        if not response.prepared:
            response.headers.update(HEADERS)
            if request.path.startswith("/api/"):
                response.headers.setdefault("Cache-Control", "no-store")
        return response

    return [guarded]


#: The answers worth compressing (a view is tens of kilobytes of JSON, a drawing hundreds of SVG): gzip or
#: deflate, as the browser accepts; a socket's frames are not (`api_live`).
COMPRESSED_TYPES = frozenset({"application/json", "image/svg+xml"})
#: Below this, compressing costs more than it saves.
COMPRESS_FROM = 1024


@web.middleware
async def compressed(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Compress a JSON or SVG answer of some size (aiohttp's own compression, chosen from Accept-Encoding)."""
    response = await handler(request)
    if (
        isinstance(response, web.Response)
        and response.content_type in COMPRESSED_TYPES
        and response.body is not None
        and len(response.body) >= COMPRESS_FROM  # type: ignore[arg-type]
        and "Content-Encoding" not in response.headers
    ):
        response.enable_compression()
    return response

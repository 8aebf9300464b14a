"""Discord's side of the metrics, from the hooks discord.py offers (this module imports neither discord nor
storage: the launcher, bot.launch, hands it the bot):

* ``http_trace``: an aiohttp ``TraceConfig`` discord.py gives its HTTP session: every request to Discord's API is
  counted by method, route template and status, timed, and its rate-limit answers read (429s, used-up buckets);
* the ``on_interaction`` event: when each interaction arrived, so that the end of its first answer (the
  ``/interactions/{id}/{token}/callback`` request) gives the answer's latency, by kind of interaction;
* the shards' states (for the readiness check and a gauge).

Route templates keep the API's words and replace everything else (ids, tokens, emoji, names) by placeholders,
so no id or secret reaches a label.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.ops.metrics import Metrics

#: Interaction kinds (discord.InteractionType's names) as the latency's label says them.
INTERACTION_KINDS = {
    "application_command": "command",
    "component": "component",
    "modal_submit": "modal",
    "autocomplete": "autocomplete",
}
#: Interactions waiting for their first answer, at most (older ones are forgotten: never answered).
MAX_PENDING = 2048
_WORD = re.compile(r"[a-z][a-z-]{0,31}|@original|@me")
#: After these words, the next segment is a secret or a free text, never kept.
_SECRET_AFTER = {"interactions": 2, "webhooks": 2, "reactions": 1}


def route_template(path: str) -> str:
    """``/api/v10/channels/1234/messages/99`` -> ``/channels/{id}/messages/{id}``; interaction and webhook tokens
    become ``{token}``, anything else that is not an API word ``{x}``."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    if len(parts) >= 2 and parts[0] == "api" and re.fullmatch(r"v\d+", parts[1]):
        parts = parts[2:]
    out: list[str] = []
    hide = 0
    for part in parts:
        if part.isdigit():
            out.append("{id}")
            if hide == 2:
                hide = 1  # interactions/{id}/{token}: the id is shown as {id}, the token next
            continue
        if hide:
            out.append("{token}" if hide == 1 and out and out[-1] == "{id}" else "{x}")
            hide = 0
            continue
        out.append(part if _WORD.fullmatch(part) else "{x}")
        hide = _SECRET_AFTER.get(part, 0)
    return "/" + "/".join(out)


def _callback_interaction(path: str) -> int | None:
    """The interaction id of an ``/interactions/{id}/{token}/callback`` request."""
    match = re.search(r"/interactions/(\d+)/[^/]+/callback", path)
    return int(match.group(1)) if match else None


class DiscordWatch:
    """Counts this process's Discord traffic into `metrics`. Give :attr:`trace` to discord.py
    (``http_trace=``) and :meth:`watch_bot` the bot once built."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.arrived: OrderedDict[int, tuple[str, float]] = OrderedDict()
        self.bot: Any = None
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(self._request_start)
        trace.on_request_end.append(self._request_end)
        trace.on_request_exception.append(self._request_failed)
        self.trace = trace

    def bot_options(self) -> dict[str, Any]:
        """Options for the bot's constructor (discord.py's ``Client``)."""
        return {"http_trace": self.trace}

    def watch_bot(self, bot: Any) -> None:
        """Hear each interaction's arrival (``on_interaction``), and read the shards' states from now on."""
        self.bot = bot
        bot.add_listener(self.interaction_arrived, "on_interaction")

    async def interaction_arrived(self, interaction: Any) -> None:
        kind = INTERACTION_KINDS.get(getattr(interaction.type, "name", ""), "other")
        self.arrived[int(interaction.id)] = (kind, time.perf_counter())
        while len(self.arrived) > MAX_PENDING:
            self.arrived.popitem(last=False)

    def shards(self) -> tuple[int, int]:
        """(shards connected, shards this process runs); (0, 0) before the bot exists."""
        bot = self.bot
        if bot is None:
            return 0, 0
        shards = dict(getattr(bot, "shards", {}) or {})
        expected = (
            len(getattr(bot, "shard_ids", None) or ()) or getattr(bot, "shard_count", None) or len(shards)
        )
        connected = sum(1 for info in shards.values() if not info.is_closed())
        self.metrics.shards.labels("connected").set(connected)
        self.metrics.shards.labels("expected").set(expected)
        return connected, expected

    def gateway_ready(self) -> bool:
        """The bot is logged in and every shard of this process is connected."""
        connected, expected = self.shards()
        return bool(self.bot is not None and self.bot.is_ready() and expected and connected >= expected)

    # ------------------------------------------------------------------ aiohttp's trace

    async def _request_start(self, _session: Any, context: SimpleNamespace, params: Any) -> None:
        context.ttr_started = time.perf_counter()

    async def _request_end(self, _session: Any, context: SimpleNamespace, params: Any) -> None:
        self._count(context, params.method, params.url.path, str(params.response.status))
        response = params.response
        if response.status == 429:
            scope = response.headers.get("X-RateLimit-Scope", "user")
            self.metrics.rate_limited.labels(
                scope if scope in ("user", "global", "shared") else "other"
            ).inc()
            self.metrics.rate_limit_wait.inc(_seconds(response.headers.get("Retry-After")))
        elif response.headers.get("X-RateLimit-Remaining") == "0":
            self.metrics.rate_limit_wait.inc(_seconds(response.headers.get("X-RateLimit-Reset-After")))
        interaction = _callback_interaction(params.url.path)
        if interaction is not None:
            arrived = self.arrived.pop(interaction, None)
            if arrived is not None:
                kind, at = arrived
                self.metrics.answer_seconds.labels(kind).observe(time.perf_counter() - at)

    async def _request_failed(self, _session: Any, context: SimpleNamespace, params: Any) -> None:
        self._count(context, params.method, params.url.path, "error")

    def _count(self, context: SimpleNamespace, method: str, path: str, status: str) -> None:
        route = route_template(path)
        self.metrics.discord_requests.labels(method, route, status).inc()
        started = getattr(context, "ttr_started", None)
        if started is not None:
            self.metrics.discord_seconds.labels(method, route).observe(time.perf_counter() - started)


def _seconds(text: str | None) -> float:
    try:
        value = float(text or 0)
    except ValueError:
        return 0.0
    return value if 0 <= value < 86400 else 0.0

"""``LOG_FORMAT=json``: one JSON object a line, with the game, guild and shard where known.

Where they come from, first found wins: the record's own attributes (``log.info(..., extra={"game": gid})``),
the context of the task that logs (:func:`log_context` / :func:`bind`, contextvars: an interaction's handling
binds its guild and shard), and the words of the line itself (``game ab12cd34: ...``, ``Shard ID 3``), which is
how the manager's and discord.py's lines name them today. The secrets filter (bot.discord.startup) has already
masked the message and the traceback when this formats them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

FIELDS = ("game", "guild", "shard")
_context: ContextVar[dict[str, Any] | None] = ContextVar("ttr_log_context", default=None)
_IN_WORDS = {
    "game": re.compile(r"\bgame ([A-Za-z0-9]{6,16})\b"),
    "shard": re.compile(r"\b[Ss]hard(?: ID)? (\d{1,5})\b"),
}


def bind(**fields: Any) -> None:
    """Add these fields to the log lines of the current task (and the tasks it starts) from now on."""
    current = _context.get() or {}
    _context.set({**current, **{k: v for k, v in fields.items() if v is not None}})


@contextlib.contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """These fields on the log lines written inside the block."""
    token = _context.set({**(_context.get() or {}), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def bind_interaction(interaction: Any, **fields: Any) -> None:
    """An interaction's guild and shard (and `fields`: its game) on the lines its handling writes (duck-typed: no
    discord import)."""
    guild = getattr(interaction, "guild_id", None)
    client = getattr(interaction, "client", None)
    shard = None
    if guild is not None and client is not None and getattr(client, "shard_count", None):
        shard = (int(guild) >> 22) % int(client.shard_count)  # Discord's formula for a guild's shard
    bind(guild=guild, shard=shard, **fields)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the fields known, the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        context = _context.get() or {}
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is None:
                value = context.get(name)
            if value is None and name in _IN_WORDS:
                found = _IN_WORDS[name].search(message)
                value = found.group(1) if found else None
            if value is not None:
                data[name] = int(value) if name == "shard" else str(value) if name == "game" else value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            data["exc"] = record.exc_text
        if record.stack_info:
            data["stack"] = record.stack_info
        return json.dumps(data, ensure_ascii=False, default=str)


def formatter(log_format: str) -> logging.Formatter:
    """The formatter of LOG_FORMAT (``text``: the plain line of ``ttr bot``'s stderr)."""
    if log_format == "json":
        return JsonFormatter()
    return logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s")

"""What a request may carry, checked before anything reads it: JSON bounded in nesting before it is parsed (the
parser recurses: thousands of brackets were a RecursionError and a 500), Discord ids as ASCII digits (``str.isdigit``
also takes other scripts' digits and superscripts), game ids of our own alphabet, and request text shown in a log
line only quoted (a newline in a path could forge a line)."""

from __future__ import annotations

import json
import re
from typing import Any

#: The deepest nesting of arrays and objects read (a request of the page nests three levels at most).
MAX_DEPTH = 8
#: The largest Discord id (snowflakes are unsigned 64-bit numbers stored as signed BIGINT: 2**63 - 1).
MAX_SNOWFLAKE = 2**63 - 1

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_DIGITS = re.compile(r"[0-9]{1,20}", re.ASCII)
_GAME_ID = re.compile(r"[0-9a-z]{1,32}", re.ASCII)


def nesting(text: str) -> int:
    """How deep arrays and objects nest in the JSON `text` (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def read_json(raw: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """`raw` parsed as JSON; ValueError when it is not JSON, not UTF-8, or nests deeper than `max_depth`."""
    text = raw.decode() if isinstance(raw, bytes) else raw  # (UnicodeDecodeError is a ValueError)
    if nesting(text) > max_depth:
        raise ValueError("JSON nested too deep")
    return json.loads(text)


def snowflake(text: str) -> int | None:
    """A Discord id (a channel's, a thread's, a user's) read from request text, or None: 1 to 20 ASCII digits
    up to 2**63 - 1 (today's snowflakes have 17 to 20 digits)."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= MAX_SNOWFLAKE else None


def is_game_id(text: str) -> bool:
    """Whether `text` can be a game id (lowercase ASCII letters and digits, short); anything else names no game."""
    return _GAME_ID.fullmatch(text) is not None


def shown(text: str, limit: int = 80) -> str:
    """Request text as a log line may show it: quoted and escaped (no newline, no control character), cut."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")

"""Refusals a person reads: the manager's `Refused` and the presentation's own, as `GameError`s.

A refusal may quote what someone typed (a setting, a value, a board, a route): those parameters are shortened
with `chat.quote`, so a 6,000-character slash option still gets its refusal within Discord's limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.manager import Refused
from bot.messages import Text
from bot.play import chat
from bot.play.reply import GameError

#: Manager refusal codes shown with the presentation's own words; the others read `refused.<code>`.
REFUSED_KEYS = {
    "not_seated": "play.not_in_game",
    "stale": "play.stale",
    "not_host": "play.not_host",
    "seat_ai": "play.seat_ai",
    "no_game": "game.none",
}

#: Parameters of a refusal that can hold text someone typed in a slash option.
TYPED = frozenset(
    {"board", "variant", "option", "setting", "value", "key", "route", "color", "game", "topic"}
)


def quoted(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with every typed text shortened for quoting (`chat.quote`)."""
    return {k: chat.quote(v) if k in TYPED and isinstance(v, str) else v for k, v in params.items()}


def refusal(exc: Refused) -> GameError:
    key = REFUSED_KEYS.get(exc.code)
    if key:
        return GameError(Text(key))
    return GameError(Text(exc.key, quoted(exc.params)))


def fail(message_key: str, /, **params: Any) -> GameError:
    return GameError(Text(message_key, quoted(params)))

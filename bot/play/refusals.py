"""Refusals a person reads: the manager's `Refused` and the presentation's own, as `GameError`s."""

from __future__ import annotations

from typing import Any

from bot.manager import Refused
from bot.messages import Text
from bot.play.reply import GameError

#: Manager refusal codes shown with the presentation's own words; the others read `refused.<code>`.
REFUSED_KEYS = {
    "not_seated": "play.not_in_game",
    "stale": "play.stale",
    "not_host": "play.not_host",
    "seat_ai": "play.seat_ai",
    "no_game": "game.none",
}


def refusal(exc: Refused) -> GameError:
    key = REFUSED_KEYS.get(exc.code)
    if key:
        return GameError(Text(key))
    return GameError(exc.text)


def fail(message_key: str, /, **params: Any) -> GameError:
    return GameError(Text(message_key, params))

"""`Refused`: the one way the manager turns a request down. Nothing changed when it is raised.

A refusal is data, not a sentence: a code and its parameters. What a player reads is the catalogue entry
``refused.<code>`` (``bot/locales/{en,fr}.json``) filled with those parameters, in the game's language. The
manager knows no user interface: no refusal talks about buttons, messages or commands. Nor does it choose
words: a board is passed as its id (``board="germany"``), and bot.play names it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.messages import Text
from engine.errors import IllegalAction

__all__ = ["Illegal", "Refused"]


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why the rules refused an action, as data: the engine's `IllegalAction` code (bot.play words it with the
    catalogue key ``illegal.<code>``) and its neutral parameters (names, counts, card colours by engine name).
    The ``reason`` of a ``Refused("illegal")``."""

    code: str
    params: Mapping[str, Any]

    @classmethod
    def of(cls, exc: IllegalAction) -> Illegal:
        return cls(exc.code, dict(exc.params))


class Refused(Exception):
    """A request the manager turned down; nothing changed. `code` names the reason (the catalogue key is
    ``refused.<code>``), `params` fill that entry's placeholders (names, numbers: never a secret)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params

    @property
    def key(self) -> str:
        """The catalogue key of the player's message."""
        return f"refused.{self.code}"

    @property
    def text(self) -> Text:
        """The player's message as data: ``Text("refused.<code>", params)``."""
        return Text(self.key, dict(self.params))

    def __str__(self) -> str:  # logs: the key and its parameters, never translated here
        if not self.params:
            return self.key
        return f"{self.key} " + " ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))

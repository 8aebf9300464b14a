"""The one error family of the engine."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    `code` names the reason (the bot words it with its catalogue key ``illegal.<code>``) and `params` are its
    neutral values: names of players, cities and routes as they are, counts, and card colours by the engine's
    card name (``"pink"``, ``"locomotive"``) under keys named ``color``. The message (``str(exc)``) says the
    same in English, for the command line and the logs.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class GameDataError(ValueError):
    """A game record, score sheet or saved state that cannot be read (bad JSON, unknown city...)."""

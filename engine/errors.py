"""The one error family of the engine."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message is for the player: it says what is missing."""


class GameDataError(ValueError):
    """A game record, score sheet or saved state that cannot be read (bad JSON, unknown city...)."""

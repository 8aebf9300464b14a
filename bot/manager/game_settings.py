"""Per-game settings of asynchronous play, with their defaults and validation.

Stored as the ``settings`` JSON of the game row. Unknown keys found in storage are kept untouched (another
layer may store its own keys there) but are not part of :class:`GameSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

__all__ = ["ABSENT_POLICIES", "AI_LEVELS", "GameSettings", "SettingError"]

#: What happens when a player has not acted ``absent_after_hours`` after the second reminder.
#: ``ai``: an AI player (level ``absent_ai_level``) plays that one turn for them.
#: ``skip``: the turn is played with the most harmless move (see ``bot.manager.ai.minimal_action``).
#: ``wait``: nothing; the game waits for the player (or for the host to end it).
ABSENT_POLICIES: Final = ("ai", "skip", "wait")
AI_LEVELS: Final = ("easy", "normal", "hard")

_MAX_HOURS = 24 * 60  # sixty days
_SWITCHES: Final = ("colorblind", "hints", "waking_clock")  # on/off settings
_NO_CHANGES: Mapping[str, Any] = {}


class SettingError(ValueError):
    """A setting name or value that is not allowed. The message (English) is for logs and the CLI; players
    read the manager's refusal, built from `setting`, `value` and `known` (False: there is no such setting)."""

    def __init__(self, message: str, *, setting: str, value: Any = None, known: bool = True) -> None:
        super().__init__(message)
        self.setting = setting
        self.value = value
        self.known = known


@dataclass(frozen=True, slots=True)
class GameSettings:
    """Timers of asynchronous play, counted from the moment a seat became the one to act."""

    remind_after_hours: float = 12.0  # first reminder
    remind_again_hours: float = 12.0  # second reminder, after the first
    absent_after_hours: float = 24.0  # absent-player policy, after the second reminder
    absent_policy: str = "ai"
    absent_ai_level: str = "normal"
    max_players: int | None = None  # None: the board's maximum
    colorblind: bool = True  # board pictures tell colours apart by letters and shapes too
    hints: bool = False  # a "Suggest a move" button: the normal AI's move, shown privately to the asker
    #: the reminder and absent-player delays count only the waiting player's waking hours (outside their quiet
    #: hours, `/ttr prefs`): a night does not use up a player's time
    waking_clock: bool = False

    def __post_init__(self) -> None:
        for name in ("remind_after_hours", "remind_again_hours", "absent_after_hours"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= _MAX_HOURS:
                raise SettingError(
                    f"{name} must be a number of hours in (0, {_MAX_HOURS}], not {value!r}.",
                    setting=name,
                    value=value,
                )
        if self.absent_policy not in ABSENT_POLICIES:
            raise SettingError(
                f"absent_policy must be one of {', '.join(ABSENT_POLICIES)}, not {self.absent_policy!r}.",
                setting="absent_policy",
                value=self.absent_policy,
            )
        if self.absent_ai_level not in AI_LEVELS:
            raise SettingError(
                f"absent_ai_level must be one of {', '.join(AI_LEVELS)}, not {self.absent_ai_level!r}.",
                setting="absent_ai_level",
                value=self.absent_ai_level,
            )
        if self.max_players is not None and (
            isinstance(self.max_players, bool)
            or not isinstance(self.max_players, int)
            or not 2 <= self.max_players <= 5
        ):
            raise SettingError(
                f"max_players must be 2 to 5, not {self.max_players!r}.",
                setting="max_players",
                value=self.max_players,
            )

        for name in _SWITCHES:
            if not isinstance(getattr(self, name), bool):
                raise SettingError(
                    f"{name} is on or off, not {getattr(self, name)!r}.",
                    setting=name,
                    value=getattr(self, name),
                )

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> GameSettings:
        """Settings from a stored dict; unknown keys are ignored, missing ones take their default."""
        known = {k: v for k, v in (data or {}).items() if k in cls.names()}
        return cls(**known)

    def with_values(self, changes: Mapping[str, Any] = _NO_CHANGES, /, **named: Any) -> GameSettings:
        """A copy with `changes` (and `named`) applied; values may be typed text (``"6"``, ``"skip"``).

        A name is only ever looked up in :meth:`names`, never passed on as a keyword argument, so a name typed
        by someone (``self``, ``moderator``...) is refused like any other unknown one.
        """
        parsed: dict[str, Any] = {}
        for key, value in {**changes, **named}.items():
            if key not in self.names():
                raise SettingError(
                    f"There is no setting {key!r} (settings: {', '.join(self.names())}).",
                    setting=key,
                    known=False,
                )
            parsed[key] = _parse(key, value)
        return replace(self, **parsed)


def _parse(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if key.endswith("_hours"):
        try:
            return float(text.removesuffix("h").replace(",", "."))  # "1,5": as German or French write it
        except ValueError:
            raise SettingError(
                f"{key} takes a number of hours, not {value!r}.", setting=key, value=value
            ) from None
    if key in _SWITCHES:
        if text in ("on", "yes", "true", "1"):
            return True
        if text in ("off", "no", "false", "0"):
            return False
        raise SettingError(f"{key} is on or off, not {value!r}.", setting=key, value=value)
    if key == "max_players":
        if text in ("", "none", "default"):
            return None
        try:
            return int(text)
        except ValueError:
            raise SettingError(
                f"max_players takes a number, not {value!r}.", setting=key, value=value
            ) from None
    return text

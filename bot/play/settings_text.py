"""`/ttr settings`: a game's settings, each value in words of the reader's language.

The settings' names stay as `/ttr settings setting:` takes them (``remind_after_hours``); their values read as
words: hours counted ("12 heures", "1,5 heure"), switches yes or no, the absent-player policy by what it does, the
AI's level, "the board's maximum" for no player limit.
"""

from __future__ import annotations

from typing import Any

from bot.manager import GameInfo
from bot.manager.game_settings import GameSettings
from bot.messages import Join, Message, Text
from bot.play.reply import EmbedSpec, Reply

#: the settings counted in hours
HOURS = frozenset({"remind_after_hours", "remind_again_hours", "absent_after_hours"})


def setting_value(key: str, value: Any) -> Message:
    """One setting's value in words (a catalogue message)."""
    if key in HOURS and isinstance(value, int | float) and not isinstance(value, bool):
        return Text("settings.hours", {"n": float(value)})
    if isinstance(value, bool):
        return Text("settings.yes" if value else "settings.no")
    if key == "absent_policy":
        return Text(f"settings.policy.{value}")
    if key == "absent_ai_level":
        return Text(f"level.{value}")
    if value is None:
        return Text("settings.max_players_none" if key == "max_players" else "settings.none")
    return str(value)


def settings_lines(settings: GameSettings) -> Message:
    """Every setting, one line each: "`remind_after_hours` : 12 heures" (the reader's punctuation)."""
    return Join(
        tuple(
            Text("settings.line", {"key": key, "value": setting_value(key, value)})
            for key, value in settings.to_json().items()
        )
    )


def settings_reply(info: GameInfo, settings: GameSettings, changed: str | None) -> Reply:
    """The settings of `info`'s game, privately (after changing `changed`, when one was)."""
    return Reply(
        content=Text("settings.changed", {"key": changed}) if changed else None,
        embeds=(
            EmbedSpec(
                title=Text("settings.title"),
                description=settings_lines(settings),
                footer=Join((Text("settings.footer"), Text("footer.game", {"game": info.game_id})), " · "),
            ),
        ),
        ephemeral=True,
    )

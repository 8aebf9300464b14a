"""What the presentation must know about the chat it speaks in: how to mention someone, and how much fits.

The presentation imports no discord, but its pages and cuts follow Discord's sizes and its text carries
Discord's mention syntax; both are here, in one place, so nothing else in `bot/play/` spells them.
"""

from __future__ import annotations

from datetime import UTC, datetime

EMBED_COLOR = 0x2E7D32

MAX_OPTIONS = 25  # options in a select, choices in an autocomplete, fields in an embed
MAX_ROWS = 5  # action rows in a message
MAX_BUTTONS = 5  # buttons in one row
MAX_BUTTON_ARG = 40  # token and arguments of one button (the ARG part of bot/discord/components.py)
MAX_OPTION_LABEL = 100
MAX_BUTTON_LABEL = 80
MAX_FIELD = 1024  # characters in an embed field's value
MAX_DESCRIPTION = 4000  # characters in an embed's description (4096, with room for a cut mark)
MAX_EMBED = 6000  # characters in all an embed's texts


def user(user_id: int) -> str:
    """A mention of a member (a ping where notifications allow it)."""
    return f"<@{user_id}>"


def channel(channel_id: int) -> str:
    return f"<#{channel_id}>"


def relative_time(moment: datetime) -> str:
    """A moment every reader sees in their own time zone, as "3 hours ago"."""
    stamp = int(moment.replace(tzinfo=moment.tzinfo or UTC).timestamp())
    return f"<t:{stamp}:R>"


def button_arg_fits(token: str | None, args: tuple[str, ...]) -> bool:
    """Whether a button can carry this token and these arguments in its custom id."""
    return len("~".join(((token or ""), *args))) <= MAX_BUTTON_ARG


def fit_lines(text: str, limit: int) -> str:
    """`text` cut at a line end to at most `limit` characters (an ellipsis line says some were left out)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2].rsplit("\n", 1)[0]
    return cut + "\n…"

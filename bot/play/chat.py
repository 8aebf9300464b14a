"""What the presentation must know about the chat it speaks in: how to mention someone, and how much fits.

The presentation imports no discord, but its pages and cuts follow Discord's sizes and its text carries
Discord's mention syntax; both are here, in one place, so nothing else in `bot/play/` spells them.
"""

from __future__ import annotations

from datetime import UTC, datetime

EMBED_COLOR = 0x2E7D32

# Discord's limits, in characters unless said otherwise. The presentation lays its pages out within them;
# `bot/discord/limits.py` checks every message against them once more just before it is sent.
MAX_CONTENT = 2000  # a message's text
MAX_EMBEDS = 10  # embeds in one message
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_FIELD_NAME = 256
MAX_FIELD = 1024  # an embed field's value
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED = 6000  # all the texts of all the embeds of one message
MAX_FILES = 10  # attachments in one message
MAX_FILE_DESCRIPTION = 1024  # an attachment's alt text
MAX_OPTIONS = 25  # options in a select, choices in an autocomplete, fields in an embed
MAX_ROWS = 5  # action rows in a message
MAX_BUTTONS = 5  # buttons in one row
MAX_BUTTON_LABEL = 80
MAX_PLACEHOLDER = 150  # a select's placeholder
MAX_OPTION_LABEL = 100  # a select option's label (and an autocomplete choice's name)
MAX_OPTION_DESCRIPTION = 100
MAX_OPTION_VALUE = 100  # a select option's value (and an autocomplete choice's value)

# The presentation's own margins inside those limits.
MAX_BUTTON_ARG = 40  # token and arguments of one button (the ARG part of bot/discord/components.py)
MAX_DESCRIPTION = 4000  # what the presentation puts in an embed's description (room for a cut mark)
MAX_QUOTE = 100  # characters of someone's own text quoted back to them (a refusal naming a bad value)
ELLIPSIS = "…"


def user(user_id: int) -> str:
    """A mention of a member (a ping where notifications allow it)."""
    return f"<@{user_id}>"


def channel(channel_id: int) -> str:
    return f"<#{channel_id}>"


def jump_link(guild_id: int | None, channel_id: int) -> str:
    """A link that opens a channel or thread (from a direct message, say)."""
    return f"https://discord.com/channels/{guild_id if guild_id is not None else '@me'}/{channel_id}"


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
    return cut + "\n" + ELLIPSIS


def fit(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, an ellipsis marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def quote(text: str) -> str:
    """Someone's own text, to quote back in a reply: at most `MAX_QUOTE` characters, one line.

    Text typed in a slash option can hold 6,000 characters; quoted whole, a refusal would pass Discord's
    limit and never reach the person."""
    return fit(" ".join(text.split()) if "\n" in text else text, MAX_QUOTE)

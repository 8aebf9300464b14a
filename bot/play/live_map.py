"""The chat's ways into the live map (bot/web): the "Map" button of the turn message and ``/ttr map`` open the
Activity when it is set up (a client id), else answer with the caller's personal link (also when Discord does not
launch the Activity: a channel without Activities, the application's Activities not enabled, a late answer); "Open the map in your
browser" in My hand always sends the personal link. The link is private (ephemeral): it opens the map as that
person. Without the live map, nothing is added and ``/ttr map`` says it is not set up.

The presentation does not make links itself: the start-up gives the service a `MapLinks` (bot/web signs them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from bot.manager import GameInfo
from bot.messages import Text
from bot.play.chat import MAX_BUTTONS
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, Reply

#: The most rows of components a message carries (Discord's limit).
MAX_ROWS = 5


@dataclass(frozen=True, slots=True)
class MapLinks:
    """How the live map is reached: `link(user_id, game_id, locale)` makes a personal link (the page speaks
    `locale`, the person's Discord language); `activity`: the
    Activity is set up (the application's client id is known), so the Map button opens it in Discord."""

    link: Callable[[int, str, str], str]
    activity: bool
    days: int = 7


def map_reply(links: MapLinks | None, info: GameInfo, user_id: int, locale: str | None = None) -> Reply:
    """The answer to the Map button or ``/ttr map``."""
    if links is None:
        return Reply(content=Text("web.off"), ephemeral=True)
    link = link_reply(links, info, user_id, locale)
    if links.activity:
        return Reply(activity=True, instead=link)
    return link


def link_reply(links: MapLinks | None, info: GameInfo, user_id: int, locale: str | None = None) -> Reply:
    """The caller's personal link to the game's live map, privately."""
    if links is None:
        return Reply(content=Text("web.off"), ephemeral=True)
    url = links.link(user_id, info.game_id, locale or "")
    return Reply(
        content=Text("web.link", {"game": info.game_id, "url": url, "days": links.days}), ephemeral=True
    )


def with_button(reply: Reply, button: ButtonSpec) -> Reply:
    """`reply` with `button` added to its last row (or a new row), when there is room for it."""
    rows = list(reply.rows)
    if rows and len(rows[-1]) < MAX_BUTTONS and all(isinstance(c, ButtonSpec) for c in rows[-1]):
        rows[-1] = (*rows[-1], button)
    elif len(rows) < MAX_ROWS:
        rows.append((button,))
    else:
        return reply
    return dataclasses.replace(reply, rows=tuple(rows))


def map_button(game_id: str) -> ButtonSpec:
    return ButtonSpec(game_id, PressCode.MAP, Text("web.btn.map"), emoji="🗺️")


def link_button(game_id: str) -> ButtonSpec:
    return ButtonSpec(game_id, PressCode.MAP_LINK, Text("web.btn.browser"), emoji="🌐")

"""Starting the live map (bot/web) inside the bot process when ``WEB_PORT`` and ``PUBLIC_URL`` are set: its web
server over the service's own game manager, moves made on a page told to the chat as the automatic moves are
(the turn message), and the service given the personal links (``MapLinks``) for the Map buttons."""

from __future__ import annotations

import logging

from bot.config import Settings
from bot.play.contract import GameService
from bot.play.live_map import MapLinks
from bot.play.service import ManagerGameService
from bot.web.server import RunningWeb, enabled, link_url, start_web, tokens_of
from bot.web.tokens import LINK_SECONDS

log = logging.getLogger(__name__)


async def start_live_map(settings: Settings, service: GameService) -> RunningWeb | None:
    """The running web server, or None when the live map is off (or the service has no manager of its own)."""
    if not enabled(settings) or not isinstance(service, ManagerGameService) or service.manager is None:
        return None
    tokens = tokens_of(settings)
    running = await start_web(settings, service.manager, after_move=service.on_turn)
    service.map_links = MapLinks(
        lambda user_id, game_id, locale: link_url(settings, tokens, user_id, game_id, locale),
        activity=bool(settings.discord_client_id),
        days=LINK_SECONDS // 86400,
    )
    return running

"""Starting the live map's web server: inside ``ttr bot`` (when ``WEB_PORT`` and ``PUBLIC_URL`` are set) or
alone with ``ttr web``. Without those settings nothing starts and the bot runs as before.

``WEB_SECRET`` signs the sessions and the personal links: it must be set (32 characters or more); without it
the web server refuses to start with one line saying how to make one (nothing weaker is derived). On
PostgreSQL the server also hears the changes made by other processes (the manager's
``follow_other_processes``: storage's LISTEN, bot.storage.pg_changes).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from aiohttp import web

from bot.config import Settings
from bot.manager import ChangeFeed, GameManager
from bot.web.app import AfterMove, MapServer, WebConfig
from bot.web.members import Membership
from bot.web.moments import FinalBoard, moment_routes, moments_of
from bot.web.tokens import MIN_SECRET, Link, Tokens

log = logging.getLogger(__name__)


class WebSetupError(RuntimeError):
    """The web server cannot start; the message says what to set."""


def enabled(settings: Settings) -> bool:
    """Whether the live map runs in this process (WEB_PORT and PUBLIC_URL both set)."""
    return bool(settings.web_port and settings.public_url)


def tokens_of(settings: Settings) -> Tokens:
    secret = settings.web_secret
    if len(secret) < MIN_SECRET:
        raise WebSetupError(
            f"WEB_SECRET must be set to a random text of at least {MIN_SECRET} characters to run the live map "
            '(it signs sessions and personal links); make one with: python -c "import secrets; '
            'print(secrets.token_urlsafe(48))"'
        )
    return Tokens(secret)


def link_url(settings: Settings, tokens: Tokens, user_id: int, game_id: str, locale: str = "") -> str:
    """The personal link of `user_id` to `game_id` (send it privately: it opens the map as that user, in
    `locale`)."""
    return f"{settings.public_url.rstrip('/')}/?link={tokens.link(Link(user_id, game_id, locale))}"


@dataclass
class RunningWeb:
    runner: web.AppRunner
    server: MapServer
    changes: ChangeFeed | None

    async def close(self) -> None:
        if self.changes is not None:
            await self.changes.close()
        with contextlib.suppress(Exception):
            await self.runner.cleanup()


async def start_web(
    settings: Settings,
    manager: GameManager,
    *,
    after_move: AfterMove | None = None,
    host: str = "0.0.0.0",
    moves_by: str = "player",
    membership: Membership | None = None,
    routes: Sequence[web.RouteDef] = (),
    final_board: FinalBoard | None = None,
) -> RunningWeb:
    """Serve the live map on WEB_PORT until closed (raises WebSetupError on a missing setting). `after_move`
    tells the chat of a page's move; without it (``ttr web``), `moves_by` "page" leaves that to a bot process.
    `membership` says who is in a game's server (the public view is theirs); without it (``ttr web``), only the
    seated players watch. `routes`: served too (bot.ops: ``/metrics``, ``/healthz``, ``/readyz``). `final_board`
    draws a finished game's final board (the render pool's): the Activity's Share (bot/web/moments.py)."""
    tokens = tokens_of(settings)
    config = WebConfig(
        client_id=settings.discord_client_id,
        client_secret=settings.discord_client_secret,
        bot_token=settings.discord_token,  # an Activity's instance is checked with it (bot/web/instance_gate.py)
        discord_api=settings.discord_api,
        default_locale=settings.default_locale,
        moves_by=moves_by,
        trusted_proxies=settings.trusted_proxies,
        max_connections=settings.web_max_connections,
    )
    if config.client_id and not config.bot_token:  # (an Activity's instance cannot be checked)
        log.warning("live map: no DISCORD_TOKEN: an Activity's game is found by the channel its page reports")
    server = MapServer(manager, tokens, config, after_move=after_move, membership=membership)
    moments = moment_routes(server, moments_of(server, final_board))
    # (connections capped, idle ones closed; no access log: it would show links)
    runner = server.runner([*routes, *moments])
    await runner.setup()
    await web.TCPSite(runner, host, settings.web_port).start()
    changes = await manager.follow_other_processes(server.hub.changed, on_reconnect=server.hub.refresh)
    log.info("live map on port %d (%s)", settings.web_port, settings.public_url)
    return RunningWeb(runner, server, changes)

"""The final board as a Discord "moment", for the share dialog of the Activity's final scores.

The SDK's ``openShareMomentDialog({mediaUrl})`` shares a picture held on Discord's CDN only. So, once per
finished game, the server draws its final board (the picture the chat's final scores post, by the render pool:
`FinalBoard`) and uploads it to Discord's ``POST {DISCORD_API}/applications/<client id>/attachment`` (multipart,
its ``file`` field) as Discord's own SDK playground does it: with the sharing reader's OAuth2 access token (the page
hands it in the request's body; it is used for that one upload, never stored nor logged), else the bot's token; Discord answers ``{"attachment": {"url": ...}}``, which is kept for the
game and given to every page that asks (``POST api/games/<id>/moment`` → ``{"media_url"}``).

Concurrent asks for one game share one upload; a failed upload is not kept (the next ask tries again). Nothing
hidden: the final board is the public picture of a finished game. Without a bot token, a client id or a render
pool (``ttr web`` alone), there is no moment (404 ``not_found``): the page offers no Share.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from bot.manager import GameStatus, Refused
from bot.web.errors import looked_up, web_error

if TYPE_CHECKING:
    from bot.web.app import MapServer

log = logging.getLogger(__name__)

#: The final board of a finished game as a PNG (None: not finished, or not drawn).
FinalBoard = Callable[[str], Awaitable[bytes | None]]
#: the games whose moment is kept (a finished game's is asked in the minutes after its end)
KEPT = 256


class MomentFailed(Exception):
    """The board could not be drawn or Discord did not take it."""


class Moments:
    """Each finished game's final board on Discord's CDN: `media_url` uploads it once and keeps its URL."""

    def __init__(
        self,
        http: Callable[[], aiohttp.ClientSession],
        final_board: FinalBoard | None,
        *,
        api: str,
        client_id: str,
        bot_token: str,
        timeout: float = 15.0,
    ) -> None:
        self._http = http
        self._draw = final_board
        self._url = f"{api.rstrip('/')}/applications/{client_id}/attachment"
        self._bot_auth = {"Authorization": f"Bot {bot_token}"}
        self.available = bool(final_board and client_id and bot_token)
        self.timeout = timeout
        self._kept: OrderedDict[str, str] = OrderedDict()
        self._making: dict[str, asyncio.Future[str]] = {}
        self.uploads = 0  # uploads made to Discord (for the tests and figures)

    async def media_url(self, game_id: str, access_token: str = "") -> str:
        """The CDN URL of the game's final board (raises `MomentFailed`), uploaded with the reader's `access_token`
        (a Discord OAuth2 token, as Discord's examples upload a moment) or, without one, the bot's."""
        kept = self._kept.get(game_id)
        if kept is not None:
            return kept
        making = self._making.get(game_id)
        if making is None:
            making = asyncio.ensure_future(self._make(game_id, access_token))
            self._making[game_id] = making
            making.add_done_callback(lambda _f: self._making.pop(game_id, None))
        return await asyncio.shield(making)

    async def _make(self, game_id: str, access_token: str) -> str:
        assert self._draw is not None
        png = await self._draw(game_id)
        if not png:
            raise MomentFailed("not drawn")
        form = aiohttp.FormData()
        form.add_field("file", png, filename=f"ttr-{game_id}.png", content_type="image/png")
        self.uploads += 1
        try:
            async with self._http().post(
                self._url,
                data=form,
                headers=self._auth(access_token),
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            ) as resp:
                if resp.status != 200:
                    raise MomentFailed(f"Discord answered {resp.status}")
                data = await resp.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise MomentFailed(type(exc).__name__) from None
        url = data.get("attachment", {}).get("url") if isinstance(data, dict) else None
        if not isinstance(url, str) or not url.startswith("https://"):
            raise MomentFailed("no attachment URL")
        self._kept[game_id] = url
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return url

    def _auth(self, access_token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {access_token}"} if access_token else self._bot_auth


def moment_routes(server: MapServer, moments: Moments) -> list[web.RouteDef]:
    """``POST api/games/<id>/moment``: the final board's CDN URL, for whoever may see the game."""

    async def api_moment(request: web.Request) -> web.Response:
        _user, game_id = await server._watcher(request)
        if not moments.available:
            raise web_error("not_found", 404)
        try:
            info = await server.manager.game_info(game_id)
        except Refused as exc:
            raise looked_up(exc) from None
        if info.status != GameStatus.FINISHED:
            raise web_error("not_running", 409)
        body = await server._json(request) if request.can_read_body else {}
        token = body.get("access_token", "")
        if not isinstance(token, str) or len(token) > 200 or not token.isascii() or not token.isprintable():
            raise web_error("bad_request", 400)
        try:
            url = await moments.media_url(game_id, token)
        except MomentFailed as exc:
            log.warning("live map: the final board of %s not shared: %s", game_id, exc)
            raise web_error("discord_unavailable", 503) from None
        return web.json_response({"media_url": url})

    return [web.post("/api/games/{game_id}/moment", api_moment)]


def moments_of(server: MapServer, final_board: FinalBoard | None) -> Moments:
    """The moments of `server`'s games, uploaded with its configuration's client id and bot token."""
    config = server.config
    return Moments(
        http_of(server),
        final_board,
        api=config.discord_api,
        client_id=config.client_id,
        bot_token=config.bot_token,
    )


def http_of(server: MapServer) -> Callable[[], aiohttp.ClientSession]:
    """The map server's client session to Discord (opened on first use; closed with the server)."""

    def session() -> aiohttp.ClientSession:
        if server._http is None:
            server._http = aiohttp.ClientSession()
        return server._http

    return session

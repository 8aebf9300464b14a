"""Who signs in to the live map (bot/web/PROTOCOL.md, "Signing in"): a personal link read, or Discord's
authorization code exchanged and its Activity instance checked (`bot.web.instance_gate`). The route
(`bot.web.app`) answers with the session, and with the reader's first view when it may have it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.manager import GameManager, Refused
from bot.web.discord_oauth import SignInFailed, exchange_code
from bot.web.errors import unless_outage, web_error
from bot.web.inputs import shown
from bot.web.instance_gate import InstanceGate
from bot.web.tokens import Link, SessionUser, TokenRefused
from bot.web.view import language, seat_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SignedIn:
    user: SessionUser
    access_token: str | None = None  # Discord's, for the SDK's authenticate (inside Discord only)


class SignIns:
    """The two ways in. `read_link` reads a signed personal link (`Tokens.read_link`: TokenRefused); `http`
    gives the server's client session (made on first use)."""

    def __init__(
        self,
        manager: GameManager,
        read_link: Callable[[str], Link],
        gate: InstanceGate,
        http: Callable[[], aiohttp.ClientSession],
        *,
        api: str,
        client_id: str,
        client_secret: str,
        default_locale: str,
    ) -> None:
        self.manager = manager
        self.read_link = read_link
        self.gate = gate
        self.http = http
        self.api = api
        self.client_id = client_id
        self.client_secret = client_secret
        self.default_locale = default_locale

    async def sign_in(self, data: dict[str, Any]) -> SignedIn:
        """`api/session`'s body: ``{"link", "locale"?}`` or ``{"code", "instance"}`` (WebError when refused)."""
        link, code = data.get("link"), data.get("code")
        if isinstance(link, str):
            return SignedIn(await self.with_link(link, str(data.get("locale") or "")))
        if isinstance(code, str):
            return await self.with_code(code, data.get("instance"))
        raise web_error("bad_request", 400)

    async def with_link(self, link: str, locale: str) -> SessionUser:
        try:
            found = self.read_link(link)
        except TokenRefused as exc:
            raise web_error("link_expired" if exc.reason == "expired" else "link", 401) from None
        wanted = found.locale or locale or self.default_locale
        user = SessionUser(found.user_id, str(found.user_id), language(wanted), found.game_id)
        try:
            info = await self.manager.game_info(found.game_id)
            seat = seat_of(info, found.user_id)
            name = info.seats[seat].name if seat is not None else user.name
            user = SessionUser(found.user_id, name, user.locale, found.game_id)
        except Refused as exc:
            unless_outage(exc)
        return user

    async def with_code(self, code: str, instance: object) -> SignedIn:
        self.gate.prefetch(instance)  # (Discord asked about it while the code is exchanged)
        try:
            who = await exchange_code(
                self.http(), code, api=self.api, client_id=self.client_id, client_secret=self.client_secret
            )
        except SignInFailed as exc:
            log.info("live map: a sign-in failed (%s)", shown(str(exc)))
            raise web_error("signin", 401) from None
        game_id = await self.gate.game_of(instance, who.user_id)  # the instance's game, or ""
        locale = language(who.locale or self.default_locale)
        return SignedIn(SessionUser(who.user_id, who.name, locale, game_id), who.access_token)

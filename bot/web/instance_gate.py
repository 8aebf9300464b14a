"""Which game a page signed in through Discord may see: the one of its Activity instance, as Discord says.

With the bot's token (``WebConfig.bot_token``), a sign-in by the SDK's code names its instance (the SDK's
``instanceId``); Discord is asked where that instance runs and who is in it (`ActivityInstances`, cached), the
signed-in user must be one of them, and the session is for the game of that channel (or thread) only
(``SessionUser.game``, as a personal link's). The channel id a page reports is never believed.

Without a bot token (development, the tests' DiscordSDKMock with ``?mock_code=``) nothing can be asked: the page
finds its game by channel (``/api/context``), as before (bot/web/PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Callable

import aiohttp

from bot.manager import GameManager, Refused
from bot.web.activity_instances import ActivityInstances, InstanceRefused
from bot.web.errors import WebError, looked_up, web_error

#: a refusal of `ActivityInstances` → the page's error (the catalogue's ``web.error.<code>``) and its status
REFUSALS = {
    "bad_id": ("instance", 403),
    "unknown": ("instance", 403),
    "not_in_instance": ("not_in_instance", 403),
    "unavailable": ("discord_unavailable", 503),
}


async def game_of_channel(manager: GameManager, channel: int) -> str:
    """The open game of this thread (or channel); a web error when there is none."""
    try:
        found = await manager.find_open_game(thread_id=channel) or await manager.find_open_game(
            channel_id=channel
        )
    except Refused as exc:
        raise looked_up(exc, "no_game_here") from None
    if found is None:
        raise web_error("no_game_here", 404)
    return found.game_id


class InstanceGate:
    """`game_of` a Discord sign-in: the game of its Activity instance, or "" when there is no bot token."""

    def __init__(
        self,
        manager: GameManager,
        http: Callable[[], aiohttp.ClientSession | None],
        *,
        api: str,
        client_id: str,
        bot_token: str,
    ) -> None:
        self.manager = manager
        self.instances: ActivityInstances | None = None
        if bot_token:
            self.instances = ActivityInstances(
                lambda: _made(http()), api=api, client_id=client_id, bot_token=bot_token
            )

    @property
    def believes_channels(self) -> bool:
        """Whether a page's channel id is taken as it is (no bot token to ask Discord with)."""
        return self.instances is None

    def prefetch(self, instance_id: object) -> None:
        """Asks Discord about the instance now, while the sign-in's code is exchanged (two calls at once rather
        than one after the other); `game_of` reads that answer. (Only a sign-in within the per-address rate
        gets here, and an instance's answer, even "unknown", is kept: a stranger cannot make it ask at will.)"""
        if self.instances is not None and isinstance(instance_id, str):
            self.instances.prefetch(instance_id)

    async def game_of(self, instance_id: object, user_id: int) -> str:
        """The game `user_id` may see through the instance `instance_id` ("" without a bot token: any game,
        found by channel); a `WebError` for a forged instance, a user not in it, or Discord unreachable."""
        if self.instances is None:
            return ""
        if not isinstance(instance_id, str):
            raise web_error("instance", 403)
        try:
            instance = await self.instances.check(instance_id, user_id)
        except InstanceRefused as exc:
            raise _refusal(exc.reason) from None
        return await game_of_channel(self.manager, instance.channel_id)


def _refusal(reason: str) -> WebError:
    code, status = REFUSALS.get(reason, ("instance", 403))
    return web_error(code, status)


def _made(http: aiohttp.ClientSession | None) -> aiohttp.ClientSession:
    assert http is not None, "the sign-in opens the HTTP session before it checks an instance"
    return http

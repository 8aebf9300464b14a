"""A messenger that posts nowhere, for tests of the game service that read its replies instead
(`from helpers.quiet_messenger import QuietMessenger`; it follows `bot.play.contract.Messenger`)."""

from __future__ import annotations

from typing import Any


class QuietMessenger:
    """Every post and edit goes nowhere: posts have no message id, direct messages and edits do not land."""

    async def post(self, channel_id: int, reply: Any, *, locale: str | None = None) -> int | None:
        return None

    async def direct(self, user_id: int, reply: Any, *, locale: str | None = None) -> bool:
        return False

    async def edit_rows(self, channel_id: int, message_id: int, reply: Any) -> bool:
        return False

    async def edit(self, channel_id: int, message_id: int, reply: Any) -> bool:
        return False

    async def close_thread(self, channel_id: int) -> bool:
        return False

    def public_locale(self, channel_id: int) -> str:
        return "en"

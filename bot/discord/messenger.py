"""`Messenger` over a running bot: messages outside any interaction (turn messages after AI moves, reminders)."""

from __future__ import annotations

import logging

import discord

from bot.discord.language import server_locale
from bot.discord.replies import message_kwargs
from bot.i18n import Catalog, default_catalog, language_of
from bot.play.reply import Reply

log = logging.getLogger(__name__)


class DiscordMessenger:
    """`bot.play.contract.Messenger` over a running bot: channel posts and DMs, errors logged and swallowed."""

    def __init__(
        self, client: discord.Client, catalog: Catalog | None = None, default_locale: str = "en"
    ) -> None:
        self.client = client
        self.catalog = catalog or default_catalog()
        self.default_locale = default_locale

    async def post(self, channel_id: int, reply: Reply, *, locale: str | None = None) -> int | None:
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                log.warning("channel %s cannot receive messages", channel_id)
                return None
            locale = locale or self._locale_of(channel)
            message = await channel.send(**message_kwargs(reply, self.catalog, locale))
        except discord.HTTPException as exc:
            log.warning("could not post to channel %s: %s %s", channel_id, exc.status, exc.text)
            return None
        if reply.posted is not None:
            await reply.posted(channel_id, message.id)
        for extra in reply.also:
            await self.post(channel_id, extra, locale=locale)
        return message.id

    async def is_member(self, guild_id: int, user_id: int) -> bool | None:
        """Whether `user_id` is a member of server `guild_id` (the live map's `Membership`): from the member
        cache, else one REST look-up (the bot asks for no members intent); None when Discord cannot tell now."""
        guild = self.client.get_guild(guild_id)
        if guild is not None and guild.get_member(user_id) is not None:
            return True
        try:
            await self.client.http.get_member(guild_id, user_id)
        except discord.NotFound:  # not a member (or the bot is no longer in that server)
            return False
        except discord.Forbidden:
            return False
        except discord.HTTPException as exc:
            log.info("membership of a user in server %s not known: %s", guild_id, exc.status)
            return None
        return True

    async def edit_rows(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        """Replace the components of a message the bot posted by `reply.rows` (text and pictures stay)."""
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                return False
            locale = self._locale_of(channel)
            view = message_kwargs(reply, self.catalog, locale).get("view")
            await channel.get_partial_message(message_id).edit(view=view)
        except discord.HTTPException as exc:
            log.info("could not edit message %s in %s: %s %s", message_id, channel_id, exc.status, exc.text)
            return False
        return True

    async def edit(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        """Replace the text, embeds and buttons of a message the bot posted (its attachments stay)."""
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                return False
            kwargs = message_kwargs(reply, self.catalog, self._locale_of(channel))
            kwargs.pop("files", None)
            kwargs.setdefault("view", None)  # no rows: no buttons left
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as exc:
            log.info("could not edit message %s in %s: %s %s", message_id, channel_id, exc.status, exc.text)
            return False
        return True

    async def close_thread(self, channel_id: int) -> bool:
        """Archive the thread `channel_id` when the bot created it; a channel or someone else's thread stays."""
        me = self.client.user
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.Thread) or me is None or channel.owner_id != me.id:
                return False
            await channel.edit(archived=True)
        except discord.HTTPException as exc:
            log.info("could not archive thread %s: %s %s", channel_id, exc.status, exc.text)
            return False
        return True

    def _locale_of(self, channel: object) -> str:
        guild = getattr(channel, "guild", None)
        chosen = server_locale(self.client, getattr(guild, "id", None))
        if chosen is not None:
            return chosen
        guild_locale = getattr(guild, "preferred_locale", None)
        return language_of(guild_locale) if guild_locale is not None else self.default_locale

    def public_locale(self, channel_id: int) -> str:
        channel = self.client.get_channel(channel_id)
        return self._locale_of(channel) if channel is not None else self.default_locale

    async def direct(self, user_id: int, reply: Reply, *, locale: str | None = None) -> bool:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(**message_kwargs(reply, self.catalog, locale or self.default_locale))
        except discord.HTTPException as exc:
            log.info("could not DM user %s: %s %s", user_id, exc.status, exc.text)
            return False
        return True

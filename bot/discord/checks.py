"""Who presses: permission checks on an interaction, and the `Caller` the service gets."""

from __future__ import annotations

import discord

from bot.discord.language import default_locale_of, interaction_locale, public_locale
from bot.play.contract import Caller


def is_moderator(interaction: discord.Interaction) -> bool:
    """May act as any game's host here: manages the server or its messages."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_messages or perms.administrator)


def is_admin(interaction: discord.Interaction) -> bool:
    """Manages the server (Manage Server or Administrator): chooses its language, exports its games."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def caller(interaction: discord.Interaction) -> Caller:
    """The person, place and rights of an interaction, as the service sees them."""
    return Caller(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        moderator=is_moderator(interaction),
        locale=interaction_locale(interaction, default_locale_of(interaction)),
        public_locale=public_locale(interaction, default_locale_of(interaction)),
    )

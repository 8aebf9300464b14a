"""Permission checks on an interaction."""

from __future__ import annotations

import discord


def is_moderator(interaction: discord.Interaction) -> bool:
    """May act as any game's host here: manages the server or its messages."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_messages or perms.administrator)

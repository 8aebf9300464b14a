"""Ticket to Ride on Discord: the bot (`bot.discord`), the presentation (`bot.play`), the game manager
(`bot.manager`), storage (`bot.storage`), and the process settings (`bot.config`).

from bot import create_bot, Settings

The names are imported lazily, so `bot.storage` and `bot.manager` can be used without loading discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.config import Settings, SettingsError
    from bot.discord.app import TTRBot
    from bot.launch import create_bot

__all__ = ["Settings", "SettingsError", "TTRBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name == "TTRBot":
        from bot.discord import app

        return app.TTRBot
    if name == "create_bot":  # (the composition root's: the bot with its game service's parts)
        from bot import launch

        return launch.create_bot
    if name in ("Settings", "SettingsError"):
        from bot import config

        return getattr(config, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

"""Discord adapter: the bot, its commands and components, and the settings it starts from.

from bot import create_bot, Settings

The names are imported lazily, so `bot.storage` and `bot.manager` can be used without loading discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import TTRBot, create_bot
    from bot.config import Settings, SettingsError

__all__ = ["Settings", "SettingsError", "TTRBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in ("TTRBot", "create_bot"):
        from bot import app

        return getattr(app, name)
    if name in ("Settings", "SettingsError"):
        from bot import config

        return getattr(config, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

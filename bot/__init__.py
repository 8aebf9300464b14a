"""Discord adapter: the bot, its commands and components, and the settings it starts from.

from bot import create_bot, Settings
"""

from bot.app import TTRBot, create_bot
from bot.settings import Settings, SettingsError

__all__ = ["Settings", "SettingsError", "TTRBot", "create_bot"]

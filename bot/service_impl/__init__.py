"""The game service of the production bot: `/ttr` commands and buttons -> GameManager -> engine -> pictures."""

from bot.service_impl.service import ManagerGameService, create_game_service

__all__ = ["ManagerGameService", "create_game_service"]

"""`GameReading`: the ground every part of the play service stands on. It holds the manager (refused once the
service is closed), the pictures and the settings, and reads a game the way a command needs it: named or found
in the caller's thread or channel, running or refused. A manager's refusal becomes the player's words here
(`bot.play.refusals`); a fault of the database is refused as such, never as "no such game"."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

from bot.config import Settings
from bot.manager import GameInfo, GameManager, Refused
from bot.play.contract import Caller
from bot.play.pictures import Pictures, picture_words
from bot.play.refusals import fail, refusal
from engine.state import GameState
from render.words import PictureWords

T = TypeVar("T")


class GameReading:
    """The manager, pictures and settings of the play service, and its reads of one game."""

    def __init__(self, config: Settings, *, manager: GameManager, pictures: Pictures) -> None:
        self.config = config
        self.pictures = pictures
        self.manager: GameManager | None = manager  # None once closed: a late call is refused

    @property
    def games_manager(self) -> GameManager:
        if self.manager is None:
            raise fail("errors.unavailable")
        return self.manager

    async def _state(self, game_id: str) -> GameState | None:
        return await self.games_manager.state_of(game_id)

    async def _running(self, game_id: str) -> GameState:
        state = await self._state(game_id)
        if state is None:
            raise fail("play.not_running")
        return state

    async def _info(self, game_id: str) -> GameInfo:
        try:  # (a fault of the database is refused as such by the manager, never "no such game")
            return await self.games_manager.game_info(game_id)
        except Refused as exc:
            raise refusal(exc) from None

    async def _find(self, caller: Caller, game_id: str | None) -> GameInfo:
        """The game named, or else the open game of the caller's thread or channel."""
        if game_id:
            info = await self._info(game_id.strip())
            if info.guild_id != caller.guild_id:
                raise fail("game.none")
            return info
        manager = self.games_manager
        # (a fault of the database is refused as such: "cannot be reached", never "no game here")
        found = await self._call(manager.find_open_game(thread_id=caller.channel_id)) or await self._call(
            manager.find_open_game(channel_id=caller.channel_id)
        )
        if found is None:
            raise fail("game.none_here")
        return found

    async def _call(self, call: Awaitable[T]) -> T:
        try:
            return await call
        except Refused as exc:
            raise refusal(exc) from None

    async def _record(self, game_id: str) -> dict[str, Any]:
        return await self.games_manager.export_record(game_id)

    def _words(self, locale: str | None) -> PictureWords:
        return picture_words(locale or self.config.default_locale)

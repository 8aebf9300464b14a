"""What the manager keeps about players rather than games: their ratings (written by the storage with each
finished game's results) and their own preferences (how they are told it is their turn, whether a claim asks
for confirmation). A base class of :class:`bot.manager.GameManager`; nothing here touches a game."""

from __future__ import annotations

from dataclasses import replace

from bot.manager.refusals import Refused
from bot.manager.store import GameStore
from bot.storage import NOTIFY_MODES, PlayerPrefs, Rating

__all__ = ["PlayerPrefs", "PlayerQueries"]


class PlayerQueries:
    """Ratings and preferences (a base class of :class:`bot.manager.GameManager`)."""

    _store: GameStore

    async def rating(self, guild_id: int, user_id: int, board: str = "") -> Rating | None:
        """The player's rating in that server (over every board, or on `board`); None before a rated game."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.rating(guild_id, user_id, board))

    async def ratings(self, guild_id: int, board: str = "", limit: int = 10) -> list[Rating]:
        """The server's leaderboard (over every board, or on `board`), best first."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.ratings(guild_id, board, limit))

    async def player_prefs(self, user_id: int, guild_id: int | None) -> PlayerPrefs:
        """The player's preferences in that server (the defaults until they change one)."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.load_prefs(user_id, guild_id))

    async def set_player_prefs(
        self,
        user_id: int,
        guild_id: int | None,
        *,
        notify: str | None = None,
        confirm_claims: bool | None = None,
    ) -> PlayerPrefs:
        """Change some of the player's preferences; the preferences now. An unknown `notify` is refused."""
        if notify is not None and notify not in NOTIFY_MODES:
            raise Refused("bad_pref", name="notify", value=notify, allowed=", ".join(NOTIFY_MODES))
        repo = self._store.repo
        async with self._store.locks.hold(f"prefs:{user_id}:{guild_id}"):
            prefs = await self.player_prefs(user_id, guild_id)
            if notify is not None:
                prefs = replace(prefs, notify=notify)
            if confirm_claims is not None:
                prefs = replace(prefs, confirm_claims=confirm_claims)
            await self._store.storage(lambda: repo.save_prefs(user_id, guild_id, prefs))
        return prefs

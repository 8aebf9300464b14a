"""What the manager keeps about servers rather than games or players: the language a server's admins chose for
its public messages (issue 31). A base class of :class:`bot.manager.GameManager`; which languages exist and who
may choose are the presentation's to say (bot.play.server_language)."""

from __future__ import annotations

from bot.manager.store import GameStore

__all__ = ["ServerSettings"]


class ServerSettings:
    """A server's own settings (a base class of :class:`bot.manager.GameManager`)."""

    _store: GameStore

    async def server_language(self, guild_id: int) -> str | None:
        """The language that server chose for its public messages; None if it never chose."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.load_server_language(guild_id))

    async def server_languages(self) -> dict[int, str]:
        """Every server's chosen language, by server id."""
        repo = self._store.repo
        return await self._store.storage(repo.server_languages)

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of a server's public messages (None: Discord's again)."""
        repo = self._store.repo
        await self._store.storage(lambda: repo.save_server_language(guild_id, language))

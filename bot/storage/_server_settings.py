"""A server's own settings (V008): the language of its public messages, chosen by its admins (issue 31). One
row per server that chose; none: the host's SERVER_LOCALES, else Discord's preferred locale. Mixed into
:class:`~bot.storage._repository.SQLRepository`, written once for both databases."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from ._dialect import Dialect, Row, Tx


class ServerSettingsQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    if TYPE_CHECKING:  # what the repository provides (declared here for the type checker only)

        def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

        async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

        def _now(self) -> datetime: ...

    async def load_server_language(self, guild_id: int) -> str | None:
        rows = await self._read("SELECT language FROM server_settings WHERE guild_id = ?", (guild_id,))
        return str(rows[0]["language"]) if rows else None

    async def server_languages(self) -> dict[int, str]:
        rows = await self._read("SELECT guild_id, language FROM server_settings")
        return {int(row["guild_id"]): str(row["language"]) for row in rows}

    async def save_server_language(self, guild_id: int, language: str | None) -> None:
        async with self._write("save a server's language") as tx:
            if language is None:
                await tx.execute("DELETE FROM server_settings WHERE guild_id = ?", (guild_id,))
                return
            await tx.execute(
                "INSERT INTO server_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
                " updated_at = excluded.updated_at",
                (guild_id, language, self.dialect.time_to_db(self._now())),
            )

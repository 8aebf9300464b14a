"""`/ttr language`: the language a server's public messages are written in (lobbies, turn messages, final scores,
the words in its pictures), chosen by the server's admins over Discord's preferred locale (issue 31, item 5).

Which language a public message takes, first found wins:

1. the server's own choice (this module, stored per server: ``server_settings``, V008);
2. the host's ``SERVER_LOCALES`` for that server (bot.config: a default the host gives before the admins chose);
3. the server's Discord preferred locale, then ``DEFAULT_LOCALE``.

Every public message is worded synchronously at the edge (bot.discord.language), so the choices are kept in
memory (`ServerLanguages`): all read at start, one server's read again when older than `FRESH_SECONDS` on its next
interaction (another process of the cluster may have changed it), and written through on a change here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.i18n import default_catalog
from bot.manager import GameManager, Refused
from bot.messages import Join, Text
from bot.play.refusals import refusal
from bot.play.reply import EmbedSpec, GameError, Reply
from bot.presenters.words import listed
from maps.board import normalize_name

log = logging.getLogger(__name__)

#: How long a server's choice read from storage is trusted before its next interaction reads it again.
FRESH_SECONDS = 60.0

#: What `/ttr language` takes to forget the server's choice (Discord's preferred locale again).
AUTOMATIC = "auto"


def languages() -> dict[str, str]:
    """The languages a server may choose, by code, each named in itself (``{"de": "Deutsch", ...}``): one per
    catalogue, named by its own ``language.name``."""
    catalog = default_catalog()
    named = {code: catalog.exact("language.name", code) for code in catalog.messages}
    return {code: name for code, name in sorted(named.items(), key=lambda item: item[1] or "") if name}


def language_choices(current: str) -> list[tuple[str, str]]:
    """(value, name) pairs matching what the admin typed: the languages named in themselves, then automatic."""
    needle = normalize_name(current)
    found = [
        (code, name)
        for code, name in languages().items()
        if not needle or needle in normalize_name(name) or normalize_name(code).startswith(needle)
    ]
    return found + ([(AUTOMATIC, AUTOMATIC)] if not needle or AUTOMATIC.startswith(needle) else [])


def parse_language(value: str) -> str | None:
    """The code an admin means (``de``, ``Deutsch``, ``deutsch``, ``de-DE``); None for `AUTOMATIC`. An unknown
    value is refused with the languages there are."""
    wanted = normalize_name(value)
    if wanted == AUTOMATIC:
        return None
    for code, name in languages().items():
        if wanted in (normalize_name(code), normalize_name(name)) or wanted.split()[:1] == [code]:
            return code
    known = listed([*(f"{name} ({code})" for code, name in languages().items()), AUTOMATIC])
    raise GameError(Text("server_language.unknown", {"value": value, "known": known}))


class ServerLanguages:
    """The servers' chosen languages in memory, as the edge reads them for every public message."""

    def __init__(
        self,
        manager: Callable[[], GameManager],
        *,
        fresh: float = FRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._manager = manager
        self._fresh = fresh
        self._clock = clock
        self._chosen: dict[int, str] = {}
        self._read_at: dict[int, float] = {}

    def chosen(self, guild_id: int | None) -> str | None:
        """The language that server chose, as last read; None if none (or outside any server)."""
        return None if guild_id is None else self._chosen.get(guild_id)

    async def load_all(self) -> None:
        """Read every server's choice (at start); a database down leaves them to be read one by one later."""
        try:
            every = await self._manager().server_languages()
        except Refused:
            log.warning(
                "could not read the servers' languages at start; each is read on its next interaction"
            )
            return
        self._chosen = dict(every)
        now = self._clock()
        self._read_at = dict.fromkeys(every, now)

    async def refresh(self, guild_id: int | None) -> None:
        """Read that server's choice again when the one in memory is older than `fresh` (before an interaction);
        a database down keeps the one in memory."""
        if guild_id is None:
            return
        read = self._read_at.get(guild_id)
        if read is not None and self._clock() - read < self._fresh:
            return
        try:
            language = await self._manager().server_language(guild_id)
        except Refused:  # not asked again before `fresh` is over: an interaction waits on no database down
            self._read_at[guild_id] = self._clock()
            return
        self._remember(guild_id, language)

    async def choose(self, guild_id: int, language: str | None) -> None:
        await self._manager().set_server_language(guild_id, language)
        self._remember(guild_id, language)

    def _remember(self, guild_id: int, language: str | None) -> None:
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language
        self._read_at[guild_id] = self._clock()


async def server_language_reply(
    chosen: ServerLanguages, guild_id: int | None, *, value: str | None, admin: bool, unchosen: str
) -> Reply:
    """Show the server's language, or change it (`value`: a language, or `AUTOMATIC`) when `admin` (Manage
    Server). `unchosen` is the language its public messages take without a choice of its own (the host's
    SERVER_LOCALES, else Discord's preferred locale), shown after "automatic"."""
    if guild_id is None:
        raise GameError(Text("errors.guild_only"))
    changed = value is not None
    if changed:
        if not admin:
            raise GameError(Text("server_language.admins_only"))
        try:
            await chosen.choose(guild_id, parse_language(value or ""))
        except Refused as exc:
            raise refusal(exc) from None
    names = languages()
    code = chosen.chosen(guild_id)
    if code is not None:
        line = Text("server_language.chosen", {"language": names.get(code, code)})
    else:
        base = unchosen.split("-")[0]
        line = Text("server_language.automatic", {"language": names.get(unchosen, names.get(base, unchosen))})
    return Reply(
        content=Text("server_language.changed") if changed else None,
        embeds=(
            EmbedSpec(
                title=Text("server_language.title"),
                description=Join((line, Text("server_language.private"))),
                footer=Text("server_language.footer"),
            ),
        ),
        ephemeral=True,
    )

"""The bot object: `create_bot(settings)` builds it without touching the network; `setup_hook` does the rest.

Start-up order in `setup_hook` (runs inside `login`, before the gateway connects):
1. start the game service, given by the caller (the process's composition root, bot.launch): the service itself,
   or its parts (a `ServiceParts` context manager, e.g. bot.wiring's `Wiring`) entered here and left in `close`,
2. install the command translator,
3. load the cogs (a cog that does not load stops the start, loudly: a bot without its commands is no bot),
4. register the persistent DynamicItems so old buttons work after a restart,
5. sync the slash commands: to `TEST_GUILD_ID` (globals copied there) when set, else globally.
"""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings, format_shards
from bot.discord.checks import caller
from bot.discord.components import DYNAMIC_ITEMS, is_known, is_ours
from bot.discord.language import CatalogTranslator, refresh_server_language, tr
from bot.discord.messenger import DiscordMessenger
from bot.discord.replies import answer, report_error
from bot.i18n import Catalog, default_catalog
from bot.ops.logs import bind_interaction
from bot.play.contract import GameService
from bot.play.press import Press

log = logging.getLogger(__name__)
#: seconds a clean stop (SIGTERM) waits for the messages in flight (docker stop gives 10 s before SIGKILL)
POST_GRACE = 8.0

INITIAL_EXTENSIONS: tuple[str, ...] = ("bot.discord.cogs.ttr",)

#: the privileged gateway intents, by their names on the developer portal (Bot page, Privileged Gateway Intents)
PRIVILEGED_INTENTS: dict[str, str] = {
    "presences": "Presence Intent",
    "members": "Server Members Intent",
    "message_content": "Message Content Intent",
}


def bot_intents() -> discord.Intents:
    """The gateway intents the bot asks for: discord.py's defaults without typing, and no privileged one (slash
    commands and components need neither message content nor the member list)."""
    intents = discord.Intents.default()
    intents.typing = False
    intents.presences = False
    intents.members = False
    intents.message_content = False
    return intents


def privileged_intents(intents: discord.Intents) -> list[str]:
    """The portal names of the privileged intents among `intents` (what a 4014 close asks the host to enable)."""
    return [portal for flag, portal in PRIVILEGED_INTENTS.items() if getattr(intents, flag)]


class ServiceParts(Protocol):
    """The game service's parts as the composition root builds them (bot.wiring's ``Wiring``): entering them
    builds and gives the service, leaving them closes the parts in reverse."""

    async def __aenter__(self) -> GameService: ...

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> object: ...


class TTRCommandTree(app_commands.CommandTree):
    """Command tree whose error handler logs the failure and answers the user ephemerally."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # its guild and shard on the log lines of its handling (LOG_FORMAT=json)
        bind_interaction(interaction)
        await refresh_server_language(interaction)
        return True


class TTRBot(commands.Bot):
    """Ticket to Ride bot: slash commands only, no privileged intents."""

    #: the games (set by the constructor, or in `setup_hook` from the `parts` given instead)
    service: GameService

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        parts: ServiceParts | None = None,
        catalog: Catalog | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            tree_cls=TTRCommandTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.config = settings
        # Without a service, it is built in setup_hook by the parts given (tests: a clock, pictures that draw
        # nothing): the bot never composes its service itself.
        self.parts: ServiceParts | None = None
        if service is not None:
            self.service = service
        elif parts is not None:
            self.parts = parts
        else:
            raise TypeError(
                "a bot is given its game service or its parts (bot.launch.create_bot builds both)"
            )
        self.catalog = catalog or default_catalog()
        self.synced: list[app_commands.AppCommand] = []
        self._service_started = False

    async def setup_hook(self) -> None:
        if self.parts is not None:
            self.service = await self.parts.__aenter__()
        self.messenger = DiscordMessenger(self, self.catalog, self.config.default_locale)
        await self.service.start(self.messenger)
        self._service_started = True
        await self._join_cluster()
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        for extension in INITIAL_EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.config.sync_commands:
            await self.sync_commands()

    async def _join_cluster(self, ids: tuple[int, ...] | None = None, count: int | None = None) -> None:
        """Write this process's heartbeat row (its shards: the settings', or `ids` of `count` once Discord
        told the count)."""
        if ids is None:
            ids, count = self.config.shard_ids, self.config.shard_count
        await self.service.join_cluster(
            shard_ids="all" if ids is None else format_shards(ids), shard_count=count
        )

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        guild_id = self.config.test_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to test guild %s", len(self.synced), guild_id)
        else:
            self.synced = await self.tree.sync()
            log.info(
                "synced %d global commands (can take up to an hour to show everywhere)", len(self.synced)
            )
        return self.synced

    async def on_game_press(self, interaction: discord.Interaction, press: Press) -> None:
        """A press on one of our persistent components (parsed by `bot.discord.components`): ask the
        service, show its reply; every failure gets an answer and a log line."""
        await refresh_server_language(interaction)
        try:  # (the service checks the game's place, once: it exists, and is of this server)
            await answer(interaction, self.service.press(caller(interaction), press), private=True)
        except Exception as error:  # noqa: BLE001 - every failure gets an answer and a log line
            await report_error(interaction, error, where=f"button {press.code} of game {press.game_id}")

    def shards_text(self) -> str:
        """The shards this process runs, as an operator reads them ("all", "0-3 of 8"); see ShardedTTRBot."""
        return self.config.shards_text()

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "ready as %s (id %s) in %d servers, shards %s",
            self.user,
            self.user.id,
            len(self.guilds),
            self.shards_text(),
        )

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press on one of our buttons whose id no template accepts any more (old format)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not is_ours(custom_id) or is_known(custom_id):
            return
        log.info("stale component id %r pressed by user %s", custom_id, interaction.user.id)
        try:
            await interaction.response.send_message(tr(interaction, "button.expired"), ephemeral=True)
        except discord.HTTPException:
            log.debug("could not answer stale component %r", custom_id, exc_info=True)

    async def close(self) -> None:
        if self._service_started:
            try:  # posts in flight finish while Discord is still open: none twice on a deploy
                await self.service.finish_posts(POST_GRACE)
            except Exception:
                log.exception("posts in flight not finished")
        try:
            await super().close()
        finally:
            if self._service_started:
                self._service_started = False
                try:
                    await self.service.close()
                except Exception:
                    log.exception("game service did not close cleanly")
            parts, self.parts = self.parts, None
            if parts is not None:  # the parts this bot entered: manager, pictures, repository
                try:
                    await parts.__aexit__(None, None, None)
                except Exception:
                    log.exception("game service's parts did not close cleanly")


class ShardedTTRBot(TTRBot, commands.AutoShardedBot):
    """The bot as it runs: discord.py's AutoShardedBot, one gateway connection per shard, all in this process.

    Without SHARD_COUNT, ``shard_count`` is None until the bot connects: discord.py then asks Discord
    (``GET /gateway/bot``) for its recommended count and runs every shard, so a bot that grows past 2,500 servers
    needs no new settings. With SHARD_COUNT and SHARD_IDS it runs those shards only; other processes run the
    others on the same PostgreSQL database."""

    #: seconds between two shards' IDENTIFYs: Discord accepts one every 5 s (max_concurrency 1), as
    #: discord.py's default hook waits
    identify_interval: float = 5.0

    def shards_text(self) -> str:
        count = self.shard_count
        if count is None:  # not connected yet: Discord has not said how many
            return self.config.shards_text()
        ids = tuple(self.shard_ids) if self.shard_ids is not None else tuple(range(count))
        chosen = "" if self.config.shard_count is not None else " (count recommended by Discord)"
        return f"{format_shards(ids)} of {count}{chosen}"

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Before each shard's IDENTIFY; the first one logs which shards this process runs (the count is
        known by then, Discord's when SHARD_COUNT is not set)."""
        if initial:
            log.info("connecting to Discord: shards %s", self.shards_text())
            count = self.shard_count
            if count is not None and self.config.shard_count is None:  # Discord chose it: the row says so
                try:
                    await self._join_cluster(tuple(range(count)), count)
                except Exception:  # noqa: BLE001 - the heartbeat must not stop the connection
                    log.warning("heartbeat row not rewritten with the shard count", exc_info=True)
        else:
            await asyncio.sleep(self.identify_interval)

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %s ready", shard_id, self.shard_count)


def create_bot(
    settings: Settings | None = None,
    *,
    service: GameService | None = None,
    parts: ServiceParts | None = None,
    **options: Any,
) -> ShardedTTRBot:
    """Build the bot; nothing touches the network until it is started. It is given its game `service`, or the
    `parts` that build it in ``setup_hook`` (bot.launch.create_bot gives the composition root's). Always sharded
    (:class:`ShardedTTRBot`): the shards ``SHARD_IDS`` of ``SHARD_COUNT`` when set, else every shard of the count
    Discord recommends when the bot connects."""
    settings = settings or Settings()
    settings.check_shards()
    if settings.shard_count is not None:
        options.setdefault("shard_count", settings.shard_count)
    if settings.shard_ids is not None:
        options.setdefault("shard_ids", list(settings.shard_ids))
    return ShardedTTRBot(settings, service=service, parts=parts, **options)

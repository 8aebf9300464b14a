"""The process's start, part of the composition root (beside bot.wiring): `ttr bot` and `python -m bot` run here.

As discord.py's ``examples/advanced_startup.py``: this entry checks the settings and the database (reachable, its
SQLite file locked to this process, migrated), enters the game service's parts (bot.wiring's ``Wiring``), builds
the bot with the service and hands it to the Discord adapter's runner (bot.discord.startup), and closes the parts
in reverse once the bot is closed. The adapter never builds or opens them itself.

Start-up failures end with one clear line naming what to fix and exit status 2; tokens never reach a log.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any

from bot.config import Settings, SettingsError, parse_setting
from bot.discord.app import ServiceParts, ShardedTTRBot
from bot.discord.app import create_bot as create_discord_bot
from bot.discord.startup import explain_discord_error, run_discord_bot, setup_logging
from bot.play.contract import GameService
from bot.wiring import (
    StartupError,
    Wiring,
    check_database,
    check_live_map,
    check_shards,
    open_database,
)

if TYPE_CHECKING:
    import discord

    from bot.ops.operations import Operations

log = logging.getLogger("bot")

EXIT_CONFIG = 2
EXIT_BUG = 1


def create_bot(
    settings: Settings | None = None,
    *,
    service: GameService | None = None,
    parts: ServiceParts | None = None,
    **options: Any,
) -> ShardedTTRBot:
    """The bot with its game service: the one given, or built in its ``setup_hook`` by `parts` (tests give a
    ``Wiring`` with their clock and pictures), by default the composition root's ``Wiring(settings)``."""
    settings = settings or Settings()
    if service is None and parts is None:
        parts = Wiring(settings)
    return create_discord_bot(settings, service=service, parts=parts, **options)


def check_token(settings: Settings) -> None:
    if not settings.discord_token:
        raise StartupError(
            "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in the environment or in a .env file "
            "(copy .env.example); the token is on the Discord developer portal, Bot page."
        )


async def start_bot(settings: Settings, *, service: GameService | None = None) -> None:
    """Log in, connect and serve until the bot is closed; start-up problems propagate as exceptions.

    This entry owns the game service's parts (bot.wiring: repository, pictures, manager, service), hands the
    service to the bot, and closes them in reverse once the bot is closed. A given `service` (tests) is the
    caller's."""
    if service is not None:
        await _run_bot(settings, service)
        return
    wiring = Wiring(settings)
    async with wiring as built:
        await _run_bot(settings, built, wiring.ops)


async def _run_bot(settings: Settings, service: GameService, ops: Operations | None = None) -> None:
    bot = create_bot(settings, service=service, **(ops.bot_options() if ops is not None else {}))
    if ops is not None:  # (metrics: Discord's requests and the interactions' answers; readiness: the shards)
        ops.watch_bot(bot)
    await run_discord_bot(bot, settings)


def explain_startup_error(
    exc: BaseException, settings: Settings | None = None, *, intents: discord.Intents | None = None
) -> str | None:
    """One line telling the operator what to fix, or None for an error that is a bug: the settings' and the
    database's refusals as they were raised, Discord's explained by the adapter (bot.discord.startup)."""
    if isinstance(exc, StartupError | SettingsError):
        return str(exc)
    return explain_discord_error(exc, settings, intents=intents)


def run_bot(
    settings: Settings | None = None,
    *,
    database_url: str | None = None,
    shard_ids: str | None = None,
    shard_count: str | None = None,
) -> int:
    """Run the bot until stopped; returns the process exit status (0 normal, 1 a bug, 2 start-up problem).

    Without `settings`, they are read from the environment here, so a bad value ends in one line too;
    `database_url` (``ttr bot --database-url``) overrides theirs."""
    try:
        settings = settings or Settings.from_env()
        if database_url:
            settings = settings.with_overrides(database_url=database_url)
        if shard_count:
            settings = settings.with_overrides(shard_count=parse_setting("shard_count", shard_count))
        if shard_ids:
            settings = settings.with_overrides(shard_ids=parse_setting("shard_ids", shard_ids))
        settings.check_shards()
    except SettingsError as exc:
        setup_logging()
        log.error("configuration problem: %s", exc)
        return EXIT_CONFIG
    setup_logging(settings.log_level, secrets=settings.secrets(), log_format=settings.log_format)
    try:
        check_token(settings)
        check_shards(settings)
        check_live_map(settings)
        check_database(settings)
        open_database(settings)
        log.info(
            "starting: shards %s, database %s, test guild %s, locale %s",
            settings.shards_text(),
            settings.redacted_database_url(),
            settings.test_guild_id or "none (global commands)",
            settings.default_locale,
        )
        asyncio.run(start_bot(settings))
    except KeyboardInterrupt:
        log.info("stopped")
    except Exception as exc:
        explanation = explain_startup_error(exc, settings)
        if explanation is None:  # a bug: its traceback, through the log so that no secret shows in it
            log.critical("the bot stopped on an unexpected error", exc_info=exc)
            return EXIT_BUG
        log.error("%s", explanation)
        return EXIT_CONFIG
    return 0


def main() -> None:
    sys.exit(run_bot())

"""Process start-up: `python -m bot` (and `ttr bot`) run the bot with settings from the environment / `.env`.

Start-up failures end with one clear line naming what to fix and exit status 2; tokens never reach a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.config import Settings, SettingsError, parse_setting
from bot.discord.app import bot_intents, create_bot, privileged_intents
from bot.ops.logs import formatter as log_formatter
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
    from bot.ops.operations import Operations

log = logging.getLogger("bot")

EXIT_CONFIG = 2
EXIT_BUG = 1


class SecretsFilter(logging.Filter):
    """Masks the process's secrets (token, database password...) in every record a handler writes, its
    traceback included: an exception from a library may echo the DSN it was given."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # longest first, so a secret that contains another is masked whole; very short ones would mask
        # ordinary words everywhere, and say little
        self.secrets = sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True)

    def mask(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format is the handler's to report; a filter never raises
            return True
        masked = self.mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.mask(record.exc_text)
        if record.stack_info:
            record.stack_info = self.mask(record.stack_info)
        return True


MIN_SECRET = 4


def setup_logging(level: str = "INFO", *, secrets: Iterable[str] = (), log_format: str = "text") -> None:
    """Log to stderr with timestamps (unless logging is already configured, e.g. by pytest), as plain lines or
    (`log_format` "json") one JSON object a line (bot.ops.logs); every handler masks `secrets`.

    discord.py's own chatter stays at INFO or above; its HTTP module only logs warnings.
    """
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(log_formatter(log_format))
        root.addHandler(handler)
    masking = SecretsFilter(secrets)
    for each in root.handlers:
        for old in [f for f in each.filters if isinstance(f, SecretsFilter)]:
            each.removeFilter(old)
        each.addFilter(masking)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord.http").setLevel(logging.WARNING)


def check_token(settings: Settings) -> None:
    if not settings.discord_token:
        raise StartupError(
            "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in the environment or in a .env file "
            "(copy .env.example); the token is on the Discord developer portal, Bot page."
        )


async def start_bot(settings: Settings, *, service: GameService | None = None) -> None:
    """Log in, connect and serve until the bot is closed; start-up problems propagate as exceptions.

    As discord.py's ``advanced_startup.py``: this entry owns the game service's parts (the composition root,
    bot.wiring: repository, pictures, manager, service), hands the service to the bot, and closes them in
    reverse once the bot is closed. A given `service` (tests) is the caller's."""
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
    loop = asyncio.get_running_loop()
    stopping: set[asyncio.Task[None]] = set()

    def stop() -> None:  # SIGTERM (docker stop, systemd): close cleanly so storage is closed too
        log.info("SIGTERM received, closing")
        task = loop.create_task(bot.close())
        stopping.add(task)
        task.add_done_callback(stopping.discard)

    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows / not the main thread
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        async with bot:
            await bot.start(settings.discord_token, reconnect=True)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)


#: the gateway close codes discord.py does not reconnect after (gateway.py ``_can_handle_close``), by their
#: names in Discord's documentation; a ``discord.ConnectionClosed`` that reaches ``start_bot`` carries one
GATEWAY_CLOSE_NAMES: dict[int, str] = {
    4004: "authentication failed",
    4010: "invalid shard",
    4011: "sharding required",
    4012: "invalid API version",
    4013: "invalid intents",
    4014: "disallowed intents",
}
GATEWAY_CLOSE_DOCS = (
    "https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-close-event-codes"
)
TOKEN_ADVICE = (
    "Check DISCORD_TOKEN in the environment or .env: copy it again from the developer portal (your application, "
    "Bot page, Reset Token); it is the bot token, not the client secret."
)
PORTAL_INTENTS = "the developer portal (your application, Bot page, Privileged Gateway Intents)"


def explain_intents_refused(intents: discord.Intents) -> str:
    """The line for a 4014 close (discord.py raises PrivilegedIntentsRequired): the intents to enable, by name."""
    asked = privileged_intents(intents)
    if asked:
        return (
            f"Discord refused the privileged intents this bot asks for (gateway close 4014, disallowed intents): "
            f"enable {' and '.join(asked)} on {PORTAL_INTENTS}, then start the bot again."
        )
    return (
        "Discord refused this bot's gateway intents (gateway close 4014, disallowed intents), although it asks for "
        f"no privileged intent (intents value {intents.value}): check that DISCORD_TOKEN is this bot's token, and "
        f"on {PORTAL_INTENTS} enable any intent a changed bot/discord/app.py asks for."
    )


def explain_gateway_close(exc: discord.ConnectionClosed, settings: Settings | None = None) -> str:
    """The line for a gateway connection Discord closed for good (discord.py stops instead of reconnecting)."""
    code = exc.code
    on = "" if exc.shard_id is None else f" of shard {exc.shard_id}"
    said = f"Discord closed the gateway connection{on} with {code} ({GATEWAY_CLOSE_NAMES.get(code, 'not retried')}):"
    shards = settings.shards_text() if settings is not None else "unknown"
    count = settings.shard_count if settings is not None else None
    if code == 4004:
        return f"{said} it refused the token. {TOKEN_ADVICE}"
    if code == 4011:
        if count is None:
            return (
                f"{said} it requires more shards than the count it recommended a moment ago; start the bot "
                "again (it asks for the recommended count at each start), or set SHARD_COUNT to a higher count."
            )
        return (
            f"{said} it requires more shards than SHARD_COUNT={count}: unset SHARD_COUNT (and SHARD_IDS) to "
            "use Discord's recommended count, or raise it (the same in every process)."
        )
    if code == 4010:
        return (
            f"{said} it refused this process's shards ({shards}): SHARD_IDS must lie within 0..SHARD_COUNT-1 and "
            "SHARD_COUNT must be the same in every process and at least 1; unset both to run every shard of "
            "Discord's recommended count in this process."
        )
    if code == 4014:
        return explain_intents_refused(bot_intents())
    if code in (4012, 4013):
        return (
            f"{said} this discord.py ({discord.__version__}) and Discord disagree on the gateway protocol: update "
            "the bot and its dependencies (pip install -U -e .)."
        )
    return f"{said} discord.py does not reconnect after this code; see {GATEWAY_CLOSE_DOCS}."


def explain_startup_error(
    exc: BaseException, settings: Settings | None = None, *, intents: discord.Intents | None = None
) -> str | None:
    """One line telling the operator what to fix, or None for an error that is a bug.

    `settings` (the process's) and `intents` (the bot's, by default) make a gateway close's line name the
    setting or the intent to change."""
    if isinstance(exc, StartupError | SettingsError):
        return str(exc)
    if isinstance(exc, discord.LoginFailure):
        return f"Discord refused the token (LoginFailure). {TOKEN_ADVICE}"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return explain_intents_refused(intents if intents is not None else bot_intents())
    if isinstance(exc, discord.ConnectionClosed):
        return explain_gateway_close(exc, settings)
    if isinstance(exc, discord.GatewayNotFound | OSError | TimeoutError):
        return f"cannot reach Discord ({type(exc).__name__}); check the network connection and try again."
    return None


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

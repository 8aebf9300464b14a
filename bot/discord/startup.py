"""The Discord adapter's side of the process's start: logging with the secrets masked, the runner that logs a built
bot in and serves until it is closed, and the lines that explain Discord's refusals (a token, intents, a gateway
close). The start itself (settings and database checks, the game service's parts) is the composition root's:
bot.launch, which `ttr bot` and `python -m bot` run, hands this runner a bot given its service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterable

import discord
from discord.ext import commands

from bot.config import Settings
from bot.discord.app import bot_intents, privileged_intents
from bot.ops.logs import formatter as log_formatter

log = logging.getLogger("bot")


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


async def run_discord_bot(bot: commands.Bot, settings: Settings) -> None:
    """Log `bot` in, connect and serve until it is closed (SIGTERM closes it cleanly, so that the caller can close
    the game service's parts after it); start-up problems propagate as exceptions."""
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
#: names in Discord's documentation; a ``discord.ConnectionClosed`` that ends ``run_discord_bot`` carries one
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


def explain_discord_error(
    exc: BaseException, settings: Settings | None = None, *, intents: discord.Intents | None = None
) -> str | None:
    """One line telling the operator what to fix after Discord (or the network to it) refused the start, or None
    for an error that is not Discord's (the launcher, bot.launch, explains its own refusals).

    `settings` (the process's) and `intents` (the bot's, by default) make a gateway close's line name the
    setting or the intent to change."""
    if isinstance(exc, discord.LoginFailure):
        return f"Discord refused the token (LoginFailure). {TOKEN_ADVICE}"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return explain_intents_refused(intents if intents is not None else bot_intents())
    if isinstance(exc, discord.ConnectionClosed):
        return explain_gateway_close(exc, settings)
    if isinstance(exc, discord.GatewayNotFound | OSError | TimeoutError):
        return f"cannot reach Discord ({type(exc).__name__}); check the network connection and try again."
    return None

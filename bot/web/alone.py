"""``ttr web``: the live map's web server alone, for hosts who run it apart from the bot processes. It shares the
games with them through PostgreSQL (an SQLite file has one process: run the map inside ``ttr bot`` then) and
serves no timer (the bot processes do); changes made anywhere reach its pages through LISTEN/NOTIFY. A move
made on a page owes the chat's turn message as a ``tell`` row (as an AI seat's move does), which a bot process
posts when its dispatcher next looks (within a lease, 30 s), not at once as inside ``ttr bot``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable

from bot.config import Settings, SettingsError
from bot.manager.cluster import Member
from bot.storage import StorageError, parse_database_url
from bot.web.server import WebSetupError, start_web
from bot.wiring import open_manager

log = logging.getLogger("bot.web")

#: How long a row written by `ttr web` stays its own: a moment (it serves no row; a bot process does).
WEB_LEASE = 0.5


async def serve(settings: Settings, *, stop: asyncio.Event | None = None) -> None:
    """Serve until `stop` is set (or SIGTERM / Ctrl-C). This entry is `ttr web`'s composition root: the
    repository and the manager come from bot.wiring, as the bot's do."""
    stop = stop or asyncio.Event()
    # no dispatcher here: the turn message a page's move owes is a row left free at once (a lease of a
    # moment) for a bot process to post, within its dispatcher's look-again period (a lease, 30 s)
    async with open_manager(settings, member=Member(lease=WEB_LEASE)) as manager:
        await manager.start(dispatcher=False, posts=False)
        running = await start_web(settings, manager, moves_by="page")
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await stop.wait()
        finally:
            await running.close()


def problem(settings: Settings) -> str | None:
    """Why `ttr web` cannot run with these settings (one line), or None."""
    if not settings.web_port or not settings.public_url:
        return (
            "ttr web needs WEB_PORT (the port to listen on) and PUBLIC_URL (the https address players open)"
        )
    if parse_database_url(settings.database_url).backend == "sqlite":
        return (
            "ttr web shares the games with the bot processes through PostgreSQL; with an SQLite file, run the "
            "live map inside ttr bot instead (set WEB_PORT and PUBLIC_URL there)"
        )
    return None


def run_web(setup_logging: Callable[..., None], database_url: str | None = None) -> int:
    """`ttr web`; `setup_logging` is the bot's (secrets masked in every log line)."""
    try:
        settings = Settings.from_env()
        if database_url:
            settings = settings.with_overrides(database_url=database_url)
    except SettingsError as exc:
        setup_logging()
        log.error("configuration problem: %s", exc)
        return 2
    setup_logging(settings.log_level, secrets=settings.secrets())
    why = problem(settings)
    if why:
        log.error("%s", why)
        return 2
    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        log.info("stopped")
    except (WebSetupError, StorageError, OSError) as exc:
        log.error("the live map cannot start: %s", exc)
        return 2
    return 0

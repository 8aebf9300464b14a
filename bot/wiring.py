"""The composition root: the one place that builds the game service's parts and closes them.

    async with Wiring(settings) as service:      # pictures -> repository -> manager -> service (-> live map)
        bot = create_bot(settings, service=service)
        ...                                      # closed in reverse: (live map,) service, manager, repository,
                                                 # pictures

As in discord.py's ``examples/advanced_startup.py``, the process's entry (:func:`bot.launch.start_bot`, beside this
module) owns these lifetimes and hands the service to the bot; a bot given a ``Wiring`` instead (tests, SimCord:
``bot.launch.create_bot``) enters it in ``setup_hook`` and leaves it in ``close``. The bot never imports this
module. The pictures come before the manager so that the manager's close, which finishes the messages in flight
(they may draw), still has its pool.

The live map's web server (bot/web, when ``WEB_PORT`` and ``PUBLIC_URL`` are set) is run alongside the service:
started once the service has started (so that a page's move can be told in the chat), stopped first.

Before the bot logs in, its launcher (bot.launch) has the database checked here: reachable, its
SQLite file locked to this process (the lock is held until the process exits), migrated, shard settings that
fit it (:func:`open_database` and the ``check_`` functions).

The process's operations (bot.ops: metrics, readiness checks, ``METRICS_PORT``) are built first and given each
part as it is built; their endpoints are served on ``METRICS_PORT`` when set, else on the live map's server.

``ttr web`` (:func:`run_web`) is composed here too: the live map's server alone, over the manager of a shared
PostgreSQL database, with its operations' endpoints. No adapter opens storage or composes itself.

Nothing here decides anything: the service neither opens storage nor builds a manager, and the manager is the
service's only door to storage (bot.manager.door).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType

from bot.config import Settings, SettingsError
from bot.manager import Clock, GameManager, GameStatus
from bot.manager.cluster import Member
from bot.ops.operations import Operations
from bot.play.final import final_board
from bot.play.live_map import MapLinks
from bot.play.pictures import Pictures, PoolPictures, picture_words
from bot.play.service import ManagerGameService
from bot.storage import (
    GameRepository,
    ProcessBeat,
    StorageBroken,
    StorageError,
    check_database_file,
    open_repository,
    parse_database_url,
)
from bot.storage.file_lock import FileLocked, hold_database_lock
from bot.web.members import MemberDirectory
from bot.web.moments import FinalBoard
from bot.web.server import RunningWeb, WebSetupError, enabled, link_url, start_web, tokens_of
from bot.web.tokens import LINK_SECONDS

__all__ = [
    "LiveMap",
    "StartupError",
    "Wiring",
    "check_database",
    "check_live_map",
    "check_shards",
    "open_database",
    "open_manager",
    "run_web",
    "serve_web",
    "web_problem",
]

log = logging.getLogger(__name__)

#: How long a row written by `ttr web` stays its own: a moment (it serves no row; a bot process does).
WEB_LEASE = 0.5


@contextlib.asynccontextmanager
async def open_manager(
    settings: Settings,
    *,
    clock: Clock | None = None,
    ai_budget_ms: int | None = None,
    member: Member | None = None,
    lobby_expire_hours: float = 24.0,
    watch: Callable[[GameRepository], None] | None = None,
) -> AsyncIterator[GameManager]:
    """A game manager over a connected repository of ``DATABASE_URL`` (not started: its owner starts it);
    on exit the manager is closed, then the repository. `watch` is given the repository first (bot.ops)."""
    repo = open_repository(settings.database_url)
    if watch is not None:
        watch(repo)
    await repo.connect()
    try:
        manager = GameManager(
            repo, clock=clock, ai_budget_ms=ai_budget_ms, member=member, lobby_expire_hours=lobby_expire_hours
        )
        try:
            yield manager
        finally:
            await manager.close()
    finally:
        await repo.close()


class LiveMap:
    """The live map's web server inside the bot process (``WEB_PORT`` and ``PUBLIC_URL`` set), run alongside
    the service: over its manager, a move made on a page told to the chat as the automatic moves are (the turn
    message), and the service given the personal links (``MapLinks``) for the Map buttons."""

    def __init__(
        self, settings: Settings, service: ManagerGameService, ops: Operations | None = None
    ) -> None:
        self.settings = settings
        self.service = service
        self.ops = ops
        self.running: RunningWeb | None = None

    async def start(self) -> None:
        settings, service, ops = self.settings, self.service, self.ops
        tokens = tokens_of(settings)
        extra = ops.routes() if ops is not None and ops.on_web_server else []
        # the public view is for the game's server's members: the Discord adapter's messenger knows them
        members = service.messenger
        membership = members.is_member if isinstance(members, MemberDirectory) else None
        self.running = await start_web(
            settings,
            service.games_manager,
            after_move=service.on_turn,
            membership=membership,
            routes=extra,
            final_board=shared_board(service),
        )
        if ops is not None:
            ops.watch_map_pages(self.running.server.hub)
        service.map_links = MapLinks(
            lambda user_id, game_id, locale: link_url(settings, tokens, user_id, game_id, locale),
            activity=bool(settings.discord_client_id),
            days=LINK_SECONDS // 86400,
        )

    async def stop(self) -> None:
        running, self.running = self.running, None
        if running is not None:
            await running.close()


def shared_board(service: ManagerGameService) -> FinalBoard:
    """A finished game's final board as its final scores post it (in its server's language), by the service's
    render pool: the picture the Activity's Share gives Discord (bot/web/moments.py)."""

    async def draw(game_id: str) -> bytes | None:
        manager = service.games_manager
        info = await manager.game_info(game_id)
        state = await manager.state_of(game_id)
        if state is None or info.status != GameStatus.FINISHED:
            return None
        messenger = service.messenger
        locale = messenger.public_locale(info.thread_id or info.channel_id) if messenger is not None else ""
        words = picture_words(locale or service.config.default_locale)
        return await final_board(info, state, service.pictures, words)

    return draw


@dataclass
class Wiring:
    """The game service's parts, built on entry and closed in reverse on exit. `clock` (tests: a ManualClock),
    `ai_budget_ms` and `pictures` (None: a render pool of ``RENDER_WORKERS``) may be set before entering."""

    settings: Settings
    clock: Clock | None = None
    ai_budget_ms: int | None = None
    pictures: Pictures | None = None
    live_map: LiveMap | None = None  # (set on entry when the live map runs)
    ops: Operations | None = None  # (set on entry: the process's metrics and readiness checks)
    _stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack, repr=False)

    async def __aenter__(self) -> ManagerGameService:
        stack = self._stack
        try:
            ops = self.ops = Operations(self.settings)
            await ops.start()  # (METRICS_PORT: /healthz answers while the rest starts)
            stack.push_async_callback(ops.stop)
            pictures = self.pictures or PoolPictures(self.settings.render_workers)
            stack.callback(pictures.close)  # (a pool starts its workers with the service, not here)
            ops.watch_pictures(pictures)
            manager = await stack.enter_async_context(
                open_manager(
                    self.settings,
                    clock=self.clock,
                    ai_budget_ms=self.ai_budget_ms,
                    lobby_expire_hours=self.settings.lobby_expire_hours,
                    watch=ops.watch_repository,
                )
            )
            service = ManagerGameService(self.settings, manager=manager, pictures=pictures)
            manager.set_notifier(service)  # timers' moves, reminders and notices are told through it
            stack.push_async_callback(service.close)
            if enabled(self.settings):  # started with the service (its messages can then be posted)
                self.live_map = LiveMap(self.settings, service, ops)
                service.run_with(self.live_map.start, self.live_map.stop)
        except BaseException:
            await stack.aclose()
            raise
        return service

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._stack.aclose()


# ---------------------------------------------------------------------------------------------------- ttr web
# The live map's web server alone, for hosts who run it apart from the bot processes. It shares the games with
# them through PostgreSQL (an SQLite file has one process: run the map inside ``ttr bot`` then) and serves no
# timer (the bot processes do); changes made anywhere reach its pages through the manager's
# ``follow_other_processes``. A move made on a page owes the chat's turn message as a ``tell`` row (as an AI
# seat's move does), which a bot process posts when its dispatcher next looks (within a lease, 30 s).


async def serve_web(settings: Settings, *, stop: asyncio.Event | None = None) -> None:
    """Serve the live map alone until `stop` is set (or SIGTERM / Ctrl-C), with the process's operations
    (``/metrics``, ``/healthz``, ``/readyz``: on ``METRICS_PORT`` when set, else on the map's port)."""
    stop = stop or asyncio.Event()
    ops = Operations(settings)
    await ops.start()
    try:
        # no dispatcher here: the turn message a page's move owes is a row left free at once (a lease of a
        # moment) for a bot process to post, within its dispatcher's look-again period (a lease, 30 s)
        member = Member(lease=WEB_LEASE)
        async with open_manager(settings, member=member, watch=ops.watch_repository) as manager:
            await manager.start(dispatcher=False, posts=False)
            routes = ops.routes() if ops.on_web_server else []
            running = await start_web(settings, manager, moves_by="page", routes=routes)
            ops.watch_map_pages(running.server.hub)
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal.SIGTERM, stop.set)
            try:
                await stop.wait()
            finally:
                await running.close()
    finally:
        await ops.stop()


def web_problem(settings: Settings) -> str | None:
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
    why = web_problem(settings)
    if why:
        log.error("%s", why)
        return 2
    try:
        asyncio.run(serve_web(settings))
    except KeyboardInterrupt:
        log.info("stopped")
    except (WebSetupError, StorageError, OSError) as exc:
        log.error("the live map cannot start: %s", exc)
        return 2
    return 0


# ---------------------------------------------------------------------------------------- before the bot logs in
#: a heartbeat row of another host younger than this is a bot process still running (they beat every 10 s)
SQLITE_SEEN_WITHIN = 30.0


class StartupError(RuntimeError):
    """A problem that stops the bot from starting; the message says how to fix it."""


def check_live_map(settings: Settings) -> None:
    """The live map runs only with a signing key: refused here, in one line, rather than half-started."""
    if enabled(settings):
        try:
            tokens_of(settings)
        except WebSetupError as exc:
            raise StartupError(str(exc)) from None


def check_shards(settings: Settings) -> None:
    """Several processes share the work only through PostgreSQL: shard settings that leave shards to other
    processes are refused on SQLite (a file has one writer process)."""
    if settings.runs_every_shard or parse_database_url(settings.database_url).backend != "sqlite":
        return
    raise StartupError(
        f"SHARD_IDS/SHARD_COUNT ({settings.shards_text()}) leave the other shards to other bot processes, and "
        f"several processes need PostgreSQL: DATABASE_URL {settings.redacted_database_url()} is an SQLite file, "
        "which only one process may use. Set DATABASE_URL=postgresql://..., or run every shard in this one "
        "process (remove SHARD_IDS)."
    )


def others_on_sqlite(beats: Iterable[ProcessBeat], *, now: datetime | None = None) -> list[ProcessBeat]:
    """The other bot processes of these heartbeat rows still running, for a process that holds the SQLite file's
    lock (bot.storage.file_lock: no other process of this host uses the file): those of another host (a shared
    file) seen lately. A row of this host is a dead process's (a kill -9 leaves it), whatever its pid is now."""
    here = socket.gethostname()
    recent = (now or datetime.now(UTC)) - timedelta(seconds=SQLITE_SEEN_WITHIN)
    return [beat for beat in beats if beat.host != here and beat.last_seen >= recent]


def check_database(settings: Settings, *, timeout: float = 3.0) -> None:
    """Fail early and clearly when the database cannot be reached (no credentials in the message)."""
    shown = settings.redacted_database_url()
    try:
        url = parse_database_url(settings.database_url)
    except ValueError as exc:
        raise StartupError(f"DATABASE_URL: {exc}") from None
    if url.backend == "sqlite":
        if url.in_memory:
            return
        folder = Path(url.path).parent
        if not folder.is_dir():
            raise StartupError(
                f"DATABASE_URL {shown}: folder {folder} does not exist; create it or fix the path."
            )
        try:
            check_database_file(url.path)
        except StorageBroken as exc:
            raise StartupError(f"DATABASE_URL {shown}: {exc}; {exc.advice}.") from None
        return
    try:
        with socket.create_connection((url.host, url.port), timeout=timeout):
            return
    except OSError as exc:
        raise StartupError(
            f"DATABASE_URL {shown}: cannot reach the database at {url.host}:{url.port} ({exc.strerror or exc}). "
            "Is PostgreSQL running and the host/port right?"
        ) from None


def open_database(settings: Settings) -> None:
    """Open the database once before logging in to Discord (connect, apply migrations, close), so that a database
    the bot cannot use stops it here with one line, not with a traceback once it is online."""
    shown = settings.redacted_database_url()

    url = parse_database_url(settings.database_url)
    on_file = url.backend == "sqlite" and not url.in_memory
    if on_file:  # one bot process per file: the lock is this process's until it exits, even a kill -9
        try:
            hold_database_lock(url.path)
        except OSError as exc:  # (the folder is checked first: a file it cannot create or open)
            raise StartupError(f"DATABASE_URL {shown}: cannot open the file to lock it: {exc}") from None
        except FileLocked as exc:
            raise StartupError(
                f"DATABASE_URL {shown}: another bot process uses this SQLite file ({exc.holder} holds {exc.path});"
                " an SQLite file has one bot process. Stop it first, or move to PostgreSQL to run several"
                " processes."
            ) from None

    async def probe() -> None:
        async with open_repository(settings.database_url) as repo:
            if not on_file:
                return
            beats = await repo.processes_seen(datetime(2000, 1, 1, tzinfo=UTC))
            others = others_on_sqlite(beats)
            for dead in {b.process_id for b in beats} - {b.process_id for b in others}:
                await repo.forget_process(dead)  # (this host's rows, and old ones: their processes are gone)
            if others:
                raise StartupError(
                    f"DATABASE_URL {shown}: another bot process uses this SQLite file ({others[0].process_id}, "
                    f"seen {others[0].last_seen:%H:%M:%S} UTC); an SQLite file has one bot process. Stop it "
                    "first, or move to PostgreSQL to run several processes."
                )

    try:
        asyncio.run(probe())
    except StorageBroken as exc:
        raise StartupError(f"DATABASE_URL {shown}: {exc}; {exc.advice}.") from None
    except StorageError as exc:
        raise StartupError(f"DATABASE_URL {shown}: the database cannot be opened: {exc}") from None

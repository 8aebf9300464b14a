"""The composition root: the one place that builds the game service's parts and closes them.

    async with Wiring(settings) as service:      # pictures -> repository -> manager -> service (-> live map)
        bot = create_bot(settings, service=service)
        ...                                      # closed in reverse: (live map,) service, manager, repository,
                                                 # pictures

As in discord.py's ``examples/advanced_startup.py``, the process's entry (:func:`bot.discord.startup.start_bot`)
owns these lifetimes and hands the service to the bot; a bot built without a service (tests, SimCord) enters a
``Wiring`` of its own in ``setup_hook`` and leaves it in ``close``. The pictures come before the manager so that
the manager's close, which finishes the messages in flight (they may draw), still has its pool.

The live map's web server (bot/web, when ``WEB_PORT`` and ``PUBLIC_URL`` are set) is run alongside the service:
started once the service has started (so that a page's move can be told in the chat), stopped first.

The process's operations (bot.ops: metrics, readiness checks, ``METRICS_PORT``) are built first and given each
part as it is built; their endpoints are served on ``METRICS_PORT`` when set, else on the live map's server.

Nothing here decides anything: the service neither opens storage nor builds a manager, and the manager is the
service's only door to storage (bot.manager.door).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from types import TracebackType

from bot.config import Settings
from bot.manager import Clock, GameManager
from bot.manager.cluster import Member
from bot.ops.operations import Operations
from bot.play.live_map import MapLinks
from bot.play.pictures import Pictures, PoolPictures
from bot.play.service import ManagerGameService
from bot.storage import GameRepository, open_repository
from bot.web.members import MemberDirectory
from bot.web.server import RunningWeb, enabled, link_url, start_web, tokens_of
from bot.web.tokens import LINK_SECONDS

__all__ = ["LiveMap", "Wiring", "open_manager"]


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
            settings, service.games_manager, after_move=service.on_turn, membership=membership, routes=extra
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

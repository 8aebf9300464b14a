"""The live map's routes (see PROTOCOL.md): the page, sign-in, reading a game, acting on it, and its WebSocket.

Every request that touches a game is checked here against the session: who the user is (a signed session
token, ``Authorization: Bearer``) and which game (a link's session is for its game only). A move goes to the
manager, the one door: it checks the seat, the turn, the version the page showed and the rules under the game's
lock, and its refusal is answered in the reader's words (the chat's). A refused action changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from bot.manager import GameManager, Outcome, Refused
from bot.play import codec
from bot.web.addresses import ClientAddresses
from bot.web.connections import Connections, GuardedRunner, Tally, default_most_connections
from bot.web.contract import Acted, Config, Session, SignedInUser, View
from bot.web.errors import WebError, from_refused, looked_up, refused_move, web_error
from bot.web.guard import RateLimit, compressed, middlewares, server_header
from bot.web.inputs import is_game_id, read_json, shown, snowflake
from bot.web.instance_gate import InstanceGate, game_of_channel
from bot.web.live import SEND_TIMEOUT, LiveHub, Page
from bot.web.members import Members, Membership
from bot.web.private_map import ticket_map_svg
from bot.web.signin import SignIns
from bot.web.tokens import SessionUser, TokenRefused, Tokens
from bot.web.view import Reader, language, language_of_tag, seat_of, texts
from engine.actions import KeepTickets
from render.fonts import FONT_DIR

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body read (an action is a few dozen bytes).
MAX_BODY = 16 * 1024
#: The largest WebSocket frame read from a page.
MAX_FRAME = 4 * 1024
USER = web.RequestKey("user", SessionUser)
PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>Ticket to Ride</title><p>The map page is not built.</p>"
)


@dataclass
class WebConfig:
    """What the server needs besides the games."""

    client_id: str = ""
    client_secret: str = ""
    bot_token: str = ""  # Activity instances are checked with it (bot/web/instance_gate.py)
    discord_api: str = "https://discord.com/api/v10"
    default_locale: str = "en"
    static: Path = STATIC
    act_rate: float = 4.0  # actions per second per user, on average
    act_burst: int = 8
    ws_rate: float = 5.0  # frames per second a page may send, on average
    ws_burst: int = 20
    signin_rate: float = 1.0  # sign-ins per second per address, on average
    ticket_map_rate: float = 0.5  # private ticket maps drawn per second per user (each is a whole board)
    ticket_map_burst: int = 4
    signin_burst: int = 10
    #: who the manager is told made a page's move: "player" inside the bot (it tells the chat, `after_move`),
    #: "page" in `ttr web` (the turn message is owed as a row a bot process posts)
    moves_by: str = "player"
    #: how long one frame may take to go out to a page before that page is closed as too slow
    send_timeout: float = SEND_TIMEOUT
    #: reverse proxies whose X-Forwarded-For is believed (addresses or CIDR blocks; none: the peer is the client)
    trusted_proxies: tuple[str, ...] = ()
    #: a connection must send a whole request within this long of opening or of its last answer (seconds)
    idle_timeout: float = 15.0
    #: a live page must say hello within this long of opening its socket (seconds)
    hello_timeout: float = 15.0
    max_connections: int | None = None  # connections held at once (None: `default_most_connections`)
    connections_per_address: int = 64  # connections held at once from one client address (not a proxy)
    live_per_user: int = 8  # live pages (sockets) open at once per user
    live_per_address: int = 32  # live pages open at once per client address
    view_rate: float = 4.0  # views read per second per user, on average (a page reads one after a refusal)
    view_burst: int = 20
    stranger_rate: float = 5.0  # requests per second per address from the signed-out, and watchers' views
    stranger_burst: int = 30
    #: permessage-deflate on live pages' sockets when a browser asks for it: off, as a frame carries only what
    #: changed (a few kilobytes) and each page's deflate context costs several times the memory of the page
    #: (bench/bench_web.py --deflate)
    ws_deflate: bool = False


AfterMove = Callable[[str, Outcome], Awaitable[None]]


class MapServer:
    """The aiohttp application of the live map over one manager. `after_move` is told of each move made on a
    page (the chat's turn message: `ManagerGameService.on_turn`)."""

    def __init__(
        self,
        manager: GameManager,
        tokens: Tokens,
        config: WebConfig,
        *,
        after_move: AfterMove | None = None,
        hub: LiveHub | None = None,
        membership: Membership | None = None,
    ) -> None:
        self.manager = manager
        self.tokens = tokens
        self.config = config
        self.after_move = after_move
        self.hub = hub or LiveHub(manager, expired=self._expired, send_timeout=config.send_timeout)
        self.acts = RateLimit(config.act_rate, config.act_burst)
        self.sign_ins = RateLimit(config.signin_rate, config.signin_burst)
        self.ticket_maps = RateLimit(config.ticket_map_rate, config.ticket_map_burst)
        self.addresses = ClientAddresses(config.trusted_proxies)
        self.members = Members(membership)
        gate = {"api": config.discord_api, "client_id": config.client_id, "bot_token": config.bot_token}
        self.gate = InstanceGate(manager, self._client, **gate)
        self.signins = SignIns(
            manager,
            lambda link: self.tokens.read_link(link),
            self.gate,
            self._client,
            api=config.discord_api,
            client_id=config.client_id,
            client_secret=config.client_secret,
            default_locale=config.default_locale,
        )
        self.views = RateLimit(config.view_rate, config.view_burst)
        self.strangers = RateLimit(config.stranger_rate, config.stranger_burst)
        self.tally = Tally()
        self.connections = Connections(
            most=config.max_connections or default_most_connections(),
            per_address=config.connections_per_address,
            addresses=self.addresses,
            locale=language(config.default_locale),
            tally=self.tally,
        )
        self._live_users: Counter[int] = Counter()
        self._hinted = False  # (the TRUSTED_PROXIES hint is logged once)
        self._live_addresses: Counter[str] = Counter()
        self._http: aiohttp.ClientSession | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._tells: dict[str, asyncio.Task[None]] = {}  # per game: the last chat message being told

    def runner(self, routes: Sequence[web.RouteDef] = (), **kwargs: Any) -> GuardedRunner:
        """The runner to serve `app()` (and `routes` beside it) with: connections capped and idle ones closed
        (`bot.web.connections`)."""
        kwargs.setdefault("access_log", None)  # an access log would show personal links
        kwargs.setdefault("keepalive_timeout", self.config.idle_timeout)
        app = self.app()
        app.add_routes(routes)
        return GuardedRunner(app, self.connections, **kwargs)

    def app(self) -> web.Application:
        app = web.Application(
            client_max_size=MAX_BODY, middlewares=[*middlewares(self._locale_of, self.tally), compressed]
        )
        app.router.add_get("/", self.index)
        app.router.add_get("/api/config", self.api_config)
        app.router.add_post("/api/session", self.api_session)
        app.router.add_get("/api/context", self.api_context)
        app.router.add_get("/api/games/{game_id}/view", self.api_view)
        app.router.add_get("/api/games/{game_id}/ticket_map", self.api_ticket_map)
        app.router.add_get("/api/games/{game_id}/board.svg", self.api_board)
        app.router.add_post("/api/games/{game_id}/act", self.api_act)
        app.router.add_get("/api/games/{game_id}/live", self.api_live)
        if (self.config.static / "assets").is_dir():
            app.router.add_static("/assets", self.config.static / "assets", follow_symlinks=False)
        app.router.add_static(
            "/fonts", FONT_DIR, follow_symlinks=False
        )  # the pictures' fonts (web/src/fonts.ts)
        app.on_shutdown.append(self._shutdown)
        app.on_response_prepare.append(server_header)
        return app

    async def _shutdown(self, _app: web.Application) -> None:
        if self._tells:  # the chat told of every move made before the stop
            await asyncio.wait(set(self._tells.values()), timeout=10)
        for ws in list(self._sockets):  # (a page that does not read gets a moment, then is cut)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=aiohttp.WSCloseCode.GOING_AWAY), CLOSE_WAIT)
        self.hub.close()
        if self._http is not None:
            await self._http.close()

    # ------------------------------------------------------------------ helpers

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession()
        return self._http

    def _locale_of(self, request: web.Request) -> str:
        user = request.get(USER)
        if user is not None and user.locale:
            return language(user.locale)
        wanted = language_of_tag(
            request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
        )
        return language(wanted or self.config.default_locale)

    def _session(self, request: web.Request) -> SessionUser:
        auth = request.headers.get("Authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else ""
        try:
            user = self._read_session(token)
        except WebError:
            self._stranger(request)
            raise
        request[USER] = user
        return user

    def _stranger(self, request: web.Request) -> None:
        """A request of someone not signed in (or with a bad session): limited per client address."""
        if not self.strangers.allow(self._address(request)):
            raise web_error("slow_down", 429)

    def _read_session(self, token: Any) -> SessionUser:
        try:
            return self.tokens.read_session(token)
        except TokenRefused as exc:
            raise web_error("session_expired" if exc.reason == "expired" else "session", 401) from None

    def _may_see(self, user: SessionUser, game_id: str) -> None:
        if user.game and user.game != game_id:
            raise web_error("other_game", 403)

    async def _may_watch(self, user: SessionUser, game_id: str) -> int | None:
        """The public view is for the game's players and the members of its server (`bot.web.members`)."""
        try:
            info = await self.manager.game_info(game_id)
        except Refused as exc:
            raise (
                web_error("no_game", 404) if exc.code in ("no_game", "unreadable") else from_refused(exc)
            ) from None
        seat = seat_of(info, user.user_id)
        if seat is not None:
            return seat
        member = await self.members.is_member(info.guild_id, user.user_id)
        if member is None:
            raise web_error("unavailable", 503)
        if not member:
            raise web_error("not_member", 403)
        return None

    async def _json(self, request: web.Request) -> dict[str, Any]:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise web_error("too_big", 413)
        try:  # (nesting bounded before parsing: the parser recurses)
            data = read_json(await request.read())
        except ValueError:
            raise web_error("bad_request", 400) from None
        if not isinstance(data, dict):
            raise web_error("bad_request", 400)
        return data

    def _address(self, request: web.Request) -> str:
        """The client's address (X-Forwarded-For believed from the trusted proxies only)."""
        peer, forwarded = request.remote or "", request.headers.get("X-Forwarded-For", "")
        if forwarded and not self._hinted and not self.addresses.is_trusted(peer):
            self._hinted = True  # once: behind a proxy, every client would share the proxy's limits
            log.warning(
                "live map: a request from %s carries X-Forwarded-For, but that address is not in TRUSTED_PROXIES: "
                "if it is your reverse proxy, add it (every client now shares its per-address limits)",
                shown(peer, 45),
            )
        return self.addresses.client(peer, forwarded)

    @staticmethod
    def _game_id(request: web.Request) -> str:
        """The game of the path; one that cannot be a game id names no game (and never reaches a log line)."""
        game_id = request.match_info["game_id"]
        if not is_game_id(game_id):
            raise web_error("no_game", 404)
        return game_id

    async def _read_view(self, game_id: str, user: SessionUser) -> View:
        try:
            return await self.hub.view_of(game_id, Reader(user.user_id, language(user.locale)))
        except Refused as exc:
            raise (
                web_error("no_game", 404) if exc.code in ("no_game", "unreadable") else from_refused(exc)
            ) from None

    # ------------------------------------------------------------------ routes

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self.config.static / "index.html"
        if page.is_file():
            return web.FileResponse(page, headers={"Cache-Control": "no-cache"})
        return web.Response(text=PLACEHOLDER, content_type="text/html")

    async def api_config(self, request: web.Request) -> web.Response:
        # the words of the page before its first view (loading, a failed sign-in), in the asked language
        self._stranger(request)
        asked = language_of_tag(request.query.get("locale", "")) or self._locale_of(request)
        answer: Config = {
            "client_id": self.config.client_id,
            "locale_default": language(self.config.default_locale),
            "texts": texts(asked),
        }
        return web.json_response(answer)

    async def api_session(self, request: web.Request) -> web.Response:
        if not self.sign_ins.allow(self._address(request)):
            raise web_error("rate", 429)
        signed = await self.signins.sign_in(await self._json(request))
        user = signed.user
        reply: Session = {"session": self.tokens.session(user), "user": _user(user), "game_id": user.game}
        if signed.access_token is not None:
            reply["access_token"] = signed.access_token
        if user.game and self.views.allow(user.user_id):
            # the first view at once: the page draws it without waiting for its socket (which opens meanwhile)
            with contextlib.suppress(WebError):
                await self._may_watch(user, user.game)
                reply["view"] = await self._read_view(user.game, user)
        return web.json_response(reply)

    async def api_context(self, request: web.Request) -> web.Response:
        user = self._session(request)
        channel = snowflake(request.query.get("channel", ""))
        if channel is None:
            raise web_error("no_game_here", 404)
        game_id = await game_of_channel(self.manager, channel)
        self._may_see(user, game_id)  # a link's or an instance's session looks up its own game only
        return web.json_response({"game_id": game_id})

    async def _watcher(self, request: web.Request) -> tuple[SessionUser, str]:
        """The reader and the game of a request for something public of a game (its view, drawing, moment):
        their session, a game they may see, within the views' rate; watchers count per address too."""
        user = self._session(request)
        game_id = self._game_id(request)
        self._may_see(user, game_id)
        if not self.views.allow(user.user_id):
            raise web_error("slow_down", 429)
        if await self._may_watch(user, game_id) is None:
            self._stranger(request)
        return user, game_id

    async def api_view(self, request: web.Request) -> web.Response:
        user, game_id = await self._watcher(request)
        return web.json_response(await self._read_view(game_id, user))

    async def api_board(self, request: web.Request) -> web.Response:
        """The board's base drawing in the reader's language (public: the game's players and its server's
        members; the game's pieces are in the view). Its URL names the drawing (`v`, the view's ``drawing``):
        that one is cached for good; any other answers with the drawing now, not to be kept."""
        user, game_id = await self._watcher(request)
        locale = language(language_of_tag(request.query.get("lang", "")) or user.locale)
        try:
            drawing = await self.hub.drawing(game_id, locale)
        except Refused as exc:
            raise looked_up(exc) from None
        if drawing is None:
            raise web_error("not_running", 409)
        etag = f'"{drawing.tag}"'
        named = request.query.get("v") == drawing.tag
        headers = {
            "ETag": etag,
            "Cache-Control": "private, max-age=31536000, immutable" if named else "private, no-cache",
        }
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        return web.Response(text=drawing.svg, content_type="image/svg+xml", headers=headers)

    async def api_ticket_map(self, request: web.Request) -> web.Response:
        """The reader's own ticket map (SVG), only ever for their own seat."""
        user = self._session(request)
        game_id = self._game_id(request)
        self._may_see(user, game_id)
        if not self.ticket_maps.allow(user.user_id):
            raise web_error("rate", 429)
        try:
            info = await self.manager.game_info(game_id)
            state = await self.manager.state_of(game_id)
        except Refused as exc:
            raise looked_up(exc) from None
        seat = seat_of(info, user.user_id)
        if seat is None or state is None:
            raise web_error("not_seated", 403)
        svg = await asyncio.to_thread(ticket_map_svg, info, state, seat, language(user.locale))
        return web.Response(text=svg, content_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def api_act(self, request: web.Request) -> web.Response:
        user = self._session(request)
        game_id = self._game_id(request)
        self._may_see(user, game_id)
        if not self.acts.allow(user.user_id):
            raise web_error("rate", 429)
        data = await self._json(request)
        code, version, tickets = data.get("code"), data.get("version"), data.get("tickets")
        if (
            not isinstance(code, str)
            or len(code) > 200
            or not isinstance(version, int)
            or isinstance(version, bool)
        ):
            raise web_error("bad_request", 400)
        action = codec.decode(code)
        if action is None:
            raise web_error("bad_code", 400)
        if isinstance(action, KeepTickets):
            if not isinstance(tickets, list) or not all(
                isinstance(t, int) and not isinstance(t, bool) for t in tickets
            ):
                raise web_error("bad_request", 400)
            action = KeepTickets(tuple(sorted(set(tickets))))
        try:  # the manager checks it all (seat, turn, version, rules) under the game's lock
            outcome = await self.manager.act(
                game_id, user.user_id, action, expected_version=version, by=self.config.moves_by
            )
        except Refused as exc:
            raise refused_move(exc) from None
        self._tell_chat(game_id, outcome)
        # the new view reaches the page over its live socket, as every other page's (one view per move)
        acted: Acted = {"ok": True, "version": outcome.info.action_count}
        return web.json_response(acted)

    def _tell_chat(self, game_id: str, outcome: Outcome) -> None:
        """Tell the chat of a page's move (its turn message) in the background, in order per game: the page's
        answer never waits for Discord (its rate limits can hold a message for seconds)."""
        if self.after_move is None:
            return
        tell, previous = self.after_move, self._tells.get(game_id)

        async def run() -> None:
            if previous is not None:
                await asyncio.wait({previous})
            try:
                await tell(game_id, outcome)
            except Exception:  # the move is stored; the chat's message is the chat's problem
                log.exception("live map: the chat was not told of a move in game %s", game_id)

        task = asyncio.create_task(run())
        self._tells[game_id] = task
        task.add_done_callback(
            lambda t: self._tells.pop(game_id, None) if self._tells.get(game_id) is t else None
        )

    # ------------------------------------------------------------------ live

    async def api_live(self, request: web.Request) -> web.StreamResponse:
        address = self._address(request)
        if self._live_addresses[address] >= self.config.live_per_address:
            raise web_error("too_many_pages", 429)
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME, compress=self.config.ws_deflate)
        await ws.prepare(request)
        self._sockets.add(ws)
        self._live_addresses[address] += 1
        page: Page | None = None
        counted: int | None = None  # the user whose live pages this one counts in
        limit = RateLimit(self.config.ws_rate, self.config.ws_burst)
        locale = self._locale_of(request)
        try:
            hello = await ws.receive(timeout=self.config.hello_timeout)
            user = self._hello(hello)
            locale = language(user.locale)
            if self._live_users[user.user_id] >= self.config.live_per_user:
                raise web_error("too_many_pages", 429)
            counted = user.user_id
            self._live_users[counted] += 1
            game_id = self._game_id(request)
            self._may_see(user, game_id)
            await self._may_watch(user, game_id)
            expires = time.time() + self._left(hello)
            page = Page(
                game_id, Reader(user.user_id, locale), ws.send_str, expires, ws.close, _too_slow(request, ws)
            )
            await self.hub.open(page)  # (its first view is sent by the page's own sender)
            while not ws.closed:
                left = page.expires - time.time()
                if left <= 0:
                    raise web_error("session_expired", 401)
                try:
                    msg = await ws.receive(timeout=min(left, 60.0))
                except TimeoutError:
                    continue
                if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    break
                if not limit.allow(0):
                    raise web_error("flood", 429)
                if msg.type == WSMsgType.TEXT and _frame_type(msg.data) == "ping":
                    await ws.send_str('{"type":"pong"}')
        except WebError as exc:
            await _send_error(ws, exc, locale)
        except Refused as exc:
            await _send_error(ws, looked_up(exc), locale)
        except TimeoutError:
            await _send_error(ws, web_error("session", 401), locale)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            if page is not None:
                self.hub.leave(page)
            self._sockets.discard(ws)
            _release(self._live_addresses, address)
            if counted is not None:
                _release(self._live_users, counted)
            if not ws.closed:
                await ws.close()
        return ws

    def _hello(self, msg: aiohttp.WSMessage) -> SessionUser:
        if msg.type != WSMsgType.TEXT:
            raise web_error("bad_request", 400)
        try:
            data = read_json(msg.data)
        except ValueError:
            raise web_error("bad_request", 400) from None
        if not isinstance(data, dict) or data.get("type") != "hello":
            raise web_error("bad_request", 400)
        return self._read_session(data.get("session"))

    def _left(self, msg: aiohttp.WSMessage) -> float:
        """Seconds the hello's session has left."""
        try:
            return self.tokens.seconds_left(read_json(msg.data)["session"])
        except (TokenRefused, ValueError, KeyError, TypeError):
            return 0.0

    async def _expired(self, page: Page) -> None:
        """A page whose session ended: told so, in its language, then closed."""
        error = web_error("session_expired", 401)
        with contextlib.suppress(Exception):
            await page.send(json.dumps({"type": "error", "error": error.body(page.reader.locale)}))
            await page.close()


#: How long a page too slow to read its frames is given to take its close frame before its connection is cut.
CLOSE_WAIT = 1.0


def _too_slow(request: web.Request, ws: web.WebSocketResponse) -> Callable[[], Awaitable[None]]:
    """Closes a page that fell behind: a close frame (1013 "slow": open the page again), then the connection cut
    if even that cannot go out."""

    async def close() -> None:
        try:
            await asyncio.wait_for(
                ws.close(code=aiohttp.WSCloseCode.TRY_AGAIN_LATER, message=b"slow"), CLOSE_WAIT
            )
        except (TimeoutError, ConnectionError, RuntimeError):
            if request.transport is not None:
                request.transport.abort()

    return close


def _release(counts: Counter[Any], key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def _frame_type(data: str) -> str:
    try:
        parsed = read_json(data)
    except ValueError:
        return ""
    return str(parsed.get("type", "")) if isinstance(parsed, dict) else ""


def _user(user: SessionUser) -> SignedInUser:
    return {"id": str(user.user_id), "name": user.name, "locale": user.locale}


async def _send_error(ws: web.WebSocketResponse, error: WebError, locale: str) -> None:
    if ws.closed:
        return
    with contextlib.suppress(Exception):
        await ws.send_str(json.dumps({"type": "error", "error": error.body(locale)}, ensure_ascii=False))
        await ws.close(code=aiohttp.WSCloseCode.POLICY_VIOLATION)

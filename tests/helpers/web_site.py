"""Shared pieces of the live map's tests: a fake Discord OAuth2 server, the map server over a manager on an
SQLite file, signing in, and the hidden-information check every response and frame goes through."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.manager import GameManager, ManualClock, random_action
from bot.storage import open_repository
from bot.web.app import MapServer, WebConfig
from bot.web.tokens import SessionUser, Tokens
from engine.actions import Action
from engine.pending import TicketChoice
from engine.state import GameState
from engine.views import ticket_info
from maps import CARD_NAMES

SECRET = "test-secret-" + "x" * 40
CLIENT_SECRET = "client-secret-value-123"
BOT_TOKEN = "bot-token-value-456"
ACCESS_PREFIX = "access-token-for-"

#: code -> the Discord user the fake OAuth2 server says it belongs to
USERS = {
    "code-ann": {"id": "101", "username": "ann", "locale": "en-US"},
    "code-bob": {"id": "102", "username": "bob", "locale": "fr"},
    "code-eve": {"id": "103", "username": "eve", "locale": "en-US"},
}


@dataclass
class FakeDiscord:
    """Discord's token endpoint, users/@me and the application's activity instances (with the bot's token), as
    the server uses them; records what it was sent."""

    posted: list[dict[str, str]] = field(default_factory=list)
    #: instance id -> the instance as Discord answers it (application_id, instance_id, launch_id, location, users)
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    instance_calls: list[str] = field(default_factory=list)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", self.instance)
        return app

    def add_instance(self, instance_id: str, channel_id: int, guild_id: int | None, users: list[int]) -> None:
        kind = "gc" if guild_id else "pc"
        self.instances[instance_id] = {
            "application_id": "4242",
            "instance_id": instance_id,
            "launch_id": "1",
            "location": {
                "id": f"{kind}-{channel_id}",
                "kind": kind,
                "channel_id": str(channel_id),
                "guild_id": str(guild_id) if guild_id else None,
            },
            "users": [str(u) for u in users],
        }

    async def instance(self, request: web.Request) -> web.Response:
        iid = request.match_info["instance"]
        self.instance_calls.append(iid)
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(iid)
        if found is None or request.match_info["app"] != found["application_id"]:
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        return web.json_response(found)

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.posted.append({k: str(v) for k, v in form.items()})
        code = str(form.get("code"))
        if form.get("client_secret") != CLIENT_SECRET or code not in USERS:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": ACCESS_PREFIX + code, "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        code = auth.removeprefix("Bearer " + ACCESS_PREFIX)
        if code not in USERS:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response(USERS[code])


async def random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    return random_action(state, seat, rng)


@dataclass
class Site:
    manager: GameManager
    server: MapServer
    client: TestClient
    discord: FakeDiscord
    tokens: Tokens

    def session(self, user_id: int, name: str = "", locale: str = "en", game: str = "") -> str:
        return self.tokens.session(SessionUser(user_id, name or str(user_id), locale, game))

    def auth(self, user_id: int, locale: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.session(user_id, locale=locale)}"}


@asynccontextmanager
async def site(
    db_url: str, *, manager: GameManager | None = None, tokens: Tokens | None = None, **config: Any
) -> AsyncIterator[Site]:
    discord = FakeDiscord()
    fake = TestServer(discord.app())
    await fake.start_server()
    repo = None
    if manager is None:
        repo = open_repository(db_url, clock=ManualClock().now)
        await repo.connect()
        manager = GameManager(repo, ai=random_ai, retry_delays=(0.01,))
        await manager.start(dispatcher=False)
    tokens = tokens or Tokens(SECRET)
    cfg = WebConfig(
        client_id="4242",
        client_secret=CLIENT_SECRET,
        discord_api=str(fake.make_url("/api/v10")),
        **config,
    )
    server = MapServer(manager, tokens, cfg)
    client = TestClient(TestServer(server.app()))
    await client.start_server()
    try:
        yield Site(manager, server, client, discord, tokens)
    finally:
        await client.close()
        await fake.close()
        if repo is not None:
            await manager.close()
            await repo.close()


async def new_game(
    manager: GameManager,
    board: str = "italy",
    *,
    seed: int = 918_273_645_501,
    options: tuple[str, ...] = (),
    ai: int = 0,
) -> str:
    info = await manager.create_game(
        guild_id=1, channel_id=10, host_id=101, host_name="ann", board=board, options=options
    )
    await manager.join(info.game_id, 102, "bob")
    for _ in range(ai):
        await manager.add_ai(info.game_id, 101, "easy")
    await manager.start_game(info.game_id, 101, seed=seed)
    return info.game_id


def secrets_of(state: GameState, reader_seat: int | None) -> list[str]:
    """Fragments that must never reach `reader_seat`'s page: the seed, and every OTHER seat's kept and offered
    tickets (as the JSON would spell their ids with their labels). Deck order is never serialized at all: the
    view has no field for it, checked by `check_frame`."""
    found = ['"seed"', str(state.seed)]
    for seat in range(state.num_players):
        if seat == reader_seat:
            continue
        # the tickets `player_view` gives the seat (kept, then offered), without the progress it works out
        # (a route search per ticket, per frame, was a tenth of a whole game's check)
        pending = state.pending.get(seat)
        offered = pending.offered if isinstance(pending, TicketChoice) else ()
        for t in (
            *(ticket_info(state, i) for i in state.players[seat].tickets),
            *(ticket_info(state, i) for i in offered),
        ):
            found.append(f'"label":"{t.a} – {t.b}","points":{t.points}')
    return found


def check_frame(text: str, state: GameState | None, reader_seat: int | None, *, session: str = "") -> None:
    """The hidden-information check of one response or frame read by `reader_seat` (None: a spectator)."""
    data = json.loads(text)
    assert CLIENT_SECRET not in text and SECRET not in text
    if session:
        assert session not in text
    assert ACCESS_PREFIX not in text or '"access_token"' in text  # only sign-in hands the SDK its token
    if state is not None:
        for fragment in secrets_of(state, reader_seat):
            assert fragment not in text, f"{fragment!r} leaked to seat {reader_seat}"
    view = data.get("view", data) if isinstance(data, dict) else {}
    if isinstance(view, dict) and "me" in view:
        me = view["me"]
        if reader_seat is None:
            assert me is None and view["actions"] == [] and view["pending"] is None
        else:
            assert me is not None and me["seat"] == reader_seat
        for key in ("deck_order", "deck_cards", "seed", "hands"):
            assert key not in view
        assert set(view["deck"]) == {"cards", "tickets"}
        assert all(isinstance(v, int) for v in view["deck"].values())
        for p in view["players"]:
            assert set(p) <= {"seat", "name", "color", "trains", "cards", "tickets", "score", "is_turn", "ai"}


def hand_words(state: GameState, seat: int) -> list[str]:
    return [CARD_NAMES[c] for c, n in enumerate(state.players[seat].hand) if n]

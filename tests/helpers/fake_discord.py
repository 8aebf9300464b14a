"""A small wire-level fake of Discord: an aiohttp server behind discord.py's REST base URL and gateway URL.

SimCord replaces discord.py's HTTP client and websocket objects; this fake replaces nothing inside discord.py.
The bot really logs in over HTTP, opens a websocket, receives HELLO, sends IDENTIFY, gets READY and then
interactions, and answers with real HTTP requests (JSON or multipart), so it checks what SimCord cannot: the
bytes on the wire.

    async with FakeDiscord() as discord_:
        bot = create_bot(settings)  # (bot.launch's, as `from bot import create_bot`: the real game service)
        task = asyncio.create_task(bot.start("token"))
        await discord_.wait_ready(bot)
        await discord_.slash("ttr", "maps", user=discord_.alice)
        reply = await discord_.wait_for(lambda r: r.path.endswith("/callback"))

Shards: ``FakeDiscord(shards=2)`` answers ``"shards": 2`` on ``GET /gateway/bot`` (the count an AutoShardedBot
without a shard count runs) and holds one guild per shard, each with one text channel: guild ``k`` is served by
shard ``k`` (``(guild_id >> 22) % shard_count``, for any power-of-two count). Each gateway connection gets
the READY and GUILD_CREATEs of the shard it identified as; events about a guild go down that guild's shard.

OAuth2 (the live map's sign-in): ``POST /oauth2/token`` trades a code of `OAUTH_USERS` for an access token when
the form carries `CLIENT_SECRET`; ``GET /users/@me`` with that token as ``Bearer`` answers the code's user. The
forms posted are kept in ``posted``.

Limits: no rate limits, no permissions, no resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestServer

API_PATH = "/api/v10"
JSON = "application/json"  # exactly: discord.py's json_or_text compares the header verbatim
EPHEMERAL = 1 << 6
LOADING = 1 << 7
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"
#: the live map's OAuth2 application secret, and how the fake spells the access token of a code
CLIENT_SECRET = "client-secret-value-123"
ACCESS_PREFIX = "access-token-for-"
#: the bot's token as the live map's Activity instance check sends it (``Authorization: Bot ...``)
BOT_TOKEN = "bot-token-value-456"
#: OAuth2 code -> the Discord user it signs in
OAUTH_USERS = {
    "code-ann": {"id": "101", "username": "ann", "locale": "en-US"},
    "code-bob": {"id": "102", "username": "bob", "locale": "fr"},
    "code-eve": {"id": "103", "username": "eve", "locale": "en-US"},
}


@dataclass
class Recorded:
    """One REST request the bot made."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any = None
    files: dict[str, tuple[str, str, bytes]] = field(default_factory=dict)  # field -> (filename, type, bytes)
    content_type: str = ""  # the request's Content-Type header, verbatim


class FakeDiscord:
    """REST + gateway fake. Start with `async with`, which also points discord.py at it."""

    def __init__(
        self,
        *,
        token: str = "fake-token",
        login_status: int = 200,
        close_code: int | None = None,
        shards: int = 1,
    ):
        self.token = token
        self.shards = shards  # Discord's recommended shard count, answered on GET /gateway/bot
        self.login_status = login_status  # 401 makes login fail (bad token)
        self.close_code = close_code  # e.g. 4014: close the gateway after IDENTIFY (disallowed intents)
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self.application_id = self.new_id()
        self.bot_user = self.user("TTR Bot", bot=True, user_id=self.application_id)
        #: guild id -> its one text channel's id; guild k is served by shard k
        self.guild_channels = {self.guild_id_for_shard(k): self.new_id() for k in range(shards)}
        self.guild_id, self.channel_id = next(iter(self.guild_channels.items()))  # the first guild's
        self.channel_guilds = {c: g for g, c in self.guild_channels.items()}
        self.alice = self.user("alice")
        self.bob = self.user("bob")
        self.requests: list[Recorded] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None = global) -> commands
        self.messages: dict[int, dict[str, Any]] = {}
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> {"id", "message_id", "loading"}
        self.identify: dict[str, Any] | None = None  # the last IDENTIFY's payload
        self.identifies: list[dict[str, Any]] = []  # every IDENTIFY's payload, in order
        self.uploads: dict[str, bytes] = {}  # attachment id -> uploaded bytes
        self.moment_by: list[
            str
        ] = []  # who uploaded each moment: "bot" or the user's id (their OAuth2 token)
        self.posted: list[dict[str, str]] = []  # the OAuth2 forms posted to /oauth2/token, in order
        #: Activity instance id -> the instance as Discord answers it (application_id, location, users)
        self.instances: dict[str, dict[str, Any]] = {}
        self.instance_calls: list[str] = []  # the instance ids asked for, in order
        self.latency = 0.0  # seconds added to each REST answer (a bench's round trip to Discord's API)
        #: the pictures uploaded to POST /applications/{app}/attachment (the Activity's share dialog), in order
        self.moments: list[bytes] = []
        self._ws: dict[int, web.WebSocketResponse] = {}  # shard id -> its gateway connection
        self._shard_count = 1  # as the bot identified
        self._seq: dict[int, int] = {}
        self._changed = asyncio.Condition()
        self._server: TestServer | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    # ------------------------------------------------------------------ life cycle

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PATH + "/{tail:.*}", self._rest)
        self._server = TestServer(app)
        await self._server.start_server()
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = str(self._server.make_url(API_PATH))
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for ws in self._ws.values():
            if not ws.closed:
                await ws.close()
        assert self._server is not None and self._saved is not None
        await self._server.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved

    @property
    def api_url(self) -> str:
        """Discord's REST base URL, served by the fake."""
        assert self._server is not None
        return str(self._server.make_url(API_PATH))

    @property
    def gateway_url(self) -> yarl.URL:
        assert self._server is not None
        return self._server.make_url("/gateway").with_scheme("ws")

    # ------------------------------------------------------------------ data helpers

    def new_id(self) -> int:
        return next(self._ids)

    def guild_id_for_shard(self, shard: int) -> int:
        """A fresh guild id that shard ``shard`` serves for any power-of-two shard count above ``shard``:
        its timestamp bits (``id >> 22``) are 2**40 (a multiple of every such count) plus ``shard``."""
        return ((1 << 40) + shard) << 22 | (self.new_id() & ((1 << 22) - 1))

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self._shard_count

    def user(self, name: str, *, bot: bool = False, user_id: int | None = None) -> dict[str, Any]:
        return {
            "id": str(user_id or self.new_id()),
            "username": name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def member(self, user: dict[str, Any]) -> dict[str, Any]:
        return {
            "user": user,
            "roles": [],
            "nick": None,
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(discord.Permissions.all().value),
        }

    def channel(self, channel_id: int | None = None) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.channel_guilds[channel_id]),
            "name": "games",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }

    def guild(self, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": str(discord.Permissions.all().value),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild_id),
            "name": "Rail Club",
            "icon": None,
            "owner_id": self.alice["id"],
            "roles": [everyone],
            "channels": [self.channel(self.guild_channels[guild_id])],
            "members": [self.member(self.bot_user)],
            "member_count": 3,
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "unavailable": False,
            "large": False,
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "joined_at": TIMESTAMP,
        }

    def message(
        self,
        body: dict[str, Any],
        *,
        attachments: list[dict[str, Any]] | None = None,
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        msg = {
            "id": str(self.new_id()),
            "channel_id": str(channel_id),
            "guild_id": str(self.channel_guilds.get(channel_id, self.guild_id)),
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments or [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
        }
        self.messages[int(msg["id"])] = msg
        return msg

    def _edit(
        self, message_id: int, body: dict[str, Any], attachments: list[dict[str, Any]]
    ) -> dict[str, Any]:
        msg = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if attachments:
            msg["attachments"] = attachments
        msg["flags"] &= ~LOADING
        msg["edited_timestamp"] = TIMESTAMP
        return msg

    # ------------------------------------------------------------------ REST

    def add_instance(self, instance_id: str, channel_id: int, guild_id: int | None, users: list[int]) -> None:
        """An Activity instance Discord knows: in this channel (of this guild), with these users connected."""
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

    def _instance(self, request: web.Request, path: str) -> web.Response | None:
        """``GET /applications/{app}/activity-instances/{id}`` with the bot's token, or None for another path."""
        parts = path.strip("/").split("/")
        if (
            request.method != "GET"
            or len(parts) != 4
            or parts[0] != "applications"
            or parts[2] != "activity-instances"
        ):
            return None
        self.instance_calls.append(parts[3])
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(parts[3])
        if found is None or parts[1] != found["application_id"]:
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        return web.json_response(found)

    async def _moment(self, request: web.Request) -> web.Response:
        """``POST /applications/{app}/attachment`` with a user's OAuth2 token (as Discord's SDK playground uploads a
        moment) or the bot's: a multipart ``file`` kept on the CDN; who uploaded is kept in `moment_by`."""
        auth = request.headers.get("Authorization", "")
        code = auth.removeprefix("Bearer " + ACCESS_PREFIX) if auth.startswith("Bearer ") else None
        if auth != f"Bot {BOT_TOKEN}" and code not in OAUTH_USERS:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        self.moment_by.append("bot" if code is None else OAUTH_USERS[code]["id"])
        form = await request.post()
        file = form.get("file")
        if not isinstance(file, web.FileField):
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        data = file.file.read()
        self.moments.append(data)
        attachment_id = self.new_id()
        return web.json_response(
            {
                "attachment": {
                    "id": str(attachment_id),
                    "filename": file.filename,
                    "size": len(data),
                    "url": f"https://cdn.discordapp.com/ephemeral-attachments/4242/{attachment_id}/{file.filename}",
                    "proxy_url": f"https://media.discordapp.net/ephemeral-attachments/4242/{attachment_id}/{file.filename}",
                    "content_type": file.content_type,
                }
            }
        )

    async def _oauth(self, request: web.Request, path: str) -> web.Response | None:
        """The live map's sign-in (and its Activity instance check and share uploads), or None for a request of
        the bot."""
        instance = self._instance(request, path)
        if instance is not None:
            return instance
        if path == "/applications/4242/attachment" and request.method == "POST":
            return await self._moment(request)
        if path == "/oauth2/token" and request.method == "POST":
            form = {k: str(v) for k, v in (await request.post()).items()}
            self.posted.append(form)
            code = form.get("code", "")
            if form.get("client_secret") != CLIENT_SECRET or code not in OAUTH_USERS:
                return web.json_response({"error": "invalid_grant"}, status=400)
            return web.json_response({"access_token": ACCESS_PREFIX + code, "token_type": "Bearer"})
        auth = request.headers.get("Authorization", "")
        if path == "/users/@me" and auth.startswith("Bearer "):
            code = auth.removeprefix("Bearer " + ACCESS_PREFIX)
            if code not in OAUTH_USERS:
                return web.json_response({"message": "401: Unauthorized"}, status=401)
            return web.json_response(OAUTH_USERS[code])
        return None

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        if self.latency:  # (benches: Discord's API a network away)
            await asyncio.sleep(self.latency)
        signed_in = await self._oauth(request, path)
        if signed_in is not None:
            return signed_in
        body: Any = None
        files: dict[str, tuple[str, str, bytes]] = {}
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files[part.name or ""] = (
                        part.filename or "",
                        part.headers.get("Content-Type", ""),
                        bytes(data),
                    )
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        recorded = Recorded(
            request.method, path, dict(request.query), body, files, request.headers.get("Content-Type", "")
        )
        self.requests.append(recorded)
        try:
            status, payload = self._handle(recorded)
        finally:
            async with self._changed:
                self._changed.notify_all()
        if payload is None:
            return web.Response(status=status)
        return web.Response(status=status, body=json.dumps(payload).encode(), headers={"Content-Type": JSON})

    def _attachments(self, recorded: Recorded) -> list[dict[str, Any]]:
        out = []
        declared = {str(a.get("id")): a for a in (recorded.json or {}).get("attachments", [])}
        for name, (filename, content_type, data) in recorded.files.items():
            index = name.removeprefix("files[").removesuffix("]")
            meta = declared.get(index, {})
            out.append(
                {
                    "id": str(self.new_id()),
                    "filename": meta.get("filename", filename),
                    "description": meta.get("description"),
                    "size": len(data),
                    "url": f"https://cdn.fake/{filename}",
                    "proxy_url": f"https://cdn.fake/{filename}",
                    "content_type": content_type or None,
                }
            )
            self.uploads[out[-1]["id"]] = data
        return out

    def _handle(self, r: Recorded) -> tuple[int, Any]:  # noqa: C901 - a flat route table reads best
        parts = r.path.strip("/").split("/")
        method = r.method
        if r.path == "/users/@me" and method == "GET":
            if self.login_status != 200:
                return self.login_status, {"message": "401: Unauthorized", "code": 0}
            return 200, self.bot_user
        if r.path == "/oauth2/applications/@me":
            return 200, {
                "id": str(self.application_id),
                "name": "TTR Bot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.alice,
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        if r.path in ("/gateway", "/gateway/bot"):
            payload: dict[str, Any] = {"url": str(self.gateway_url)}
            if r.path == "/gateway/bot":
                payload |= {
                    "shards": self.shards,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            return 200, payload
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            guild = int(parts[3]) if len(parts) == 5 else None
            commands = []
            for command in r.json:
                command = dict(command, id=str(self.new_id()), application_id=str(self.application_id))
                command.setdefault("version", "1")
                if guild is not None:
                    command["guild_id"] = str(guild)
                commands.append(command)
            self.commands[guild] = commands
            return 200, commands
        if parts[0] == "interactions" and parts[-1] == "callback" and method == "POST":
            return 200, self._callback(parts[2], r)
        if parts[0] == "webhooks" and method == "POST" and len(parts) == 3:
            return self._followup(parts[2], r)
        if parts[0] == "webhooks" and len(parts) == 5 and parts[3] == "messages":
            state = self.interactions[parts[2]]
            message_id = state["message_id"] if parts[4] == "@original" else int(parts[4])
            if method == "PATCH":
                state["loading"] = False
                return 200, self._edit(message_id, r.json or {}, self._attachments(r))
            if method == "DELETE":
                self.messages.pop(message_id, None)
                return 204, None
            return 200, self.messages[message_id]
        if parts[0] == "channels" and parts[2:3] == ["messages"]:
            if method == "POST" and len(parts) == 3:
                if int(parts[1]) not in self.channel_guilds:
                    return 404, {"message": "Unknown Channel", "code": 10003}
                return 200, self.message(
                    r.json or {}, attachments=self._attachments(r), channel_id=int(parts[1])
                )
            if method == "PATCH" and len(parts) == 4:
                return 200, self._edit(int(parts[3]), r.json or {}, self._attachments(r))
        return 404, {"message": f"fake Discord has no route {method} {r.path}", "code": 0}

    def _callback(self, token: str, r: Recorded) -> dict[str, Any]:
        state = self.interactions[token]
        kind = r.json["type"]
        data = r.json.get("data") or {}
        result: dict[str, Any] = {"interaction": {"id": state["id"], "type": state["type"]}}
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            msg = self.message(data, attachments=self._attachments(r), channel_id=state["channel_id"])
            state["message_id"] = int(msg["id"])
            result["interaction"] |= {
                "response_message_id": msg["id"],
                "response_message_loading": False,
                "response_message_ephemeral": bool(msg["flags"] & EPHEMERAL),
            }
            result["resource"] = {"type": 4, "message": msg}
        elif kind == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: a "thinking" message
            msg = self.message({"flags": (data.get("flags") or 0) | LOADING}, channel_id=state["channel_id"])
            state |= {"message_id": int(msg["id"]), "loading": True}
            result["interaction"] |= {
                "response_message_id": msg["id"],
                "response_message_loading": True,
                "response_message_ephemeral": bool(msg["flags"] & EPHEMERAL),
            }
            result["resource"] = {"type": 5, "message": msg}
        elif kind == 7:  # UPDATE_MESSAGE: edit the message carrying the component
            msg = self._edit(state["source_id"], data, self._attachments(r))
            state["message_id"] = int(msg["id"])
            result["resource"] = {"type": 7, "message": msg}
        elif kind == 6:  # DEFERRED_UPDATE_MESSAGE
            state["message_id"] = state["source_id"]
        elif kind == 8:  # autocomplete
            state["choices"] = data.get("choices", [])
        elif kind == 12:  # LAUNCH_ACTIVITY: Discord opens the application's Activity for the user; no message
            state["activity"] = True
        return result

    def _followup(self, token: str, r: Recorded) -> tuple[int, Any]:
        state = self.interactions[token]
        if state.get("loading"):  # the first followup after a thinking defer replaces the thinking message
            state["loading"] = False
            body = dict(r.json or {})
            body.pop("flags", None)  # the thinking message's visibility wins
            return 200, self._edit(state["message_id"], body, self._attachments(r))
        msg = self.message(r.json or {}, attachments=self._attachments(r), channel_id=state["channel_id"])
        state.setdefault("followups", []).append(int(msg["id"]))
        if r.query.get("wait") in ("0", "false"):
            return 204, None
        return 200, msg

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """One shard's session: HELLO, then the READY and GUILD_CREATEs of the shard it IDENTIFYs as."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                break
            packet = json.loads(msg.data)
            op = packet.get("op")
            if op == 1:
                await ws.send_json({"op": 11})
            elif op == 2:
                self.identify = packet["d"]
                self.identifies.append(packet["d"])
                shard, count = packet["d"].get("shard") or (0, 1)
                self._ws[shard], self._shard_count = ws, count
                if self.close_code is not None:
                    await ws.close(code=self.close_code)
                    break
                guilds = [g for g in self.guild_channels if self.shard_of(g) == shard]
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": self.bot_user,
                        "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                        "session_id": f"fake-session-{shard}",
                        "resume_gateway_url": str(self.gateway_url),
                        "shard": [shard, count],
                        "application": {"id": str(self.application_id), "flags": 0},
                    },
                    shard=shard,
                )
                for g in guilds:
                    await self.dispatch("GUILD_CREATE", self.guild(g), shard=shard)
        return ws

    async def dispatch(self, event: str, data: dict[str, Any], *, shard: int | None = None) -> None:
        """Send an event down one shard's connection: ``shard``, else the shard of the event's guild."""
        if shard is None:
            shard = self.shard_of(int(data["guild_id"])) if data.get("guild_id") else 0
        ws = self._ws.get(shard)
        assert ws is not None, f"the bot has not connected shard {shard} to the gateway"
        self._seq[shard] = self._seq.get(shard, 0) + 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq[shard], "d": data})

    # ------------------------------------------------------------------ acting as users

    def _interaction(
        self, kind: int, data: dict[str, Any], user: dict[str, Any], locale: str, guild_id: int | None
    ) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        channel_id = self.guild_channels[guild_id]
        interaction_id = str(self.new_id())
        token = f"itoken-{interaction_id}"
        self.interactions[token] = {
            "id": interaction_id,
            "type": kind,
            "message_id": None,
            "channel_id": channel_id,
        }
        return {
            "id": interaction_id,
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": self.channel(channel_id),
            "member": self.member(user),
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": str(discord.Permissions.all().value),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 26214400,
        }

    async def slash(
        self,
        group: str,
        sub: str,
        *,
        user: dict[str, Any],
        locale: str = "en-US",
        guild_id: int | None = None,
        **options: Any,
    ) -> str:
        """Invoke `/group sub option=value...` in a guild's channel (the first guild's by default), sent down
        the shard serving that guild; returns the interaction token."""
        command = next(c for c in self.commands.get(None, []) if c["name"] == group)
        leaf = next(o for o in command["options"] if o["name"] == sub)
        types = {o["name"]: o["type"] for o in leaf.get("options", [])}
        data = {
            "id": command["id"],
            "name": group,
            "type": 1,
            "options": [
                {
                    "name": sub,
                    "type": 1,
                    "options": [{"name": k, "type": types[k], "value": v} for k, v in options.items()],
                }
            ],
        }
        payload = self._interaction(2, data, user, locale, guild_id)
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload["token"]

    async def click(
        self, message_id: int, custom_id: str, *, user: dict[str, Any], locale: str = "en-US"
    ) -> str:
        """Press the button `custom_id` on a stored message; returns the interaction token."""
        message = self.messages[message_id]
        guild_id = int(message["guild_id"])
        payload = self._interaction(3, {"custom_id": custom_id, "component_type": 2}, user, locale, guild_id)
        payload["message"] = message
        self.interactions[payload["token"]]["source_id"] = message_id
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload["token"]

    # ------------------------------------------------------------------ waiting

    async def wait_for(self, predicate: Callable[[Recorded], bool], *, timeout: float = 5.0) -> Recorded:
        """The first recorded request matching `predicate`, waiting for it if needed."""

        async def find() -> Recorded:
            async with self._changed:
                while True:
                    for r in self.requests:
                        if predicate(r):
                            return r
                    await self._changed.wait()

        return await asyncio.wait_for(find(), timeout)

    async def wait_ready(self, bot: discord.Client, *, timeout: float = 10.0) -> None:
        await asyncio.wait_for(bot.wait_until_ready(), timeout)

    def callback_for(self, token: str) -> Callable[[Recorded], bool]:
        interaction_id = self.interactions[token]["id"]
        return lambda r: r.method == "POST" and r.path == f"/interactions/{interaction_id}/{token}/callback"


@contextlib.contextmanager
def fake_discord_in_thread(**options: Any) -> Iterator[FakeDiscord]:
    """A `FakeDiscord(**options)` served by an event loop of its own in a thread, for code that runs its own loop:
    the real entry point ``run_bot`` (``ttr bot``) calls ``asyncio.run``. Read its records once the bot stopped."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fake-discord", daemon=True)
    thread.start()

    async def enter() -> FakeDiscord:
        fake = FakeDiscord(**options)
        return await fake.__aenter__()

    try:
        fake = asyncio.run_coroutine_threadsafe(enter(), loop).result(10)
        try:
            yield fake
        finally:
            asyncio.run_coroutine_threadsafe(fake.__aexit__(None, None, None), loop).result(10)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()

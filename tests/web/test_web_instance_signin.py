"""A sign-in through Discord's SDK finds its game from Discord, never from the page (bot/web/instance_gate.py):
with the bot's token, the page's instance id is checked with the fake Discord's activity-instances endpoint, the
signed-in user must be in that instance, and the session is for the game of its channel only. Forged instances,
users not in the instance, and a channel id from the page get a refusal and nothing else."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from helpers.fake_discord import BOT_TOKEN
from helpers.web_site import new_game, site

from bot.config import Settings
from bot.manager import GameManager
from bot.web.server import start_web

IID = "i-1394884350503551098-gc-1-10"  # an instance in channel 10 of guild 1 (new_game's)


async def _other_game(manager: GameManager) -> str:
    """A game in channel 20 of guild 2 where Ann (101) is seated too: only the session's limit keeps her out."""
    info = await manager.create_game(guild_id=2, channel_id=20, host_id=101, host_name="ann", board="italy")
    await manager.join(info.game_id, 103, "eve")
    await manager.start_game(info.game_id, 101, seed=5)
    return info.game_id


def _bearer(body: dict) -> dict[str, str]:  # type: ignore[type-arg]
    return {"Authorization": f"Bearer {body['session']}"}


async def test_the_instance_gives_its_game_and_the_session_is_for_that_game_only(db_url: str) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        gid = await new_game(s.manager)
        other = await _other_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        resp = await s.client.post("/api/session", json={"code": "code-ann", "instance": IID})
        assert resp.status == 200, await resp.text()
        body = await resp.json()
        assert body["game_id"] == gid and body["user"]["id"] == "101"
        assert s.tokens.read_session(body["session"]).game == gid
        view = await s.client.get(f"/api/games/{gid}/view", headers=_bearer(body))
        assert view.status == 200 and (await view.json())["me"]["seat"] == 0
        # her other game (she is seated there) is not this session's, by id nor by a channel id from the page
        for path in (f"/api/games/{other}/view", f"/api/games/{other}/board.svg", "/api/context?channel=20"):
            resp = await s.client.get(path, headers=_bearer(body))
            assert resp.status == 403, path
            assert (await resp.json())["error"]["code"] == "other_game"
        assert s.discord.instance_calls == [IID]


async def test_forged_instances_are_refused_with_words_and_nothing_else(db_url: str) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        await new_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        forged = IID.replace("-10", "-11")  # a made-up instance (of the channel next door)
        for sent in ({"instance": forged}, {"instance": "../../users/@me"}, {"instance": 7}, {}):
            resp = await s.client.post(
                "/api/session", json={"code": "code-ann", **sent}, headers={"Accept-Language": "fr"}
            )
            assert resp.status == 403, sent
            body = await resp.json()
            assert body == {"ok": False, "error": body["error"]}  # no session, no game, no token
            assert body["error"]["code"] == "instance"
            assert "Discord n'a pas pu confirmer cette activité" in body["error"]["text"]
            assert "access-token" not in json.dumps(body)
        assert s.discord.instance_calls == [forged]  # the malformed ones never reach Discord


async def test_a_user_not_in_the_instance_is_refused(db_url: str) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        await new_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        resp = await s.client.post("/api/session", json={"code": "code-eve", "instance": IID})
        assert resp.status == 403
        body = await resp.json()
        assert body["error"]["code"] == "not_in_instance" and "session" not in body
        assert "You are not in this Activity" in body["error"]["text"]


async def test_one_call_to_discord_per_instance_however_many_sign_in(db_url: str) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        gid = await new_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        for code in ("code-ann", "code-bob", "code-ann", "code-bob"):
            resp = await s.client.post("/api/session", json={"code": code, "instance": IID})
            assert (await resp.json())["game_id"] == gid
        assert s.discord.instance_calls == [IID]


async def test_an_instance_where_no_game_is_played_finds_none(db_url: str) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        await new_game(s.manager)
        s.discord.add_instance("i-5-gc-1-30", 30, 1, [101])
        resp = await s.client.post("/api/session", json={"code": "code-ann", "instance": "i-5-gc-1-30"})
        assert resp.status == 404 and (await resp.json())["error"]["code"] == "no_game_here"


async def test_discord_unreachable_is_said_as_such(db_url: str) -> None:
    # the fake Discord refuses a token it does not know: the instance cannot be checked (a 503, the token unsaid)
    async with site(db_url, bot_token="a-revoked-bot-token") as s:
        await new_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        resp = await s.client.post("/api/session", json={"code": "code-ann", "instance": IID})
        assert resp.status == 503
        body = await resp.json()
        assert body["error"]["code"] == "discord_unavailable" and "session" not in body
        assert "a-revoked-bot-token" not in json.dumps(body)


async def test_without_a_bot_token_the_mock_path_finds_its_game_by_channel(db_url: str) -> None:
    # development and DiscordSDKMock: nothing to ask Discord with, the session is not limited, the page's channel
    # is looked up (/api/context)
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        resp = await s.client.post(
            "/api/session", json={"code": "code-ann", "instance": "123456789012345678"}
        )
        body = await resp.json()
        assert body["game_id"] == "" and s.tokens.read_session(body["session"]).game == ""
        ctx = await s.client.get("/api/context?channel=10", headers=_bearer(body))
        assert (await ctx.json())["game_id"] == gid
        assert s.discord.instance_calls == []


async def test_the_served_map_checks_instances_with_the_bots_token_from_the_settings(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with site(db_url) as s:
        for token, checks in ((BOT_TOKEN, True), ("", False)):
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                port = int(sock.getsockname()[1])
            settings = Settings(
                web_port=port,
                public_url="https://x.org",
                web_secret="k" * 32,
                discord_client_id="4242",
                discord_token=token,
            )
            running = await start_web(settings, s.manager, host="127.0.0.1")
            try:
                assert running.server.config.bot_token == token
                assert running.server.gate.believes_channels is not checks
            finally:
                await running.close()
        assert "no DISCORD_TOKEN" in caplog.text and BOT_TOKEN not in caplog.text


async def test_the_instance_is_asked_while_the_code_is_exchanged_and_that_answer_is_the_one_used(
    db_url: str,
) -> None:
    """The server asks Discord about the instance at once, beside the code exchange (bot/web/instance_gate.py
    `prefetch`): a sign-in whose code Discord refuses has asked already (and says only "signin"); the next
    sign-in in that instance reads the kept answer, with no second call."""
    async with site(db_url, bot_token=BOT_TOKEN) as s:
        gid = await new_game(s.manager)
        s.discord.add_instance(IID, 10, 1, [101, 102])
        resp = await s.client.post("/api/session", json={"code": "not-a-code", "instance": IID})
        assert resp.status == 401 and (await resp.json())["error"]["code"] == "signin"
        await asyncio.sleep(0)  # (the call beside the exchange, done by now)
        assert s.discord.instance_calls == [IID]
        resp = await s.client.post("/api/session", json={"code": "code-bob", "instance": IID})
        assert resp.status == 200 and (await resp.json())["game_id"] == gid
        assert s.discord.instance_calls == [IID]
        # a malformed instance is asked nothing
        resp = await s.client.post("/api/session", json={"code": "not-a-code", "instance": "../../users/@me"})
        assert resp.status == 401 and s.discord.instance_calls == [IID]

"""No secret in a log line or an error: the client secret, sessions, links, access tokens and OAuth2 codes never
reach the logs of the live map's server, whatever is sent to it; nor does the access log exist to show links."""

from __future__ import annotations

import json
import logging

import pytest
from helpers.web_site import ACCESS_PREFIX, CLIENT_SECRET, SECRET, new_game, site

from bot.config import Settings
from bot.web.tokens import Link


async def test_sign_ins_and_refusals_log_no_secret(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        good = await (await s.client.post("/api/session", json={"code": "code-ann"})).json()
        await s.client.post("/api/session", json={"code": "secret-code-never-logged"})
        link = s.tokens.link(Link(101, gid))
        await s.client.post("/api/session", json={"link": link})
        await s.client.post("/api/session", json={"link": link[:-4] + "AAAA"})
        session = good["session"]
        await s.client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {session}"})
        await s.client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {session}x"})
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": session + "x"}))
        await ws.receive()
        logged = caplog.text
        assert logged  # (the failed sign-in is logged, by its reason)
        for secret in (
            CLIENT_SECRET,
            SECRET,
            session,
            link,
            "secret-code-never-logged",
            ACCESS_PREFIX,
            "code-ann",
        ):
            assert secret not in logged


def test_the_web_settings_are_secrets_of_the_process() -> None:
    settings = Settings(web_secret="w" * 40, discord_client_secret="client-secret-value-123", web_port=8080)
    assert "w" * 40 in settings.secrets() and "client-secret-value-123" in settings.secrets()
    shown = repr(settings)
    assert "w" * 40 not in shown and "client-secret-value-123" not in shown and "web_port=8080" in shown


def test_the_live_map_is_off_without_its_settings_and_refused_without_a_signing_key() -> None:
    from bot.config import SettingsError
    from bot.web.server import enabled
    from bot.wiring import StartupError, check_live_map

    assert not enabled(Settings())
    check_live_map(Settings())  # off: nothing to check, the bot runs as before
    on = Settings.from_env({"WEB_PORT": "8080", "PUBLIC_URL": "https://ttr.example.org/"}, dotenv_path=None)
    assert enabled(on) and on.public_url == "https://ttr.example.org"
    with pytest.raises(StartupError, match="WEB_SECRET"):
        check_live_map(on)
    check_live_map(Settings(web_port=8080, public_url="https://x.org", web_secret="k" * 32))
    for env in ({"WEB_PORT": "http"}, {"WEB_PORT": "70000"}, {"PUBLIC_URL": "ttr.example.org"}):
        with pytest.raises(SettingsError):
            Settings.from_env(env, dotenv_path=None)

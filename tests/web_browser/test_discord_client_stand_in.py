"""The Discord client stand-in itself (tests/helpers/discord_client.py), against the unmodified Embedded App SDK in
a bare Activity (tests/helpers/discord_client_page/probe.js, bundled here by the page's esbuild): every answer the
stand-in gives passes the SDK's own schemas, and what it records is what the SDK sent. Participants, events only
after a subscription and none after unsubscribing, rich presence, the invite and share dialogs, the orientation
lock, an unknown command refused, a wrong token refused; desktop and mobile."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from browser import ARGS, CHROMIUM, DESKTOP, PHONE, needs_chromium
from helpers.discord_client import PAGE_DIR, discord_client
from helpers.fake_discord import ACCESS_PREFIX
from helpers.fake_discord import OAUTH_USERS as USERS

WEB = Path(__file__).resolve().parents[2] / "web"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(not ESBUILD.exists(), reason="web/node_modules is not installed (cd web && npm ci)"),
]


def bundle(out: Path) -> Path:
    target = out / "probe.js"
    subprocess.run(
        [str(ESBUILD), str(PAGE_DIR / "probe.js"), "--bundle", "--format=esm", f"--outfile={target}"],
        check=True,
        capture_output=True,
        env={**os.environ, "NODE_PATH": str(WEB / "node_modules")},
    )
    return target


def probe_app(script: Path) -> web.Application:
    app = web.Application()

    async def page(request: web.Request) -> web.Response:
        return web.FileResponse(PAGE_DIR / "probe.html")  # type: ignore[return-value]

    async def js(request: web.Request) -> web.Response:
        return web.Response(body=script.read_bytes(), content_type="text/javascript")

    app.router.add_get("/", page)
    app.router.add_get("/probe.js", js)
    return app


async def wait(frame: Any, expression: str) -> Any:
    """The value of a promise in the Activity; an answer the SDK's schemas refuse is dropped by the SDK (its
    promise never settles), so a bound."""
    return await asyncio.wait_for(frame.evaluate(f"async () => await ({expression})"), 10)


@pytest.mark.parametrize("platform", ["desktop", "mobile"])
async def test_the_stand_in_speaks_the_sdks_protocol(tmp_path: Path, platform: str) -> None:
    from playwright.async_api import async_playwright

    server = TestServer(probe_app(bundle(tmp_path)))
    await server.start_server()
    ann, bob = USERS["code-ann"], USERS["code-bob"]
    try:
        upstream = str(server.make_url("")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in, async_playwright() as pw:
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, args=[*ARGS, *stand_in.chromium_args()], headless=True
            )
            context = await browser.new_context(
                **(PHONE if platform == "mobile" else DESKTOP), ignore_https_errors=True
            )
            page = await context.new_page()
            await page.goto(
                stand_in.url(
                    user=ann,
                    code="code-ann",
                    access_token=ACCESS_PREFIX + "code-ann",
                    channel_id="10",
                    platform=platform,
                    instance_id="i-1-gc-1-10",
                )
            )
            frame = None
            while frame is None:
                frame = next((f for f in page.frames if f.url.startswith(stand_in.activity_origin)), None)
                await page.wait_for_timeout(10)
            await frame.wait_for_function("() => window.probe")
            ready = await wait(frame, "probe.ready")
            assert ready == {"instanceId": "i-1-gc-1-10", "channelId": "10", "platform": platform}
            handshake = (await page.evaluate("() => standIn.state.received"))[0]
            assert handshake["op"] == 0 and handshake["frame_id"] == await page.evaluate(
                "() => standIn.frameId"
            )
            # the SDK sends its version on desktop, and on mobile from a recent enough app
            assert handshake.get("sdk_version")

            assert await wait(frame, "probe.authorize(['identify', 'rpc.activities.write'])") == {
                "code": "code-ann"
            }
            assert await wait(frame, "probe.authenticate('forged')") == 4009  # INVALID_TOKEN
            authenticated = await wait(frame, f"probe.authenticate('{ACCESS_PREFIX}code-ann')")
            assert authenticated["user"]["id"] == ann["id"]
            assert authenticated["scopes"] == ["identify", "rpc.activities.write"]

            participants = await wait(frame, "probe.participants()")
            assert [p["id"] for p in participants["participants"]] == [ann["id"]]
            # an event only once subscribed to, as Discord's RPC server sends them
            people = [ann, bob]
            assert await page.evaluate("(u) => standIn.setParticipants(u)", people) is False
            assert await wait(frame, "probe.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')") is True
            assert await wait(frame, "probe.subscribe('ORIENTATION_UPDATE')") is True
            assert await page.evaluate("(u) => standIn.setParticipants(u)", people) is True
            assert await page.evaluate("() => standIn.orientation('landscape')") is True
            await frame.wait_for_function("() => probe.seen.length === 2")
            seen = await frame.evaluate("() => probe.seen")
            assert [p["id"] for p in seen[0]["data"]["participants"]] == [ann["id"], bob["id"]]
            assert seen[1] == {
                "evt": "ORIENTATION_UPDATE",
                "data": {"screen_orientation": 1, "orientation": "landscape"},
            }
            assert await wait(frame, "probe.unsubscribe('ORIENTATION_UPDATE')") is True
            assert await page.evaluate("() => standIn.orientation('portrait')") is False

            presence = {
                "type": 0,
                "details": "Italy",
                "state": "ann's turn",
                "party": {"id": "g1", "size": [2, 5]},
            }
            answered = await wait(frame, f"probe.setActivity({presence!r})")
            assert answered["details"] == "Italy" and answered["application_id"] == "4242"
            assert await page.evaluate("() => standIn.state.activity") == presence
            assert await wait(frame, "probe.invite()") == "opened"
            assert (
                await wait(frame, "probe.share('https://cdn.discordapp.com/attachments/1/2/board.png')")
                == "opened"
            )
            assert await wait(frame, "probe.lockOrientation()") == "locked"
            assert (
                await wait(frame, "probe.unknown()") == 4002
            )  # INVALID_COMMAND: not a command Discord answers here
            dialogs = await page.evaluate("() => standIn.state.dialogs")
            assert [d["kind"] for d in dialogs] == ["invite", "share_moment"]

            commands = [c["cmd"] for c in await page.evaluate("() => standIn.commands()")]
            assert commands == [
                "AUTHORIZE",
                "AUTHENTICATE",
                "AUTHENTICATE",
                "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
                "SUBSCRIBE",
                "SUBSCRIBE",
                "UNSUBSCRIBE",
                "SET_ACTIVITY",
                "OPEN_INVITE_DIALOG",
                "OPEN_SHARE_MOMENT_DIALOG",
                "SET_ORIENTATION_LOCK_STATE",
                "GET_CHANNEL",
            ]
            assert await page.evaluate("() => standIn.state.errors") == []
            await browser.close()
    finally:
        await server.close()

"""The live map as a Discord Activity, in Debian's chromium, inside the Discord client stand-in
(tests/helpers/discord_client.py): the page's real build with the unmodified Embedded App SDK, framed from
https://discord.com, behind a proxy that puts Discord's CSP on every answer. Signed in by the SDK's own flow
(handshake, READY, AUTHORIZE → the code → the server's exchange with the tests' fake OAuth2 → AUTHENTICATE), the
board drawn, a move made by a tap, and the commands the page sent checked, on the desktop and mobile platforms."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from browser import ARGS, CHROMIUM, DESKTOP, PHONE, Watched, needs_chromium, shot, wait_version
from helpers.discord_client import discord_client
from helpers.fake_discord import BOT_TOKEN
from helpers.fake_discord import OAUTH_USERS as USERS
from helpers.web_site import ACCESS_PREFIX, SECRET, check_frame, new_game, site
from play import play_one

from bot.manager import random_action, turn_token
from bot.web.tokens import Tokens

pytestmark = needs_chromium

#: The commands of the SDK's sign-in, and those of who is on the map (command, event) and the reader's rich
#: presence (tests/web_browser/test_activity_rich_presence.py) that follow it.
SIGN_IN = ("AUTHORIZE", "AUTHENTICATE")
PRESENCE = {
    ("SUBSCRIBE", "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"),
    ("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", None),
    ("SET_ACTIVITY", None),
}


async def open_activity(
    pw: Any, stand_in: Any, url: str, *, phone: bool
) -> tuple[Any, Any, Any, list[str], list[str]]:
    """A browser that knows only the stand-in's two names, the client page at `url`, the Activity's frame, the
    errors seen, and every WebSocket frame the Activity received (its frame's sockets are the page's)."""
    browser = await pw.chromium.launch(
        executable_path=CHROMIUM, args=[*ARGS, *stand_in.chromium_args()], headless=True
    )
    context = await browser.new_context(**(PHONE if phone else DESKTOP), ignore_https_errors=True)
    page = await context.new_page()
    errors: list[str] = []
    raw: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived", lambda p: raw.append(p if isinstance(p, str) else bytes(p).decode())
        ),
    )
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    await page.goto(url)
    frame = page.frame_locator("iframe#activity")
    await frame.locator("#board svg").wait_for(timeout=20_000)
    activity = next(f for f in page.frames if f.url.startswith(stand_in.activity_origin))
    return browser, page, activity, errors, raw


def in_discord(
    s: Any, stand_in: Any, *, code: str = "code-ann", users: tuple[int, ...] = (101, 102), **kwargs: Any
) -> str:
    """The client page opening the Activity in channel 10 of guild 1 (`new_game`'s) for the user of `code`, in an
    instance the fake Discord knows, with `users` connected (the server asks it: bot/web/instance_gate.py)."""
    instance_id = f"i-{secrets.randbelow(10**18)}-gc-1-10"
    s.discord.add_instance(instance_id, 10, 1, list(users))
    return stand_in.url(
        user=USERS[code],
        code=code,
        access_token=ACCESS_PREFIX + code,
        channel_id="10",
        instance_id=instance_id,
        **kwargs,
    )


class InFrame:
    """The Activity's frame as `tap` uses a page: its script runs in the frame, the finger or the mouse is the
    window's (the frame fills the window from its top left corner, so the points are the same)."""

    def __init__(self, page: Any, frame: Any) -> None:
        self.evaluate = frame.evaluate
        self.locator = frame.locator
        self.eval_on_selector_all = frame.eval_on_selector_all
        self.mouse = page.mouse
        self.touchscreen = page.touchscreen


# the page at the root of the Activity's origin, and under Discord's /.proxy/ prefix (its relative URLs follow)
@pytest.mark.parametrize(("platform", "path"), [("desktop", "/"), ("mobile", "/.proxy/")])
async def test_the_activity_signs_in_through_the_sdk_and_plays_a_move(
    db_url: str, tmp_path: Path, platform: str, path: str
) -> None:
    from playwright.async_api import async_playwright

    phone = platform == "mobile"
    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(
            s.manager, "italy"
        )  # in channel 10 of guild 1, Ann (101) seat 0, Bob (102) seat 1
        state = await s.manager.state_of(gid)
        assert state is not None
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(
                s,
                stand_in,
                platform=platform,
                activity_path=path,
            )
            started = time.perf_counter()
            browser, page, activity, errors, raw = await open_activity(pw, stand_in, url, phone=phone)
            await wait_version(activity, 0)
            signed_in = time.perf_counter() - started
            await shot(page, f"activity-{platform}-board.png")

            # The SDK's conversation, in order: the handshake, then the commands the page sent.
            standin = await page.evaluate("() => standIn.state")
            assert standin["errors"] == [] and standin["ready"] is True
            first = standin["received"][0]
            assert first["op"] == 0 and first["client_id"] == "4242" and first["v"] == 1
            commands = await page.evaluate("() => standIn.commands()")
            sent = [c["cmd"] for c in commands if c["cmd"] in SIGN_IN]
            assert sent == ["AUTHORIZE", "AUTHENTICATE"], commands
            authorize = commands[[c["cmd"] for c in commands].index("AUTHORIZE")]["args"]
            assert authorize["client_id"] == "4242" and authorize["response_type"] == "code"
            assert (
                authorize["scope"] == ["identify", "rpc.activities.write"] and authorize["prompt"] == "none"
            )
            authenticate = next(c for c in commands if c["cmd"] == "AUTHENTICATE")["args"]
            assert authenticate == {"access_token": ACCESS_PREFIX + "code-ann"}
            # after sign-in, only who is on the map (tests/web_browser/test_activity_presence.py): one subscription,
            # to the participants' updates, so no event reaches a page that would not read it; and the status
            others = [(c["cmd"], c["evt"]) for c in commands if c["cmd"] not in (*SIGN_IN, "CAPTURE_LOG")]
            assert set(others) <= PRESENCE and len(others) == len(set(others)), commands
            assert standin["authenticated"] is True
            # the server exchanged the SDK's code with Discord's token endpoint (the fake), once
            assert [p["code"] for p in s.discord.posted] == ["code-ann"]
            # and asked Discord (the fake) about the instance the client gave the SDK, once, with the bot's token
            assert s.discord.instance_calls == list(s.discord.instances)

            assert errors == [], errors  # nothing refused or failed while signing in and drawing
            # Discord's CSP, not the map server's, on every answer the page had; the page still works under it
            assert stand_in.policies and all(
                "script-src 'self' 'unsafe-eval' 'nonce-" in p for p in stand_in.policies
            )
            inline_ran = await activity.evaluate(
                """() => new Promise((resolve) => {
                  window.__inline = false;
                  const s = document.createElement('script');
                  s.textContent = 'window.__inline = true';
                  document.head.appendChild(s);
                  setTimeout(() => resolve(window.__inline), 50);
                })"""
            )
            assert inline_ran is False  # no inline script under the replaced CSP
            elsewhere = await activity.evaluate(
                """() => fetch('https://example.org/').then(() => 'reached', (e) => 'refused')"""
            )
            assert elsewhere == "refused"  # only the mapped origin is reachable

            # Ann's own hand, the board, and a move made by a tap (the deck), seen back from the server
            assert await activity.locator("#hand .cardface").count() > 0
            answer = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))
            view = await answer.json()
            assert view["actions"] or view["pending"]  # the game opens on everyone's ticket choice
            what = await play_one(Watched(InFrame(page, activity)), view, touch=phone)
            await wait_version(activity, view["version"] + 1)
            again = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))).json()
            assert again["version"] == view["version"] + 1, what  # the server took the move
            await shot(page, f"activity-{platform}-moved.png")
            frames = await activity.evaluate(
                "() => performance.getEntriesByType('resource').map((e) => e.name)"
            )
            assert all(name.startswith(stand_in.activity_origin) for name in frames), frames
            # hidden information: nothing of Bob's in any frame Ann's Activity received, nor in her view
            assert len(raw) >= 2, raw  # the first view and the one after her move
            final = await s.manager.state_of(gid)
            for text in raw:
                check_frame(text, final, 0)
            answer = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))
            check_frame(await answer.text(), final, 0)
            # the only refusals: the two tried above (the inline script, the other origin)
            assert any("inline script" in e for e in errors) and any("example.org" in e for e in errors)
            assert all("Content Security Policy" in e for e in errors), errors
            print(
                f"\n{platform}: client page opened to board drawn {signed_in * 1000:.0f} ms (one run, loaded machine)"
            )
            await browser.close()


async def test_a_session_that_ends_is_renewed_through_the_sdk_silently(db_url: str, tmp_path: Path) -> None:
    """A page left open past its session (12 h in production, 6 s here): the next frame says the session ended,
    the page asks Discord's client for a new code without a prompt, signs in again, and draws the next move."""
    from playwright.async_api import async_playwright

    tokens = Tokens(SECRET, session_seconds=6)
    async with site(db_url, tokens=tokens, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(
                s,
                stand_in,
            )
            browser, page, activity, errors, raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            await asyncio.sleep(7)  # the session ends (the short setting above)
            await _move_through_the_manager(s, gid)
            await wait_version(activity, 1, timeout=20)
            commands = await page.evaluate("() => standIn.commands()")
            authorizes = [c["args"] for c in commands if c["cmd"] == "AUTHORIZE"]
            assert len(authorizes) == 2 and all(a["prompt"] == "none" for a in authorizes), commands
            assert [c["cmd"] for c in commands if c["cmd"] == "AUTHENTICATE"] == ["AUTHENTICATE"] * 2
            assert [p["code"] for p in s.discord.posted] == ["code-ann", "code-ann"]
            assert not await activity.locator("#splash.failed").count()
            assert errors == [], errors
            await browser.close()


async def _move_through_the_manager(s: Any, gid: str) -> None:
    """The next player's move, made elsewhere (the chat, another page)."""
    state = await s.manager.state_of(gid)
    assert state is not None
    info = await s.manager.game_info(gid)
    seat = info.to_act[0]
    user = info.seats[seat].user_id
    assert user is not None
    move = random_action(state, seat, random.Random(1))
    await s.manager.act(gid, user, move, expected_turn=turn_token(state, seat))


async def test_a_phone_that_slept_reconnects_through_the_proxy_and_draws_what_it_missed(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(
                s,
                stand_in,
                platform="mobile",
            )
            browser, page, activity, errors, raw = await open_activity(pw, stand_in, url, phone=True)
            await wait_version(activity, 0)
            assert stand_in.sockets_opened == 1
            assert await stand_in.drop_sockets() == 1  # the phone slept: its connection is gone
            await _move_through_the_manager(s, gid)  # a move while it was away
            await wait_version(activity, 1, timeout=20)
            assert stand_in.sockets_opened == 2  # one reconnection, no new sign-in
            commands = await page.evaluate("() => standIn.commands()")
            assert [c["cmd"] for c in commands if c["cmd"] in SIGN_IN] == ["AUTHORIZE", "AUTHENTICATE"]
            # (and no second subscription: the SDK's connection to the client never dropped)
            assert [c["cmd"] for c in commands if c["cmd"] == "SUBSCRIBE"] == ["SUBSCRIBE"], commands
            assert errors == [], errors
            await browser.close()


async def test_popped_out_the_activity_starts_again_with_a_new_instance_and_plays_on(
    db_url: str, tmp_path: Path
) -> None:
    """Discord's pop-out: the Activity leaves the client's window and loads afresh in a window of its own, with a
    new instance id; its SDK then speaks to the client's window (the pop-out's opener). It signs in again and
    shows the moves made after."""
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(
                s,
                stand_in,
            )
            (instance_id,) = s.discord.instances
            # Discord's pop-out: a new instance, in the same channel, that Discord knows too
            s.discord.add_instance(f"{instance_id}-popout-1", 10, 1, [101, 102])
            browser, page, activity, errors, raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            async with page.context.expect_page() as opened:
                assert await page.evaluate("() => standIn.popOut()") is True
            popout = await opened.value
            popout.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
            await popout.frame_locator("iframe#activity").locator("#board svg").wait_for(timeout=20_000)
            moved = next(f for f in popout.frames if f.url.startswith(stand_in.activity_origin))
            assert "-popout-1" in moved.url and "instance_id=" in moved.url
            await wait_version(moved, 0)
            await _move_through_the_manager(s, gid)
            await wait_version(moved, 1)
            received = await page.evaluate("() => standIn.state.received")
            handshakes = [m for m in received if m["op"] == 0]
            assert [h["frame"] for h in handshakes] == [0, 1]
            assert handshakes[0]["frame_id"] != handshakes[1]["frame_id"]
            commands = await page.evaluate("() => standIn.commands()")
            by_frame = [(c["frame"], c["cmd"]) for c in commands if c["cmd"] in SIGN_IN]
            assert by_frame == [(0, "AUTHORIZE"), (0, "AUTHENTICATE"), (1, "AUTHORIZE"), (1, "AUTHENTICATE")]
            assert s.discord.instance_calls == [instance_id, f"{instance_id}-popout-1"]
            assert await page.evaluate("() => standIn.state.errors") == []
            assert errors == [], errors
            await browser.close()


async def test_discords_safe_area_filled_late_moves_the_page_out_of_its_way(
    db_url: str, tmp_path: Path
) -> None:
    """Discord's mobile client gives the Activity its safe area as --discord-safe-area-inset-* on the root, and
    sometimes only after the first layout or orientation change (discord/embedded-app-sdk issue 304): the bar
    and the sheet make room as soon as they come."""
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(
                s,
                stand_in,
                platform="mobile",
            )
            browser, page, activity, errors, raw = await open_activity(pw, stand_in, url, phone=True)
            await wait_version(activity, 0)
            paddings = """() => [getComputedStyle(document.querySelector('#bar')).paddingTop,
                                 getComputedStyle(document.querySelector('#sheet-body')).paddingBottom]"""
            assert await activity.evaluate(paddings) == [
                "5px",
                "12px",
            ]  # none given yet: the page's own margins
            # what Discord's mobile client does, late: the insets on the Activity's root
            await activity.evaluate(
                """() => {
                  const root = document.documentElement.style;
                  root.setProperty('--discord-safe-area-inset-top', '48px');
                  root.setProperty('--discord-safe-area-inset-bottom', '34px');
                }"""
            )
            assert await activity.evaluate(paddings) == ["48px", "34px"]
            await shot(page, "activity-mobile-safe-area.png")
            assert errors == [], errors
            await browser.close()


async def test_a_forged_instance_or_a_user_not_in_it_is_refused_and_a_forged_channel_changes_nothing(
    db_url: str, tmp_path: Path
) -> None:
    """Through the stand-in and the unmodified SDK: an instance Discord does not know, and a user not connected to
    the instance, see the catalogue's refusal and no board; a client that reports another channel (where Ann also
    plays) still gets the game of the instance's channel, as Discord says."""
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        other = await s.manager.create_game(
            guild_id=1, channel_id=20, host_id=101, host_name="ann", board="italy"
        )
        await s.manager.join(other.game_id, 103, "eve")
        await s.manager.start_game(other.game_id, 101, seed=5)
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, args=[*ARGS, *stand_in.chromium_args()], headless=True
            )
            forged = stand_in.url(
                user=USERS["code-ann"],
                code="code-ann",
                access_token=ACCESS_PREFIX + "code-ann",
                channel_id="10",
                instance_id="i-1-gc-1-10",  # never launched: Discord knows no such instance
            )
            not_in = in_discord(s, stand_in, code="code-eve", users=(101, 102))
            for url, words in (
                (forged, "This Activity could not be confirmed by Discord"),
                (not_in, "You are not in this Activity"),
            ):
                context = await browser.new_context(**DESKTOP, ignore_https_errors=True)
                page = await context.new_page()
                await page.goto(url)
                frame = page.frame_locator("iframe#activity")
                await frame.locator("#splash.failed").wait_for(timeout=20_000)
                assert words in await frame.locator("#splash-text").inner_text()
                assert not await frame.locator("#board svg").count()
                commands = await page.evaluate("() => standIn.commands()")
                # the code was asked for, but no session came back to authenticate with
                assert [c["cmd"] for c in commands if c["cmd"] != "CAPTURE_LOG"] == ["AUTHORIZE"]
                await context.close()

            # the client reports channel 20; the instance (Discord's word) is in channel 10: the page shows gid
            url = in_discord(s, stand_in)
            url = url.replace("channel_id=10", "channel_id=20").replace(
                "location_id=gc-1-10", "location_id=gc-1-20"
            )
            assert "channel_id=20" in url
            context = await browser.new_context(**DESKTOP, ignore_https_errors=True)
            page = await context.new_page()
            await page.goto(url)
            frame = page.frame_locator("iframe#activity")
            await frame.locator("#board svg").wait_for(timeout=20_000)
            activity = next(f for f in page.frames if f.url.startswith(stand_in.activity_origin))
            assert "channel_id=20" in await activity.evaluate("() => location.href")
            asked = await activity.evaluate(
                "() => performance.getEntriesByType('resource').map((e) => e.name)"
            )
            assert any(f"/api/games/{gid}/" in name for name in asked), asked
            assert not any(other.game_id in name or "api/context" in name for name in asked), asked
            await browser.close()

"""A whole game on the live map as a Discord Activity, in Debian's chromium, through the Discord client stand-in
(tests/helpers/discord_client.py: its client page, the unmodified Embedded App SDK, the proxy with Discord's CSP).
One instance of the Activity in channel 10: Ann inside Discord on the desktop platform, Bob on the mobile platform
(a phone's viewport, touch, his French locale), Eve a participant of the instance who is not seated (watching),
each with a client page and an Activity frame of their own. Ann and Bob tap the opening and the end in their
Activity frames (play.py); the middle is played through the manager while the Activities are closed, then they
are opened again (a new sign-in through the SDK). Checked: every WebSocket frame each page received holds nothing
hidden from its reader, the final ranking on all three, the commands each client recorded (per opening of the
Activity), no console error; screenshots at the start, the middle and the end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from browser import (
    ARGS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    Watched,
    covering,
    needs_chromium,
    ranking_in_view,
    record,
    shot,
    wait_version,
)
from helpers.discord_client import discord_client
from helpers.fake_discord import BOT_TOKEN
from helpers.fake_discord import OAUTH_USERS as USERS
from helpers.fast_pictures import FastPictures
from helpers.web_site import ACCESS_PREFIX, check_frame, new_game, site
from play import play_a_game

pytestmark = [needs_chromium, pytest.mark.slow]  # a whole game in a real browser

INSTANCE = "i-30303030-gc-1-10"  # the instance everyone is in (channel 10 of guild 1: `new_game`'s)
EVERYONE = [USERS["code-ann"], USERS["code-bob"], USERS["code-eve"]]
SCOPES = ["identify", "rpc.activities.write"]


class InDiscord:
    """A client page of the stand-in and the Activity in its frame, as play.py drives a page: the script, the
    locators and the text are the frame's; the finger, the mouse and the screenshot are the window's (the frame
    fills the window from its top left corner, so the points are the same). Navigating away closes the Activity
    (what the client recorded is kept in `sessions`, one list of commands per opening); navigating to the client
    page opens it again, until its board is drawn, with the instance's three participants."""

    def __init__(self, page: Any, activity_origin: str) -> None:
        self.window = page
        self.origin = activity_origin
        self.frame: Any = None
        self.sessions: list[list[dict[str, Any]]] = []
        self.mouse = page.mouse
        self.touchscreen = page.touchscreen

    @property
    def url(self) -> str:
        return str(self.window.url)

    async def goto(self, url: str) -> None:
        if self.frame is not None:
            self.sessions.append(await self.commands())
            self.frame = None
        await self.window.goto(url)
        if url == "about:blank":
            return
        await self.window.frame_locator("iframe#activity").locator("#board svg").wait_for(timeout=20_000)
        self.frame = next(f for f in self.window.frames if f.url.startswith(self.origin))
        # Bob and Eve are in the instance too: the client tells the Activity once it listens
        end = time.monotonic() + 10
        while not any(c["cmd"] == "SUBSCRIBE" for c in await self.commands()):
            assert time.monotonic() < end, "the Activity never subscribed to its participants"
            await asyncio.sleep(0.02)
        await self.window.evaluate("(u) => standIn.setParticipants(u)", EVERYONE)

    async def commands(self) -> list[dict[str, Any]]:
        return await self.window.evaluate("() => standIn.commands()")

    async def screenshot(self, **kwargs: Any) -> Any:
        # (at the CSS scale: after a screenshot at the device's scale of 2, chromium halves the coordinates of the
        # next touch that reaches the Activity's frame, a frame of another site: the finger lands elsewhere)
        return await self.window.screenshot(**kwargs, scale="css")

    async def evaluate(self, *args: Any) -> Any:
        return await self.frame.evaluate(*args)

    async def eval_on_selector_all(self, *args: Any) -> Any:
        return await self.frame.eval_on_selector_all(*args)

    async def text_content(self, selector: str) -> str | None:
        return await self.frame.text_content(selector)

    async def inner_text(self, selector: str) -> str:
        return await self.frame.inner_text(selector)

    def locator(self, selector: str) -> Any:
        return self.frame.locator(selector)


async def open_in_discord(browser: Any, stand_in: Any, url: str, *, phone: bool) -> Watched:
    """A browser context of its own (a person's Discord client), the Activity opened in it, and every WebSocket
    frame its Activity receives (the frame's sockets are the page's) and every error it logs."""
    context = await browser.new_context(**(PHONE if phone else DESKTOP), ignore_https_errors=True)
    page = await context.new_page()
    watched = Watched(InDiscord(page, stand_in.activity_origin))
    record(page, watched)
    await watched.page.goto(url)
    return watched


def check_session(commands: list[dict[str, Any]], code: str, *, granted: bool) -> None:
    """The commands of one opening of the Activity: the SDK's sign-in (AUTHORIZE with both scopes, no prompt;
    AUTHENTICATE with the token the server got for the code), who is on the map (one subscription, one query of
    the participants), the status (SET_ACTIVITY) only where its scope was granted, and nothing else."""
    cmds = [c["cmd"] for c in commands if c["cmd"] != "CAPTURE_LOG"]
    assert cmds[:2] == ["AUTHORIZE", "AUTHENTICATE"], cmds
    authorize = commands[[c["cmd"] for c in commands].index("AUTHORIZE")]["args"]
    assert authorize["client_id"] == "4242" and authorize["response_type"] == "code"
    assert authorize["scope"] == SCOPES and authorize["prompt"] == "none"
    authenticate = next(c for c in commands if c["cmd"] == "AUTHENTICATE")["args"]
    assert authenticate == {"access_token": ACCESS_PREFIX + code}
    subscriptions = [c["evt"] for c in commands if c["cmd"] == "SUBSCRIBE"]
    assert subscriptions == ["ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"], commands
    assert cmds.count("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS") == 1, cmds
    assert (cmds.count("SET_ACTIVITY") > 0) is granted, cmds
    expected = {
        "AUTHORIZE",
        "AUTHENTICATE",
        "SUBSCRIBE",
        "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
        "SET_ACTIVITY",
    }
    assert set(cmds) <= expected, cmds
    assert cmds.count("AUTHORIZE") == 1 and cmds.count("AUTHENTICATE") == 1, cmds


async def test_two_players_play_a_whole_game_in_the_activity_while_a_third_watches(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    started = time.perf_counter()
    async with (
        site(db_url, bot_token=BOT_TOKEN, final_pictures=FastPictures()) as s,
        async_playwright() as pw,
    ):
        gid = await new_game(s.manager, "italy")  # Ann (101) seat 0, Bob (102) seat 1, in channel 10
        s.discord.add_instance(INSTANCE, 10, 1, [101, 102, 103])
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, args=[*ARGS, *stand_in.chromium_args()], headless=True
            )

            def url(code: str, platform: str, **kwargs: Any) -> str:
                return stand_in.url(
                    user=USERS[code],
                    code=code,
                    access_token=ACCESS_PREFIX + code,
                    channel_id="10",
                    instance_id=INSTANCE,
                    platform=platform,
                    **kwargs,
                )

            # Bob declines the status at Discord's consent: his page sends no SET_ACTIVITY
            seated = {
                0: await open_in_discord(browser, stand_in, url("code-ann", "desktop"), phone=False),
                1: await open_in_discord(
                    browser, stand_in, url("code-bob", "mobile", grant=("identify",)), phone=True
                ),
            }
            eve = await open_in_discord(browser, stand_in, url("code-eve", "desktop"), phone=False)
            everyone = {"ann": seated[0], "bob": seated[1], "eve": eve}
            for w in everyone.values():
                await wait_version(w.page, 0)
            # who is on the map, on every page: the two seated playing, Eve watching
            for w in everyone.values():
                await w.page.frame.wait_for_function(
                    "() => document.querySelectorAll('#presence .here[data-user]').length === 3",
                    timeout=10_000,
                )
                here = await w.page.eval_on_selector_all(
                    "#presence .here[data-user]",
                    "(els) => Object.fromEntries(els.map((e) => [e.dataset.user, e.classList.contains('playing')]))",
                )
                assert here == {"101": True, "102": True, "103": False}, here
            await shot(seated[0].page, "activity-game-start-desktop-en.png")
            await shot(seated[1].page, "activity-game-start-phone-fr.png")
            await shot(eve.page, "activity-game-start-spectator0.png")

            played = await play_a_game(
                seated,
                [eve],
                manager=s.manager,
                game_id=gid,
                phone_seat=1,
                name="activity-game",
                lang={0: "en", 1: "fr"},
            )
            state = await s.manager.state_of(gid)
            info = await s.manager.game_info(gid)
            assert state is not None and state.finished and info.status.value == "finished"

            # the end: the final ranking on all three, on screen at once, nothing over the board of the players
            for w in everyone.values():
                await w.page.frame.wait_for_function(
                    "() => document.querySelectorAll('#ranking li').length === 2", timeout=10_000
                )
                assert len(await ranking_in_view(w.page)) == 2
            for w in seated.values():
                assert await covering(w.page) == []
            # the final scores' Share (Discord's share dialog with the final board) on all three; none opened
            for w in everyone.values():
                await w.page.locator("#ranking #share").wait_for(timeout=10_000)
            assert len(s.discord.moments) == 1  # the final board uploaded once for the three pages
            assert await seated[0].page.text_content("#status") == "The game is over."
            assert await seated[1].page.text_content("#status") == "La partie est terminée."

            # What each page RECEIVED: only its own hand and tickets; the watcher none at all.
            for seat, w in ((0, seated[0]), (1, seated[1]), (None, eve)):
                assert len(w.raw) > len(played.taps) // 2, "too few WebSocket frames"
                for text in w.raw:
                    check_frame(text, state, seat)
            assert all(v["me"] is None for v in eve.views())
            assert await eve.page.locator("#hand").is_hidden()
            assert await eve.page.locator("#tickets").is_hidden()

            # The commands each client recorded, per opening of the Activity (the start, and again after the
            # middle): the SDK's sign-in, the participants, the status where granted, nothing else.
            for name, w in everyone.items():
                sessions = [*w.page.sessions, await w.page.commands()]
                assert len(sessions) == 2, name
                for commands in sessions:
                    check_session(commands, f"code-{name}", granted=name != "bob")
                state_of_client = await w.page.window.evaluate("() => standIn.state")
                assert state_of_client["errors"] == [] and state_of_client["dialogs"] == []
            # the server exchanged each code with Discord's token endpoint once per opening, and asked Discord
            # about the one instance (with the bot's token; cached: at most once per opening)
            assert sorted(p["code"] for p in s.discord.posted) == sorted([f"code-{n}" for n in everyone] * 2)
            assert set(s.discord.instance_calls) == {INSTANCE}
            assert 1 <= len(s.discord.instance_calls) <= 6, s.discord.instance_calls
            # Discord's CSP on every answer the Activities had
            assert stand_in.policies and all(
                "script-src 'self' 'unsafe-eval' 'nonce-" in p for p in stand_in.policies
            )
            for name, w in everyone.items():
                assert w.errors == [], (name, w.errors)
            await browser.close()
    elapsed = time.perf_counter() - started
    print(
        f"\nactivity game: {len(played.taps)} moves tapped in {played.seconds:.1f} s,"
        f" {played.middle} through the manager; {elapsed:.1f} s in all"
    )

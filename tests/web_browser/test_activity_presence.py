"""Who is on the map, inside Discord (the Discord client stand-in, tests/helpers/discord_client.py): the page asks
the SDK for the instance's participants and subscribes to their updates; each is shown marked playing or watching
by the view's seats, live as the stand-in adds and removes people, and the last one leaving breaks nothing; a lobby
shows its free seats and an Invite button that opens the SDK's invite dialog (and only a lobby); the layout
follows the phone turning."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import ARGS, CHROMIUM, PHONE, needs_chromium, wait_version
from helpers.discord_client import discord_client
from helpers.fake_discord import BOT_TOKEN
from helpers.fake_discord import OAUTH_USERS as USERS
from helpers.web_site import new_game, site
from test_activity_client import in_discord, open_activity

pytestmark = needs_chromium

ANN, BOB, EVE = USERS["code-ann"], USERS["code-bob"], USERS["code-eve"]


async def chips(activity: Any) -> dict[str, str]:
    """The people shown on the map: Discord id -> playing / watching."""
    return await activity.eval_on_selector_all(
        "#presence .here[data-user]",
        "(els) => Object.fromEntries(els.map((e) => [e.dataset.user, e.classList.contains('playing') ? 'playing' : 'watching']))",
    )


async def shown(activity: Any, expected: dict[str, str]) -> None:
    """Waits (a short while) until the strip shows exactly `expected`."""
    await activity.wait_for_function(
        """(want) => {
          const got = {};
          for (const e of document.querySelectorAll('#presence .here[data-user]'))
            got[e.dataset.user] = e.classList.contains('playing') ? 'playing' : 'watching';
          return JSON.stringify(got, Object.keys(got).sort()) === JSON.stringify(want, Object.keys(want).sort());
        }""",
        arg=expected,
        timeout=10_000,
    )


async def test_the_people_on_the_map_are_shown_and_follow_the_instance_live(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        await new_game(s.manager, "italy")  # Ann (101) and Bob (102) seated
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in, users=(101, 102, 103))
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            # the stand-in's instance opens with Ann alone
            await shown(activity, {"101": "playing"})
            commands = await page.evaluate("() => standIn.commands()")
            presence = [
                (c["cmd"], c["evt"])
                for c in commands
                if c["cmd"] not in ("AUTHORIZE", "AUTHENTICATE", "CAPTURE_LOG", "SET_ACTIVITY")
            ]
            assert presence == [
                ("SUBSCRIBE", "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"),
                ("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", None),
            ], commands

            # Bob and Eve join: Bob sits in the game (playing), Eve does not (watching)
            assert await page.evaluate("(u) => standIn.setParticipants(u)", [ANN, BOB, EVE]) is True
            await shown(activity, {"101": "playing", "102": "playing", "103": "watching"})
            eve = activity.locator('#presence .here[data-user="103"]')
            assert await eve.inner_text() == "E"  # no avatar: the initials
            assert await eve.get_attribute("title") == "eve, watching"  # (the catalogue's whole label)
            # Bob leaves
            await page.evaluate("(u) => standIn.setParticipants(u)", [ANN, EVE])
            await shown(activity, {"101": "playing", "103": "watching"})
            # a game under way: no Invite, no free seat
            assert await activity.locator("#invite").count() == 0
            assert await activity.locator("#presence .here.free").count() == 0
            # the last one leaves (Discord sends the update as the Activity closes): the page stays whole
            await page.evaluate("() => standIn.setParticipants([])")
            await shown(activity, {})
            assert await activity.locator("#presence").is_hidden()
            assert await activity.locator("#board svg").count() == 1
            assert not [
                c for c in await page.evaluate("() => standIn.commands()") if c["cmd"] == "OPEN_INVITE_DIALOG"
            ]
            assert errors == [], errors
            await browser.close()


async def test_a_lobby_shows_its_free_seats_and_invite_opens_discords_invite_dialog(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        info = await s.manager.create_game(
            guild_id=1, channel_id=10, host_id=101, host_name="ann", board="italy", options=()
        )
        await s.manager.join(info.game_id, 102, "bob")  # 2 of Italy's 5 seats taken
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in)
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, args=[*ARGS, *stand_in.chromium_args()], headless=True
            )
            page = await (await browser.new_context(**PHONE, ignore_https_errors=True)).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
            await page.goto(url)
            await page.frame_locator("iframe#activity").locator("#invite").wait_for(timeout=20_000)
            activity = next(f for f in page.frames if f.url.startswith(stand_in.activity_origin))
            assert await activity.locator("#presence .here.free").count() == 3
            assert await activity.locator("#invite").inner_text() == "Invite"
            assert await page.evaluate("() => standIn.state.dialogs") == []
            await activity.locator("#invite").click()
            await page.wait_for_function("() => standIn.state.dialogs.length === 1", timeout=10_000)
            assert await page.evaluate("() => standIn.state.dialogs") == [{"kind": "invite"}]
            opened = [
                c for c in await page.evaluate("() => standIn.commands()") if c["cmd"] == "OPEN_INVITE_DIALOG"
            ]
            assert len(opened) == 1, opened
            assert errors == [], errors
            await browser.close()


async def test_the_layout_follows_the_phone_turning(db_url: str, tmp_path: Path) -> None:
    """Discord's client sends ORIENTATION_UPDATE and the frame changes size: the page lays itself out again (the
    sheet beside the board in landscape, under it in portrait) and the board is fitted to its new frame."""
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in, platform="mobile")
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=True)
            await wait_version(activity, 0)
            js = """() => { const w = document.getElementById('board-wrap').getBoundingClientRect();
              const s = document.getElementById('sheet').getBoundingClientRect();
              return {wrap: [w.width, w.height], beside: s.left >= w.right - 1, transform: document.getElementById('board').style.transform}; }"""
            portrait = await activity.evaluate(js)
            assert portrait["beside"] is False
            size = page.viewport_size
            await page.set_viewport_size({"width": size["height"], "height": size["width"]})
            await page.evaluate("() => standIn.orientation('landscape')")
            await activity.wait_for_function(
                "(w) => document.getElementById('board-wrap').getBoundingClientRect().width !== w",
                arg=portrait["wrap"][0],
            )
            await page.wait_for_timeout(200)  # (the ResizeObserver's callback, a frame later)
            landscape = await activity.evaluate(js)
            assert landscape["beside"] is True, landscape
            assert landscape["transform"] != portrait["transform"]  # fitted again to the new frame
            assert errors == [], errors
            await browser.close()


async def test_an_avatar_loads_from_discords_cdn_under_the_proxys_csp_and_a_missing_one_shows_initials(
    db_url: str, tmp_path: Path
) -> None:
    """Discord's CSP lets an Activity show pictures of Discord's CDN (img-src): a participant's avatar is fetched
    from cdn.discordapp.com (the stand-in's) and drawn; one the CDN does not have shows the initials; a picture
    of another host the page could reach (discord.com, served by the stand-in) is refused by the CSP."""
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            stand_in.add_avatar("101", "a1b2c3")
            url = in_discord(s, stand_in, users=(101, 102, 103))
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            ann = {**ANN, "avatar": "a1b2c3"}
            bob = {**BOB, "avatar": "f0f0f0"}  # (not on the CDN)
            assert await page.evaluate("(u) => standIn.setParticipants(u)", [ann, bob, EVE]) is True
            await shown(activity, {"101": "playing", "102": "playing", "103": "watching"})
            face = activity.locator('#presence .here[data-user="101"] img')
            await face.wait_for(timeout=10_000)
            await activity.wait_for_function(
                "() => { const i = document.querySelector('#presence .here[data-user=\"101\"] img');"
                " return i && i.complete && i.naturalWidth > 0; }",
                timeout=10_000,
            )
            assert await face.evaluate("(i) => [i.naturalWidth, i.naturalHeight]") == [64, 64]
            assert (
                await face.get_attribute("src") == "https://cdn.discordapp.com/avatars/101/a1b2c3.png?size=64"
            )
            # Bob's is not there: his initials, no broken picture
            bob_chip = activity.locator('#presence .here[data-user="102"]')
            await activity.wait_for_function(
                "() => !document.querySelector('#presence .here[data-user=\"102\"] img')", timeout=10_000
            )
            assert await bob_chip.inner_text() == "B"
            assert "200 /avatars/101/a1b2c3.png" in stand_in.cdn_requests
            assert "404 /avatars/102/f0f0f0.png" in stand_in.cdn_requests
            # the CSP is what lets the CDN in: a picture from discord.com (reachable, not in img-src) is refused
            refused = await activity.evaluate(
                """() => new Promise((done) => {
                  document.addEventListener('securitypolicyviolation', (e) => done(e.effectiveDirective), { once: true });
                  const i = new Image(); i.src = 'https://discord.com/stand-in/client.css'; document.body.append(i);
                  setTimeout(() => done('none'), 3000);
                })"""
            )
            assert refused == "img-src"
            policy = stand_in.policies[-1]
            assert "img-src 'self' data: blob: https://cdn.discordapp.com" in policy
            assert [e for e in errors if "404" not in e and "Content Security Policy" not in e] == [], errors
            await browser.close()

"""The final scores' Share inside Discord (the Discord client stand-in, tests/helpers/discord_client.py): no
Share while the game goes on; at its end the server uploads the final board once to Discord's CDN (the fake
Discord's application attachment endpoint) and the page shows Share, which opens the SDK's share-moment dialog
with that picture's URL (the stand-in records the command)."""

from __future__ import annotations

from pathlib import Path

from browser import launch, needs_chromium, open_page, shot, wait_version
from helpers.discord_client import discord_client
from helpers.fake_discord import BOT_TOKEN
from helpers.fast_pictures import PNG, FastPictures
from helpers.web_site import finish_game, new_game, site
from test_activity_client import in_discord, open_activity
from test_activity_rich_presence import version_of

from bot.web.tokens import Link

pytestmark = needs_chromium


async def test_at_the_end_share_opens_discords_share_dialog_with_the_final_board(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    pictures = FastPictures()
    async with (
        site(db_url, bot_token=BOT_TOKEN, final_pictures=pictures) as s,
        async_playwright() as pw,
    ):
        gid = await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in)
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            # Bob on his personal link, in a browser (not inside Discord): his page asks for no moment
            plain = await launch(pw)
            bob = await open_page(plain, f"{upstream}/?link={s.tokens.link(Link(102, gid))}")
            asked: list[str] = []
            bob.page.on("request", lambda r: asked.append(r.url) if "/moment" in r.url else None)
            await wait_version(bob.page, 0)
            assert await activity.locator("#share").count() == 0  # (a game under way: nothing to share)

            await finish_game(s.manager, gid)
            await wait_version(activity, await version_of(s.manager, gid), timeout=20)
            await wait_version(bob.page, await version_of(s.manager, gid), timeout=20)
            await bob.page.locator("#ranking li").first.wait_for(timeout=10_000)
            await activity.locator("#ranking #share").wait_for(timeout=10_000)
            assert await activity.locator("#share").inner_text() == "Share"
            await shot(page, "activity-final-share.png")
            assert s.discord.moments == [PNG]  # the final board, uploaded once
            assert s.discord.moment_by == [
                "101"
            ]  # with Ann's own Discord token, as Discord's examples upload
            assert await page.evaluate("() => standIn.state.dialogs") == []
            await activity.locator("#share").click()
            await page.wait_for_function("() => standIn.state.dialogs.length === 1", timeout=10_000)
            (dialog,) = await page.evaluate("() => standIn.state.dialogs")
            media = dialog["mediaUrl"]
            assert dialog == {"kind": "share_moment", "mediaUrl": media}
            assert media.startswith("https://cdn.discordapp.com/ephemeral-attachments/4242/")
            commands = await page.evaluate("() => standIn.commands()")
            opened = [c["args"] for c in commands if c["cmd"] == "OPEN_SHARE_MOMENT_DIALOG"]
            assert opened == [{"mediaUrl": media}]
            # the same picture for every page of the game (the server keeps its URL): still one upload
            again = await s.client.post(f"/api/games/{gid}/moment", headers=s.auth(102))
            assert (await again.json())["media_url"] == media
            assert s.discord.moments == [PNG]
            # the link's page: the final ranking, no Share, no moment asked (Share is for Discord's dialog)
            assert await bob.page.locator("#share").count() == 0 and asked == []
            assert [e for e in errors if "status of 429" not in e] == [], errors
            await plain.close()
            await browser.close()

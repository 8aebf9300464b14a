"""The page's sign-in paths against the real map server, in Debian's chromium: a personal link opens the game as
its user in that user's language; a forged link shows the server's refusal in the browser's language and
nothing else."""

from __future__ import annotations

from browser import launch, needs_chromium, open_page, wait_version
from helpers.web_site import check_frame, new_game, site

from bot.i18n import default_catalog
from bot.web.tokens import Link

pytestmark = needs_chromium


async def test_a_personal_link_opens_the_game_as_its_user(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        state = await s.manager.state_of(gid)
        assert state is not None
        base = str(s.client.make_url("/"))
        link = s.tokens.link(Link(102, gid, "fr"))  # made for Bob, whose Discord speaks French
        browser = await launch(pw)
        bob = await open_page(browser, f"{base}?link={link}", locale="fr-FR")
        await bob.page.wait_for_selector("#hand:not([hidden]) .cardface")
        await wait_version(bob.page, 0)
        assert await bob.page.text_content("#hand h2") == default_catalog().text("web.ui.hand", "fr")
        assert (await bob.page.get_attribute("html", "lang") or "").startswith("fr")
        # his own hand and tickets, nobody else's, in every frame he received
        assert bob.raw and bob.errors == []
        for text in bob.raw:
            check_frame(text, state, 1)
        assert bob.views()[-1]["me"]["seat"] == 1
        await browser.close()


async def test_a_forged_link_shows_the_servers_refusal_in_the_browsers_language(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        link = s.tokens.link(Link(102, gid))
        forged = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
        browser = await launch(pw)
        eve = await open_page(browser, f"{str(s.client.make_url('/'))}?link={forged}", locale="fr-FR")
        await eve.page.wait_for_selector("#splash.failed")
        words = await eve.page.text_content("#splash-text") or ""
        assert eve.raw == [] and await eve.page.locator("#board svg").count() == 0
        assert forged not in words and link not in words
        assert default_catalog().text("web.error.link", "fr") in words, words
        await browser.close()

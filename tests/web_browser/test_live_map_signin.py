"""The page's sign-in paths against the real map server, in Debian's chromium: a personal link opens the game as
its user in the browser's language; a forged link shows the server's refusal in that language and nothing else."""

from __future__ import annotations

from browser import launch, needs_chromium, open_page, wait_version
from web_helpers import check_frame, new_game, site

from bot.i18n import default_catalog
from bot.web.tokens import Link

pytestmark = needs_chromium


async def test_a_personal_link_opens_the_game_as_its_user_and_a_forged_one_is_refused(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        state = await s.manager.state_of(gid)
        assert state is not None
        base = str(s.client.make_url("/"))
        link = s.tokens.link(Link(102, gid))
        browser = await launch(pw)

        bob = await open_page(browser, f"{base}?link={link}", locale="fr-FR")
        await bob.page.wait_for_selector("#hand:not([hidden]) .cardface")
        await wait_version(bob.page, 0)
        assert await bob.page.text_content("#hand h2") == default_catalog().text("web.ui.hand", "fr")
        assert (await bob.page.get_attribute("html", "lang") or "").startswith("fr")
        # his own tickets, nobody else's, in every frame he received
        assert bob.raw
        for text in bob.raw:
            check_frame(text, state, 1)
        assert bob.views()[-1]["me"]["seat"] == 1

        forged = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
        eve = await open_page(browser, f"{base}?link={forged}", locale="fr-FR")
        await eve.page.wait_for_selector("#splash.failed")
        words = await eve.page.text_content("#splash-text") or ""
        assert default_catalog().text("web.error.link", "fr") in words
        assert eve.raw == [] and await eve.page.locator("#board svg").count() == 0
        assert forged not in words and link not in words
        await browser.close()

"""A whole game of Europe with Warehouses & Depots on the live map in Debian's chromium, against the real map
server (bot/web) over a manager and the tests' fake Discord OAuth2 server, signed in through DiscordSDKMock as
inside Discord: Alice (English, desktop) and Bob (French, phone) tap the opening and the end (play.py) while Eve
watches; the middle is played through the manager with the pages away, then the pages open again. Every WebSocket
frame each page RECEIVED is checked: no other player's hand or tickets, none at all for the watcher. (The whole
game of Italy, with the chat in SimCord, is test_live_map_simcord.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from browser import covering, launch, needs_chromium, open_page, ranking_in_view, shot, tap, wait_version
from helpers.web_site import check_frame, new_game, site
from play import OPENING, last_view, play_a_game

pytestmark = [needs_chromium, pytest.mark.slow]  # whole games in a real browser


async def test_two_players_play_a_whole_game_of_europe_with_warehouses_by_tapping(db_url: str) -> None:
    from playwright.async_api import async_playwright

    moved: list[str] = []

    async def after_move(game_id: str, outcome: Any) -> None:  # what the chat's turn message is told
        moved.append(game_id)

    async with site(db_url) as s, async_playwright() as pw:
        s.server.after_move = after_move
        gid = await new_game(s.manager, "europe", options=("warehouses",))
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        # Ann (English) and Bob (French, from his Discord locale) sit; Eve watches. Channel 10 is the game's.
        seated = {
            0: await open_page(browser, f"{base}?mock_code=code-ann&channel=10"),
            1: await open_page(browser, f"{base}?mock_code=code-bob&channel=10", phone=True, locale="fr-FR"),
        }
        eve = await open_page(browser, f"{base}?mock_code=code-eve&channel=10")
        for w in (*seated.values(), eve):
            await w.page.wait_for_selector("#board svg [data-route]")
            await wait_version(w.page, 0)
        await shot(seated[0].page, "europe-start-desktop-en.png")
        await shot(seated[1].page, "europe-start-phone-fr.png")

        # A ticket choice in progress survives another player's move: Ann unticks a ticket, Bob keeps his on his
        # phone, his move reaches her page, her ticket stays unticked (and the board stays uncovered).
        ann = seated[0].page
        offered = last_view(seated[0])["pending"]["choices"][0]["offered"]  # type: ignore[index]
        dropped = f'#pending input[data-ticket="{offered[-1]["id"]}"]'
        await ann.locator(dropped).uncheck()
        bob_view = last_view(seated[1])
        assert bob_view is not None
        keep = bob_view["pending"]["choices"][0]["code"]
        await tap(seated[1].page, f'#pending button.action[data-code="{keep}"]', touch=True)
        await wait_version(ann, bob_view["version"] + 1)
        assert not await ann.locator(dropped).is_checked()
        assert await ann.locator("#pending input[data-ticket]:checked").count() == len(offered) - 1
        assert "bob" in (
            await ann.text_content("#last-move") or ""
        )  # the move in the sheet, not over the board
        assert await covering(ann) == [] and await covering(seated[1].page) == []
        await shot(ann, "europe-tickets-kept-desktop-en.png")

        played = await play_a_game(
            seated,
            [eve],
            manager=s.manager,
            game_id=gid,
            phone_seat=1,
            name="europe",
            lang={0: "en", 1: "fr"},
        )
        print(
            f"europe: {len(played.taps)} moves tapped in {played.seconds:.1f} s,"
            f" {played.middle} through the manager"
        )

        state = await s.manager.state_of(gid)
        info = await s.manager.game_info(gid)
        assert state is not None and state.finished and info.status.value == "finished"
        # the decisions: the tickets (at the start and after the ticket deck), a tunnel; a warehouse chosen in
        # the deck's picker (the opening's moves are the first of the game)
        # never more taps than the chat: a card in one (two cards in two), a claim in two, tickets in three
        print({k: max(v) for k, v in played.taps_per_kind.items()})
        # (with Warehouses & Depots a card drawn may go to a warehouse: the deck and the cards then offer that
        # choice, a second tap, as the chat's menu does; without it one tap each, test_live_map_simcord.py)
        limits = {"deck": 2, "face-up": 2, "tickets": 1, "route": 2, "city": 2, "pending keep_tickets": 2}
        for kind, taps in played.taps_per_kind.items():
            assert max(taps) <= limits.get(kind, 2), (kind, taps)
        assert "deck" in played.taps_per_kind and "route" in played.taps_per_kind
        # the end: the ranking on screen at once, nothing over the board, on the phone and the desktop
        for w in seated.values():
            assert len(await ranking_in_view(w.page)) == 2
            assert await covering(w.page) == []
        decided = {t.split()[1] for t in played.taps if t.startswith("pending")}
        assert "keep_tickets" in decided and decided & {"pay_tunnel", "decline_tunnel"}, decided
        assert any(getattr(a, "warehouse", None) is not None for _, a in state.history[:OPENING])
        assert "tickets" in played.taps and any(t.startswith("face-up") for t in played.taps)
        assert any(t.startswith("city") for t in played.taps)  # the depots, placed by tapping their cities
        print(sorted({t.split()[0] for t in played.taps}))
        assert await seated[0].page.text_content("#status") == "The game is over."
        assert await seated[1].page.text_content("#status") == "La partie est terminée."

        # What each page RECEIVED: only its own hand and tickets; the watcher none at all.
        for seat, w in ((0, seated[0]), (1, seated[1]), (None, eve)):
            assert w.raw, "no WebSocket frame"
            assert w.errors == [], w.errors
            for text in w.raw:
                check_frame(text, state, seat)
        assert all(v["me"] is None for v in eve.views())
        assert await eve.page.is_hidden("#hand") and await eve.page.is_hidden("#tickets")
        # every word on the pages is the catalogue's, in the reader's language: no key, no English on Bob's page
        from bot.i18n import default_catalog
        from bot.web.view import UI_KEYS

        catalog = default_catalog()
        bob_text = await seated[1].page.inner_text("body")
        ann_text = await seated[0].page.inner_text("body")
        assert "web.ui." not in bob_text and "web.ui." not in ann_text
        for key in UI_KEYS:
            en, fr = catalog.text(f"web.ui.{key}", "en"), catalog.text(f"web.ui.{key}", "fr")
            if en != fr and "{" not in en:
                assert en not in bob_text, (key, en)

        # the private ticket map, asked by its owner's page with the session
        await seated[0].page.click("#ticket-map-open")
        await seated[0].page.wait_for_selector("#overlay:not([hidden]) .pic svg")
        await shot(seated[0].page, "europe-ticket-map-desktop-en.png")
        assert {v["locale"][:2] for v in seated[1].views()} == {"fr"}
        assert {v["locale"][:2] for v in seated[0].views()} == {"en"}
        # every move made on a page was told to the chat side (the manager's moves were not made on a page)
        assert len(moved) == len(played.taps) + 1 and set(moved) == {gid}  # and Bob's first tickets
        await browser.close()

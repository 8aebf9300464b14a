"""Whole games on the live map in Debian's chromium, against the real map server (bot/web) over a manager and a
fake Discord OAuth2 server: two players on two pages (one a phone, one a desktop) play by tapping only — a
route on the board when they can claim one (then its first way to pay, then Confirm), else the deck, and the
first choice of every decision — while a third page watches. Every WebSocket frame each page RECEIVED is
checked: no other player's hand or tickets, none at all for the watcher. English and French pages; screenshots
go to /tmp/shots (TTR_WEB_SHOTS) to be looked at."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from browser import Watched, launch, needs_chromium, open_page, shot, tap, wait_version
from web_helpers import check_frame, new_game, site

pytestmark = needs_chromium

MAX_MOVES = 400


async def _state_of_page(w: Watched) -> dict[str, Any]:
    return await w.page.evaluate(
        """() => ({
          version: Number(document.querySelector('#app').dataset.version || -1),
          mine: document.querySelector('#status').classList.contains('mine'),
        })"""
    )


def _last_view(w: Watched) -> dict[str, Any] | None:
    views = w.views()
    return views[-1] if views else None


async def _play_one(w: Watched, view: dict[str, Any], touch: bool) -> str:
    """One move on page `w` by tapping what the page shows; returns what was tapped (for the failure message)."""
    page = w.page
    pending = view.get("pending")
    if pending:
        first = pending["choices"][0]
        if first.get("offered"):
            # Keep the first `max` tickets offered: untick the rest, then the keep button.
            for t in first["offered"][first.get("max", len(first["offered"])) :]:
                await page.locator(f'#pending input[data-ticket="{t["id"]}"]').uncheck()
        await tap(page, f'#pending button.action[data-code="{first["code"]}"]', touch=touch)
        return f"pending {first['code']}"
    claims = [a for a in view["actions"] if a["kind"] == "claim_route" and a.get("route") is not None]
    if claims:
        await tap(page, f'#board [data-route="{claims[0]["route"]}"]', touch=touch)
        what = f"route {claims[0]['route']}"
    elif any(a["kind"] == "draw_blind" for a in view["actions"]):
        await tap(page, '#market [data-deck="cards"]', touch=touch)
        what = "deck"
    else:
        first = view["actions"][0]
        await page.evaluate("document.querySelectorAll('#actions details').forEach(d => d.open = true)")
        await tap(page, f'#actions button.action[data-code="{first["code"]}"]', touch=touch)
        what = f"action {first['code']}"
    await page.wait_for_selector("#picker:not([hidden])", timeout=5000)
    await tap(page, "#picker button.action", touch=touch)
    await tap(page, "#picker #confirm", touch=touch)
    return what


async def _wait_for_version(pages: list[Watched], version: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        views = [_last_view(w) for w in pages]
        if all(v is not None and v["version"] >= version for v in views):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(
        f"the pages did not reach version {version}: {[(_last_view(w) or {}).get('version') for w in pages]}"
    )


@pytest.mark.parametrize(
    ("board", "options", "phone_seat"),
    [("italy", (), 0), ("europe", ("warehouses",), 1)],
    ids=["italy-ann-phone", "europe-warehouses-bob-phone"],
)
async def test_two_players_play_a_whole_game_by_tapping(
    db_url: str, board: str, options: tuple[str, ...], phone_seat: int
) -> None:
    from playwright.async_api import async_playwright

    moved: list[str] = []

    async def after_move(game_id: str, outcome: Any) -> None:  # what the chat's turn message is told
        moved.append(game_id)

    async with site(db_url) as s, async_playwright() as pw:
        s.server.after_move = after_move
        gid = await new_game(s.manager, board, options=options)
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        # Ann (English) and Bob (French, from his Discord locale) sit; Eve watches. Channel 10 is the game's.
        seated = {
            0: await open_page(browser, f"{base}?mock_code=code-ann&channel=10", phone=phone_seat == 0),
            1: await open_page(
                browser, f"{base}?mock_code=code-bob&channel=10", phone=phone_seat == 1, locale="fr-FR"
            ),
        }
        eve = await open_page(browser, f"{base}?mock_code=code-eve&channel=10")
        pages = [seated[0], seated[1], eve]
        for w in pages:
            await w.page.wait_for_selector("#board svg [data-route]")
        await _wait_for_version(pages, 0)
        lang = {0: "en", 1: "fr"}
        for seat, w in seated.items():
            await shot(
                w.page, f"{board}-start-{'phone' if seat == phone_seat else 'desktop'}-{lang[seat]}.png"
            )

        taps: list[str] = []
        waits: list[float] = []
        started = time.perf_counter()
        for _ in range(MAX_MOVES):
            views = {seat: _last_view(w) for seat, w in seated.items()}
            if any(v and v.get("status") == "finished" for v in views.values()):
                break
            actor = next(
                (seat for seat, v in views.items() if v and (v["actions"] or v.get("pending"))), None
            )
            if actor is None:
                await asyncio.sleep(0.02)
                continue
            w = seated[actor]
            view = views[actor]
            assert view is not None
            # the page has drawn that view before a finger goes down
            await wait_version(w.page, view["version"])
            try:
                taps.append(await _play_one(w, view, touch=actor == phone_seat))
                t0 = time.perf_counter()
                await _wait_for_version(pages, view["version"] + 1)
                waits.append(time.perf_counter() - t0)
            except Exception:
                await shot(w.page, f"{board}-failed.png")
                print("toast:", await w.page.text_content("#toast"), taps[-3:])
                raise
            if len(taps) == 12:
                for seat, sw in seated.items():
                    await shot(
                        sw.page,
                        f"{board}-mid-{'phone' if seat == phone_seat else 'desktop'}-{lang[seat]}.png",
                    )
                await shot(eve.page, f"{board}-mid-spectator-en.png")
        else:
            raise AssertionError(f"no end after {MAX_MOVES} moves: {taps[-5:]}")

        print(
            f"{board}: {len(taps)} moves in {time.perf_counter() - started:.1f} s, waits mean {sum(waits) / len(waits) * 1000:.0f} ms"
        )
        info = await s.manager.game_info(gid)
        state = await s.manager.state_of(gid)
        assert state is not None and state.finished, taps[-5:]
        for seat, w in seated.items():
            await wait_version(w.page, info.action_count)
            await shot(w.page, f"{board}-end-{'phone' if seat == phone_seat else 'desktop'}-{lang[seat]}.png")
        assert await seated[0].page.text_content("#status") == "The game is over."
        assert await seated[1].page.text_content("#status") == "La partie est terminée."

        # What each page RECEIVED: only its own hand and tickets; the watcher none at all.
        for seat, w in ((0, seated[0]), (1, seated[1]), (None, eve)):
            assert w.raw, "no WebSocket frame"
            for text in w.raw:
                check_frame(text, state, seat)
        assert all(v["me"] is None for v in eve.views())
        for w in pages:
            assert w.errors == [], w.errors
        assert await eve.page.is_hidden("#hand") and await eve.page.is_hidden("#tickets")
        # the words are the reader's
        assert {v["locale"][:2] for v in seated[1].views()} == {"fr"}
        assert {v["locale"][:2] for v in seated[0].views()} == {"en"}
        # every move made on a page was told to the chat side
        assert len(moved) == len(taps) and set(moved) == {gid}
        assert info.status.value == "finished"
        json.dumps(taps)
        await browser.close()

"""Light on the wire, in Debian's chromium against the real map server: a page fetches the board's base drawing
once, whatever the moves, and each move's frame brings its pieces, which the page puts in their layers: the
drawing it shows holds exactly the view's pieces, in the order the server composes them (render/board_live.py
`compose`, the same picture as the chat's map: tests/render/test_board_live.py)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

from browser import launch, needs_chromium, open_page, shot, wait_version
from helpers.web_site import Site, new_game, site

pytestmark = needs_chromium

LAYERS_SHOWN = """() => Object.fromEntries([...document.querySelectorAll('#board svg g[data-layer]')].map((l) => [
  l.dataset.layer,
  [...l.children].map((g) => [g.dataset.piece, g.querySelectorAll('*').length]),
]))"""


def _expected(pieces: dict[str, str]) -> dict[str, list[list[Any]]]:
    """Each layer's pieces in order, with how many elements each holds."""
    out: dict[str, list[list[Any]]] = {}
    for pid in sorted(pieces):
        tree = ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{pieces[pid]}</g>')
        out.setdefault(pid.split(".")[0], []).append([pid, sum(1 for _ in tree.iter()) - 1])
    return out


async def _move(s: Site, gid: str, rng: random.Random) -> int:
    """One listed move of whoever may act, a claim when there is one; the version it leads to."""
    for user in (101, 102):
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))).json()
        if view["actions"]:
            break
    claims = [a for a in view["actions"] if a["kind"] == "claim_route"]
    chosen = claims[0] if claims else rng.choice(view["actions"])
    body: dict[str, Any] = {"code": chosen["code"], "version": view["version"]}
    if chosen["kind"] == "keep_tickets":
        body["tickets"] = [t["id"] for t in chosen["offered"]]
    resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user))
    assert resp.status == 200, await resp.text()
    return int((await resp.json())["version"])


async def test_the_drawing_is_fetched_once_and_each_move_brings_its_pieces(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with (
        site(db_url, act_rate=1000.0, act_burst=1000, view_rate=1000.0, view_burst=1000) as s,
        async_playwright() as pw,
    ):
        gid = await new_game(s.manager, "usa")
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        pages = [
            await open_page(browser, f"{base}?mock_code=code-ann&channel=10"),
            await open_page(browser, f"{base}?mock_code=code-bob&channel=10", phone=True, locale="fr-FR"),
        ]
        for w in pages:
            await w.page.wait_for_selector("#board svg [data-route]")
        rng = random.Random(5)
        version = 0
        for _ in range(24):
            version = await _move(s, gid, rng)
            for w in pages:
                await wait_version(w.page, version)
        for w, (user, locale) in zip(pages, ((101, "en"), (102, "fr")), strict=True):
            view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user, locale))).json()
            assert any(p.startswith("train.") for p in view["pieces"])  # claims were made
            shown = await w.page.evaluate(LAYERS_SHOWN)
            expected = _expected(view["pieces"])
            assert {k: v for k, v in shown.items() if v} == expected
            fetched = [u for u in w.requests if "/board.svg" in u]
            assert len(fetched) == 1, fetched  # the base drawing, once for 24 moves
            assert fetched[0].endswith("v=" + view["drawing"].split("v=")[1])
            assert w.errors == []
        await browser.close()


CHIPS = """() => [...document.querySelectorAll('#players .player')].map((c) => {
  const mark = c.querySelector('.swatch.marked svg');
  return mark ? [...mark.children].slice(1).map((e) => e.tagName) : null;
})"""


async def test_the_colour_blind_setting_puts_the_drawings_marks_on_the_players_chips(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "usa")  # (colour-blind on: the setting's default)
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        w = await open_page(browser, f"{base}?mock_code=code-ann&channel=10", phone=True)
        await w.page.wait_for_selector("#board svg [data-route]")
        # seat 0 is red (a disc on its trains: render.svg.PLAYER_SHAPE), seat 1 blue (a square)
        assert await w.page.evaluate(CHIPS) == [["circle"], ["rect"]]
        await shot(w.page, "colour-blind-chips-phone-en.png")
        version = (await s.manager.game_info(gid)).action_count
        await s.manager.update_settings(gid, 101, {"colorblind": False})
        for _ in range(200):  # (the setting's frame: the marks go, and the drawing with letters with them)
            if await w.page.evaluate(CHIPS) == [None, None]:
                break
            await w.page.wait_for_timeout(20)
        assert await w.page.evaluate(CHIPS) == [None, None]
        assert (await s.manager.game_info(gid)).action_count == version
        await w.page.wait_for_selector("#board svg [data-route]")
        fetched = [u for u in w.requests if "/board.svg" in u]
        assert len(fetched) == 2 and fetched[0] != fetched[1]  # the base drawn again without the letters
        await browser.close()


#: the reader's card chips (hand, face-up row): each one's colour and the letter on its swatch ("" without)
CARD_LETTERS = """() => [...document.querySelectorAll('#hand .cardface, #market .cardface[data-face-up]')].map((b) => {
  const s = b.querySelector('.swatch');
  return [b.dataset.faceUp ?? 'hand', [...s.classList].find((c) => c.startsWith('c-')), s.textContent];
})"""
#: the letters the drawing prints on its routes
ROUTE_LETTERS = (
    "() => [...new Set([...document.querySelectorAll('#board svg text.rletter')].map((t) => t.textContent))]"
)


async def test_the_colour_blind_setting_puts_each_cards_route_letter_on_its_chip(db_url: str) -> None:
    """A colour-blind player matches "Ve" on a route to their green cards: the hand's and the face-up row's chips
    show each colour's letter as the drawing prints it on routes, in the reader's language; none when off."""
    from playwright.async_api import async_playwright

    from bot.play.pictures import picture_words
    from maps import CARD_NAMES

    async with site(db_url) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "usa")  # (colour-blind on: the setting's default)
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        pages = {
            "en": await open_page(browser, f"{base}?mock_code=code-ann&channel=10", phone=True),
            "fr": await open_page(
                browser, f"{base}?mock_code=code-bob&channel=10", phone=True, locale="fr-FR"
            ),
        }
        for lang, w in pages.items():
            await w.page.wait_for_selector("#board svg [data-route]")
            await wait_version(w.page, 0)
            words = picture_words(lang)
            chips = await w.page.evaluate(CARD_LETTERS)
            assert len([c for c in chips if c[0] == "hand"]) >= 2 and len(chips) >= 7, chips
            for _, cls, letter in chips:
                name = cls[2:]
                assert name in CARD_NAMES and letter == words.letter(name) != "", (lang, cls, letter)
            # the same letters as the drawing's routes (a locomotive's is the legend's: no route is one)
            printed = set(await w.page.evaluate(ROUTE_LETTERS))
            assert {letter for _, cls, letter in chips if cls != "c-locomotive"} <= printed, (chips, printed)
            await shot(w.page, f"colour-blind-cards-phone-{lang}.png")
        await s.manager.update_settings(gid, 101, {"colorblind": False})
        for w in pages.values():
            for _ in range(200):  # (the setting's frame)
                if all(c[2] == "" for c in await w.page.evaluate(CARD_LETTERS)):
                    break
                await w.page.wait_for_timeout(20)
            assert all(c[2] == "" for c in await w.page.evaluate(CARD_LETTERS))
            assert w.errors == [], w.errors
        await browser.close()

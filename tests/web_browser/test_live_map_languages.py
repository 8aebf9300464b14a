"""The live map on a phone in each language the bot speaks beside English and French, against the real map server:
a player opened by their personal link reads the page in their language (German on Germany, Spanish on Europe,
Italian on Italy, Japanese on Japan): no word that only the English catalogue uses, the Japan board's cities in
Japanese for a Japanese reader (in the packaged CJK font the server serves), and nothing wider than the phone's screen (German's long words included).
Screenshots in TTR_WEB_SHOTS (default /tmp/shots) to look at."""

from __future__ import annotations

import json
import re

import pytest
from browser import launch, needs_chromium, open_page, shot, wait_version
from helpers.web_site import site

from bot.i18n import LOCALES_DIR
from bot.web.tokens import Link
from maps import load_board
from maps.city_names import city_names

pytestmark = [needs_chromium, pytest.mark.slow]

READERS = [("de", "germany"), ("es", "europe"), ("it", "italy"), ("ja", "japan")]

#: the page's visible words, and what overflows the phone's width (the board's drawing pans: it is left out)
READ = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('#board') || el.closest('svg')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.right > width + 1 || r.left < -1) wide.push(`${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`);
    if ((el.tagName === 'BUTTON' || el.tagName === 'SUMMARY') && el.scrollWidth > el.clientWidth + 1)
      wide.push(`cut ${el.tagName}: ${el.textContent.slice(0, 40)}`);
  }
  return {text: document.body.innerText, wide, pageWidth: document.documentElement.scrollWidth, width};
}"""

WORD = re.compile(r"[^\W\d_]{4,}")


def _words(texts: object) -> set[str]:
    return {w.lower() for w in WORD.findall(json.dumps(texts, ensure_ascii=False))}


def _catalogue(lang: str) -> dict[str, str]:
    return json.loads((LOCALES_DIR / f"{lang}.json").read_text("utf-8"))  # type: ignore[no-any-return]


def _english_only(lang: str, board_id: str) -> set[str]:
    """Words of the English catalogue that the reader's catalogue never uses (and that are no place's name)."""
    board = load_board(board_id)
    names = _words([c.name for c in board.cities]) | _words(list(city_names(board_id, lang).values()))
    return _words(list(_catalogue("en").values())) - _words(list(_catalogue(lang).values())) - names


async def test_each_language_reads_its_own_words_on_a_phone(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url) as s, async_playwright() as pw:
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        for i, (lang, board_id) in enumerate(READERS):
            info = await s.manager.create_game(
                guild_id=1, channel_id=30 + i, host_id=101, host_name="ann", board=board_id
            )
            await s.manager.join(info.game_id, 102, "bob")
            await s.manager.start_game(info.game_id, 101, seed=11)
            link = s.tokens.link(Link(102, info.game_id, lang))
            watched = await open_page(browser, f"{base}?link={link}", phone=True, locale=lang)
            page = watched.page
            await page.wait_for_selector("#hand:not([hidden]) .cardface")
            await wait_version(page, 0)
            await page.wait_for_timeout(150)
            assert (await page.get_attribute("html", "lang") or "").startswith(lang)
            read = await page.evaluate(READ)
            await page.evaluate(
                "async () => { await document.fonts.ready; }"
            )  # (the shot as a reader sees it)
            await shot(page, f"language-{lang}-{board_id}-phone.png")
            seen = _words(read["text"])
            assert seen, lang
            assert not seen & _english_only(lang, board_id), (
                lang,
                sorted(seen & _english_only(lang, board_id)),
            )
            assert read["wide"] == [] and read["pageWidth"] <= read["width"], (lang, read["wide"])
            # the screen readers' labels: the catalogue's whole sentence in the reader's language, filled in
            label = await page.get_attribute('#players .player[data-seat="1"]', "aria-label") or ""
            template = json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8"))[
                "web.ui.player_label"
            ]
            filled = re.escape(template).replace(r"\{name\}", "bob")
            for number in ("score", "trains", "cards"):
                filled = filled.replace(rf"\{{{number}\}}", r"\d+")
            assert re.fullmatch(filled, label), (lang, label, template)
            if lang == "ja":  # the tickets on offer name their cities in Japanese, never in the board's Latin
                japanese = city_names(board_id, "ja")
                latin = {c.name for c in load_board(board_id).cities if c.name in japanese}
                shown = [n for n in latin if re.search(rf"\b{re.escape(n)}\b", read["text"])]
                assert shown == [], shown
                assert any(name in read["text"] for name in japanese.values())
                # drawn with the packaged CJK font the server serves (this host has none of its own), not boxes
                loaded = await page.evaluate(
                    "async () => { await document.fonts.ready;"
                    " return [...document.fonts].filter((f) => f.family.includes('TTR Noto Sans JP')"
                    " && f.status === 'loaded').map((f) => f.weight).sort(); }"
                )
                assert loaded == ["400", "700"], loaded  # the regular and the bold face (titles, status)
            assert watched.errors == [], watched.errors
            await page.context.close()
        await browser.close()

"""The end of a game on the live map, in Debian's chromium against the real map server (bot/web) over a manager:
the final ranking and each player's breakdown (routes, tickets completed and failed, bonuses) at once, without
scrolling, on a phone (390x844, touch) in French and in English and on a desktop, with two players and with five.
Each breakdown's numbers, as the page shows them, add up to the total it shows. The games are played to their end
through the manager (the moves themselves are test_live_map_games.py's)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import launch, needs_chromium, open_page, shot, wait_version
from helpers.web_site import finish_game, site

from bot.i18n import default_catalog
from bot.web.tokens import Link

pytestmark = [needs_chromium, pytest.mark.slow]

#: each ranking line and its breakdown as the page shows them: texts, numbers, and whether fully on screen
MEASURE = """() => {
  const body = document.querySelector('#sheet-body').getBoundingClientRect();
  const seen = (r) => r.height > 0 && r.top >= Math.max(0, body.top) && r.bottom <= Math.min(innerHeight, body.bottom)
    && r.left >= 0 && r.right <= innerWidth;
  return [...document.querySelectorAll('#ranking li')].map((li) => {
    const parts = [...li.querySelectorAll('.parts .part')];
    return {
      seat: li.dataset.seat,
      total: li.querySelector('b').textContent,
      parts: parts.map((p) => [p.textContent, Number(p.dataset.points), p.dataset.kind]),
      shown: seen(li.getBoundingClientRect()) && parts.every((p) => seen(p.getBoundingClientRect())),
      text: li.textContent,
    };
  });
}"""

#: the points a part's words show: its last number, with its sign (a minus sign or a hyphen)
LAST_NUMBER = re.compile(r"([+\u2212-]?\d+)\s*$")


async def finished_game(s: Any, board: str, channel: int, seats: list[tuple[int, str]], seed: int) -> str:
    (host, host_name), *others = seats
    info = await s.manager.create_game(
        guild_id=1, channel_id=channel, host_id=host, host_name=host_name, board=board
    )
    for user, name in others:
        await s.manager.join(info.game_id, user, name)
    await s.manager.start_game(info.game_id, host, seed=seed)
    await finish_game(s.manager, info.game_id)
    return info.game_id


def number(words: str) -> int:
    found = LAST_NUMBER.search(words)
    assert found, words
    return int(found.group(1).replace("\u2212", "-"))


async def test_the_end_shows_the_ranking_and_each_players_breakdown_at_once_on_a_phone_and_a_desktop(
    db_url: str,
) -> None:
    from playwright.async_api import async_playwright

    catalog = default_catalog()
    five = [(101, "ann"), (102, "bob"), (103, "eve"), (104, "Margaretha"), (105, "Wilhelmina")]
    # (USA's seed 8: three tickets completed among the five, ann's one of them: every kind of part is shown)
    games = {"europe-2": ("europe", 30, five[:2], 11), "usa-5": ("usa", 31, five, 8)}
    async with site(db_url) as s, async_playwright() as pw:
        base = str(s.client.make_url("/"))
        ids = {name: await finished_game(s, *game) for name, game in games.items()}
        browser = await launch(pw)
        # (a finished game is no channel's open game any more: its players' personal links open it)
        screens = {
            "phone-fr": (102, True, "fr-FR", "fr"),
            "phone-en": (101, True, "en-US", "en"),
            "desktop-en": (101, False, "en-US", "en"),
        }
        for name, (board, _channel, seats, _seed) in games.items():
            state = await s.manager.state_of(ids[name])
            assert state is not None and state.finished
            for screen, (user, phone, tag, lang) in screens.items():
                link = s.tokens.link(Link(user, ids[name], lang))
                w = await open_page(browser, f"{base}?link={link}", phone=phone, locale=tag)
                page = w.page
                await page.wait_for_selector("#ranking li .parts")
                await wait_version(page, len(state.history))
                lines = await page.evaluate(MEASURE)
                await shot(page, f"end-{name}-{screen}.png")
                assert len(lines) == len(seats), (name, screen, lines)
                for line in lines:
                    # on screen at once, without scrolling: the line and every part of its breakdown
                    assert line["shown"], (name, screen, line)
                    # the numbers shown add up to the total shown
                    shown = [number(words) for words, _, _ in line["parts"]]
                    assert shown == [points for _, points, _ in line["parts"]], line
                    # (the total in its plural form: "1 point", "0 point" in French, "46 points")
                    assert line["total"] == catalog.text("n.points", lang, n=sum(shown)), (name, screen, line)
                    # in the reader's words: the chat's for the routes, no catalogue key
                    routes = catalog.text("final.routes", lang, points=shown[0])
                    assert line["parts"][0][0] == routes, line
                    assert not re.search(r"(web\.ui|bonus|final)\.", line["text"]), line
                kinds = {kind for x in lines for _, _, kind in x["parts"]}
                if name == "usa-5":  # routes, tickets completed and failed, the bonus: all in view at once
                    assert {"routes", "tickets_done", "tickets_failed", "longest_path"} <= kinds, (
                        screen,
                        lines,
                    )
                    done = next(p for x in lines for p in x["parts"] if p[2] == "tickets_done")
                    worded = {
                        catalog.text("web.ui.part_done", lang, n=n, points=f"+{done[1]}") for n in range(1, 5)
                    }
                    assert done[0] in worded, (done, worded)
                # the bonuses in the reader's language: Europe's European Express, the USA's longest path
                bonus = "european_express" if board == "europe" else "longest_path"
                assert catalog.text(f"bonus.{bonus}", lang) in " ".join(x["text"] for x in lines), (
                    name,
                    screen,
                )
                assert w.errors == [], w.errors
                await page.context.close()
        # a watcher's status while both players choose their tickets: one sentence of the catalogue, the names
        # as one list in it (no words joined by the page)
        info = await s.manager.create_game(
            guild_id=1, channel_id=32, host_id=101, host_name="ann", board="usa"
        )
        await s.manager.join(info.game_id, 102, "bob")
        await s.manager.start_game(info.game_id, 101, seed=11)
        eve = await open_page(browser, f"{base}?mock_code=code-eve&channel=32")
        await wait_version(eve.page, 0)
        both = catalog.text("list.and", "en", items="ann", last="bob")
        assert await eve.page.text_content("#status") == catalog.text(
            "web.ui.watching_waiting", "en", player=both
        )
        assert eve.errors == [], eve.errors
        await browser.close()

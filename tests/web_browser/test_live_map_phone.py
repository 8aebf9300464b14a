"""The live map at its default zoom, on a phone (390x844, touch) and a desktop, on every board and variant,
against the real map server (bot/web) over a manager: what a player can read and tap without pinching, measured
from the page itself (getBoundingClientRect, getScreenCTM) and resolved by the page's own tap resolution
(`window.ttrPick`, what a tap at a point would offer):

- city names at least MIN_NAME_PX on screen (the names shown; a name that would overlap one shown waits for a
  closer zoom, as on map apps);
- every route reachable by a tap point on the board, at the whole-board zoom (its smallest);
- a finger 10 px beside a route opens it, for every route in view at the default zoom;
- nothing over the board (every point of it reaches the drawing, but the zoom buttons; no empty band), the zoom
  buttons never over the drawing's legend, every player's chip on screen.

One browser, one page per screen, every board's game opened in turn (no move made here: the games are
test_live_map_games.py's)."""

from __future__ import annotations

import statistics
from typing import Any

import pytest
from browser import launch, needs_chromium, open_page, shot, wait_version
from helpers.web_site import site

pytestmark = [needs_chromium, pytest.mark.slow]

#: (board, variant): every board and every variant of it (`ttr maps`)
BOARDS = [
    ("europe", None),
    ("europe", "1912"),
    ("europe", "big-cities"),
    ("europe", "mega"),
    ("germany", None),
    ("italy", None),
    ("japan", None),
    ("marklin", None),
    ("usa", None),
]
MIN_NAME_PX = 11.0

#: what the page shows, measured in it
MEASURE = """() => {
  const wrap = document.querySelector('#board-wrap').getBoundingClientRect();
  const inside = (r) => r.right > wrap.left && r.left < wrap.right && r.bottom > wrap.top && r.top < wrap.bottom;
  // the names shown: their font size on screen (drawn size times screen pixels per unit of the text itself)
  const names = [];
  let hidden = 0;
  for (const t of document.querySelectorAll('#board svg text.label')) {
    if (t.getAttribute('visibility') === 'hidden') { hidden++; continue; }
    const r = t.getBoundingClientRect(), b = t.getBBox();
    if (!b.width || !inside(r)) continue;
    names.push(Number(t.getAttribute('font-size')) * r.width / b.width);
  }
  // each route's track on screen, sampled; a tap point is a sample inside the board, off the zoom buttons
  const ctl = document.querySelector('#zoom-ctl').getBoundingClientRect();
  const free = (x, y) => x > wrap.left + 2 && x < wrap.right - 2 && y > wrap.top + 2 && y < wrap.bottom - 2
    && !(x > ctl.left - 4 && x < ctl.right + 4 && y > ctl.top - 4 && y < ctl.bottom + 4);
  const routes = {};
  const missed = [];
  for (const p of document.querySelectorAll('#board svg g.hits path[data-route]')) {
    const id = 'route:' + p.dataset.route, m = p.getScreenCTM(), total = p.getTotalLength();
    const s = (q) => [q.x * m.a + q.y * m.c + m.e, q.x * m.b + q.y * m.d + m.f];
    routes[id] ??= {reach: false, seen: false, off: 0, offOk: 0, offMany: 0};
    const r = routes[id];
    for (let i = 0; i <= 24; i++) {
      const [x, y] = s(p.getPointAtLength(total * i / 24));
      if (!free(x, y)) continue;
      r.seen = true;
      if (!r.reach && window.ttrPick(x, y, true).includes(id)) r.reach = true;
    }
    // 10 px beside the track, both sides, at a quarter, the middle and three quarters
    for (const f of [0.25, 0.5, 0.75]) {
      const [ax, ay] = s(p.getPointAtLength(total * f)), [bx, by] = s(p.getPointAtLength(Math.min(total, total * f + 1)));
      const len = Math.hypot(bx - ax, by - ay) || 1, nx = -(by - ay) / len, ny = (bx - ax) / len;
      for (const side of [1, -1]) {
        const x = ax + side * 10 * nx, y = ay + side * 10 * ny;
        if (!free(x, y)) continue;
        r.off++;
        const got = window.ttrPick(x, y, true);
        if (got.includes(id)) r.offOk++;
        if (got.length > 1) r.offMany++;
        else if (missed.length < 12) missed.push([id, Math.round(x), Math.round(y), got.join(' ')]);
      }
    }
  }
  // nothing over the board: a grid of points, each reaching the drawing (or a zoom button)
  const covered = [];
  for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
    const x = wrap.left + wrap.width * i / 10, y = wrap.top + wrap.height * j / 10;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit.closest('#board') || hit.closest('#zoom-ctl'))) covered.push(hit ? hit.outerHTML.slice(0, 60) : 'nothing');
  }
  // the zoom buttons never over the drawing's side panel (its legend), every player's chip on screen
  const panel = document.querySelector('#board svg .panel-chrome')?.getBoundingClientRect();
  const overPanel = [...document.querySelectorAll('#zoom-ctl button')].map((b) => b.getBoundingClientRect())
    .filter((r) => r.width && panel && r.right > panel.left && r.left < panel.right && r.bottom > panel.top && r.top < panel.bottom).length;
  const chipsOut = [...document.querySelectorAll('#players .player')].map((c) => c.getBoundingClientRect())
    .filter((r) => r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight).length;
  return {names, hidden, routes, covered, missed, overPanel, chipsOut, wrap: [wrap.width, wrap.height]};
}"""


async def open_board(s: Any, board: str, variant: str | None, channel: int) -> str:
    info = await s.manager.create_game(
        guild_id=1, channel_id=channel, host_id=101, host_name="ann", board=board, variant=variant
    )
    await s.manager.join(info.game_id, 102, "bob")
    await s.manager.start_game(info.game_id, 101, seed=7)
    return info.game_id


async def measure(page: Any) -> dict[str, Any]:
    await page.evaluate("() => new Promise((r) => setTimeout(r, 150))")  # the names' overlap pass has run
    return await page.evaluate(MEASURE)  # type: ignore[no-any-return]


async def test_every_board_is_readable_and_every_route_tappable_on_a_phone_and_a_desktop(db_url: str) -> None:
    from playwright.async_api import async_playwright

    figures: dict[str, list[float]] = {"names": [], "off": [], "off_ok": []}
    async with site(db_url) as s, async_playwright() as pw:
        base = str(s.client.make_url("/"))
        browser = await launch(pw)
        games = [await open_board(s, b, v, 20 + i) for i, (b, v) in enumerate(BOARDS)]
        pages = {
            "phone": await open_page(
                browser, f"{base}?mock_code=code-bob&channel=20", phone=True, locale="fr-FR"
            ),
            "desktop": await open_page(browser, f"{base}?mock_code=code-ann&channel=20"),
        }
        for i, ((board, variant), gid) in enumerate(zip(BOARDS, games, strict=True)):
            name = f"{board}-{variant or 'classic'}"
            for screen, w in pages.items():
                page = w.page
                code = "code-bob" if screen == "phone" else "code-ann"
                if i:
                    await page.goto(f"{base}?mock_code={code}&channel={20 + i}")
                await page.wait_for_selector("#board svg [data-route]")
                await wait_version(page, 0)
                opening = await measure(page)
                if board in ("europe", "japan", "usa") and variant is None:
                    await shot(page, f"board-{name}-{screen}.png")
                names = opening["names"]
                assert names, f"{name} {screen}: no city name in view"
                assert min(names) >= MIN_NAME_PX - 0.05, (name, screen, sorted(names)[:5])
                assert opening["covered"] == [], (name, screen, opening["covered"])
                assert opening["chipsOut"] == 0 and opening["overPanel"] == 0, (name, screen)
                # the ticket choice (every game opens on one) leaves the board at least 40% of the screen's height
                assert opening["wrap"][1] >= 0.4 * (844 if screen == "phone" else 820), (
                    name,
                    screen,
                    opening["wrap"],
                )
                routes = opening["routes"]
                off = sum(r["off"] for r in routes.values())
                ok = sum(r["offOk"] for r in routes.values())
                assert off and ok / off >= 0.95, (name, screen, ok, off, opening["missed"])
                if screen == "phone":
                    figures["names"].append(statistics.median(names))
                    figures["off"].append(off)
                    figures["off_ok"].append(ok)
                # the whole board (its smallest zoom): every route has a point a tap reaches
                await page.click("#zoom-fit")
                whole = await measure(page)
                assert whole["overPanel"] == 0, (name, screen)  # the legend, in view at the whole-board zoom
                unreachable = sorted(k for k, r in whole["routes"].items() if not r["reach"])
                assert unreachable == [], (name, screen, unreachable)
                state = await s.manager.state_of(gid)
                assert state is not None and len(whole["routes"]) == len(state.board.routes), name
        # the phone turned sideways (the last board): the sheet at the side, the board readable and uncovered
        phone = pages["phone"].page
        await phone.set_viewport_size({"width": 844, "height": 390})
        await phone.wait_for_timeout(200)
        sideways = await measure(phone)
        assert sideways["names"] and min(sideways["names"]) >= MIN_NAME_PX - 0.05
        assert sideways["covered"] == [] and sideways["chipsOut"] == 0
        assert sideways["wrap"][0] >= 0.55 * 844, sideways["wrap"]
        await shot(phone, "board-usa-classic-phone-landscape.png")
        print(
            f"phone: city names median {statistics.median(figures['names']):.1f} px;"
            f" 10 px off a route opens it {sum(figures['off_ok'])}/{sum(figures['off'])}"
        )
        for w in pages.values():
            assert w.errors == [], w.errors
        await browser.close()

"""The live map's page in Debian's chromium (Playwright), against the real map server (bot/web) over a manager on
SQLite and the tests' fake Discord OAuth2 server, a game of Italy in play:

- page ready: from `page.goto` of a fresh browser context (nothing cached, like a player opening the Activity)
  until the board is drawn and the hand shown (sign-in through DiscordSDKMock, config, session, context, view);
  phone (390x844) and desktop pages alternate;
- move seen: from the tap on the deck on the acting player's page until the other player's page has drawn the
  new view (the act, the server's push over the WebSocket, the page's redraw), and the redraw alone (the page's
  own measure of its `show`, parsing the new SVG and filling the sheet).

- a phone at the default zoom (`--phone`), every board and variant: the city names' on-screen size (median,
  smallest), the routes no tap point on the board reaches at the whole-board zoom, and the share of taps 10 px
  beside a route (both sides, at a quarter, the middle, three quarters of every route in view) that offer it,
  as the page resolves them (tests/web_browser/test_live_map_phone.py's measure).

    python bench/bench_web_page.py [--pages 20] [--moves 30] [--phone]

The machine's load average is printed first: wall times grow with other work on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "web_browser"))

from browser import CHROMIUM, launch, open_page, tap, wait_version  # noqa: E402
from helpers.web_site import new_game, site  # noqa: E402
from test_live_map_phone import BOARDS, MEASURE, open_board  # noqa: E402


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def line(name: str, xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return f"{name}: n={len(ms)} median {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms, max {max(ms):.0f} ms"


async def main(pages: int, moves: int) -> None:
    from playwright.async_api import async_playwright

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        # every page signs in from this one address: lift the per-address sign-in limit for the bench
        db = f"sqlite:///{tmp}/games.db"
        async with site(db, signin_rate=1000.0, signin_burst=1000) as s, async_playwright() as pw:
            await new_game(s.manager, "italy")
            base = str(s.client.make_url("/"))
            browser = await launch(pw)
            ready: list[float] = []
            for i in range(pages):
                context_page = await browser.new_context(
                    **(
                        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
                        if i % 2
                        else {}
                    )
                )
                page = await context_page.new_page()
                t0 = time.perf_counter()
                await page.goto(f"{base}?mock_code=code-ann&channel=10")
                await page.wait_for_selector("#board svg [data-route]", state="attached")
                await page.wait_for_selector("#hand:not([hidden]) .cardface")
                ready.append(time.perf_counter() - t0)
                await context_page.close()
            print(line("page ready (board drawn, hand shown)", ready))

            seen: list[float] = []
            draw: list[float] = []
            ann = await open_page(browser, f"{base}?mock_code=code-ann&channel=10")
            bob = await open_page(browser, f"{base}?mock_code=code-bob&channel=10")
            pages_by_seat = {0: ann, 1: bob}
            for w in (ann, bob):
                await w.page.wait_for_selector("#board svg [data-route]", state="attached")
            while len(seen) < moves:
                views = {seat: w.views()[-1] if w.views() else None for seat, w in pages_by_seat.items()}
                actor = next((k for k, v in views.items() if v and (v["actions"] or v.get("pending"))), None)
                if actor is None:
                    await asyncio.sleep(0.01)
                    continue
                me, other = pages_by_seat[actor], pages_by_seat[1 - actor]
                v = views[actor]
                assert v is not None
                await wait_version(me.page, v["version"])
                if v.get("pending"):
                    first = v["pending"]["choices"][0]
                    t0 = time.perf_counter()
                    try:
                        await tap(
                            me.page, f'#pending button.action[data-code="{first["code"]}"]', touch=False
                        )
                    except AssertionError:
                        print(
                            v["version"],
                            v["pending"]["kind"],
                            [c["code"] for c in v["pending"]["choices"]][:5],
                        )
                        print(
                            await me.page.evaluate(
                                "() => [document.querySelector('#app').dataset.version, document.querySelector('#pending').outerHTML.slice(0, 600)]"
                            )
                        )
                        raise
                else:
                    t0 = time.perf_counter()
                    await tap(me.page, '#market [data-deck="cards"]', touch=False)  # one move: made at once
                await wait_version(other.page, v["version"] + 1)
                seen.append(time.perf_counter() - t0)
                draw.append(
                    float(await other.page.evaluate("() => document.querySelector('#app').dataset.drawMs"))
                    / 1000
                )
                while not all(w.views() and w.views()[-1]["version"] > v["version"] for w in (me, other)):
                    await asyncio.sleep(0.005)  # both pages' sockets have the new view before the next move
            print(line("move seen on the other page (tap on the deck -> redrawn)", seen))
            print(line("  of which the page's own redraw (the new SVG and the sheet)", draw))
            await browser.close()


async def phone() -> None:
    from playwright.async_api import async_playwright

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        async with site(f"sqlite:///{tmp}/games.db") as s, async_playwright() as pw:
            base = str(s.client.make_url("/"))
            browser = await launch(pw)
            w = None
            names: list[float] = []
            off = reached = unreachable = routes = many = 0
            for i, (board, variant) in enumerate(BOARDS):
                await open_board(s, board, variant, 20 + i)
                url = f"{base}?mock_code=code-bob&channel={20 + i}"
                if w is None:
                    w = await open_page(browser, url, phone=True, locale="fr-FR")
                else:
                    await w.page.goto(url)
                await w.page.wait_for_selector("#board svg [data-route]")
                await wait_version(w.page, 0)
                await w.page.wait_for_timeout(150)
                m = await w.page.evaluate(MEASURE)
                await w.page.click("#zoom-fit")
                await w.page.wait_for_timeout(150)
                whole = await w.page.evaluate(MEASURE)
                lost = sum(not r["reach"] for r in whole["routes"].values())
                b_off = sum(r["off"] for r in m["routes"].values())
                b_ok = sum(r["offOk"] for r in m["routes"].values())
                b_many = sum(r["offMany"] for r in m["routes"].values())
                print(
                    f"{board}-{variant or 'classic'}: names median {statistics.median(m['names']):.1f} px"
                    f" (smallest {min(m['names']):.1f}, {len(m['names'])} shown, {m['hidden']} waiting for a"
                    f" closer zoom); routes unreachable {lost}/{len(whole['routes'])}; 10 px off opens it"
                    f" {b_ok}/{b_off} (a chooser of 2-4 for {b_many})"
                )
                names += m["names"]
                off += b_off
                reached += b_ok
                many += b_many
                unreachable += lost
                routes += len(whole["routes"])
            print(
                f"phone 390x844, every board: city names median {statistics.median(names):.1f} px, smallest"
                f" {min(names):.1f}; routes unreachable {unreachable}/{routes}; taps 10 px off a route that"
                f" open it {100 * reached / off:.1f}% ({reached}/{off}), {100 * many / off:.0f}% of them through a"
                " chooser (every route taken as claimable: the hardest case)"
            )
            await browser.close()


if __name__ == "__main__":
    if not os.path.exists(CHROMIUM):
        sys.exit(f"needs Debian's chromium at {CHROMIUM}")
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--phone", action="store_true", help="the phone's figures at the default zoom instead")
    args = ap.parse_args()
    asyncio.run(phone() if args.phone else main(args.pages, args.moves))

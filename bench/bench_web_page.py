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

- page ready with the CPU slowed (`--cpu 4`: Chrome's CPU throttling, as a mid-range phone) on a phone from a
  personal link, a game `--moves` moves in: nothing cached, then loaded again; where the time goes (the page's
  own resource timings).

    python bench/bench_web_page.py [--pages 20] [--moves 30] [--phone | --cpu 4 [--compare REF]]

The machine's load average is printed first: wall times grow with other work on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

from browser import CHROMIUM, PHONE, launch, open_page, tap, wait_version  # noqa: E402
from figures import line  # noqa: E402
from helpers.web_site import new_game, site  # noqa: E402
from test_live_map_phone import BOARDS, MEASURE, open_board  # noqa: E402


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


TIMINGS = """() => {
  const at = (part) => performance.getEntriesByType('resource').filter((e) => e.name.includes(part))
    .map((e) => e.responseEnd)[0] ?? -1;
  const nav = performance.getEntriesByType('navigation')[0];
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1;
  return {run: mark('ttr-script-run'), fetched: mark('ttr-drawing-fetched'), parsed: mark('ttr-drawing-parsed'), placed: mark('ttr-pieces-placed'),
    shown: mark('ttr-drawing-shown'), painted: mark('ttr-drawing-painted'), html: nav.responseEnd, script: at('/assets/app'), session: at('api/session'), view: at('/view'),
    drawing: at('board.svg'), ready: performance.now(),
    drawing_kb: (performance.getEntriesByType('resource').find((e) => e.name.includes('board.svg'))?.transferSize ?? 0) / 1024};
}"""


#: the page's main-thread time by kind (CDP Performance.getMetrics, seconds): what the slowed CPU spent
METRICS = ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "TaskDuration")


async def slowed(pages: int, rate: float, moves: int, compare: str = "") -> None:
    """Page ready on a phone (390x844, touch) with the CPU slowed `rate` times (Chrome's CPU throttling, through
    CDP `Emulation.setCPUThrottlingRate`, as a mid-range phone), from a personal link ("My hand"): from
    `page.goto` until the board is drawn with its pieces and the hand shown, a fresh browser context each time
    (nothing cached), then the same page loaded again (the base drawing cached); a game of Italy `moves` moves in.

    With `compare` (a git commit), the page built at that commit (its committed bot/web/static/) and the page
    built now take turns, page by page, against the same server: measured under the same load."""
    import random

    from bench_activity_signin import pages as builds_of
    from playwright.async_api import async_playwright
    from test_live_map_drawing import _move

    from bot.web.tokens import Link

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; CPU slowed {rate:g}x")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/games.db"
        static, builds = builds_of(Path(tmp), compare)
        async with (
            site(
                db,
                static=static,
                signin_rate=1000.0,
                signin_burst=1000,
                view_rate=1e3,
                view_burst=1000,
                act_rate=1e3,
                act_burst=1000,
            ) as s,
            async_playwright() as pw,
        ):
            gid = await new_game(s.manager, "italy")
            rng = random.Random(3)
            for _ in range(moves):
                await _move(s, gid, rng)
            view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))).json()
            url = str(s.client.make_url("/")) + "?link=" + s.tokens.link(Link(101, gid))
            browser = await launch(pw)
            fresh: list[float] = []
            again: list[float] = []
            parts: list[dict[str, float]] = []
            by_build: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in builds}
            for i in range(pages * len(builds)):
                build = list(builds)[i % len(builds)]
                (static / "index.html").write_bytes(builds[build])
                context = await browser.new_context(**PHONE)
                page = await context.new_page()
                cdp = await context.new_cdp_session(page)
                await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                await cdp.send("Performance.enable")
                for times, mine in zip((fresh, again), by_build[build], strict=True):
                    t0 = time.perf_counter()
                    await page.goto(url)
                    await page.wait_for_selector("#board svg [data-piece]", state="attached")
                    await page.wait_for_selector("#hand:not([hidden]) .cardface")
                    mine.append(time.perf_counter() - t0)
                    if build != "now":
                        continue
                    times.append(mine[-1])
                    if times is fresh:
                        parts.append(await page.evaluate(TIMINGS))
                        got = {
                            m["name"]: m["value"]
                            for m in (await cdp.send("Performance.getMetrics"))["metrics"]
                        }
                        parts[-1].update({k: got.get(k, 0) * 1000 for k in METRICS})
                await context.close()
            await browser.close()
    print(
        f"a game of Italy {moves} moves in: {len(view['pieces'])} pieces, {len(json.dumps(view)) / 1024:.0f} KB view"
    )
    print(line(f"page ready at {rate:g}x CPU, phone, personal link, nothing cached", fresh))
    print(line(f"page ready at {rate:g}x CPU, phone, loaded again (drawing cached)", again))
    if compare:
        for name, (first, second) in by_build.items():
            built = "built now" if name == "now" else "at " + name
            print(line(f"  taking turns: the page {built}, nothing cached", first))
            print(line(f"  taking turns: the page {built}, loaded again", second))
    painted = [p["painted"] / 1000 for p in parts if p["painted"] >= 0]
    if painted:
        print(line("  the drawing painted with its pieces (the page's own mark, since navigation)", painted))
    keys = (
        "html",
        "script",
        "run",
        "session",
        "drawing",
        "fetched",
        "parsed",
        "placed",
        "shown",
        "painted",
        "ready",
    )
    print(
        "  of the first loads, median ms since navigation: "
        + ", ".join(f"{k} {statistics.median(p[k] for p in parts):.0f}" for k in keys)
        + f"; drawing {statistics.median(p['drawing_kb'] for p in parts):.0f} KB on the wire"
    )
    print(
        "  the page's main thread until ready (median ms): "
        + ", ".join(f"{k} {statistics.median(p[k] for p in parts):.0f}" for k in METRICS)
    )


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
    ap.add_argument(
        "--compare", default="", help="with --cpu: a git commit whose page takes turns with today's"
    )
    ap.add_argument(
        "--cpu", type=float, default=0, help="page ready on a phone with the CPU slowed this much"
    )
    args = ap.parse_args()
    if args.cpu:
        asyncio.run(slowed(args.pages, args.cpu, args.moves, args.compare))
    else:
        asyncio.run(phone() if args.phone else main(args.pages, args.moves))

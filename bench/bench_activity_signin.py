"""Sign-in to board drawn for the live map as a Discord Activity, in Debian's chromium inside the Discord client
stand-in (tests/helpers/discord_client.py: the client page at https://discord.com, the unmodified SDK, Discord's
CSP through the proxy), against the real map server and the tests' fake OAuth2 server, a game of Italy in play.

Each run is a fresh browser context (nothing cached, like a player opening the Activity) alternating the desktop
and mobile platforms (a 1366x820 window, a 390x844 phone), timed on the browser's clock from the client page's
start (its navigation: Discord opening the Activity) until the Activity has drawn its first view (seen in the
page by a MutationObserver, not polled from here; also printed from the Activity frame's own start, without the
client page's load, which Discord's client has done long before): the page's build loaded through the proxy, the SDK's handshake and READY, AUTHORIZE,
the server's code exchange and its check of the Activity instance with Discord (the fake), AUTHENTICATE, the
WebSocket's first view drawn.

With `--cpu 4` (the default) the CPU is slowed 4x by the DevTools protocol (Emulation.setCPUThrottlingRate) on the
page; the Activity's frame shares the page's process for this (site isolation off), so it is slowed too.

    python bench/bench_activity_signin.py [--runs 20] [--cpu 4] [--compare REF] [--rtt MS --discord-ms MS --rpc-ms MS]

With `--rtt`, `--discord-ms` and `--rpc-ms` the stand-in is a network away, as Discord is: each request through
its proxy takes that round trip (a WebSocket frame to the page half of it), each call to Discord's API (the fake)
that long, and the client answers each SDK message after that long; then the order of the page's and the
server's calls (what waits for what) shows in the figures, as it does for a player.

With `--compare REF` (a git commit) the page built at REF (its committed bot/web/static/) and the page built now
take turns, run by run, against the same server: on a shared, noisy machine the two are then measured under the
same load, and both are printed.

The machine's load average is printed first: wall times grow with other work on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "web_browser"))

from browser import ARGS, CHROMIUM, DESKTOP, PHONE  # noqa: E402
from figures import line  # noqa: E402
from helpers.discord_client import SHARED_PROCESS, discord_client  # noqa: E402
from helpers.fake_discord import BOT_TOKEN  # noqa: E402
from helpers.fake_discord import OAUTH_USERS as USERS  # noqa: E402
from helpers.web_site import ACCESS_PREFIX, new_game, site  # noqa: E402

#: in the Activity's frame: when the board is drawn (a view shown, the drawing in the page), on the browser's
#: clock (ms since the epoch); one call that waits in the page (a MutationObserver), not a poll from here: a poll
#: every few ms would run script in the slowed page, taking its time from the sign-in it measures
DRAWN = """() => new Promise((done) => {
  const ok = () => !!document.querySelector('#board svg')
    && Number(document.querySelector('#app')?.dataset.version ?? -1) >= 0;
  const at = () => performance.timeOrigin + performance.now();
  if (ok()) return done(at());
  const seen = new MutationObserver(() => { if (ok()) { seen.disconnect(); done(at()); } });
  seen.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-version'] });
})"""


async def drawn(page: Any, origin: str, timeout: float = 60.0) -> float:
    """When the Activity drew its board (ms since the epoch, the browser's clock)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frame = next((f for f in page.frames if f.url.startswith(origin)), None)
        if frame is not None:
            try:
                return float(await asyncio.wait_for(frame.evaluate(DRAWN), timeout=end - time.monotonic()))
            except TimeoutError:
                break
            except Exception:  # the frame navigating: its new document asked again
                pass
        await asyncio.sleep(0.02)
    raise AssertionError("the Activity drew no board")


def pages(tmp: Path, compare: str) -> tuple[Path, dict[str, bytes]]:
    """One static directory holding the assets of the page now and (with `compare`) of the page at that commit,
    and each one's index.html (written in turn before each run)."""
    static = tmp / "static"
    shutil.copytree(ROOT / "bot" / "web" / "static", static)
    builds = {"now": (static / "index.html").read_bytes()}
    if compare:
        files = subprocess.run(
            ["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", compare, "bot/web/static/"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        for name in files:
            data = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{compare}:{name}"], check=True, capture_output=True
            ).stdout
            if name.endswith("index.html"):
                builds[compare] = data
            else:
                (static / "assets" / Path(name).name).write_bytes(data)
    return static, builds


async def main(runs: int, cpu: float, compare: str, rtt: float, discord_ms: float, rpc_ms: int) -> None:
    from playwright.async_api import async_playwright

    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; CPU slowed {cpu:g}x; "
        f"round trips: proxy {rtt:g} ms, Discord's API {discord_ms:g} ms, client {rpc_ms} ms"
    )
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/games.db"
        static, builds = pages(Path(tmp), compare)
        # every run signs in from this one address: lift the per-address sign-in limit for the bench
        # (and the instance check on: each run a new instance, so each pays its one call to Discord, the fake)
        async with (
            site(db, signin_rate=1000.0, signin_burst=1000, bot_token=BOT_TOKEN, static=static) as s,
            async_playwright() as pw,
        ):
            await new_game(s.manager, "italy")
            upstream = str(s.client.make_url("/")).rstrip("/")
            s.discord.latency = discord_ms / 1000
            async with discord_client(upstream, "4242", Path(tmp), latency=rtt / 1000) as stand_in:
                browser = await pw.chromium.launch(
                    executable_path=CHROMIUM,
                    args=[*ARGS, *stand_in.chromium_args(), *SHARED_PROCESS],
                    headless=True,
                )
                times: dict[str, list[float]] = {"desktop": [], "mobile": []}
                by_build: dict[str, list[float]] = {name: [] for name in builds}
                by_build_frame: dict[str, list[float]] = {name: [] for name in builds}
                in_frame: list[float] = []  # from the Activity frame's own start (the client page loaded)
                # when each step was done, since the client page began (the Activity's frame opens in it)
                phases: dict[str, list[float]] = {
                    name: []
                    for name in (
                        "the Activity's script received",
                        "api/config answered",
                        "the SDK's handshake sent",
                        "AUTHORIZE sent (READY came)",
                        "api/session answered (code exchanged, instance checked)",
                        "AUTHENTICATE sent",
                        "the drawing received (board.svg)",
                        "board drawn",
                    )
                }
                for i in range(runs * len(builds)):
                    build = list(builds)[i % len(builds)]
                    (static / "index.html").write_bytes(builds[build])
                    platform = "mobile" if (i // len(builds)) % 2 else "desktop"
                    context = await browser.new_context(
                        **(PHONE if platform == "mobile" else DESKTOP), ignore_https_errors=True
                    )
                    page = await context.new_page()
                    if cpu > 1:
                        cdp = await context.new_cdp_session(page)
                        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                    instance_id = f"i-{i + 1}-gc-1-10"
                    s.discord.add_instance(instance_id, 10, 1, [101, 102])
                    url = stand_in.url(
                        instance_id=instance_id,
                        user=USERS["code-ann"],
                        code="code-ann",
                        access_token=ACCESS_PREFIX + "code-ann",
                        channel_id="10",
                        platform=platform,
                        rpc_ms=rpc_ms,
                    )
                    await page.goto(url)
                    done = await drawn(page, stand_in.activity_origin)
                    began = await page.evaluate("() => performance.timeOrigin")
                    took = (
                        done - began
                    ) / 1000  # from the client page's start (Discord opening the Activity)
                    by_build[build].append(took)
                    frame = next(f for f in page.frames if f.url.startswith(stand_in.activity_origin))
                    frame_start = await frame.evaluate("() => performance.timeOrigin")
                    by_build_frame[build].append((done - frame_start) / 1000)
                    if build != "now":
                        await context.close()
                        continue
                    times[platform].append(took)
                    # the phases, on one clock (ms since the epoch: each document's timeOrigin + its now)
                    got = await page.evaluate("() => [standIn.state.received, performance.timeOrigin]")
                    loads = await frame.evaluate(
                        """() => [performance.timeOrigin,
                          ...[/\\/assets\\/app-.*\\.js$/, /\\/api\\/config/, /\\/api\\/session$/, /\\/board\\.svg/].map((re) => {
                            const e = performance.getEntriesByType('resource').find((r) => re.test(r.name));
                            return e ? e.responseEnd : null;
                          })]"""
                    )
                    origin = got[1]
                    at = {m.get("cmd") or "HANDSHAKE": origin + m["at"] for m in reversed(got[0])}
                    points = [
                        loads[0] + loads[1],
                        loads[0] + loads[2],
                        at["HANDSHAKE"],
                        at["AUTHORIZE"],
                        loads[0] + loads[3],
                        at["AUTHENTICATE"],
                        loads[0] + loads[4],
                        done,
                    ]
                    for name, point in zip(phases, points, strict=True):
                        phases[name].append((point - origin) / 1000)
                    in_frame.append((done - loads[0]) / 1000)
                    await context.close()
                await browser.close()
                calls = len(s.discord.instance_calls)
    pages_opened = runs * len(builds)
    print(
        f"calls to Discord's activity-instances endpoint: {calls} for {pages_opened} pages "
        f"({pages_opened} instances)"
    )
    print(line("sign-in to board drawn, desktop", times["desktop"]))
    print(line("sign-in to board drawn, mobile", times["mobile"]))
    print(line("sign-in to board drawn, all", times["desktop"] + times["mobile"]))
    print(line("  the same from the Activity frame's start (without the client page's own load)", in_frame))
    if compare:
        for name, xs in by_build.items():
            built = "built now" if name == "now" else "at " + name
            print(line(f"  taking turns: the page {built}", xs))
            print(line("    the same from the Activity frame's start", by_build_frame[name]))
    print("when each step was done, since the client page began (the page built now):")
    for name, xs in phases.items():
        print(line(f"  {name}", xs))


if __name__ == "__main__":
    if not os.path.exists(CHROMIUM):
        sys.exit(f"Debian's chromium is not installed at {CHROMIUM}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cpu", type=float, default=4.0)
    parser.add_argument("--compare", default="", help="a git commit whose page takes turns with today's")
    parser.add_argument("--rtt", type=float, default=0.0, help="ms of round trip to Discord's proxy")
    parser.add_argument("--discord-ms", type=float, default=0.0, help="ms each call to Discord's API takes")
    parser.add_argument("--rpc-ms", type=int, default=0, help="ms the client takes to answer the SDK")
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.cpu, args.compare, args.rtt, args.discord_ms, args.rpc_ms))

"""Presence on the map inside Discord, and the Activity instance check's cost per page, in Debian's chromium inside
the Discord client stand-in (tests/helpers/discord_client.py), against the real map server and the tests' fake
Discord, a game of Italy in play.

Three players' pages in one Activity instance: Ann's and Bob's (seated) and Eve's (watching), each its own client
page and Activity frame, as three Discord clients. Then, `--runs` times, Eve leaves and joins again: each of the
other two clients gets Discord's ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE (the stand-in dispatches it) and the time
is taken from that dispatch (in the client page) to the chip appearing (or going) in that client's Activity, at
the next frame after the change (a MutationObserver, then requestAnimationFrame), both on one clock
(`performance.timeOrigin + performance.now()` of each document).

The instance check: the calls the server made to Discord's activity-instances endpoint for the three sign-ins,
then for the same three signing in again (a page reopened): one per instance while it is kept.

    python bench/bench_activity_presence.py [--runs 30] [--cpu 1]

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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "web_browser"))

from browser import ARGS, CHROMIUM, DESKTOP  # noqa: E402
from figures import p95  # noqa: E402
from helpers.discord_client import SHARED_PROCESS, discord_client  # noqa: E402
from helpers.fake_discord import BOT_TOKEN  # noqa: E402
from helpers.fake_discord import OAUTH_USERS as USERS  # noqa: E402
from helpers.web_site import ACCESS_PREFIX, new_game, site  # noqa: E402

WATCH = """(uid) => {
  const box = document.getElementById('presence');
  const has = () => !!box.querySelector(`.here[data-user="${uid}"]`);
  const want = !has();
  window.__seen = null;
  const obs = new MutationObserver(() => {
    if (has() !== want) return;
    obs.disconnect();
    requestAnimationFrame(() => { window.__seen = performance.timeOrigin + performance.now(); });
  });
  obs.observe(box, { childList: true, subtree: true });
}"""
DISPATCH = """(users) => { const at = performance.timeOrigin + performance.now();
  standIn.setParticipants(users); return at; }"""


async def activity_of(page: Any, origin: str, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frame = next((f for f in page.frames if f.url.startswith(origin)), None)
        if frame is not None:
            try:
                if await frame.evaluate("() => !!document.querySelector('#board svg')"):
                    return frame
            except Exception:  # (the frame navigating)
                pass
        await asyncio.sleep(0.01)
    raise AssertionError("the Activity drew no board")


async def seen(frame: Any, timeout: float = 10.0) -> float:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        at = await frame.evaluate("() => window.__seen")
        if at is not None:
            return float(at)
        await asyncio.sleep(0.005)
    raise AssertionError("the chip did not change")


async def main(runs: int, cpu: float) -> None:
    from playwright.async_api import async_playwright

    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; CPU slowed {cpu:g}x")
    who = {"code-ann": USERS["code-ann"], "code-bob": USERS["code-bob"], "code-eve": USERS["code-eve"]}
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/games.db"
        async with (
            site(db, signin_rate=1000.0, signin_burst=1000, bot_token=BOT_TOKEN) as s,
            async_playwright() as pw,
        ):
            await new_game(s.manager, "italy")  # Ann and Bob seated
            instance = "i-7-gc-1-10"
            s.discord.add_instance(instance, 10, 1, [101, 102, 103])
            upstream = str(s.client.make_url("/")).rstrip("/")
            async with discord_client(upstream, "4242", Path(tmp)) as stand_in:
                browser = await pw.chromium.launch(
                    executable_path=CHROMIUM,
                    args=[*ARGS, *stand_in.chromium_args(), *SHARED_PROCESS],
                    headless=True,
                )

                async def open_page(code: str) -> tuple[Any, Any, Any]:
                    context = await browser.new_context(**DESKTOP, ignore_https_errors=True)
                    page = await context.new_page()
                    if cpu > 1:
                        cdp = await context.new_cdp_session(page)
                        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                    url = stand_in.url(
                        instance_id=instance,
                        user=who[code],
                        code=code,
                        access_token=ACCESS_PREFIX + code,
                        channel_id="10",
                    )
                    await page.goto(url)
                    return context, page, await activity_of(page, stand_in.activity_origin)

                opened = [await open_page(code) for code in who]
                first_calls = len(s.discord.instance_calls)
                for context, _page, _frame in opened:  # the same three reopen their pages
                    await context.close()
                opened = [await open_page(code) for code in who]
                again_calls = len(s.discord.instance_calls) - first_calls

                everyone = list(who.values())
                without_eve = everyone[:2]
                others = [(page, frame) for _c, page, frame in opened[:2]]
                for page, _frame in others:  # the instance as it is now: all three
                    await page.evaluate("(u) => standIn.setParticipants(u)", everyone)
                await asyncio.sleep(0.5)
                times: list[float] = []
                for i in range(runs * 2):
                    users = without_eve if i % 2 == 0 else everyone
                    for _page, frame in others:
                        await frame.evaluate(WATCH, "103")
                    sent = [await page.evaluate(DISPATCH, users) for page, _frame in others]
                    for (_page, frame), at in zip(others, sent, strict=True):
                        times.append(await seen(frame) - at)
                    await asyncio.sleep(0.05)
                await browser.close()
    print(
        f"calls to Discord's activity-instances endpoint: {first_calls} for 3 pages of one instance, "
        f"{again_calls} more for the same 3 reopened (kept {60} s): "
        f"{(first_calls + again_calls) / 6:.2f} per page"
    )
    print(
        f"presence update to the other pages' chip drawn: n={len(times)} median {statistics.median(times):.0f} ms, "
        f"p95 {p95(times):.0f} ms, max {max(times):.0f} ms"
    )


if __name__ == "__main__":
    if not os.path.exists(CHROMIUM):
        sys.exit(f"Debian's chromium is not installed at {CHROMIUM}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cpu", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.cpu))

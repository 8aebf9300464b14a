"""Debian's chromium driven by Playwright for Python (never `playwright install`), and the helpers the live-map
browser tests share: pages at a phone or desktop size, every WebSocket frame a page receives, screenshots."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers.web_site import merge_frame

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1366, "height": 820}}
#: Screenshots go here (outside git); the tests look at nothing, people do.
SHOTS = Path(os.environ.get("TTR_WEB_SHOTS", "/tmp/shots"))

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"Debian's chromium is not installed at {CHROMIUM}"
)


@dataclass
class Watched:
    """One page and every frame its WebSockets received (as parsed JSON)."""

    page: Any
    frames: list[Any] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # uncaught exceptions and console errors (CSP, 404s)
    requests: list[str] = field(default_factory=list)  # every URL the page asked for (cached ones too)

    def views(self) -> list[dict[str, Any]]:
        """The page's view after each frame (a frame carries what changed since its socket's previous one; a
        socket's first, all of it)."""
        merged: dict[str, Any] = {}
        views = []
        for f in self.frames:
            if isinstance(f, dict) and f.get("type") == "view":
                merged = merge_frame(merged, f["view"])
                views.append(merged)
        return views


async def launch(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


async def open_page(
    browser: Any,
    url: str,
    *,
    phone: bool = False,
    locale: str = "en-US",
    before: Callable[[Any], Awaitable[None]] | None = None,
) -> Watched:
    """A new page at a phone's or a desktop's size opened at `url`, watched; `before` is called with the page
    before it is opened (routes to intercept, say)."""
    context = await browser.new_context(**(PHONE if phone else DESKTOP), locale=locale)
    page = await context.new_page()
    watched = Watched(page)
    if before is not None:
        await before(page)
    record(page, watched)
    page.on("request", lambda request: watched.requests.append(request.url))
    await page.goto(url)
    return watched


def record(page: Any, watched: Watched) -> None:
    """Keep in `watched` every WebSocket frame `page` (its frames' sockets included) receives, and every error it
    logs."""

    def on_socket(ws: Any) -> None:
        def received(payload: Any) -> None:
            text = payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace")
            watched.raw.append(text)
            try:
                watched.frames.append(json.loads(text))
            except ValueError:
                watched.frames.append(text)

        ws.on("framereceived", received)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: watched.errors.append(f"pageerror: {exc}"))
    page.on(
        "console", lambda msg: watched.errors.append(f"console: {msg.text}") if msg.type == "error" else None
    )


async def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    await page.screenshot(path=str(path))
    return path


async def tap(page: Any, selector: str, *, touch: bool, off: float | None = None) -> None:
    """A finger (or mouse) on the visible centre of an element; for a route of the board, `off` px beside a point
    of its track (a finger 10 px, a mouse 5 px: where they land), a point the page resolves to that route."""
    off = off if off is not None else 10.0 if touch else 5.0
    point = await page.evaluate(
        """async ([sel, off, mouse]) => {
          // after two frames: the layout of the last view drawn has settled
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const el = document.querySelector(sel);
          if (!el) return null;
          if (el instanceof SVGGeometryElement && el.closest('g.hits')) {
            // A point beside the track, well inside the board and away from any button: a phone snaps a finger
            // that lands near a button onto it (touch adjustment), as it would a real one.
            const wrap = el.closest('#board-wrap').getBoundingClientRect();
            const buttons = [...document.querySelectorAll('button')].map((b) => b.getBoundingClientRect())
              .filter((r) => r.width > 0);
            const id = el.dataset.route ? 'route:' + el.dataset.route : 'city:' + el.dataset.city;
            const m = el.getScreenCTM();
            const screen = (p) => ({x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f});
            const total = el.tagName === 'path' ? el.getTotalLength() : 0;
            for (const f of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.15, 0.85]) {
              let x, y;
              if (total) {
                const a = screen(el.getPointAtLength(total * f)), b = screen(el.getPointAtLength(Math.min(total, total * f + 2)));
                const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
                x = a.x - (b.y - a.y) / len * off; y = a.y + (b.x - a.x) / len * off;
              } else {
                const c = screen({x: el.cx.baseVal.value, y: el.cy.baseVal.value});
                x = c.x + off * Math.cos(f * 7); y = c.y + off * Math.sin(f * 7);
              }
              if (x < wrap.left + 16 || x > wrap.right - 16 || y < wrap.top + 16 || y > wrap.bottom - 16) continue;
              if (buttons.some((r) => x > r.left - 20 && x < r.right + 20 && y > r.top - 20 && y < r.bottom + 20)) continue;
              if (window.ttrPick(x, y, false, mouse).includes(id)) return {x, y};
            }
            return null;
          }
          el.scrollIntoView({block: 'center'});
          const r = el.getBoundingClientRect();
          if (!r.width || !r.height) return null;
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          const hit = document.elementFromPoint(x, y);
          return hit && (hit === el || el.contains(hit)) ? {x, y} : {covered: hit ? hit.outerHTML.slice(0, 120) : 'nothing'};
        }""",
        [selector, off, not touch],
    )
    assert point is not None and "covered" not in point, f"cannot tap {selector}: {point}"
    if touch:
        await page.touchscreen.tap(point["x"], point["y"])
    else:
        await page.mouse.click(point["x"], point["y"])


async def wait_version(page: Any, version: int, timeout: float = 10.0) -> None:
    """Until the page has drawn a view of at least `version` (polled from here: the server's CSP forbids the
    eval that Playwright's wait_for_function needs)."""
    end = asyncio.get_running_loop().time() + timeout
    while True:
        seen = await page.evaluate("() => Number(document.querySelector('#app').dataset.version ?? -1)")
        if seen >= version:
            return
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"the page shows version {seen}, not {version}")
        await asyncio.sleep(0.005)


async def covering(page: Any) -> list[str]:
    """What covers the board: of a grid of points over it, those that reach neither the drawing nor a zoom
    button (a banner, a sheet, an empty band)."""
    return await page.evaluate(  # type: ignore[no-any-return]
        """() => {
          const wrap = document.querySelector('#board-wrap').getBoundingClientRect(), out = [];
          for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
            const hit = document.elementFromPoint(wrap.left + wrap.width * i / 10, wrap.top + wrap.height * j / 10);
            if (!hit || !(hit.closest('#board') || hit.closest('#zoom-ctl'))) out.push(hit ? hit.outerHTML.slice(0, 60) : '-');
          }
          return out;
        }"""
    )


async def ranking_in_view(page: Any) -> list[str]:
    """The final ranking's lines fully on screen without scrolling (the sheet as it opened), as their texts."""
    return await page.evaluate(  # type: ignore[no-any-return]
        """() => {
          const body = document.querySelector('#sheet-body').getBoundingClientRect();
          return [...document.querySelectorAll('#ranking li')].filter((li) => {
            const r = li.getBoundingClientRect();
            return r.height > 0 && r.top >= Math.max(0, body.top) && r.bottom <= Math.min(innerHeight, body.bottom);
          }).map((li) => li.textContent);
        }"""
    )

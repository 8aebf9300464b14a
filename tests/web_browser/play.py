"""Playing a live-map game by tapping only, as the browser tests and nobody else do it: on the page whose turn it
is, a route on the board when the view lists a claim (then its first way to pay, then Confirm), else the deck
(then Confirm), and the first choice of every decision (keeping the first tickets allowed). The decisions are
read from what the page RECEIVED on its WebSocket; the taps go to what it drew."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from browser import Watched, shot, tap, wait_version

MAX_MOVES = 400


@dataclass
class Played:
    taps: list[str] = field(default_factory=list)
    pickers_shot: set[str] = field(default_factory=set)  # "phone", "desktop": a picker photographed once each
    name: str = ""
    waits: list[float] = field(default_factory=list)  # Confirm -> every page has the new view
    seconds: float = 0.0


def last_view(w: Watched) -> dict[str, Any] | None:
    views = w.views()
    return views[-1] if views else None


async def play_one(w: Watched, view: dict[str, Any], touch: bool, played: Played | None = None) -> str:
    """One move on page `w` by tapping what the page shows; returns what was tapped. A place on a city (a
    station, a depot) is tapped on the board too. Without a claim: the ticket deck once, after the 6th move of
    the game; a face-up card every third draw (the first one the view lets it take); else the deck."""
    played = played or Played()
    draws = sum(t in ("deck", "tickets") or t.startswith("face-up") for t in played.taps)
    page = w.page
    pending = view.get("pending")
    if pending:
        first = pending["choices"][0]
        if first.get("offered"):
            for t in first["offered"][first.get("max", len(first["offered"])) :]:
                await page.locator(f'#pending input[data-ticket="{t["id"]}"]').uncheck()
        await tap(page, f'#pending button.action[data-code="{first["code"]}"]', touch=touch)
        return f"pending {first['code']}"
    claims = [a for a in view["actions"] if a["kind"] == "claim_route" and a.get("route") is not None]
    if claims:
        route = claims[0]["route"]
        try:
            await tap(page, f'#board [data-route="{route}"]', touch=touch)
            what = f"route {route}"
        except AssertionError:  # no spot of that route to put a finger on at this zoom: the sheet's list
            await tap(page, f'#actions button.action[data-code="{claims[0]["code"]}"]', touch=touch)
            what = f"listed route {route}"
    elif (
        cities := [a for a in view["actions"] if a.get("city") is not None and a.get("route") is None]
    ) and not any(a["kind"].startswith("draw") for a in view["actions"]):
        try:
            await tap(page, f'#board [data-city="{cities[0]["city"]}"]', touch=touch)
            what = f"city {cities[0]['city']}"
        except AssertionError:
            await tap(page, f'#actions button.action[data-code="{cities[0]["code"]}"]', touch=touch)
            what = f"listed city {cities[0]['city']}"
    elif (
        len(played.taps) >= 6
        and "tickets" not in played.taps
        and any(a["kind"] == "draw_tickets" for a in view["actions"])
    ):
        await tap(page, '#market [data-deck="tickets"]', touch=touch)
        what = "tickets"
    elif draws % 3 == 2 and (slots := [a["slot"] for a in view["actions"] if a["kind"] == "draw_face_up"]):
        await tap(page, f'#market [data-face-up="{slots[0]}"]', touch=touch)
        what = f"face-up {slots[0]}"
    elif any(a["kind"] == "draw_blind" for a in view["actions"]):
        await tap(page, '#market [data-deck="cards"]', touch=touch)
        what = "deck"
    else:
        first = view["actions"][0]
        await page.evaluate(
            "() => document.querySelectorAll('#actions details').forEach((d) => (d.open = true))"
        )
        await tap(page, f'#actions button.action[data-code="{first["code"]}"]', touch=touch)
        what = f"action {first['code']}"
    await page.wait_for_selector("#picker:not([hidden])", timeout=5000)
    kind = "phone" if touch else "desktop"
    if what.startswith("route") and kind not in played.pickers_shot and played.name:
        played.pickers_shot.add(kind)
        await shot(page, f"{played.name}-picker-{kind}.png")
    if await page.locator("#picker button.action").count() > 1:  # one is already chosen
        await tap(page, "#picker button.action", touch=touch)
    await tap(page, "#picker #confirm", touch=touch)
    return what


async def wait_for_version(pages: list[Watched], version: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        views = [last_view(w) for w in pages]
        if all(v is not None and v["version"] >= version for v in views):
            return
        await asyncio.sleep(0.01)
    got = [(last_view(w) or {}).get("version") for w in pages]
    raise AssertionError(f"the pages did not reach version {version}: {got}")


async def play_to_the_end(
    seated: dict[int, Watched],
    watchers: list[Watched],
    *,
    phone_seat: int,
    name: str,
    lang: dict[int, str],
    shots_at: int = 12,
) -> Played:
    """Plays until a page's view says the game is finished; screenshots at the start, after `shots_at` moves."""
    pages = [*seated.values(), *watchers]
    played = Played(name=name)
    started = time.perf_counter()

    def kind(seat: int) -> str:
        return "phone" if seat == phone_seat else "desktop"

    for _ in range(MAX_MOVES):
        views = {seat: last_view(w) for seat, w in seated.items()}
        if any(v and v.get("status") == "finished" for v in views.values()):
            break
        actor = next((seat for seat, v in views.items() if v and (v["actions"] or v.get("pending"))), None)
        if actor is None:
            await asyncio.sleep(0.02)
            continue
        w = seated[actor]
        view = views[actor]
        assert view is not None
        try:
            await wait_version(
                w.page, view["version"]
            )  # the page has drawn that view before a finger goes down
            played.taps.append(await play_one(w, view, touch=actor == phone_seat, played=played))
            t0 = time.perf_counter()
            await wait_for_version(pages, view["version"] + 1)
            played.waits.append(time.perf_counter() - t0)
        except Exception as exc:
            await shot(w.page, f"{name}-failed.png")
            toast = await w.page.text_content("#toast")
            raise AssertionError(f"{name}: stuck after {played.taps[-3:]}; toast: {toast}") from exc
        if len(played.taps) == shots_at:
            for seat, sw in seated.items():
                await shot(sw.page, f"{name}-mid-{kind(seat)}-{lang[seat]}.png")
            for i, ww in enumerate(watchers):
                await shot(ww.page, f"{name}-mid-spectator{i}.png")
    else:
        raise AssertionError(f"{name}: no end after {MAX_MOVES} moves: {played.taps[-5:]}")
    played.seconds = time.perf_counter() - started
    for seat, sw in seated.items():
        await shot(sw.page, f"{name}-end-{kind(seat)}-{lang[seat]}.png")
    return played

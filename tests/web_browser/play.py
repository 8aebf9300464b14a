"""Playing a live-map game by tapping only, as the browser tests and nobody else do it: on the page whose turn it
is, a route on the board when the view lists a claim (a finger 10 px beside it, then its first way to pay), else
the deck (made at once), and the first choice of every decision (keeping the first tickets allowed). The decisions are
read from what the page RECEIVED on its WebSocket; the taps go to what it drew. A whole game (`play_a_game`)
taps its opening and its end; its middle is played through the manager while the pages are away, so that chromium
does not draw a whole board on every page for every move of it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from browser import Watched, shot, tap, wait_version

from bot.manager import GameManager, turn_token
from engine.actions import Action, ClaimRoute, DrawBlind
from engine.rules import legal_actions
from engine.state import MAIN, GameState
from maps.board import Route

MAX_MOVES = 400
#: moves tapped at the start (the setup decisions, depots, the first claims, the ticket deck, a face-up card)
OPENING = 20
#: the middle, played through the manager, stops before a claim that would leave a player this many trains
#: (or fewer) from the last round
NEAR_END = 2


@dataclass
class Played:
    taps: list[str] = field(default_factory=list)
    pickers_shot: set[str] = field(default_factory=set)  # "phone", "desktop": a picker photographed once each
    name: str = ""
    waits: list[float] = field(default_factory=list)  # Confirm -> every page has the new view
    seconds: float = 0.0  # tapping
    middle: int = 0  # moves made through the manager, pages closed
    #: routes claimed before the others when they can be (with a decision), until one such decision is made
    first: set[int] = field(default_factory=set)
    #: taps each move took, by what was tapped first ("route", "deck", "face-up", "tickets", "pending <kind>")
    taps_per_kind: dict[str, list[int]] = field(default_factory=dict)


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
        played.taps_per_kind.setdefault(f"pending {first['kind']}", []).append(
            1 + len(first.get("offered", [])[first.get("max", 99) :])
        )
        if first["kind"] in ("pay_tunnel", "decline_tunnel", "take_warehouses"):
            played.first.clear()  # one such decision made: no route first any more
        return f"pending {first['kind']} {first['code']}"
    claims = [a for a in view["actions"] if a["kind"] == "claim_route" and a.get("route") is not None]
    tried = {
        t.split()[-1] for t in played.taps if t.startswith(("route", "listed route"))
    }  # a tunnel given up
    claims.sort(key=lambda a: (str(a["route"]) in tried, a["route"] not in played.first))
    if claims:
        route = claims[0]["route"]
        try:
            await tap(page, f'#board [data-route="{route}"]', touch=touch)
            what = f"route {route}"
        except AssertionError:  # no spot of that route to put a finger on at this zoom: the sheet's list
            await open_lists(page)
            await tap(page, f'#actions button.action[data-code="{claims[0]["code"]}"]', touch=touch)
            what = f"listed route {route}"
    elif (
        cities := [a for a in view["actions"] if a.get("city") is not None and a.get("route") is None]
    ) and not any(a["kind"].startswith("draw") for a in view["actions"]):
        try:
            await tap(page, f'#board [data-city="{cities[0]["city"]}"]', touch=touch)
            what = f"city {cities[0]['city']}"
        except AssertionError:
            await open_lists(page)
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
        await open_lists(page)
        await tap(page, f'#actions button.action[data-code="{first["code"]}"]', touch=touch)
        what = f"action {first['code']}"
    taps = 1
    # One move for what was tapped (the deck, a face-up card) is made at once; else the picker lists the moves
    # (a route's ways to pay, the deck's warehouses) and the one tapped is made.
    if await picker_opens(page, view["version"]):
        kind = "phone" if touch else "desktop"
        if what.startswith("route") and kind not in played.pickers_shot and played.name:
            played.pickers_shot.add(kind)
            await shot(page, f"{played.name}-picker-{kind}.png")
        # a route tapped among others as near (a double route, a bullet route over a standard one): its own move
        mine = [
            a["code"]
            for a in view["actions"]
            if what.startswith("route") and str(a.get("route")) == what.split()[-1]
        ]
        shown = await page.eval_on_selector_all(
            "#picker button.action", "(bs) => bs.map((b) => b.dataset.code)"
        )
        assert len(shown) > 1 or what.startswith(("route", "city")), (
            f"a picker with one choice: {what} {shown}"
        )
        code = next((c for c in shown if c in mine), shown[0])
        await tap(page, f'#picker button.action[data-code="{code}"]', touch=touch)
        taps += 1
    played.taps_per_kind.setdefault(what.split()[0], []).append(taps)
    return what


async def open_lists(page: Any) -> None:
    """The sheet's lists of moves opened (a closed <details> keeps its buttons laid out but out of sight: no
    scrolling brings them into view)."""
    await page.evaluate("() => document.querySelectorAll('#actions details').forEach((d) => (d.open = true))")


async def picker_opens(page: Any, version: int, timeout: float = 5.0) -> bool:
    """Whether the tap opened the picker (True) or made its move at once (the page draws a newer view)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = await page.evaluate(
            "() => [!document.querySelector('#picker').hidden, Number(document.querySelector('#app').dataset.version)]"
        )
        if state[0]:
            return True
        if state[1] > version:
            return False
        await asyncio.sleep(0.01)
    raise AssertionError("the tap neither opened the picker nor made a move")


async def wait_for_version(pages: list[Watched], version: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        views = [last_view(w) for w in pages]
        if all(v is not None and v["version"] >= version for v in views):
            return
        await asyncio.sleep(0.01)
    got = [(last_view(w) or {}).get("version") for w in pages]
    raise AssertionError(f"the pages did not reach version {version}: {got}")


async def tap_moves(
    seated: dict[int, Watched],
    watchers: list[Watched],
    played: Played,
    *,
    phone_seat: int,
    moves: int = MAX_MOVES,
) -> bool:
    """Plays `moves` moves by tapping (fewer if a page's view says the game is finished); True once finished."""
    pages = [*seated.values(), *watchers]
    started = time.perf_counter()
    try:
        for _ in range(moves):
            end = time.monotonic() + 10
            while True:
                views = {seat: last_view(w) for seat, w in seated.items()}
                if any(v and v.get("status") == "finished" for v in views.values()):
                    return True
                actor = next(
                    (seat for seat, v in views.items() if v and (v["actions"] or v.get("pending"))), None
                )
                if actor is not None:
                    break
                assert time.monotonic() < end, f"{played.name}: nobody has a move after {played.taps[-3:]}"
                await asyncio.sleep(0.01)
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
                await shot(w.page, f"{played.name}-failed.png")
                toast = await w.page.text_content("#toast")
                raise AssertionError(
                    f"{played.name}: stuck after {played.taps[-3:]}; toast: {toast}"
                ) from exc
        return any((last_view(w) or {}).get("status") == "finished" for w in seated.values())
    finally:
        played.seconds += time.perf_counter() - started


async def shots(
    seated: dict[int, Watched],
    watchers: list[Watched],
    when: str,
    *,
    phone_seat: int,
    name: str,
    lang: dict[int, str],
) -> None:
    for seat, sw in seated.items():
        await shot(sw.page, f"{name}-{when}-{'phone' if seat == phone_seat else 'desktop'}-{lang[seat]}.png")
    for i, ww in enumerate(watchers):
        await shot(ww.page, f"{name}-{when}-spectator{i}.png")


def with_decision(state: GameState, r: Route) -> bool:
    """A route whose claim may ask a decision: a tunnel (pay the extra cards?), a route to a depot (take the
    warehouses?)."""
    return r.tunnel or r.a in state.depot_owner or r.b in state.depot_owner


def middle_move(state: GameState, seat: int, near_end: int) -> Action | None:
    """The move the middle of the game makes through the manager: the longest route it can claim, else a blind
    draw, else the first legal move (a decision's first choice). Never a tunnel or a route to a depot (left to
    the pages, with their decisions), nor a route that would leave the seat within `near_end` trains of the last
    round: None when only such a claim is left (the end is near: the pages play it)."""
    legal = legal_actions(state, seat)
    routes = state.board.routes
    floor = state.board.rules.get("end_trigger_trains", 2) + near_end
    claims = [a for a in legal if isinstance(a, ClaimRoute) and not with_decision(state, routes[a.route])]
    far = [a for a in claims if state.players[seat].trains - routes[a.route].length > floor]
    if far:
        return max(far, key=lambda a: routes[a.route].length)
    if claims:
        return None
    return next((a for a in legal if isinstance(a, DrawBlind)), legal[0])


async def play_through_manager(manager: GameManager, game_id: str, *, near_end: int) -> int:
    """Plays the middle of the game through the manager the map server uses (no page, no chat: these moves
    are not made on a page) until a player could claim a route that brings him within `near_end` trains of
    the last round; returns how many moves it made."""
    for n in range(MAX_MOVES):
        state = await manager.state_of(game_id)
        assert state is not None and state.phase == MAIN, state.phase
        info = await manager.game_info(game_id)
        seat = info.to_act[0]
        user = info.seats[seat].user_id
        assert user is not None
        move = middle_move(state, seat, near_end)
        if move is None:
            return n
        await manager.act(game_id, user, move, expected_turn=turn_token(state, seat))
    raise AssertionError(f"no end in sight after {MAX_MOVES} moves through the manager")


async def leave(pages: list[Watched]) -> list[str]:
    """Every page navigated away (its WebSocket closed, nothing more to draw); returns where they were."""
    urls = [w.page.url for w in pages]
    for w in pages:
        await w.page.goto("about:blank")
    return urls


async def come_back(pages: list[Watched], urls: list[str], version: int) -> None:
    """Every page opened again where it was (signed in again), until it has drawn `version`."""
    for w, url in zip(pages, urls, strict=True):
        await w.page.goto(url)
    for w in pages:
        await wait_version(w.page, version)
    # (a page draws the view its sign-in brought before its socket's first frame: the frames read here too)
    await wait_for_version(pages, version)


async def play_a_game(
    seated: dict[int, Watched],
    watchers: list[Watched],
    *,
    manager: GameManager,
    game_id: str,
    phone_seat: int,
    name: str,
    lang: dict[int, str],
    opening: int = OPENING,
    near_end: int = NEAR_END,
) -> Played:
    """A whole game: its opening tapped on the pages, its middle played through the manager while every page is
    away (chromium draws nothing), the pages opened again (they show the game as it is: screenshots "mid"),
    then its end tapped on the pages until their views say the game is finished (screenshots "end")."""
    played = Played(name=name)
    assert not await tap_moves(seated, watchers, played, phone_seat=phone_seat, moves=opening)
    pages = [*seated.values(), *watchers]
    urls = await leave(pages)
    played.middle = await play_through_manager(manager, game_id, near_end=near_end)
    state = await manager.state_of(game_id)
    assert state is not None
    await come_back(pages, urls, len(state.history))
    for w in pages:  # a page opened in the middle of the game shows it as it is
        view = last_view(w)
        assert view is not None and view["version"] == len(state.history)
        assert [p["trains"] for p in view["players"]] == [p.trains for p in state.players]
    await shots(seated, watchers, "mid", phone_seat=phone_seat, name=name, lang=lang)
    # the end on the pages: the routes the middle left them, with a decision, before the others
    played.first = {r.id for r in state.board.routes if with_decision(state, r)}
    assert await tap_moves(seated, watchers, played, phone_seat=phone_seat), (
        f"{name}: no end after {MAX_MOVES}"
    )
    await shots(seated, watchers, "end", phone_seat=phone_seat, name=name, lang=lang)
    return played

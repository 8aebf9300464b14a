"""The page against the real map server (bot/web) over seeded games, in Debian's chromium: sign-in through
DiscordSDKMock, the board drawn and zoomable, a route tapped on a phone -> its payment choices -> the one tapped
posted, the other page updated live with the move highlighted, tickets kept, a spectator page with no hand; a
session that ends and a database outage met on the live socket; the keyboard; a picker across new frames.
English and French."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from browser import Watched, launch, needs_chromium, open_page, shot, tap, wait_version
from helpers.db_outage import storage_refusing
from helpers.web_site import SECRET, Site, check_frame, new_game, site

from bot.i18n import default_catalog
from bot.manager import turn_token
from bot.messages import Text
from bot.web.tokens import Tokens
from engine.actions import ClaimRoute, DrawBlind, KeepTickets
from engine.rules import legal_actions

pytestmark = needs_chromium

#: USA, this seed: once both have kept their tickets, Ann (seat 0) is to play and may pay for route 0 (2 long)
#: two ways (found by search; a long seed, so that the hidden-information check's seed fragment means something)
BOARD, SEED, TWO_WAYS = "usa", 918_273_645_509, 0
RATES = {"act_rate": 1000.0, "act_burst": 1000, "view_rate": 1000.0, "view_burst": 1000}


async def _seeded(s: Site) -> str:
    """The seeded game past its opening ticket choice (each keeps every ticket offered): Ann's turn."""
    gid = await new_game(s.manager, BOARD, seed=SEED)
    for user, seat in ((101, 0), (102, 1)):
        state = await s.manager.state_of(gid)
        assert state is not None
        keep = max(
            (a for a in legal_actions(state, seat) if isinstance(a, KeepTickets)),
            key=lambda a: len(a.tickets),
        )
        await s.manager.act(gid, user, keep, expected_turn=turn_token(state, seat))
    return gid


def _url(s: Site, code: str) -> str:
    return f"{s.client.make_url('/')}?mock_code={code}&channel=10"


def _checked(w: Watched, state: Any, seat: int | None) -> None:
    """Every frame the page received through the hidden-information check."""
    assert w.raw
    for text in w.raw:
        check_frame(text, state, seat)


async def test_tap_a_route_confirm_and_see_it_live(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        browser = await launch(pw)
        ann = await open_page(browser, _url(s, "code-ann"), phone=True)
        bob = await open_page(browser, _url(s, "code-bob"), locale="fr-FR")
        eve = await open_page(browser, _url(s, "code-eve"))
        for w in (ann, bob, eve):
            await w.page.wait_for_selector("#board svg [data-route]")
            await w.page.wait_for_selector("#splash", state="hidden")
        assert await ann.page.text_content("#status") == "Your turn"
        assert await bob.page.text_content("#status") == "En attente de ann"
        assert await eve.page.is_hidden("#hand")
        await shot(ann.page, "contract-phone-en.png")
        await shot(bob.page, "contract-desktop-fr.png")

        # (the whole board: every route in view)
        await ann.page.locator("#zoom-fit").tap()
        # A tap on a route on the phone: its two ways to pay; the one tapped posts its code.
        rid = TWO_WAYS
        await tap(ann.page, f'#board [data-route="{rid}"]', touch=True)
        await ann.page.wait_for_selector("#picker:not([hidden])")
        # (with the moves of any other route as near, at the whole-board zoom of a phone)
        choices = ann.page.locator(f'#picker button.action[data-code^="cr.{rid}."]')
        assert await choices.count() == 2
        await shot(ann.page, "contract-phone-picker-en.png")
        sent = time.perf_counter()
        await choices.first.tap()
        await bob.page.wait_for_selector(f'#board [data-route="{rid}"].hl')
        assert time.perf_counter() - sent < 1.0
        state = await s.manager.state_of(gid)
        assert state is not None and state.route_owner[rid] == 0
        assert (await s.manager.game_info(gid)).action_count == 3
        assert "ann" in (await bob.page.text_content("#last-move") or "")  # in the sheet, not over the board
        await shot(bob.page, "contract-desktop-highlight-fr.png")
        assert await bob.page.text_content("#status") == "À vous de jouer"

        # Bob draws tickets from the ticket deck (one tap: one move), then keeps two of the three offered.
        held = set(state.players[1].tickets)
        await tap(bob.page, '#market [data-deck="tickets"]', touch=False)
        await bob.page.wait_for_selector("#pending:not([hidden]) input[data-ticket]")
        offered = [
            int(x)
            for x in await bob.page.locator("input[data-ticket]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.ticket)"
            )
        ]
        assert len(offered) == 3
        await bob.page.locator(f'input[data-ticket="{offered[0]}"]').uncheck()
        await shot(bob.page, "contract-desktop-tickets-fr.png")
        await bob.page.locator('#pending button.action[data-kind="keep_tickets"]').click()
        await wait_version(ann.page, 5)
        state = await s.manager.state_of(gid)
        assert state is not None and set(state.players[1].tickets) == held | set(offered[1:])

        # A move the server refuses: its words, the picker closed, the game read again, nothing else. (Ann's
        # page hears no more frames, as if they were on their way, while she draws a card from the chat.)
        for page in [p for p in s.server.hub._games[gid].pages if p.reader.user_id == 101]:
            s.server.hub.leave(page)
        await s.manager.act(gid, 101, DrawBlind(), expected_turn=turn_token(state, 0))
        reads = sum("/view" in u for u in ann.requests)
        other = next(r for r in (2, 5, 6) if state.route_owner[r] < 0)
        await tap(ann.page, f'#board [data-route="{other}"]', touch=True)
        await ann.page.locator(f'#picker button.action[data-code^="cr.{other}."]').first.tap()
        await ann.page.wait_for_selector("#toast.error:not([hidden])")
        # (the manager's refusal as the server words it: bot.play.refusals, the chat's words)
        stale = default_catalog().render(Text("web.error.stale", {}), "en")
        assert await ann.page.text_content("#toast") == stale
        await ann.page.wait_for_selector("#picker", state="hidden")
        await wait_version(ann.page, 6)  # (the game as it is now, read again)
        assert sum("/view" in u for u in ann.requests) == reads + 1
        assert (await s.manager.game_info(gid)).action_count == 6

        # The spectator's page received views, none with a hand or tickets; no page saw a secret.
        assert eve.views() and all(v["me"] is None and v["actions"] == [] for v in eve.views())
        assert await eve.page.is_hidden("#hand") and await eve.page.is_hidden("#actions")
        final = await s.manager.state_of(gid)
        for w, seat in ((ann, 0), (bob, 1), (eve, None)):
            _checked(w, final, seat)
            # (but chromium's line for the refused move's answer)
            assert [e for e in w.errors if "409 (Conflict)" not in e] == [], w.errors
        await browser.close()


async def _scale(page: Any) -> float:
    transform = await page.evaluate("() => document.querySelector('#board').style.transform")
    return float(transform.split("scale(")[1].rstrip(")"))


async def _translate(page: Any) -> tuple[float, float]:
    transform = await page.evaluate("() => document.querySelector('#board').style.transform")
    x, y = transform.split("translate(")[1].split(")")[0].replace("px", "").split(",")
    return float(x), float(y)


async def test_wheel_drag_and_pinch_zoom_and_pan_the_board_without_tapping(db_url: str) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)  # (Ann's turn: a tap would open a picker)
        browser = await launch(pw)
        desk = await open_page(browser, _url(s, "code-ann"))
        await desk.page.wait_for_selector("#board svg [data-route]")
        page = desk.page
        fitted = await _scale(page)
        box = await page.locator("#board-wrap").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        # the wheel zooms in around the pointer
        await page.mouse.move(cx, cy)
        await page.mouse.wheel(0, -400)
        await page.wait_for_timeout(50)
        assert await _scale(page) > fitted * 1.5
        # a drag pans, and is no tap: no picker
        before = await _translate(page)
        await page.mouse.down()
        await page.mouse.move(cx - 120, cy - 60, steps=5)
        await page.mouse.up()
        after = await _translate(page)
        assert after[0] == pytest.approx(before[0] - 120, abs=2) and after[1] == pytest.approx(
            before[1] - 60, abs=2
        )
        assert await page.is_hidden("#picker")
        # the fit button shows the whole drawing (the opening view fills the frame with the map: no bands)
        await page.click("#zoom-fit")
        whole = await page.evaluate(
            """() => { const b = document.querySelector('#board').getBoundingClientRect();
                       const w = document.querySelector('#board-wrap').getBoundingClientRect();
                       return b.width <= w.width + 1 && b.height <= w.height + 1; }"""
        )
        assert whole and await _scale(page) <= fitted

        # two fingers spreading apart on a phone zoom in
        phone = await open_page(browser, _url(s, "code-bob"), phone=True)
        await phone.page.wait_for_selector("#board svg [data-route]")
        fitted = await _scale(phone.page)
        box = await phone.page.locator("#board-wrap").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = await phone.page.context.new_cdp_session(phone.page)

        def fingers(d: float) -> list[dict[str, float]]:
            return [{"x": cx - d, "y": cy, "id": 0}, {"x": cx + d, "y": cy, "id": 1}]

        await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(30)})
        for d in (45, 60, 75, 90):
            await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(d)})
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert await _scale(phone.page) == pytest.approx(fitted * 3, rel=0.1)
        assert await phone.page.is_hidden("#picker")
        # nothing was played
        assert (await s.manager.game_info(gid)).action_count == 2
        for w in (desk, phone):  # (nor the browser's warning of a non-cancelable touchend cancelled)
            assert w.errors == []
        await browser.close()


def _errors(w: Watched) -> list[str]:
    """The codes of the error frames the page's sockets received, in order."""
    return [f["error"]["code"] for f in w.frames if isinstance(f, dict) and f.get("type") == "error"]


async def _counted(page: Any, sockets: list[Any]) -> None:
    page.on("websocket", lambda ws: sockets.append(ws))


async def test_an_expired_session_on_the_live_socket_signs_in_again_once(db_url: str) -> None:
    """A page left open past its session: the socket's error is said, the page signs in again the same way
    (here DiscordSDKMock's authorize) and reconnects; refused again at once, it stops there."""
    from playwright.async_api import async_playwright

    expired = Tokens(SECRET, session_seconds=-1)  # the real signer: every session is past its lifetime
    said = default_catalog().text("web.error.session_expired", "en")
    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        browser = await launch(pw)

        # Eve's session ends between the page's first reading and its socket, and every session after it
        eve_sockets: list[Any] = []

        async def expire_after_context(page: Any) -> None:
            await _counted(page, eve_sockets)

            async def context(route: Any) -> None:
                answer = await route.fetch()
                s.server.tokens = expired
                await route.fulfill(response=answer)

            await page.route("**/api/context*", context)

        eve = await open_page(browser, _url(s, "code-eve"), before=expire_after_context)
        await eve.page.wait_for_selector("#toast.error:not([hidden])")
        assert await eve.page.text_content("#toast") == said
        await _until(lambda: len(_errors(eve)) == 2)
        await eve.page.wait_for_timeout(1500)  # a plain reconnection would come after 0.5 s, then 1 s
        assert _errors(eve) == ["session_expired"] * 2 and len(eve_sockets) == 2
        assert [p["code"] for p in s.discord.posted] == ["code-eve", "code-eve"]  # signed in again once
        await eve.page.context.close()
        s.server.tokens = s.tokens

        # Ann's page left open past its session (as if for days): told when the next frame comes, it signs in
        # again and is live again: a move made elsewhere reaches it
        ann_sockets: list[Any] = []
        ann = await open_page(browser, _url(s, "code-ann"), before=lambda page: _counted(page, ann_sockets))
        await wait_version(ann.page, 2)
        for page in s.server.hub._games[gid].pages:
            page.expires = 0.0
        state = await s.manager.state_of(gid)
        assert state is not None
        await s.manager.act(gid, 101, DrawBlind(), expected_turn=turn_token(state, 0))  # (from the chat)
        await wait_version(ann.page, 3)
        assert _errors(ann) == ["session_expired"] and len(ann_sockets) == 2
        assert [p["code"] for p in s.discord.posted][2:] == ["code-ann", "code-ann"]
        state = await s.manager.state_of(gid)
        assert state is not None
        await s.manager.act(gid, 101, DrawBlind(), expected_turn=turn_token(state, 0))
        await wait_version(ann.page, 4)
        for text in ann.raw:
            check_frame(text, state, 0)
        assert ann.errors == [], ann.errors
        await browser.close()


async def test_a_database_outage_on_the_live_socket_is_waited_out(db_url: str) -> None:
    """The server cannot reach its database: the page says so and keeps reconnecting (with its backoff) until the
    game is back, then is live again; a refusal that needs the player (a session) stops it, an outage does not."""
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        s.manager._store.retry_delays = (0.01,)
        browser = await launch(pw)
        sockets: list[Any] = []
        outage = storage_refusing(s.manager)

        async def down_after_context(page: Any) -> None:
            await _counted(page, sockets)

            async def context(route: Any) -> None:
                answer = await route.fetch()
                outage.__enter__()  # the database goes away between the page's reading and its socket
                s.manager._store.evict(gid)  # (on SQLite a cached game is read without the database)
                await route.fulfill(response=answer)

            await page.route("**/api/context*", context)

        w = await open_page(browser, _url(s, "code-ann"), before=down_after_context)
        try:
            await w.page.wait_for_selector("#toast.error:not([hidden])")
            assert await w.page.text_content("#toast") == default_catalog().text("refused.storage_down", "en")
            await _until(lambda: len(_errors(w)) == 2)
        finally:
            outage.__exit__(None, None, None)  # the database is back
        await wait_version(w.page, 2)
        assert _errors(w) == ["storage_down"] * 2 and len(sockets) == 3
        assert not await w.page.locator("#splash.failed").count()
        state = await s.manager.state_of(gid)
        assert state is not None
        await s.manager.act(gid, 101, DrawBlind(), expected_turn=turn_token(state, 0))  # (from the chat)
        await wait_version(w.page, 3)
        for text in w.raw:
            check_frame(text, state, 0)
        assert w.errors == [], w.errors
        await browser.close()


async def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    import asyncio

    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never came")


async def test_a_finger_beside_a_thin_route_on_a_phone_still_takes_it(db_url: str) -> None:
    """At the whole-board zoom a phone draws a route a few pixels wide: a tap a little beside it (on nothing)
    opens that route's choices."""
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        state = await s.manager.state_of(gid)
        assert state is not None
        claimable = sorted({a.route for a in legal_actions(state, 0) if isinstance(a, ClaimRoute)})
        browser = await launch(pw)
        w = await open_page(browser, _url(s, "code-ann"), phone=True)
        await w.page.wait_for_selector("#board svg [data-route]")
        spot = await w.page.evaluate(
            """(ids) => {
              for (const id of ids) {
                const el = document.querySelector(`#board [data-route="${id}"]`);
                const m = el.getScreenCTM(), n = el.getTotalLength();
                const p = el.getPointAtLength(n / 2), q = el.getPointAtLength(n / 2 + 1);
                const dx = (q.x - p.x) * m.a, dy = (q.y - p.y) * m.d, len = Math.hypot(dx, dy) || 1;
                const px = p.x * m.a + m.e, py = p.y * m.d + m.f;
                for (const side of [1, -1]) {
                  const x = px - side * 9 * dy / len, y = py + side * 9 * dx / len;
                  const hit = document.elementFromPoint(x, y);
                  if (hit && !hit.closest('[data-route], [data-city], button') && hit.closest('#board')) {
                    return {id, x, y};
                  }
                }
              }
              return null;
            }""",
            claimable,
        )
        assert spot is not None
        await w.page.touchscreen.tap(spot["x"], spot["y"])
        await w.page.wait_for_selector("#picker:not([hidden])")
        codes = await w.page.locator("#picker button.action").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.code)"
        )
        routes = {c.split(".")[1] for c in codes}
        assert len(routes) == 1, codes  # one route's ways to pay, of a route within a finger's reach
        reach = await w.page.evaluate(
            """([id, x, y]) => {
              let best = Infinity;
              for (const el of document.querySelectorAll(`#board [data-route="${id}"]`)) {
                const m = el.getScreenCTM(), n = el.getTotalLength();
                for (let i = 0; i <= 100; i++) {
                  const p = el.getPointAtLength((n * i) / 100);
                  best = Math.min(best, Math.hypot(p.x * m.a + m.e - x, p.y * m.d + m.f - y));
                }
              }
              return best;
            }""",
            [routes.pop(), spot["x"], spot["y"]],
        )
        assert reach <= 24 + 3
        assert w.errors == [], w.errors
        await browser.close()


async def test_the_keyboard_reaches_every_move_and_escape_closes_the_picker(db_url: str) -> None:
    """TAB goes through the page's moves (the deck, the menus), Enter makes one, ESC closes a picker; the zoom
    buttons and the menus carry words for screen readers."""
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        browser = await launch(pw)
        w = await open_page(browser, _url(s, "code-ann"))
        page = w.page
        await page.wait_for_selector("#board svg [data-route]")
        await page.wait_for_selector("#splash", state="hidden")
        assert await page.get_attribute("#zoom-in", "aria-label") == "Zoom in"
        assert await page.get_attribute("#board-wrap", "aria-label") == "The board"
        # a route's picker: its first move focused, ESC closes it and gives the focus back
        await page.locator("#zoom-fit").click()
        await tap(page, f'#board [data-route="{TWO_WAYS}"]', touch=False)
        await page.wait_for_selector("#picker:not([hidden])")
        assert await page.evaluate("() => document.activeElement.closest('#picker') !== null")
        await page.keyboard.press("Escape")
        await page.wait_for_selector("#picker", state="hidden")
        # TAB through the page until the deck: Enter draws (one move: made at once)
        reached = []
        for _ in range(60):
            await page.keyboard.press("Tab")
            what = await page.evaluate(
                "() => { const a = document.activeElement; return a.dataset.deck || a.dataset.code || a.tagName; }"
            )
            reached.append(what)
            if what == "cards":
                break
        assert reached[-1] == "cards", reached
        await page.keyboard.press("Enter")
        await wait_version(page, 3)
        state = await s.manager.state_of(gid)
        assert state is not None and state.history[-1] == (0, DrawBlind())
        assert w.errors == [], w.errors
        await browser.close()


async def test_an_open_picker_and_the_zoom_survive_new_frames_and_a_move_from_elsewhere_is_said(
    db_url: str,
) -> None:
    """A frame that still lists the picker's moves leaves the picker open, the zoom and the pan as they were;
    a frame that takes them away (a move made elsewhere) closes it saying so, in the catalogue's words."""
    from playwright.async_api import async_playwright

    async with site(db_url, **RATES) as s, async_playwright() as pw:
        gid = await _seeded(s)
        browser = await launch(pw)
        w = await open_page(browser, _url(s, "code-ann"), phone=True)
        page = w.page
        await page.wait_for_selector("#board svg [data-route]")
        await page.wait_for_selector("#splash", state="hidden")
        await page.locator("#zoom-fit").tap()
        await tap(page, f'#board [data-route="{TWO_WAYS}"]', touch=True)
        await page.wait_for_selector("#picker:not([hidden])")
        where = await page.evaluate("() => document.querySelector('#board').style.transform")
        codes = await page.locator("#picker button.action").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.code)"
        )
        # a new frame, the same moves listed: the host turns the colour-blind marks off (no move)
        frames = len(w.views())
        await s.manager.update_settings(gid, 101, {"colorblind": False})
        for _ in range(250):
            if len(w.views()) > frames:
                break
            await page.wait_for_timeout(20)
        assert len(w.views()) > frames
        await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert await page.is_visible("#picker")
        assert (
            await page.locator("#picker button.action").evaluate_all("(bs) => bs.map((b) => b.dataset.code)")
            == codes
        )
        assert await page.evaluate("() => document.querySelector('#board').style.transform") == where
        # the move made from the chat (a blind draw: no claim this turn now)
        state = await s.manager.state_of(gid)
        assert state is not None
        await s.manager.act(gid, 101, DrawBlind(), expected_turn=turn_token(state, 0))
        await wait_version(page, 3)
        await page.wait_for_selector("#picker", state="hidden")
        assert await page.text_content("#toast") == default_catalog().text("web.ui.choice_gone", "en")
        assert await page.evaluate("() => document.querySelector('#board').style.transform") == where
        state = await s.manager.state_of(gid)
        for text in w.raw:
            check_frame(text, state, 0)
        assert w.errors == [], w.errors
        await browser.close()

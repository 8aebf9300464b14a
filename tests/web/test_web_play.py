"""Whole games played through the API only, by always sending one of the codes the view listed (random picks),
while a page of each player and a spectator's page are open: every response and every pushed frame passes the
hidden-information check against the state at that moment, and each move reaches every page."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from helpers.web_site import Site, check_frame, new_game, site

from bot.manager.events import final_sheets
from bot.web.view import seat_of

USERS = (101, 102)
SPECTATOR = 103


async def _frame(ws: ClientWebSocketResponse) -> dict[str, Any]:
    msg = await asyncio.wait_for(ws.receive_str(), 5)
    return json.loads(msg)


async def _open(s: Site, gid: str, user: int, locale: str) -> ClientWebSocketResponse:
    ws = await s.client.ws_connect(f"/api/games/{gid}/live")
    await ws.send_str(json.dumps({"type": "hello", "session": s.session(user, locale=locale)}))
    first = await _frame(ws)
    assert first["type"] == "view"
    return ws


def _pick(view: dict[str, Any], rng: random.Random, played: set[str]) -> dict[str, Any]:
    """A random listed action, one of a kind not played yet when there is one (most times)."""
    new = [a for a in view["actions"] if a["kind"] not in played]
    chosen = rng.choice(new if new and rng.random() < 0.8 else view["actions"])
    body: dict[str, Any] = {"code": chosen["code"], "version": view["version"]}
    if chosen["kind"] == "keep_tickets":
        ids = [t["id"] for t in chosen["offered"]]
        body["tickets"] = rng.sample(ids, rng.randint(chosen["min"], chosen["max"]))
    return body


async def _play_whole_game(s: Site, gid: str, seed: int) -> tuple[set[str], set[str]]:
    """Play to the end; (kinds played, kinds ever listed)."""
    rng = random.Random(seed)
    locales = {101: "en", 102: "fr", SPECTATOR: "en"}
    pages = {u: await _open(s, gid, u, locales[u]) for u in (*USERS, SPECTATOR)}
    kinds: set[str] = set()
    listed: set[str] = set()
    for _ in range(3000):
        state = await s.manager.state_of(gid)
        info = await s.manager.game_info(gid)
        assert state is not None
        if state.finished:
            break
        views = {}
        for user in USERS:
            resp = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user, locales[user]))
            text = await resp.text()
            check_frame(text, state, seat_of(info, user))
            views[user] = json.loads(text)
        listed.update(a["kind"] for v in views.values() for a in v["actions"])
        user = rng.choice([u for u in USERS if views[u]["actions"]])
        body = _pick(views[user], rng, kinds)
        kinds.add(next(a["kind"] for a in views[user]["actions"] if a["code"] == body["code"]))
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user, locales[user]))
        text = await resp.text()
        assert resp.status == 200, text
        after = await s.manager.state_of(gid)
        assert after is not None and len(after.history) == len(state.history) + 1
        check_frame(text, after, seat_of(info, user))
        for reader, ws in pages.items():  # the move reached every page, and each frame hides what it must
            while True:
                frame = await _frame(ws)
                check_frame(json.dumps(frame), after, seat_of(info, reader))
                if frame["view"]["version"] == len(after.history):
                    break
            assert frame["view"]["move"]["line"]
    else:
        pytest.fail("the game did not end")
    for ws in pages.values():
        await ws.close()
    return kinds, listed


@pytest.mark.slow
async def test_a_whole_game_of_italy_through_the_api(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000, view_rate=1000.0, view_burst=1000) as s:
        gid = await new_game(s.manager, "italy")
        kinds, listed = await _play_whole_game(s, gid, 1)
        assert kinds == listed  # every kind of action the game offered was played through the API
        assert {"keep_tickets", "claim_route", "draw_blind", "draw_face_up", "draw_tickets"} <= kinds
        assert (await s.manager.game_info(gid)).status.value == "finished"
        # once over, each player's score on the page is the final one (tickets and bonuses), as on the board
        state = await s.manager.state_of(gid)
        assert state is not None
        finals = {f.seat: f.total for f in final_sheets(state)}
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(SPECTATOR))).json()
        assert {p["seat"]: p["score"] for p in view["players"]} == finals
        # and the ranking is the engine's (its tie-breaks), which the page shows as given
        assert {p["seat"]: p["rank"] for p in view["players"]} == {
            f.seat: f.rank for f in final_sheets(state)
        }


@pytest.mark.slow
async def test_a_whole_game_of_europe_with_warehouses_through_the_api(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000, view_rate=1000.0, view_burst=1000) as s:
        gid = await new_game(s.manager, "europe", options=("warehouses",))
        kinds, listed = await _play_whole_game(s, gid, 5)
        assert kinds == listed
        assert {
            "keep_tickets",
            "claim_route",
            "place_depot",
            "build_station",
            "pay_tunnel",
            "decline_tunnel",
            "take_warehouses",
        } <= kinds
        assert (await s.manager.game_info(gid)).status.value == "finished"

"""Every refusal of the API is a clear error in the reader's language, and leaves the game exactly as it was."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from helpers.web_site import Site, check_frame, new_game, site

from bot.manager import GameManager


async def _fingerprint(manager: GameManager, gid: str) -> tuple[Any, ...]:
    info = await manager.game_info(gid)
    state = await manager.state_of(gid)
    assert state is not None
    return info.action_count, len(state.history), json.dumps(state.to_dict(), sort_keys=True)


async def _to_play(s: Site, gid: str) -> tuple[int, int, dict[str, Any]]:
    """Past the ticket choice: (user whose turn it is, the other user, the player's view)."""
    for user in (101, 102):
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))).json()
        keep = view["pending"]["choices"][0]
        body = {
            "code": keep["code"],
            "version": view["version"],
            "tickets": [t["id"] for t in keep["offered"]],
        }
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user))
        assert resp.status == 200, await resp.text()
    info = await s.manager.game_info(gid)
    current = info.seats[info.to_act[0]].user_id
    assert current is not None
    other = 102 if current == 101 else 101
    view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(current))).json()
    return current, other, view


async def _refused(s: Site, gid: str, resp: Any, status: int, code: str, before: tuple[Any, ...]) -> dict:
    text = await resp.text()
    assert resp.status == status, text
    body = json.loads(text)
    assert body["ok"] is False and body["error"]["code"] == code and body["error"]["text"]
    assert not body["error"]["text"].startswith("web.error")  # a catalogue sentence, not its key
    # the map's own words, not the chat's (it has no buttons nor messages to point at)
    assert "button" not in body["error"]["text"] and "message" not in body["error"]["text"]
    check_frame(text, await s.manager.state_of(gid), None)
    assert await _fingerprint(s.manager, gid) == before
    return body


async def test_out_of_turn_another_seat_and_a_spectator_are_refused(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        current, other, view = await _to_play(s, gid)
        before = await _fingerprint(s.manager, gid)
        code = view["actions"][0]["code"]  # a code listed to the player whose turn it is
        body = {"code": code, "version": view["version"]}
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(other, "fr"))
        refused = await _refused(s, gid, resp, 403, "not_your_turn", before)
        # the engine's reason, in the reader's words, as the chat says it (whose turn it is)
        info = await s.manager.game_info(gid)
        name = info.seats[info.to_act[0]].name
        assert refused["error"]["text"] == f"Ce n'est pas votre tour : c'est celui de {name}."
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(103))
        await _refused(s, gid, resp, 403, "not_seated", before)
        other_view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(other))).json()
        assert other_view["actions"] == []


async def test_stale_version_illegal_and_unknown_codes_are_refused(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000) as s:
        gid = await new_game(s.manager)
        current, _other, view = await _to_play(s, gid)
        before = await _fingerprint(s.manager, gid)
        code = view["actions"][0]["code"]
        url = f"/api/games/{gid}/act"
        resp = await s.client.post(
            url, json={"code": code, "version": view["version"] - 1}, headers=s.auth(current)
        )
        await _refused(s, gid, resp, 409, "stale", before)
        resp = await s.client.post(url, json={"code": code, "version": 10**9}, headers=s.auth(current))
        await _refused(s, gid, resp, 409, "stale", before)
        # a well-formed code the view did not list (a route nobody can pay for with this hand: 99 locomotives)
        listed = {a["code"] for a in view["actions"]}
        claim = next(a for a in view["actions"] if a["kind"] == "claim_route")
        head, route, *_ = claim["code"].split(".")
        forged = f"{head}.{route}.0.99.0.0"
        assert forged not in listed
        resp = await s.client.post(
            url, json={"code": forged, "version": view["version"]}, headers=s.auth(current)
        )
        await _refused(s, gid, resp, 400, "illegal", before)
        for junk in ("zz.1.2", "", "cr", "../../etc", "x" * 199):
            resp = await s.client.post(
                url, json={"code": junk, "version": view["version"]}, headers=s.auth(current)
            )
            await _refused(s, gid, resp, 400, "bad_code", before)
        resp = await s.client.post(url, json={"code": code}, headers=s.auth(current))
        await _refused(s, gid, resp, 400, "bad_request", before)


async def test_malformed_json_huge_bodies_and_bad_keeps_are_refused(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000) as s:
        gid = await new_game(s.manager)
        before = await _fingerprint(s.manager, gid)
        url = f"/api/games/{gid}/act"
        headers = {**s.auth(101), "Content-Type": "application/json"}
        for raw in (b"{", b"[1,2]", b"null", b'{"code": 1, "version": "x"}', b"\xff\xfe"):
            resp = await s.client.post(url, data=raw, headers=headers)
            await _refused(s, gid, resp, 400, "bad_request", before)
        resp = await s.client.post(url, data=b'{"code":"' + b"a" * 100_000 + b'"}', headers=headers)
        await _refused(s, gid, resp, 413, "too_big", before)
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))).json()
        keep = view["pending"]["choices"][0]
        for tickets in ([], [999_999], "all", [True]):
            body = {"code": keep["code"], "version": view["version"], "tickets": tickets}
            resp = await s.client.post(url, json=body, headers=s.auth(101))
            assert resp.status == 400
            assert await _fingerprint(s.manager, gid) == before


async def test_actions_per_second_are_limited_per_user(db_url: str) -> None:
    async with site(db_url, act_rate=0.001, act_burst=3) as s:
        gid = await new_game(s.manager)
        before = await _fingerprint(s.manager, gid)
        url = f"/api/games/{gid}/act"
        statuses = []
        for _ in range(5):
            resp = await s.client.post(url, json={"code": "zz", "version": 0}, headers=s.auth(101))
            statuses.append(resp.status)
        assert statuses == [400, 400, 400, 429, 429]
        resp = await s.client.post(url, json={"code": "zz", "version": 0}, headers=s.auth(101, "fr"))
        body = await _refused(s, gid, resp, 429, "rate", before)
        assert body["error"]["text"].startswith("Trop d'actions")
        resp = await s.client.post(url, json={"code": "zz", "version": 0}, headers=s.auth(102))
        assert resp.status == 400  # another user has their own allowance


async def test_a_websocket_flood_and_a_forged_hello_are_answered_and_closed(
    db_url: str,
) -> None:
    async with site(db_url, ws_rate=0.001, ws_burst=5) as s:
        gid = await new_game(s.manager)
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": s.session(101)[:-3] + "abc"}))
        frame = json.loads(await ws.receive_str())
        assert frame["type"] == "error" and frame["error"]["code"] == "session"
        assert (await ws.receive()).type.name in ("CLOSE", "CLOSED", "CLOSING")
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": s.session(101)}))
        assert json.loads(await ws.receive_str())["type"] == "view"
        for _ in range(10):
            await ws.send_str('{"type":"ping"}')
        frames = []
        while True:
            msg = await ws.receive()
            if msg.type.name != "TEXT":
                break
            frames.append(json.loads(msg.data))
        assert (
            frames[-1] == {"type": "error", "error": frames[-1]["error"]}
            and frames[-1]["error"]["code"] == "flood"
        )
        for _ in range(100):  # the server's side of the socket ends just after the client saw it close
            if s.server.hub.pages(gid) == 0:
                break
            await asyncio.sleep(0.01)
        assert s.server.hub.pages(gid) == 0
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_bytes(b"\x00" * 10)
        assert json.loads(await ws.receive_str())["error"]["code"] == "bad_request"

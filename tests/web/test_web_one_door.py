"""The manager is the web's one door: a page's move goes to `GameManager.act` with the version the page showed,
and the manager's refusal is the page's, worded as the chat words it; the live hub words a move from the events
the manager's change notice carried (it applies no move a second time); the acting page gets one view per act."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest
from helpers.web_site import Site, new_game, site

import engine.rules
from bot.i18n import default_catalog
from bot.messages import Text


async def _page(s: Site, gid: str, user: int, locale: str = "en") -> Any:
    ws = await s.client.ws_connect(f"/api/games/{gid}/live")
    await ws.send_str(json.dumps({"type": "hello", "session": s.session(user, locale=locale)}))
    assert json.loads(await ws.receive_str())["type"] == "view"
    return ws


async def _past_tickets(s: Site, gid: str) -> None:
    for user in (101, 102):
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))).json()
        keep = view["pending"]["choices"][0]
        body = {
            "code": keep["code"],
            "version": view["version"],
            "tickets": [t["id"] for t in keep["offered"]],
        }
        assert (await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user))).status == 200


async def _turn(s: Site, gid: str) -> tuple[int, dict[str, Any]]:
    info = await s.manager.game_info(gid)
    user = info.seats[info.to_act[0]].user_id
    assert user is not None
    return user, await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user, "fr"))).json()


async def test_a_stale_version_is_refused_by_the_manager_in_its_words(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000) as s:
        gid = await new_game(s.manager)
        await _past_tickets(s, gid)
        user, view = await _turn(s, gid)
        draw = next(a for a in view["actions"] if a["kind"] == "draw_blind")
        seen: list[dict[str, Any]] = []
        act = s.manager.act

        async def spy(*args: Any, **kwargs: Any) -> Any:
            seen.append(kwargs)
            return await act(*args, **kwargs)

        s.manager.act = spy  # type: ignore[method-assign]
        body = {"code": draw["code"], "version": view["version"] - 1}
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user, "fr"))
        assert resp.status == 409
        error = (await resp.json())["error"]
        # the manager decided (the web checked nothing itself), and its refusal reads in the map's own words
        assert seen and seen[0]["expected_version"] == view["version"] - 1
        assert error["code"] == "stale"
        assert error["text"] == default_catalog().render(Text("web.error.stale", {}), "fr")
        # the same move at the version the page shows is played
        body = {"code": draw["code"], "version": view["version"]}
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user, "fr"))
        assert resp.status == 200
        assert (await resp.json()) == {"ok": True, "version": view["version"] + 1}


async def test_an_illegal_move_carries_the_engines_reason(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000) as s:
        gid = await new_game(s.manager)
        await _past_tickets(s, gid)
        user, view = await _turn(s, gid)
        claim = next(a for a in view["actions"] if a["kind"] == "claim_route")
        head, route, *_ = claim["code"].split(".")
        body = {"code": f"{head}.{route}.0.99.0.0", "version": view["version"]}  # 99 locomotives: not in hand
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user, "fr"))
        assert resp.status == 400
        error = (await resp.json())["error"]
        assert error["code"] == "illegal"
        generic = default_catalog().text("web.error.illegal", "fr")
        assert error["text"] and error["text"] != generic  # the engine's reason, not a bare "not possible"
        assert "illegal." not in error["text"] and "refused." not in error["text"]


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every application of a move by the engine, wherever the function was imported."""
    original, calls = engine.rules.apply, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "apply", None) is original:
            monkeypatch.setattr(module, "apply", counted)
    return calls


async def test_a_page_move_is_applied_once_and_its_page_gets_one_view(
    db_url: str, applies: list[int]
) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000) as s:
        gid = await new_game(s.manager)
        await _past_tickets(s, gid)
        user, view = await _turn(s, gid)
        other = 102 if user == 101 else 101
        mine, theirs = await _page(s, gid, user), await _page(s, gid, other)
        draw = next(a for a in view["actions"] if a["kind"] == "draw_blind")
        applies.clear()
        body = {"code": draw["code"], "version": view["version"]}
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user))
        reply = await resp.json()
        assert "view" not in reply  # the answer carries no view: the socket brings it
        for ws in (mine, theirs):
            frame = json.loads(await asyncio.wait_for(ws.receive_str(), 5))
            assert frame["view"]["version"] == reply["version"]
            assert frame["view"]["move"]["line"]  # worded from the notice's events
        await asyncio.sleep(0.2)
        with pytest.raises(asyncio.TimeoutError):  # one view per move, not two
            await asyncio.wait_for(mine.receive_str(), 0.3)
        assert len(applies) == 1  # the manager's commit; the hub replayed nothing
        for ws in (mine, theirs):
            await ws.close()

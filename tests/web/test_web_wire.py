"""Light on the wire: the board's drawing is fetched at its own URL (cached for good under the URL that names
it), a move's frame carries only what changed (median at most 8 KB), and JSON and SVG answers are compressed."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
from typing import Any

from helpers.web_site import Site, check_frame, merge_frame, new_game, site

from bot.web.view import seat_of

#: The median size of a move's frame, at most (bytes).
MOVE_FRAME_MEDIAN = 8 * 1024


async def _page(s: Site, gid: str, user: int, locale: str) -> tuple[Any, dict[str, Any]]:
    ws = await s.client.ws_connect(f"/api/games/{gid}/live")
    await ws.send_str(json.dumps({"type": "hello", "session": s.session(user, locale=locale)}))
    first = json.loads(await ws.receive_str())
    return ws, first["view"]


async def play_and_measure(s: Site, gid: str, moves: int, seed: int = 7) -> dict[int, list[int]]:
    """Play `moves` random listed moves over the API with both players' pages and a watcher's open; each page's
    move frame sizes (bytes), after checking each merges into a view equal to the one read over HTTP."""
    rng = random.Random(seed)
    readers = {101: "en", 102: "fr", 103: "en"}
    pages = {u: await _page(s, gid, u, loc) for u, loc in readers.items()}
    views = {u: v for u, (_ws, v) in pages.items()}
    sizes: dict[int, list[int]] = {u: [] for u in readers}
    for _ in range(moves):
        info = await s.manager.game_info(gid)
        if info.status.value != "active":
            break
        user = next(u for u in (101, 102) if views[u]["actions"])
        chosen = rng.choice(views[user]["actions"])
        body: dict[str, Any] = {"code": chosen["code"], "version": views[user]["version"]}
        if chosen["kind"] == "keep_tickets":
            body["tickets"] = [t["id"] for t in chosen["offered"]][: chosen["max"]]
        resp = await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(user, readers[user]))
        assert resp.status == 200, await resp.text()
        version = (await resp.json())["version"]
        state = await s.manager.state_of(gid)
        for reader, (ws, _first) in pages.items():
            while views[reader]["version"] < version:
                text = await asyncio.wait_for(ws.receive_str(), 10)
                check_frame(text, state, seat_of(info, reader))
                sizes[reader].append(len(text.encode()))
                views[reader] = merge_frame(views[reader], json.loads(text)["view"])
    for reader, (ws, _first) in pages.items():  # the merged frames are the whole view
        http = await (
            await s.client.get(f"/api/games/{gid}/view", headers=s.auth(reader, readers[reader]))
        ).json()
        assert views[reader] | {"move": None} == http | {"move": None}
        await ws.close()
    return sizes


async def test_move_frames_carry_only_what_changed(db_url: str) -> None:
    async with site(db_url, act_rate=1000.0, act_burst=1000, view_rate=1000.0, view_burst=1000) as s:
        gid = await new_game(s.manager, "usa")
        sizes = await play_and_measure(s, gid, 40)
        every = [n for per_page in sizes.values() for n in per_page]
        assert len(every) >= 60
        assert statistics.median(every) <= MOVE_FRAME_MEDIAN, sorted(every)
        for per_page in sizes.values():
            assert max(per_page) < 64 * 1024  # no frame carries the drawing


async def test_the_drawing_has_its_own_cached_url_and_answers_are_compressed(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        resp = await s.client.get(
            f"/api/games/{gid}/view", headers={**s.auth(101), "Accept-Encoding": "gzip"}
        )
        assert resp.headers.get("Content-Encoding") == "gzip"
        view = await resp.json()
        # no drawing in the view (but the seats' small colour-blind marks): the base is at its own URL
        assert "svg" not in view and 'data-route="' not in json.dumps(view)
        assert "<svg" not in json.dumps({k: v for k, v in view.items() if k != "marks"})
        url = "/" + view["drawing"]
        resp = await s.client.get(url, headers={**s.auth(101), "Accept-Encoding": "gzip"})
        assert resp.status == 200 and resp.headers["Content-Encoding"] == "gzip"
        assert resp.content_type == "image/svg+xml" and (await resp.text()).startswith("<svg")
        assert "immutable" in resp.headers["Cache-Control"]
        etag = resp.headers["ETag"]
        again = await s.client.get(url, headers={**s.auth(101), "If-None-Match": etag})
        assert again.status == 304
        # a URL that does not name today's drawing gets it, but not to be kept
        old = await s.client.get(url.split("&v=")[0] + "&v=0000", headers=s.auth(101))
        assert old.status == 200 and "immutable" not in old.headers["Cache-Control"]
        # the drawing is as public as the view: a signed-out reader gets none
        assert (await s.client.get(url)).status == 401
        # the live socket's frames are not deflated (`api_live`): a page's deflate context outweighs its frames
        ws = await s.client.ws_connect(f"/api/games/{gid}/live", compress=15)
        await ws.send_str(json.dumps({"type": "hello", "session": s.session(101)}))
        await ws.receive_str()
        assert ws.compress == 0
        await ws.close()

"""The database down, on the live map (issue 28): every route that needs the games answers 503 with the
protocol's error shape and the chat's words ("cannot be reached right now; nothing was changed"), the live
socket says so in its error frame, never "no such game" (404) nor "no game here"; the page and its texts still
load; the host reads one ERROR line for the whole outage, a WARNING when it ends.

On PostgreSQL reached through a proxy the test cuts (connections reset, new ones refused), and on SQLite with
the repository raising what the SQLite store raises for a file it cannot open (``StorageDown``)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers.db_outage import PostgresProxy, host_errors, proxied_postgres, storage_refusing
from helpers.web_site import Site, new_game, site

from bot.i18n import default_catalog
from bot.web.tokens import Link

DOWN = default_catalog().text("refused.storage_down", "en")


@pytest.fixture(params=["postgres", "sqlite"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[PostgresProxy | None]:
    if request.param == "sqlite":
        yield None
        return
    async with proxied_postgres() as proxy:
        yield proxy


@asynccontextmanager
async def outage(backend: PostgresProxy | None, s: Site) -> AsyncIterator[None]:
    if backend is None:
        with storage_refusing(s.manager):
            yield
        return
    await backend.cut()
    try:
        yield
    finally:
        await backend.restore()


async def _down(resp: Any) -> None:
    text = await resp.text()
    assert resp.status == 503, (resp.url, resp.status, text)
    body = json.loads(text)
    assert body == {"ok": False, "error": {"code": "storage_down", "text": DOWN}}, body


async def test_every_route_answers_503_while_the_database_is_down(
    backend: PostgresProxy | None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = backend.url if backend is not None else f"sqlite:///{tmp_path / 'games.db'}"
    async with site(url) as s:
        gid = await new_game(s.manager)
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))).json()
        keep = view["pending"]["choices"][0]
        act = {
            "code": keep["code"],
            "version": view["version"],
            "tickets": [t["id"] for t in keep["offered"]],
        }
        link = s.tokens.link(Link(101, gid))
        before = await s.manager.repository.load_game(gid)
        s.manager._store.evict(gid)  # (on SQLite a cached game is read without the database)
        s.manager._store.retry_delays = (0.01,)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            async with outage(backend, s):
                await _down(await s.client.get("/api/context?channel=10", headers=s.auth(101)))
                await _down(await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101)))
                await _down(await s.client.get(f"/api/games/{gid}/view", headers=s.auth(103)))  # a spectator
                await _down(await s.client.get(f"/api/games/{gid}/ticket_map", headers=s.auth(101)))
                await _down(await s.client.post(f"/api/games/{gid}/act", json=act, headers=s.auth(101)))
                await _down(await s.client.post("/api/session", json={"link": link}))
                ws = await s.client.ws_connect(f"/api/games/{gid}/live")
                await ws.send_str(json.dumps({"type": "hello", "session": s.session(102)}))
                frame = await ws.receive_json(timeout=10)
                assert frame == {"type": "error", "error": {"code": "storage_down", "text": DOWN}}, frame
                await ws.close()
                # what needs no game still works: the page's texts, the Discord sign-in
                assert (await s.client.get("/api/config")).status == 200
                assert (await s.client.post("/api/session", json={"code": "code-ann"})).status == 200
                errors = host_errors(caplog)
                assert len(errors) == 1, errors
                assert "cannot be reached" in errors[0] and "[traceback]" not in errors[0]
            resp = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))  # back
            assert resp.status == 200, await resp.text()
        assert len(host_errors(caplog)) == 1
        (back,) = [r for r in caplog.records if "works again" in r.getMessage()]
        assert back.levelno == logging.WARNING
        after = await s.manager.repository.load_game(gid)
        assert (after.version, after.snapshot) == (before.version, before.snapshot)

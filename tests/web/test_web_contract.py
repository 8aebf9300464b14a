"""One contract: the view's and frames' shapes are declared once (bot/web/contract.py), the page's TypeScript
types are generated from them (web/src/contract.ts, checked in: regenerated here and compared), and what the
server sends has exactly the declared fields."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

from helpers.web_site import new_game, site

from bot.web import contract

ROOT = Path(__file__).resolve().parents[2]


def test_the_pages_types_are_generated_from_the_contract() -> None:
    checked_in = (ROOT / "web" / "src" / "contract.ts").read_text(encoding="utf-8")
    assert checked_in == contract.typescript(), (
        "web/src/contract.ts is not up to date: python -m bot.web.contract > web/src/contract.ts"
    )


def _holds(value: Any, hint: Any, where: str, partial: bool = False) -> None:
    """`value` has the declared shape `hint` (every required field unless `partial`, no undeclared one,
    recursively)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        _holds(value, args[0], where, contract.PARTIAL in args[1:])
    elif origin is typing.NotRequired:
        _holds(value, args[0], where)
    elif origin in (typing.Union, __import__("types").UnionType):
        errors = []
        for arg in args:
            try:
                _holds(value, arg, where)
                return
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {hint}: {errors}")
    elif origin is typing.Literal:
        assert value in args, f"{where}: {value!r}"
    elif origin is list:
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            _holds(item, args[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict) and all(isinstance(v, str) for v in value.values()), where
    elif hint is type(None):
        assert value is None, where
    elif hint is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), where
    elif hint in (int, str, bool):
        assert isinstance(value, hint) and (hint is bool or not isinstance(value, bool)), (
            f"{where}: {value!r}"
        )
    else:  # a TypedDict
        hints = typing.get_type_hints(hint, include_extras=True)
        assert isinstance(value, dict), where
        assert set(value) <= set(hints), f"{where}: undeclared {set(value) - set(hints)}"
        missing = hint.__required_keys__ - set(value)
        assert partial or not missing, f"{where}: missing {missing}"
        for key, item in value.items():
            _holds(item, hints[key], f"{where}.{key}")


async def test_the_views_and_frames_sent_have_the_declared_shape(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager, "europe")
        for user in (101, 103):  # a player choosing tickets, a watcher
            view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))).json()
            _holds(view, contract.View, "view")
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": s.session(101)}))
        _holds(json.loads(await ws.receive_str()), contract.ViewFrame, "frame")
        keep = view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(101))).json()
        keep = view["pending"]["choices"][0]
        body = {
            "code": keep["code"],
            "version": view["version"],
            "tickets": [t["id"] for t in keep["offered"]],
        }
        answer = await (await s.client.post(f"/api/games/{gid}/act", json=body, headers=s.auth(101))).json()
        _holds(answer, contract.Acted, "act")
        frame = json.loads(await ws.receive_str())
        assert set(frame["view"]) < set(contract.View.__required_keys__)  # only what changed
        _holds(frame, contract.ViewFrame, "frame")
        await ws.send_str(json.dumps({"type": "ping"}))
        _holds(json.loads(await ws.receive_str()), contract.PongFrame, "pong")
        await ws.close()


async def test_the_config_and_session_answers_have_the_declared_shape(db_url: str) -> None:
    from bot.web.tokens import Link

    async with site(db_url) as s:
        gid = await new_game(s.manager)
        _holds(await (await s.client.get("/api/config?locale=fr")).json(), contract.Config, "config")
        linked = await (
            await s.client.post("/api/session", json={"link": s.tokens.link(Link(101, gid))})
        ).json()
        _holds(linked, contract.Session, "session")
        assert "view" in linked and "access_token" not in linked
        coded = await (await s.client.post("/api/session", json={"code": "code-bob"})).json()
        _holds(coded, contract.Session, "session")
        assert "access_token" in coded and "view" not in coded  # (no bot token: the game found by channel)

"""Bad input: deeply nested JSON is a 400 in the reader's words (not a 500 and a traceback), ids are Discord
snowflakes in ASCII digits, and nothing from a request reaches a log line raw."""

from __future__ import annotations

import json
import logging

import pytest
from helpers.web_site import new_game, site

from bot.web.inputs import nesting, read_json, snowflake

DEEP = "[" * 5000 + "]" * 5000


def test_nesting_is_measured_before_parsing() -> None:
    assert nesting('{"a": [1, {"b": "[[[[["}]}') == 3  # brackets inside strings do not count
    assert nesting('"\\"[["') == 0
    with pytest.raises(ValueError):
        read_json(DEEP)
    with pytest.raises(ValueError):
        read_json(b"\xff")
    assert read_json('{"code": "x", "tickets": [1, 2]}') == {"code": "x", "tickets": [1, 2]}


def test_snowflakes_are_ascii_digits() -> None:
    assert snowflake("123456789012345678") == 123456789012345678
    for wrong in ("１２３", "¹²", "١٢٣", "12a", "", " 12", "-5", "1" * 21, str(2**63)):
        assert snowflake(wrong) is None, wrong


async def test_deeply_nested_json_is_a_400_in_the_readers_words(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        for url, headers in (
            ("/api/session", {"Accept-Language": "fr"}),  # no sign-in needed to send it
            (f"/api/games/{gid}/act", s.auth(101, "fr")),
        ):
            resp = await s.client.post(
                url, data=DEEP, headers={**headers, "Content-Type": "application/json"}
            )
            body = await resp.json()
            assert resp.status == 400 and body["error"]["code"] == "bad_request", body
            assert body["error"]["text"] and not body["error"]["text"].startswith("web.error")
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str('{"type": "hello", "session": ' + "[" * 2000 + "]" * 2000 + "}")
        frame = json.loads(await ws.receive_str())
        assert frame["type"] == "error" and frame["error"]["code"] == "bad_request"
        await ws.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_channel_id_in_other_digits_names_no_channel(db_url: str) -> None:
    async with site(db_url) as s:
        await new_game(s.manager)  # in channel 10
        for channel in ("１０", "%EF%BC%91%EF%BC%90", "10%0A", "1" * 30):
            resp = await s.client.get(f"/api/context?channel={channel}", headers=s.auth(103))
            assert resp.status == 404 and (await resp.json())["error"]["code"] == "no_game_here", channel


async def test_a_newline_in_a_path_never_reaches_a_log_line(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with site(db_url) as s:
        await new_game(s.manager)
        forged = "x%0AERROR%20forged%20line"
        for path in (
            f"/api/games/{forged}/view",
            f"/api/games/{forged}/ticket_map",
            f"/api/games/{forged}/act",
        ):
            method = s.client.post if path.endswith("act") else s.client.get
            resp = await method(path, json={"code": "a", "version": 0}, headers=s.auth(101))
            assert resp.status == 404 and (await resp.json())["error"]["code"] == "no_game"
    for record in caplog.records:
        assert "\nERROR forged" not in record.getMessage()

"""The live map from the chat, in SimCord (issue 21), with the web server started by the bot itself (WEB_PORT,
PUBLIC_URL, WEB_SECRET; no client id, so no Activity): the turn message's Map button and "Open the map in your
browser" in My hand answer with the caller's personal link, privately; the link opens that game as that player
on the running server. (SimCord refuses the LAUNCH_ACTIVITY answer, which tests/bot/test_wire_map.py checks.)"""

from __future__ import annotations

import re
import socket

import aiohttp
import pytest
from helpers.simcord_driver import (
    Seen,
    follow_menu,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
    public_messages,
)

from bot import Settings

SECRET = "e2e-live-map-secret-" + "z" * 32


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT = _free_port()


@pytest.fixture
def bot_settings(tmp_path) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'ttr.db'}",
        lobby_threads=False,
        render_workers=1,
        web_port=PORT,
        public_url=f"http://127.0.0.1:{PORT}",
        web_secret=SECRET,
    )


def _link(message) -> str:  # type: ignore[no-untyped-def]
    found = re.search(r"http://127\.0\.0\.1:\d+/\?link=(\S+)", message_text(message))
    assert found, message_text(message)
    return found.group(1)


async def test_the_map_button_and_my_hand_send_a_personal_link_that_opens_the_game(
    simcord_env, world, french_users
):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    french_users.add(bob.id)  # bob's Discord speaks French: his link, and the map it opens, too
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    for m in (alice, bob):
        await follow_menu(m, await m.click(setup, label="Choose tickets"), Seen())
    turn = last_public(channel)
    shown = await bob.click(turn, label="Map")
    assert is_ephemeral(shown.response)
    assert "ne le partagez pas" in message_text(shown.response)
    link = _link(shown.response)
    hand = await alice.slash(channel, "ttr hand")
    from_hand = await alice.click(hand.response, label="Open the map in your browser")
    assert is_ephemeral(from_hand.response)
    alice_link = _link(from_hand.response)
    assert alice_link != link
    async with aiohttp.ClientSession(f"http://127.0.0.1:{PORT}") as http:
        for token, seat in ((link, 1), (alice_link, 0)):
            async with http.post("/api/session", json={"link": token}) as resp:
                body = await resp.json()
            assert body["game_id"] == gid
            headers = {"Authorization": f"Bearer {body['session']}"}
            async with http.get(f"/api/games/{gid}/view", headers=headers) as resp:
                view = await resp.json()
            assert view["me"]["seat"] == seat
            assert view["locale"] == ("fr" if seat == 1 else "en-US")
            assert view["texts"]["web.ui.hand"] == ("Vos cartes" if seat == 1 else "Your cards")
            assert SECRET not in str(view)
    # a spectator has a link of their own (to watch); no seat, no hand
    watching = await carol.click(turn, label="Map")
    async with aiohttp.ClientSession(f"http://127.0.0.1:{PORT}") as http:
        async with http.post("/api/session", json={"link": _link(watching.response)}) as resp:
            body = await resp.json()
        async with http.get(
            f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {body['session']}"}
        ) as resp:
            view = await resp.json()
    assert view["me"] is None and view["actions"] == []


async def test_a_move_made_on_the_page_is_told_in_the_chat(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    for m in (alice, bob):
        await follow_menu(m, await m.click(setup, label="Choose tickets"), Seen())
    before = len(public_messages(channel))
    links = {}
    for member in (alice, bob):
        links[member] = _link((await member.click(last_public(channel), label="Map")).response)
    async with aiohttp.ClientSession(f"http://127.0.0.1:{PORT}") as http:
        for member in (alice, bob):
            async with http.post("/api/session", json={"link": links[member]}) as resp:
                headers = {"Authorization": f"Bearer {(await resp.json())['session']}"}
            async with http.get(f"/api/games/{gid}/view", headers=headers) as resp:
                view = await resp.json()
            tickets = [a for a in view["actions"] if a["kind"] == "draw_tickets"]
            if tickets:
                body = {"code": tickets[0]["code"], "version": view["version"]}
                async with http.post(f"/api/games/{gid}/act", json=body, headers=headers) as resp:
                    assert resp.status == 200 and (await resp.json())["ok"]
                async with http.get(f"/api/games/{gid}/view", headers=headers) as resp:  # (act answers ok)
                    view = await resp.json()
                keep = view["pending"]["choices"][0]
                body = {
                    "code": keep["code"],
                    "version": view["version"],
                    "tickets": [keep["offered"][0]["id"]],
                }
                async with http.post(f"/api/games/{gid}/act", json=body, headers=headers) as resp:
                    assert resp.status == 200, await resp.text()
                break
    await simcord_env.settle()
    told = public_messages(channel)[before:]
    assert told and "ticket" in message_text(told[-1]).lower()

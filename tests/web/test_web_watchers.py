"""Who may watch: the public view is for the game's players and the members of its server (asked through the
`Membership` port, never a discord import), a personal link is for its game only; the Server header names no
version and an HTTP/0.9 request is refused."""

from __future__ import annotations

import asyncio
import json

from helpers.web_raw import raw_socket
from helpers.web_site import new_game, site

from bot.web.members import Members

asked: list[tuple[int, int]] = []


async def only_bob_and_eve(guild_id: int, user_id: int) -> bool | None:
    """Server 1 has members 102 (a player) and 103 (a watcher); 104 is in no server of ours; 105 cannot be told."""
    asked.append((guild_id, user_id))
    if user_id == 105:
        return None
    return guild_id == 1 and user_id in (102, 103)


async def test_only_members_of_the_games_server_may_watch(db_url: str) -> None:
    async with site(db_url, membership=only_bob_and_eve) as s:
        gid = await new_game(s.manager)  # in server 1; players 101 and 102
        url = f"/api/games/{gid}/view"
        for user, status in ((101, 200), (103, 200), (104, 403), (105, 503)):
            resp = await s.client.get(url, headers=s.auth(user, "fr"))
            assert resp.status == status, (user, await resp.text())
        body = await (await s.client.get(url, headers=s.auth(104, "fr"))).json()
        assert body["error"]["code"] == "not_member" and "membres du serveur" in body["error"]["text"]
        assert (1, 101) not in asked  # a seated player is never asked about
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        await ws.send_str(json.dumps({"type": "hello", "session": s.session(104)}))
        frame = json.loads(await ws.receive_str())
        assert frame["type"] == "error" and frame["error"]["code"] == "not_member"
        await ws.close()
        assert s.server.hub.pages(gid) == 0


async def test_without_a_membership_port_only_the_players_watch(db_url: str) -> None:
    async with site(db_url, membership=None) as s:  # as under `ttr web` alone: no gateway to ask
        gid = await new_game(s.manager)
        assert (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(102))).status == 200
        resp = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(103))
        assert resp.status == 403 and (await resp.json())["error"]["code"] == "not_member"


async def test_membership_answers_are_kept_a_while() -> None:
    calls: list[int] = []
    now = [0.0]

    async def member(guild_id: int, user_id: int) -> bool | None:
        calls.append(user_id)
        return user_id != 9

    members = Members(member, keep=60.0, keep_refused=5.0, clock=lambda: now[0])
    assert await members.is_member(1, 8) and await members.is_member(1, 8)
    assert not await members.is_member(1, 9) and not await members.is_member(1, 9)
    assert calls == [8, 9]
    now[0] = 10.0
    await members.is_member(1, 8)
    await members.is_member(1, 9)
    assert calls == [8, 9, 9]  # a refusal is asked again sooner (someone who just joined the server)
    assert await members.is_member(None, 8) is False  # a game of no server: players only


async def test_a_personal_link_looks_up_its_own_game_only(db_url: str) -> None:
    async with site(db_url) as s:
        mine = await new_game(s.manager)  # channel 10
        info = await s.manager.create_game(
            guild_id=1, channel_id=20, host_id=103, host_name="eve", board="italy"
        )
        link_session = {"Authorization": f"Bearer {s.session(101, game=mine)}"}
        resp = await s.client.get("/api/context?channel=10", headers=link_session)
        assert (await resp.json()) == {"game_id": mine}
        resp = await s.client.get("/api/context?channel=20", headers=link_session)
        assert resp.status == 403 and (await resp.json())["error"]["code"] == "other_game"
        assert info.game_id not in await resp.text()


async def test_the_server_header_names_no_version(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        for path in ("/", "/api/config", "/nowhere", f"/api/games/{gid}/view"):
            resp = await s.client.get(path, headers=s.auth(101))
            server = resp.headers.get("Server", "")
            assert "aiohttp" not in server and "Python" not in server and not any(c.isdigit() for c in server)
        ws = await s.client.ws_connect(f"/api/games/{gid}/live")
        assert "aiohttp" not in ws._response.headers.get("Server", "")
        await ws.close()


async def _raw(port: int, request: bytes) -> bytes:
    sock = await raw_socket(port)
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, request)
    answer = b""
    try:
        while chunk := await asyncio.wait_for(loop.sock_recv(sock, 65536), 3.0):
            answer += chunk
    except TimeoutError:
        pass
    sock.close()
    return answer


async def test_an_http_0_9_request_is_refused(db_url: str) -> None:
    async with site(db_url) as s:
        port = s.client.server.port
        assert port is not None
        ok = await _raw(port, b"GET /api/config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert b" 200 " in ok.split(b"\r\n")[0] and b"client_id" in ok
        for request in (b"GET /api/config\r\n\r\n", b"GET /api/config HTTP/0.9\r\n\r\n"):
            answer = await _raw(port, request)
            assert b" 200 " not in answer.split(b"\r\n")[0] and b"client_id" not in answer, answer[:200]

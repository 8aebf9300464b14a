"""Sign-in through a fake Discord OAuth2 server, personal links, and the view each reader gets."""

from __future__ import annotations

import json

from helpers.web_site import CLIENT_SECRET, SECRET, check_frame, new_game, site

from bot.web.tokens import Link, Tokens


async def test_sign_in_with_a_good_code_gives_a_session_of_that_user(db_url: str) -> None:
    async with site(db_url) as s:
        resp = await s.client.post("/api/session", json={"code": "code-bob"})
        assert resp.status == 200
        body = await resp.json()
        assert body["user"] == {"id": "102", "name": "bob", "locale": "fr"}
        assert body["access_token"] == "access-token-for-code-bob"  # for the SDK's authenticate()
        assert s.tokens.read_session(body["session"]).user_id == 102
        # the server sent Discord the client id and secret, and the code
        assert s.discord.posted[-1]["client_id"] == "4242" and s.discord.posted[-1]["code"] == "code-bob"
        assert s.discord.posted[-1]["client_secret"] == CLIENT_SECRET


async def test_sign_in_with_a_bad_code_is_refused_in_the_readers_language(db_url: str) -> None:
    async with site(db_url) as s:
        resp = await s.client.post("/api/session", json={"code": "stolen"}, headers={"Accept-Language": "fr"})
        assert resp.status == 401
        body = await resp.json()
        assert body["ok"] is False and body["error"]["code"] == "signin"
        assert "Discord n'a pas permis" in body["error"]["text"]
        text = json.dumps(body)
        assert CLIENT_SECRET not in text and "stolen" not in text


async def test_config_gives_the_client_id_never_the_secret(db_url: str) -> None:
    async with site(db_url) as s:
        resp = await s.client.get("/api/config")
        text = await resp.text()
        assert json.loads(text)["client_id"] == "4242"
        assert CLIENT_SECRET not in text and SECRET not in text
        assert "frame-ancestors" in resp.headers["Content-Security-Policy"]
        assert resp.headers["Referrer-Policy"] == "no-referrer"


async def test_config_carries_the_pages_first_words_in_the_browsers_language(db_url: str) -> None:
    async with site(db_url) as s:
        # a French browser says "fr-FR": the words before any view (loading, a failed sign-in) come in French
        body = await (await s.client.get("/api/config", headers={"Accept-Language": "fr-FR,fr;q=0.9"})).json()
        assert body["texts"]["web.ui.signin_failed"] == "La carte n'a pas pu s'ouvrir."
        assert body["texts"]["web.ui.confirm"] == "Confirmer"
        body = await (await s.client.get("/api/config?locale=en-US")).json()
        assert body["texts"]["web.ui.confirm"] == "Confirm"
        # and a refusal before sign-in speaks the browser's language too
        resp = await s.client.post(
            "/api/session", json={"code": "stolen"}, headers={"Accept-Language": "fr-FR"}
        )
        assert "Discord n'a pas permis" in (await resp.json())["error"]["text"]


async def test_context_finds_the_game_of_the_channel(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        resp = await s.client.get("/api/context?channel=10", headers=s.auth(103))
        assert (await resp.json()) == {"game_id": gid}
        resp = await s.client.get("/api/context?channel=99", headers=s.auth(103))
        assert resp.status == 404 and (await resp.json())["error"]["code"] == "no_game_here"


async def test_each_reader_sees_their_own_hand_only(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        state = await s.manager.state_of(gid)
        assert state is not None
        for user, seat in ((101, 0), (102, 1), (103, None)):
            resp = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user))
            text = await resp.text()
            check_frame(text, state, seat, session=s.session(user))
            view = json.loads(text)
            drawing = await s.client.get("/" + view["drawing"], headers=s.auth(user))
            svg = await drawing.text()
            check_frame(json.dumps({"svg": svg}), state, seat)
            assert svg.startswith("<svg") and 'data-route="' in svg and 'data-city="' in svg
            assert [p["name"] for p in view["players"]] == ["ann", "bob"]
            if seat is None:
                assert view["me"] is None and view["actions"] == []
                continue
            hand = {c["color"]: c["count"] for c in view["me"]["hand"]}
            own = {
                k: v
                for k, v in __import__("engine.views", fromlist=["x"]).player_view(state, seat).hand.items()
            }
            assert hand == own
            # setup: each seat chooses its tickets, offered to it alone
            assert view["pending"]["kind"] == "ticket_choice"
            keep = view["pending"]["choices"][0]
            assert keep["kind"] == "keep_tickets" and len(keep["offered"]) >= 2


async def test_a_personal_link_opens_that_game_as_that_user_only(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        link = s.tokens.link(Link(102, gid))
        resp = await s.client.post("/api/session", json={"link": link})
        body = await resp.json()
        assert body["game_id"] == gid and body["user"]["id"] == "102"
        headers = {"Authorization": f"Bearer {body['session']}"}
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=headers)).json()
        assert view["me"]["seat"] == 1
        other = await s.client.get("/api/games/zzzz/view", headers=headers)
        assert other.status == 403 and (await other.json())["error"]["code"] == "other_game"


async def test_forged_and_expired_links_and_sessions_are_refused(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        link = s.tokens.link(Link(102, gid))
        forged = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
        resp = await s.client.post("/api/session", json={"link": forged})
        assert resp.status == 401 and (await resp.json())["error"]["code"] == "link"
        other_key = Tokens("another-secret-" + "y" * 40).link(Link(102, gid))
        resp = await s.client.post("/api/session", json={"link": other_key})
        assert (await resp.json())["error"]["code"] == "link"
        expired = Tokens(SECRET, link_seconds=-1, session_seconds=-1)
        s.server.tokens = expired
        resp = await s.client.post("/api/session", json={"link": link})
        assert (await resp.json())["error"]["code"] == "link_expired"
        session = s.session(101)
        resp = await s.client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {session}"})
        assert resp.status == 401 and (await resp.json())["error"]["code"] == "session_expired"
        s.server.tokens = s.tokens
        resp = await s.client.get(
            f"/api/games/{gid}/view", headers={"Authorization": "Bearer " + session[:-2]}
        )
        assert resp.status == 401 and (await resp.json())["error"]["code"] == "session"
        # a link is not a session, nor a session a link (different salts)
        resp = await s.client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {link}"})
        assert resp.status == 401
        resp = await s.client.post("/api/session", json={"link": session})
        assert resp.status == 401


async def test_the_ticket_map_goes_to_its_owner_only(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        state = await s.manager.state_of(gid)
        resp = await s.client.get(f"/api/games/{gid}/ticket_map", headers=s.auth(102))
        assert resp.status == 200 and resp.content_type == "image/svg+xml"
        assert (await resp.text()).startswith("<svg")
        for user in (103,):  # a spectator has no ticket map (and a player only ever gets their own seat's)
            resp = await s.client.get(f"/api/games/{gid}/ticket_map", headers=s.auth(user))
            assert resp.status == 403 and (await resp.json())["error"]["code"] == "not_seated"
        view = await (await s.client.get(f"/api/games/{gid}/view", headers=s.auth(102))).json()
        assert view["me"]["ticket_map"] == f"api/games/{gid}/ticket_map" and view["move"] is None
        assert view["map_box"][2] > 0 and view["map_box"][3] > 0
        assert state is not None
        # each is a whole board drawn: a few, then the reader is asked to wait
        statuses = [
            (await s.client.get(f"/api/games/{gid}/ticket_map", headers=s.auth(102))).status for _ in range(5)
        ]
        assert statuses[:2] == [200, 200] and statuses[-1] == 429


async def test_sign_ins_are_limited_per_address_behind_a_local_proxy(db_url: str) -> None:
    async with site(db_url, signin_rate=0.001, signin_burst=2, trusted_proxies=("127.0.0.1",)) as s:
        first = {"X-Forwarded-For": "203.0.113.7"}
        statuses = [
            (await s.client.post("/api/session", json={"code": "code-ann"}, headers=first)).status
            for _ in range(3)
        ]
        assert statuses == [200, 200, 429]
        other = {"X-Forwarded-For": "198.51.100.2"}
        assert (await s.client.post("/api/session", json={"code": "code-ann"}, headers=other)).status == 200
        assert len(s.discord.posted) == 3  # the refused one never reached Discord


async def test_the_sessions_answer_brings_the_readers_first_view_when_they_may_read_it(db_url: str) -> None:
    async def only_players(guild_id: int, user_id: int) -> bool | None:
        return False

    async with site(db_url, membership=only_players) as s:
        gid = await new_game(s.manager)  # players 101 and 102
        body = await (
            await s.client.post("/api/session", json={"link": s.tokens.link(Link(102, gid))})
        ).json()
        headers = {"Authorization": f"Bearer {body['session']}"}
        read = await (await s.client.get(f"/api/games/{gid}/view", headers=headers)).json()
        assert body["view"] == read and body["view"]["me"]["seat"] == 1  # their own hand, as the view's route
        # a link to a game its user may not read (no seat, not a member): the session, without a view
        body = await (
            await s.client.post("/api/session", json={"link": s.tokens.link(Link(104, gid))})
        ).json()
        assert body["session"] and body["game_id"] == gid and "view" not in body

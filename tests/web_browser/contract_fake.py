"""A stand-in for the live-map server that speaks bot/web/PROTOCOL.md with a scripted game, so the page's own
behaviour (sign-in paths, taps, pending choices, live pushes, highlights) is tested on its own; the whole games
run against the real server (test_live_map_games.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.web.view import texts as ui_texts

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"

# the page's words: the catalogue's, as the real server sends them (bot/web/view.py)
TEXTS = {lang: ui_texts(lang) for lang in ("en", "fr")}


def sample_svg() -> tuple[str, list[float]]:
    """An Italy board drawn by render/ with its touch targets, and the map's box inside the drawing."""
    from engine.rules import new_game
    from render.board_svg import render_board_svg
    from render.from_engine import board_view
    from render.layout import layout_of

    state = new_game("italy", 2, seed=1)
    lay = layout_of(state.board)
    return render_board_svg(state.board, board_view(state), hit_areas=True), [0, 0, lay.map_w, lay.map_h]


class FakeGame:
    """Two seated users (codes 'code-a', 'code-b') and anyone else watching (code 'code-w')."""

    USERS = {
        "code-a": ("1001", "Ann", "en"),
        "code-b": ("1002", "Bob", "fr"),
        "code-w": ("1003", "Wes", "en"),
        "code-x": ("1009", "Xia", "en"),  # the live socket says the session expired
        "code-y": ("1010", "Yan", "en"),  # ... the first time only
        "code-z": ("1011", "Zed", "en"),  # the live socket says the database is down, twice, then works
    }

    def __init__(self) -> None:
        self.svg, self.map_box = sample_svg()
        self.version = 1
        self.turn = 0  # seat to act
        self.acts: list[dict[str, Any]] = []
        self.sockets: list[tuple[web.WebSocketResponse, str]] = []
        self.hellos: list[str] = []
        self.refuse: set[str] = set()  # codes answered 400 illegal
        self.views_read = 0
        self.sign_ins: list[str] = []
        self.move: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.pending_tickets = False
        self.routes = list(dict.fromkeys(int(x) for x in re.findall(r'data-route="(\d+)"', self.svg)))

    def seat_of(self, user: str) -> int | None:
        return {"1001": 0, "1002": 1}.get(user)

    def view(self, user: str, locale: str) -> dict[str, Any]:
        seat = self.seat_of(user)
        v: dict[str, Any] = {
            "game_id": "g1", "version": self.version, "status": "playing",
            "board": {"id": "italy", "name": "Italia"}, "locale": locale, "drawing": "api/games/g1/board.svg?v=1", "map_box": self.map_box,
            "players": [
                {"seat": 0, "name": "Ann", "color": "red", "trains": 30, "cards": 4, "tickets": 2, "score": 3 * len(self.acts), "is_turn": self.turn == 0},
                {"seat": 1, "name": "Bob", "color": "blue", "trains": 30, "cards": 4, "tickets": 2, "score": 0, "is_turn": self.turn == 1},
            ],
            "face_up": [{"index": i, "color": c, "label": c} for i, c in enumerate(["red", "green", "locomotive", "white", "black"])],
            "deck": {"cards": 70, "tickets": 20},
            "log": self.log, "texts": TEXTS[locale], "move": self.move,
            "me": None, "actions": [], "pending": None,
        }  # fmt: skip
        if seat is None:
            return v
        v["me"] = {
            "seat": seat,
            "hand": [
                {"color": "red", "label": "red", "count": 3},
                {"color": "locomotive", "label": "loco", "count": 1},
            ],
            "tickets": [
                {
                    "id": 5 + seat,
                    "label": f"Roma – Milano {seat}",
                    "cities": [24, 15],
                    "points": 9,
                    "done": False,
                }
            ],
        }
        if seat != self.turn:
            return v
        if self.pending_tickets:
            v["pending"] = {
                "kind": "ticket_choice", "label": "Choose your tickets",
                "choices": [{"code": "kt.", "kind": "keep_tickets", "label": "Keep", "min": 1, "max": 3,
                             "offered": [{"id": 11, "label": "Torino – Bari", "cities": [30, 2], "points": 12},
                                         {"id": 12, "label": "Genova – Roma", "cities": [11, 24], "points": 8},
                                         {"id": 13, "label": "Napoli – Venezia", "cities": [16, 32], "points": 10}]}],
            }  # fmt: skip
            v["actions"] = v["pending"]["choices"]
            return v
        acts = []
        for rid in self.routes[:6]:
            for pay in ("red", "locomotive"):
                acts.append({"code": f"cr.{rid}.{pay}", "kind": "claim_route", "label": f"route {rid}",
                             "payment": f"2 {pay}", "route": rid, "group": "claim"})  # fmt: skip
        for i in range(5):
            acts.append(
                {
                    "code": f"df.{i}",
                    "kind": "draw_face_up",
                    "label": f"card {i}",
                    "slot": i,
                    "group": "draw",
                }
            )
        acts.append({"code": "db.n", "kind": "draw_blind", "label": "deck", "group": "draw"})
        acts.append(
            {
                "code": "dt.",
                "kind": "draw_tickets",
                "label": "tickets",
                "group": "tickets",
            }
        )
        v["actions"] = acts
        return v

    async def apply(self, code: str, body: dict[str, Any]) -> None:
        self.acts.append({"code": code, **body})
        self.version += 1
        routes = [int(code.split(".")[1])] if code.startswith("cr.") else []
        if code == "dt.":
            self.pending_tickets = True
        else:
            self.pending_tickets = False
            self.turn = 1 - self.turn
        self.move = {"line": f"move {len(self.acts)}: {code}", "seat": 0, "routes": routes, "cities": []}
        self.log.append(self.move)
        await self.push()

    async def push(self) -> None:
        for ws, user in list(self.sockets):
            locale = "fr" if user == "1002" else "en"
            await ws.send_str(json.dumps({"type": "view", "view": self.view(user, locale)}))


def make_app(game: FakeGame) -> web.Application:
    sessions: dict[str, str] = {}

    def user_of(request: web.Request) -> str:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if token not in sessions:
            raise web.HTTPUnauthorized(text=json.dumps({"ok": False, "error": {"code": "session", "text": "no"}}),
                                       content_type="application/json")  # fmt: skip
        return sessions[token]

    async def index(_: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def config(_: web.Request) -> web.Response:
        return web.json_response({"client_id": "42", "locale_default": "en"})

    async def session(request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("code") not in game.USERS:
            return web.json_response(
                {"ok": False, "error": {"code": "signin", "text": "bad code"}}, status=401
            )
        uid, name, locale = game.USERS[body["code"]]
        game.sign_ins.append(uid)
        token = f"s{random.getrandbits(64):x}"
        sessions[token] = uid
        return web.json_response(
            {"session": token, "access_token": "t", "user": {"id": uid, "name": name, "locale": locale}}
        )

    async def context(request: web.Request) -> web.Response:
        user_of(request)
        return web.json_response({"game_id": "g1"})

    async def view(request: web.Request) -> web.Response:
        uid = user_of(request)
        game.views_read += 1
        return web.json_response(game.view(uid, "fr" if uid == "1002" else "en"))

    async def act(request: web.Request) -> web.Response:
        uid = user_of(request)
        body = await request.json()
        if body["code"] in game.refuse:
            error = {"code": "illegal", "text": "That move is not possible now."}
            return web.json_response({"ok": False, "error": error}, status=400)
        if game.seat_of(uid) != game.turn:
            return web.json_response(
                {"ok": False, "error": {"code": "turn", "text": "not your turn"}}, status=409
            )
        await game.apply(body["code"], {k: v for k, v in body.items() if k != "code"})
        return web.json_response({"ok": True, "version": game.version})

    async def live(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        hello = json.loads((await ws.receive()).data)
        uid = sessions.get(hello.get("session", ""))
        game.hellos.append(str(uid))
        if uid == "1009" or (uid == "1010" and game.hellos.count("1010") == 1):
            error = {"code": "session_expired", "text": "Your session has expired. Open the map again."}
            await ws.send_str(json.dumps({"type": "error", "error": error}))
            await ws.close()
            return ws
        if uid == "1011" and game.hellos.count("1011") <= 2:
            error = {
                "code": "storage_down",
                "text": "The game cannot be reached right now; nothing was changed.",
            }
            await ws.send_str(json.dumps({"type": "error", "error": error}))
            await ws.close()
            return ws
        if uid is None:
            await ws.send_str(json.dumps({"type": "error", "error": {"code": "session", "text": "no"}}))
            await ws.close()
            return ws
        game.sockets.append((ws, uid))
        await ws.send_str(
            json.dumps({"type": "view", "view": game.view(uid, "fr" if uid == "1002" else "en")})
        )
        async for _ in ws:
            pass
        game.sockets.remove((ws, uid))
        return ws

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_static("/assets", STATIC / "assets")
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/session", session)
    app.router.add_get("/api/context", context)
    app.router.add_get("/api/games/{gid}/view", view)
    app.router.add_post("/api/games/{gid}/act", act)
    app.router.add_get(
        "/api/games/{gid}/board.svg", lambda _r: web.Response(text=game.svg, content_type="image/svg+xml")
    )
    app.router.add_get("/api/games/{gid}/live", live)
    return app

"""Shared pieces of the live map's tests: the map server over a manager on an SQLite file, signing in against
the fake Discord (`helpers.fake_discord`, its OAuth2 part), and the hidden-information check every response and
frame goes through."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.manager import GameManager, GameStatus, ManualClock, random_action, turn_token
from bot.play.final import final_board
from bot.play.pictures import Pictures
from bot.storage import open_repository
from bot.web.app import MapServer, WebConfig
from bot.web.members import Membership
from bot.web.moments import FinalBoard, Moments, moment_routes, moments_of
from bot.web.tokens import SessionUser, Tokens
from engine.actions import Action, ClaimRoute, DrawBlind
from engine.rules import legal_actions
from engine.state import GameState
from helpers.fake_discord import ACCESS_PREFIX, CLIENT_SECRET, FakeDiscord
from helpers.hidden import hidden_from
from maps import CARD_NAMES

SECRET = "test-secret-" + "x" * 40


async def random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    return random_action(state, seat, rng)


@dataclass
class Site:
    manager: GameManager
    server: MapServer
    client: TestClient
    discord: FakeDiscord
    tokens: Tokens
    moments: Moments | None = None  # (with `final_pictures`: the final scores' Share, bot/web/moments.py)

    def session(self, user_id: int, name: str = "", locale: str = "en", game: str = "") -> str:
        return self.tokens.session(SessionUser(user_id, name or str(user_id), locale, game))

    def auth(self, user_id: int, locale: str = "en") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.session(user_id, locale=locale)}"}


async def everyone(guild_id: int, user_id: int) -> bool | None:
    """The tests' membership: every user is a member of every server (the live map's `Membership` port)."""
    return True


@asynccontextmanager
async def site(
    db_url: str,
    *,
    manager: GameManager | None = None,
    tokens: Tokens | None = None,
    membership: Membership | None = everyone,
    final_pictures: Pictures | None = None,
    **config: Any,
) -> AsyncIterator[Site]:
    async with FakeDiscord() as discord:  # its OAuth2 part: the sign-in
        repo = None
        if manager is None:
            repo = open_repository(db_url, clock=ManualClock().now)
            await repo.connect()
            manager = GameManager(repo, ai=random_ai, retry_delays=(0.01,))
            await manager.start(dispatcher=False)
        tokens = tokens or Tokens(SECRET)
        cfg = WebConfig(client_id="4242", client_secret=CLIENT_SECRET, discord_api=discord.api_url, **config)
        server = MapServer(manager, tokens, cfg, membership=membership)
        app = server.app()
        moments = None
        if final_pictures is not None:  # (the final scores' Share: the final board by these pictures)
            moments = moments_of(server, final_board_drawer(manager, final_pictures))
            app.add_routes(moment_routes(server, moments))
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            yield Site(manager, server, client, discord, tokens, moments)
        finally:
            await client.close()
            if repo is not None:
                await manager.close()
                await repo.close()


async def new_game(
    manager: GameManager,
    board: str = "italy",
    *,
    seed: int = 918_273_645_501,
    options: tuple[str, ...] = (),
    ai: int = 0,
) -> str:
    info = await manager.create_game(
        guild_id=1, channel_id=10, host_id=101, host_name="ann", board=board, options=options
    )
    await manager.join(info.game_id, 102, "bob")
    for _ in range(ai):
        await manager.add_ai(info.game_id, 101, "easy")
    await manager.start_game(info.game_id, 101, seed=seed)
    return info.game_id


async def finish_game(manager: GameManager, game_id: str) -> int:
    """The game played to its end through the manager (the longest claim, else a blind draw, else the first
    choice of a decision); how many moves."""
    for n in range(3000):
        state = await manager.state_of(game_id)
        assert state is not None
        if state.finished:
            return n
        info = await manager.game_info(game_id)
        seat = info.to_act[0]
        user = info.seats[seat].user_id
        assert user is not None
        legal = legal_actions(state, seat)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        move: Action
        if claims:
            move = max(claims, key=lambda a: state.board.routes[a.route].length)
        else:
            move = next((a for a in legal if isinstance(a, DrawBlind)), legal[0])
        await manager.act(game_id, user, move, expected_turn=turn_token(state, seat))
    raise AssertionError("no end after 3000 moves")


def final_board_drawer(manager: GameManager, pictures: Pictures) -> FinalBoard:
    """A finished game's final board by `pictures` (the tests' FastPictures: the Activity's Share)."""

    async def draw(game_id: str) -> bytes | None:
        info = await manager.game_info(game_id)
        state = await manager.state_of(game_id)
        if state is None or info.status != GameStatus.FINISHED:
            return None
        return await final_board(info, state, pictures)

    return draw


def secrets_of(state: GameState, reader_seat: int | None) -> list[str]:
    """Fragments that must never reach `reader_seat`'s page: what `hidden_from` hides, as the JSON would spell it
    (the seed's key and value; each ticket's label with its points)."""
    hidden = hidden_from(state, reader_seat)
    return ['"seed"', str(hidden.seed)] + [
        f'"label":"{t.a} – {t.b}","points":{t.points}' for t in hidden.tickets
    ]


def merge_frame(view: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """A live frame's fields merged into the view a page holds, as the page merges them: a first frame is the
    whole view; a later one's `pieces` are those added or changed, null for each one gone."""
    if "game_id" in frame:
        return dict(frame)
    pieces = dict(view.get("pieces") or {})
    for pid, svg in (frame.get("pieces") or {}).items():
        if svg is None:
            pieces.pop(pid, None)
        else:
            pieces[pid] = svg
    return {**view, **frame, "pieces": pieces}


def check_frame(text: str, state: GameState | None, reader_seat: int | None, *, session: str = "") -> None:
    """The hidden-information check of one response or frame read by `reader_seat` (None: a spectator)."""
    data = json.loads(text)
    assert CLIENT_SECRET not in text and SECRET not in text
    if session:
        assert session not in text
    assert ACCESS_PREFIX not in text or '"access_token"' in text  # only sign-in hands the SDK its token
    if state is not None:
        # the fragments are spelt compact and in UTF-8, as the pushed frames are; a response may be spaced or
        # escaped (aiohttp's json_response), so the check reads the same data spelt that way
        compact = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        for fragment in secrets_of(state, reader_seat):
            assert fragment not in compact, f"{fragment!r} leaked to seat {reader_seat}"
    view = data.get("view", data) if isinstance(data, dict) else {}
    if isinstance(view, dict) and "version" in view:  # a view, or a frame of the fields that changed
        for key in ("deck_order", "deck_cards", "seed", "hands"):
            assert key not in view
        if "me" in view:
            me = view["me"]
            assert me is None if reader_seat is None else me is not None and me["seat"] == reader_seat
        if reader_seat is None:
            assert view.get("actions", []) == [] and view.get("pending") is None
        if "deck" in view:
            assert set(view["deck"]) == {"cards", "tickets"}
            assert all(isinstance(v, int) for v in view["deck"].values())
        for p in view.get("players", ()):
            # (`user`: the seat's Discord id, public: the chat names who sits where)
            keys = {
                "seat",
                "name",
                "color",
                "trains",
                "cards",
                "tickets",
                "score",
                "rank",
                "is_turn",
                "ai",
                "user",
                "breakdown",
            }
            assert set(p) <= keys
            # (what made each score, tickets with it, only once the game is over)
            if view.get("status") not in (None, "finished"):
                assert not p.get("breakdown"), p


def hand_words(state: GameState, seat: int) -> list[str]:
    return [CARD_NAMES[c] for c, n in enumerate(state.players[seat].hand) if n]

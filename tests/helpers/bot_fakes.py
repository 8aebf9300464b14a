"""An in-memory GameService for adapter tests: records every call and answers with fixed replies."""

from __future__ import annotations

import asyncio
import base64
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.messages import Text
from bot.play.contract import Caller
from bot.play.press import Press, PressCode
from bot.play.reply import (
    ButtonSpec,
    Choice,
    EmbedSpec,
    FieldSpec,
    FileSpec,
    GameError,
    OptionSpec,
    Reply,
    SelectSpec,
)

# A 1x1 transparent PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


@dataclass
class Call:
    method: str
    guild_id: int | None
    channel_id: int | None
    user_id: int | None
    kwargs: dict[str, Any] = field(default_factory=dict)


class FakeGameService:
    """Games are ids mapped to their guild; replies are canned but shaped like the real ones."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.guilds: dict[str, int] = {}  # game id -> guild id
        self.players: dict[str, list[int]] = {}
        self.delay = 0.0  # seconds every game call sleeps (to exercise deferring)
        self.started = 0
        self.messenger: Any = None
        self.closed = 0
        self.joined: list[
            tuple[str, int | None]
        ] = []  # the heartbeat rows asked for (shards as shown, count)
        self._ids = itertools.count(1)

    # lifecycle -------------------------------------------------------------
    async def start(self, messenger: Any) -> None:
        self.started += 1
        self.messenger = messenger

    async def finish_posts(self, timeout: float) -> bool:
        return True

    async def join_cluster(self, *, shard_ids: str, shard_count: int | None) -> None:
        self.joined.append((shard_ids, shard_count))

    async def close(self) -> None:
        self.closed += 1

    # helpers ---------------------------------------------------------------
    async def _record(self, method: str, caller: Caller, **kw: Any) -> None:
        # what the calls carried before `Caller` existed, so the tests still read it from the same place
        if method in ("new_game", "press"):
            kw.setdefault("user_name", caller.name)
        if method in ("press", "settings", "kick", "end", "replace"):
            kw.setdefault("moderator", caller.moderator)
        self.calls.append(Call(method, caller.guild_id, caller.channel_id, caller.user_id, kw))
        if self.delay:
            await asyncio.sleep(self.delay)

    def add_game(self, guild_id: int) -> str:
        game_id = f"g{next(self._ids)}"
        self.guilds[game_id] = guild_id
        self.players[game_id] = []
        return game_id

    def _current(self, guild_id: int | None, game_id: str | None) -> str:
        if game_id:
            return game_id
        for gid, guild in self.guilds.items():
            if guild == guild_id:
                return gid
        raise GameError(Text("fake.no_game"))

    @staticmethod
    def lobby_rows(game_id: str) -> tuple[tuple[ButtonSpec, ...], ...]:
        return (
            (
                ButtonSpec(game_id, PressCode.JOIN, "Join", style="success"),
                ButtonSpec(game_id, PressCode.START, "Start", style="primary"),
                ButtonSpec(game_id, PressCode.HAND, "My hand"),
            ),
        )

    # game commands -----------------------------------------------------------
    async def new_game(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("new_game", caller, **kw)
        game_id = self.add_game(caller.guild_id or 0)
        self.players[game_id].append(caller.user_id)
        return Reply(
            content=f"New {kw['board_id']} game `{game_id}` opened by <@{caller.user_id}>.",
            embeds=(EmbedSpec(title="Lobby", fields=(FieldSpec("Players", f"<@{caller.user_id}>"),)),),
            rows=self.lobby_rows(game_id),
        )

    async def press(self, caller: Caller, press: Press) -> Reply:
        game_id, user_id, action = press.game_id, caller.user_id, press.code
        if game_id not in self.guilds:  # (the real service's one check of a press's place)
            raise GameError(Text("button.game_gone"))
        if self.guilds[game_id] != caller.guild_id:
            raise GameError(Text("button.other_server"))
        values = tuple("~".join(c) for c in press.choices)
        await self._record(
            "press",
            caller,
            game_id=game_id,
            action=str(action),
            token=press.token,
            args=press.args,
            values=values,
        )
        if action == PressCode.JOIN:
            self.players[game_id].append(user_id)
            players = ", ".join(f"<@{p}>" for p in self.players[game_id])
            return Reply(
                content=f"Lobby `{game_id}`: {players}", rows=self.lobby_rows(game_id), edit_source=True
            )
        if action == PressCode.HAND:
            return Reply(
                content=f"Hand of <@{user_id}> in `{game_id}`",
                ephemeral=True,
                rows=(
                    (
                        SelectSpec(
                            game_id,
                            PressCode.KEEP,
                            options=(
                                OptionSpec("Paris–Wien (8)", token="k", args=("t1",)),
                                OptionSpec("Roma–Berlin (9)", token="k", args=("t2",)),
                            ),
                            max_values=2,
                        ),
                    ),
                ),
            )
        if action == PressCode.KEEP:
            # replaces the private hand message the select sits on
            return Reply(content=f"Kept {', '.join(values)}", ephemeral=True, edit_source=True)
        if press.token == "boom":
            raise RuntimeError("fake failure in press")
        return Reply(content=f"{action} {press.token or ''}".strip(), ephemeral=True)

    async def claim(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("claim", caller, **kw)
        game_id = self._current(caller.guild_id, kw.get("game_id"))
        return Reply(
            content=f"Claim {kw['route']} with {kw.get('color') or 'any colour'}?",
            ephemeral=True,
            rows=((ButtonSpec(game_id, PressCode.DO, "Confirm", token="r12", style="success"),),),
        )

    async def hand(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("hand", caller, **kw)
        return Reply(content=Text("fake.hand", {"user": f"<@{caller.user_id}>"}), ephemeral=True)

    async def map(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("map", caller, **kw)
        return Reply(activity=True)

    async def board(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("board", caller, **kw)
        return Reply(
            embeds=(EmbedSpec(title="Board", image="board.png"),),
            files=(FileSpec("board.png", PNG, description="The board"),),
        )

    async def status(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("status", caller, **kw)
        return Reply(content="Status: nobody's turn")

    async def log(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("log", caller, **kw)
        return Reply(content=f"last {kw['limit']} moves", ephemeral=True)

    async def settings(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("settings", caller, **kw)
        return Reply(content="settings", ephemeral=True)

    async def games(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("games", caller, **kw)
        return Reply(content=f"games in {kw['scope']}", ephemeral=kw["scope"] != "server")

    async def stats(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("stats", caller, **kw)
        return Reply(content="stats")

    async def export(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("export", caller, **kw)
        return Reply(content="export", ephemeral=True)

    async def leaderboard(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("leaderboard", caller, **kw)
        return Reply(content="leaderboard")

    async def prefs(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("prefs", caller, **kw)
        return Reply(content="prefs", ephemeral=True)

    async def server_language(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("server_language", caller, **kw)
        return Reply(content="language", ephemeral=True)

    async def leave(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("leave", caller, **kw)
        raise GameError("You are not in a game here.")

    async def kick(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("kick", caller, **kw)
        return Reply(content=f"kicked <@{kw['target_user_id']}>")

    async def end(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("end", caller, **kw)
        raise RuntimeError("fake bug in end")

    async def replace(self, caller: Caller, **kw: Any) -> Reply:
        await self._record("replace", caller, **kw)
        return Reply(content="replaced", also=(Reply(content="(private note)", ephemeral=True),))

    async def complete(
        self, caller: Caller, *, field: str, current: str, game_id: str | None = None
    ) -> list[Choice]:
        guild_id = caller.guild_id
        self.calls.append(
            Call(
                "complete", guild_id, caller.channel_id, caller.user_id, {"field": field, "current": current}
            )
        )
        if field == "route":
            routes = ["Paris – Wien", "Paris – Frankfurt", "Roma – Venezia"]
            return [Choice(r, r) for r in routes if current.lower() in r.lower()]
        if field == "game":
            return [Choice(g, g) for g, guild in self.guilds.items() if guild == guild_id]
        return []

    def methods_called(self) -> list[str]:
        return [c.method for c in self.calls]

    def last(self, method: str) -> Call:
        return next(c for c in reversed(self.calls) if c.method == method)


def values_of(seq: Sequence[Any]) -> list[Any]:
    return list(seq)


def handled_errors(env: Any) -> list[BaseException]:
    """Acknowledge the errors SimCord saw reach the tree error handler and return them unwrapped.

    SimCord records every exception that reaches `CommandTree.on_error`, even ones the handler answered, and
    fails the test at teardown unless the test reads `env.errors`.
    """
    return [getattr(e, "original", None) or e.__cause__ or e for e in env.errors]

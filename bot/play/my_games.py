"""`/ttr games` for one member, in a DM or any server: every open game they sit in, across servers, one line each
(board, game, whose turn it is and since when, a link to its thread, the live map's personal link when it runs).
The same list is the daily digest a player may ask for by direct message (:class:`DigestNotices`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from bot.manager import GameInfo, GameManager, GameStatus
from bot.messages import Join, Message, Text, board_name
from bot.play import chat
from bot.play.contract import Messenger
from bot.play.live_map import MapLinks
from bot.play.names import seat_name
from bot.play.reply import EmbedSpec, Reply
from bot.presenters.words import listed


def _turn(info: GameInfo, user_id: int) -> Message:
    if info.status != GameStatus.ACTIVE:
        return Text(f"games.status.{info.status.value}")
    acting = [s for s in info.seats if s.seat in info.to_act]
    if any(s.user_id == user_id for s in acting):
        return Text("games.mine.your_turn")
    return Text("games.mine.turn_of", {"players": listed(tuple(seat_name(s) for s in acting))})


def my_games_reply(
    found: Sequence[tuple[GameInfo, datetime]],
    user_id: int,
    links: MapLinks | None,
    locale: str | None,
    *,
    title: str = "games.mine.title",
) -> Reply:
    """The member's open games, their turns first (then the longest waiting); `title`: the key of its title."""
    ordered = sorted(
        found,
        key=lambda f: (not any(s.user_id == user_id for s in f[0].seats if s.seat in f[0].to_act), f[1]),
    )
    lines: list[Message] = []
    for info, since in ordered:
        where = chat.jump_link(info.guild_id, info.thread_id or info.channel_id)
        parts: list[Message] = [
            board_name(info.board),
            f" `{info.game_id}` · ",
            _turn(info, user_id),
            " · ",
            Text("games.mine.since", {"when": chat.relative_time(since)}),
            " · ",
            Text("games.mine.thread", {"url": where}),
        ]
        if links is not None and info.status == GameStatus.ACTIVE:
            url = links.link(user_id, info.game_id, locale or "")
            parts += [" · ", Text("games.mine.map", {"url": url})]
        lines.append(Join(tuple(parts), ""))
    listing: Message = Join(tuple(lines), head=chat.MAX_DESCRIPTION) if lines else Text("games.mine.none")
    return Reply(embeds=(EmbedSpec(title=Text(title), description=listing),), ephemeral=True)


class DigestNotices:
    """The daily digest by direct message (bot.manager.digests): a base class of the play service, which is the
    manager's notifier."""

    messenger: Messenger | None
    map_links: MapLinks | None

    if TYPE_CHECKING:  # what the play service provides

        @property
        def games_manager(self) -> GameManager: ...

    async def on_digest(self, user_id: int) -> None:
        """The player's daily digest: the list of ``/ttr games``, in a direct message (closed: not sent)."""
        mine = await self.games_manager.my_games(user_id)
        if mine and self.messenger is not None:
            reply = my_games_reply(mine, user_id, self.map_links, None, title="games.digest.title")
            await self.messenger.direct(user_id, replace(reply, ephemeral=False))  # (closed DMs: not sent)

"""The end of a game: the final board, every seat's score sheet and the score chart at once, then the game as
a GIF in a message of its own when it is drawn."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.manager import GameInfo, GameStatus
from bot.messages import Join, Message, Place, SeatRef, Text
from bot.play import chat
from bot.play.pictures import Pictures, drawn, drawn_names
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, FileSpec, Reply
from engine.scoring import FinalSheet
from engine.state import GameState
from render.words import ENGLISH, PictureWords

log = logging.getLogger(__name__)


async def final_message(
    info: GameInfo,
    state: GameState,
    lines: Join,
    pictures: Pictures,
    words: PictureWords = ENGLISH,
) -> Reply:
    """The last public message: `lines`, then the score sheets (only "ended" for an abandoned game)."""
    if info.status != GameStatus.FINISHED:
        return Reply(content=Text("turn.ended", {"lines": lines}))
    embeds = [
        EmbedSpec(
            title=Text("final.title"),
            description=lines if lines.parts else None,
            color=chat.EMBED_COLOR,
            image="board.png",
        )
    ]
    fields = []
    # an embed holds MAX_EMBED characters in all: share them among the seats
    budget = min(chat.MAX_FIELD, (chat.MAX_EMBED - 1000) // max(1, len(info.final)))
    for s in sorted(info.final, key=lambda s: (s.rank, s.seat)):
        fields.append(sheet_field(s, budget, info.board))
    embeds.append(
        EmbedSpec(
            title=Text("final.sheets"),
            fields=tuple(fields[: chat.MAX_OPTIONS]),
            image="summary.png",
            footer=Text("footer.game", {"game": info.game_id}),
        )
    )
    names = drawn_names(info.seats, words)
    board_png, summary_png = await asyncio.gather(
        drawn(final_board(info, state, pictures, words), info.game_id),
        drawn(pictures.summary(state, info.final, words=words, names=names), info.game_id),
    )
    files = []
    if board_png:
        files.append(FileSpec("board.png", board_png, description=Text("alt.final_board")))
    if summary_png:
        files.append(FileSpec("summary.png", summary_png, description=Text("alt.summary")))
    again = ButtonSpec(info.game_id, PressCode.AGAIN, Text("btn.play_again"), style="primary", emoji="🔁")
    return Reply(content=Text("final.content"), embeds=tuple(embeds), files=tuple(files), rows=((again,),))


async def final_board(
    info: GameInfo, state: GameState, pictures: Pictures, words: PictureWords = ENGLISH
) -> bytes:
    """The final board as the final scores post it (and the Activity shares it: bot/web/moments.py)."""
    names = drawn_names(info.seats, words)
    return await pictures.board(state, colorblind=info.settings.colorblind, words=words, names=names)


def sheet_field(s: FinalSheet, budget: int, board: str = "") -> FieldSpec:
    """One seat's score sheet: "1. alice: 87" (the reader's punctuation), then its routes, its tickets (about
    `budget` characters; their cities as the reader knows those of `board`) and its bonuses, a lost one with a
    minus sign ("🏅 Bullet trains −3")."""
    parts: list[Message] = []
    for t in s.tickets:
        mark = "✅" if t.completed else "❌"
        sign = "+" if t.completed else "−"
        parts.append(
            Join((f"{mark} ", Place(board, t.a), " – ", Place(board, t.b), f" {sign}{t.points}"), "")
        )
    bonuses = [
        Join(("🏅", Text(f"bonus.{name}"), f"+{pts}" if pts > 0 else f"−{-pts}"), " ")
        for name, pts in s.bonuses.items()
        if pts
    ]
    routes = Text("final.routes", {"points": s.route_points})
    tickets = (Join(tuple(parts), "\n", head=budget - 40 * (1 + len(bonuses))),) if parts else ()
    return FieldSpec(
        Text("final.seat", {"rank": s.rank, "player": SeatRef(s.seat, s.name), "total": s.total}),
        Join((routes, *tickets, *bonuses), head=chat.MAX_FIELD),
        False,
    )


async def gif_message(
    info: GameInfo,
    pictures: Pictures,
    record: Callable[[], Awaitable[dict[str, Any]]],
    words: PictureWords = ENGLISH,
) -> Reply | None:
    """The game as a GIF, posted after the final scores (replaying and drawing it takes seconds: the scores
    do not wait for it); None when it could not be drawn."""
    try:
        gif = await pictures.gif(await record(), words=words, names=drawn_names(info.seats, words))
    except Exception:  # noqa: BLE001 - the scores matter more than the animation
        log.exception("game %s: GIF failed", info.game_id)
        return None
    return Reply(
        content=Text("final.gif"),
        files=(FileSpec("game.gif", gif, description=Text("alt.gif")),),
    )

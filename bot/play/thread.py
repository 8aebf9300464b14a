"""A game's public thread kept readable: what a player coming back missed (read from the stored log, so it
survives a restart), one live set of move buttons (the previous turn message keeps only Board), and the GIF
posted after the final scores instead of holding them back.

Two notes are kept in the game's settings JSON (not settings: `GameSettings` leaves unknown keys alone): the
last turn message and the log position the last posted turn message told up to. Both are written together once
Discord acknowledged the post (:meth:`ThreadKeeper.posted`), never when the message is built: the
``told_through`` note is what clears the game's ``tell`` row (a turn message owed by moves nobody clicked, see
bot.manager.timers), so a crash anywhere before the post leaves the row, and another process (or this one after
a restart) posts the message. The one window left is between Discord's acknowledgement and that write (one
database write): a kill there posts the message a second time (at least once, in that window only)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.manager import GameEvent, GameInfo, GameManager, GameStatus, Outcome, Refused
from bot.manager.tell import TOLD_THROUGH  # the log position the last posted turn message told up to
from bot.messages import Text
from bot.play.contract import Messenger
from bot.play.final import gif_message
from bot.play.pictures import Pictures
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, GameError, Reply
from engine.state import GameState
from render.words import PictureWords

log = logging.getLogger(__name__)

TURN_MESSAGE = "turn_message"  # [channel id, message id] of the game's last turn message
AUTOMATIC = ("ai", "absent_ai", "absent_skip")  # who made the moves nobody clicked (GameEvent.by)


async def since_last_turn(
    manager: GameManager, info: GameInfo, state: GameState, waiting: list[GameEvent]
) -> tuple[int | None, list[GameEvent]]:
    """What the seats to play missed: every public move since their own last one and since the last turn
    message, rebuilt from the stored log, after the events that are no moves (a seat handed to the AI, a
    resignation); and the log position those moves start at (None: only `waiting`, this process's events)."""
    told = len(state.history)
    try:  # read only: the note moves once the message is posted (ThreadKeeper.posted)
        before = await manager.note(info.game_id, TOLD_THROUGH)
    except Refused:
        before = None
    first = told + 1 if before is None else int(before) + 1
    for seat in info.to_act:
        mine = [i for i, (s, _) in enumerate(state.history, start=1) if s == seat]
        first = min(first, mine[-1] + 1 if mine else 1)
    try:
        moves = await manager.public_events_since(info.game_id, first) if first <= told else []
    except Exception:  # noqa: BLE001 - a log that does not replay must not hide the move just made
        log.exception("game %s: the moves since the last turn could not be replayed", info.game_id)
        return None, waiting
    if before is None and not moves:  # a game from before these notes: what this process saw
        return None, waiting
    return first, [e for e in waiting if not e.seq] + moves


async def ours_to_tell(manager: GameManager, outcome: Outcome) -> bool:
    """Checked once the turn message of `outcome` is built, just before it goes to Discord: a message telling
    moves nobody clicked (AI seats, the absent-player policy) is posted only while this process still owes it
    (the writer claimed the game's ``tell`` row and renews its lease meanwhile, bot.manager.timers): not when
    another process took the row over, or told those moves already."""
    if not any(e.seq and e.by in AUTOMATIC for e in outcome.events):
        return True
    try:
        return await manager.may_tell(outcome.game_id, max(e.seq for e in outcome.events))
    except Refused:
        return True  # unknown: posted (at least once rather than never)


class ThreadKeeper:
    """Reacts to a turn message being posted: retires the previous one, starts the GIF after the scores."""

    def __init__(self) -> None:
        self._gifs: dict[str, asyncio.Task[None]] = {}  # game -> the task drawing and posting its GIF

    async def posted(
        self,
        manager: GameManager,
        messenger: Messenger | None,
        info: GameInfo,
        channel_id: int,
        message_id: int,
        gif: Callable[[], Awaitable[Reply | None]],
    ) -> None:
        """The turn message of `info` (the game as the message told it, up to log position
        ``info.action_count``) is posted: both notes are written at once, first thing (the ``told_through``
        one clears the game's ``tell`` row), then the previous message loses its buttons."""
        game_id = info.game_id
        notes = {TURN_MESSAGE: [channel_id, message_id], TOLD_THROUGH: info.action_count}
        try:  # remembered with the game, so a restarted bot still retires the message before it
            previous = (await manager.swap_notes(game_id, notes, rising=(TOLD_THROUGH,)))[TURN_MESSAGE]
        except (Refused, GameError):
            previous = None
        if info.status == GameStatus.FINISHED and game_id not in self._gifs:
            # the final scores are out: the GIF follows when drawn (in the render pool)
            self._gifs[game_id] = asyncio.create_task(self._post_gif(messenger, channel_id, gif))
        if not previous or previous[1] == message_id or messenger is None:
            return
        board = ButtonSpec(game_id, PressCode.BOARD, Text("btn.board"), emoji="🗺")
        await messenger.edit_rows(previous[0], previous[1], Reply(rows=((board,),)))

    @staticmethod
    async def _post_gif(
        messenger: Messenger | None, channel_id: int, gif: Callable[[], Awaitable[Reply | None]]
    ) -> None:
        reply = await gif()
        if reply is not None and messenger is not None:
            await messenger.post(channel_id, reply)

    def task(self, game_id: str) -> asyncio.Task[None] | None:
        """The GIF task of a finished game (benchmarks wait for it)."""
        return self._gifs.get(game_id)

    async def close(self) -> None:
        """Cancel the GIFs still drawing (not posted after shutdown) and wait until they have stopped, so none
        still reads the game's record while the storage closes."""
        tasks = [t for t in self._gifs.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def gif_of(
    info: GameInfo, pictures: Pictures, record: Callable[[], Awaitable[dict[str, Any]]], words: PictureWords
) -> Callable[[], Awaitable[Reply | None]]:
    return lambda: gif_message(info, pictures, record, words)

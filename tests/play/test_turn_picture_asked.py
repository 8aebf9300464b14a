"""The turn message carries the turn picture (the part of the board where the last moves were, for the chat's
size); the Board button and the final message carry the whole board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fast_pictures import PNG, FastPictures
from helpers.quiet_messenger import QuietMessenger
from test_presentation_parts import ANN, _started

from bot.config import Settings
from bot.wiring import Wiring


class AskedPictures(FastPictures):
    """Pictures that note which board picture each call asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[bool] = []

    async def board(
        self,
        state: Any,
        *,
        colorblind: bool = True,
        words: Any = None,
        since: Any = None,
        turn: bool = False,
        names: Any = (),
    ) -> bytes:
        self.asked.append(turn)
        return PNG


async def test_the_turn_message_asks_for_the_turn_picture_and_the_board_button_for_the_whole_board(
    tmp_path: Path,
) -> None:
    pictures = AskedPictures()
    async with Wiring(Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=pictures) as svc:
        await svc.start(QuietMessenger())
        gid = await _started(svc)
        pictures.asked.clear()
        reply = await svc.turn_message(gid)
        assert pictures.asked == [True] and reply.files and reply.files[0].data == PNG
        pictures.asked.clear()
        await svc.board(ANN, game_id=gid)
        assert pictures.asked == [False]

"""Shutdown order of the game's thread keeper: a GIF still being drawn when the bot closes is cancelled, and
`close` returns only once it has stopped, so it no longer reads the storage the service closes next."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.play.reply import Reply
from bot.play.thread import ThreadKeeper
from bot.storage import GameStatus


class _Manager:
    async def swap_notes(self, game_id: str, notes: dict[str, Any], **_: Any) -> dict[str, Any]:
        return dict.fromkeys(notes)  # no earlier turn message


class _Messenger:
    def __init__(self) -> None:
        self.posted: list[Reply] = []

    async def post(self, channel_id: int, reply: Reply) -> int | None:
        self.posted.append(reply)
        return 1


async def test_close_waits_for_the_gif_still_drawing() -> None:
    reading = asyncio.Event()
    stopped: list[str] = []

    async def gif() -> Reply | None:  # the game's record read from the storage, then drawn
        reading.set()
        try:
            await asyncio.Event().wait()  # still reading when the bot closes
        finally:
            await asyncio.sleep(0)  # its clean-up takes a turn of the loop
            stopped.append("gif")
        return Reply(content="never")

    keeper, messenger = ThreadKeeper(), _Messenger()
    info = SimpleNamespace(game_id="g1", status=GameStatus.FINISHED, action_count=90)
    await keeper.posted(_Manager(), messenger, info, 10, 20, gif)  # type: ignore[arg-type]
    await reading.wait()
    task = keeper.task("g1")
    assert task is not None and not task.done()
    await keeper.close()
    assert task.cancelled() and stopped == ["gif"]  # stopped before close returned
    assert messenger.posted == []  # not posted after shutdown
    await keeper.close()  # twice is harmless

"""The player's side of a lost acknowledgement (the write landed, the connection dropped during COMMIT, the retry
met the write): `/ttr new` answers with its lobby and its Join / Start buttons, Join and Start with what they post
(the start message), as if the first try had been acknowledged. Before, `/ttr new` was refused with "Game X is
already open here" and no Join/Start message was ever posted (the channel blocked until the lobby expired)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from helpers.fast_pictures import FastPictures
from helpers.quiet_messenger import QuietMessenger

from bot.config import Settings
from bot.play.contract import Caller
from bot.play.press import Press, PressCode
from bot.play.reply import ButtonSpec, Reply
from bot.play.service import ManagerGameService
from bot.storage import StorageUnavailable
from bot.wiring import Wiring

ANN = Caller(1, 50, 101, "Ann")
BOB = Caller(1, 50, 102, "Bob")


class CommitsThenFails:
    """The service's repository: the next call of `lie_on` commits, then reports StorageUnavailable."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.lie_on: str | None = None

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name != self.lie_on:
            return attr

        async def commits_then_fails(*args: Any, **kwargs: Any) -> Any:
            await attr(*args, **kwargs)
            self.lie_on = None
            raise StorageUnavailable("connection lost during COMMIT")

        return commits_then_fails


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[tuple[ManagerGameService, CommitsThenFails]]:
    async with Wiring(
        Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=FastPictures()
    ) as svc:
        await svc.start(QuietMessenger())
        store = svc.games_manager._store
        flaky = CommitsThenFails(store.repo)
        store.repo = flaky  # type: ignore[assignment]
        store.retry_delays = (0.0,)
        yield svc, flaky


def _key(message: Any) -> str | None:
    return getattr(message, "key", None)


def _codes(reply: Reply) -> set[PressCode]:
    return {c.code for row in reply.rows for c in row if isinstance(c, ButtonSpec)}


async def test_new_join_and_start_answer_as_acknowledged(
    service: tuple[ManagerGameService, CommitsThenFails],
) -> None:
    svc, flaky = service
    flaky.lie_on = "create_game"
    opened = await svc.new_game(ANN, board_id="usa")  # (before: refused.channel_busy, no lobby message)
    assert _key(opened.content) == "lobby.opened"
    assert {PressCode.JOIN, PressCode.START} <= _codes(opened)  # the lobby's Join / Start message
    found = await svc.games_manager.find_open_game(channel_id=ANN.channel_id)
    assert found is not None
    gid = found.game_id
    flaky.lie_on = "update_game"
    joined = await svc.press(BOB, Press(gid, PressCode.JOIN))  # (before: refused.already_seated)
    assert _key(joined.content) == "lobby.joined"
    assert [s.user_id for s in (await svc.games_manager.game_info(gid)).seats] == [101, 102]
    flaky.lie_on = "update_game"
    started = await svc.press(ANN, Press(gid, PressCode.START))  # (before: refused.started)
    assert _key(started.content) == "lobby.started"
    assert (await svc.games_manager.game_info(gid)).status == "active"

"""The render workers get ready at start-up: the production service starts its pool at once and asks it to draw
the boards of the games in play (then RENDER_WARM's, then each new lobby's); RENDER_WARM is checked at start."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

import render.pool
from bot.config import Settings, SettingsError
from bot.launch import run_bot
from bot.manager import GameManager
from bot.play.contract import Caller
from bot.play.pictures import PoolPictures, picture_words
from bot.storage import open_repository
from bot.wiring import Wiring
from maps.board import board_ids


class FakePool:
    """Stands for render.pool.RenderPool: records what the pictures ask of it."""

    made: list[FakePool] = []

    def __init__(self, workers: int | None = None, *, warm: Any = ()) -> None:
        self.workers = workers
        self.keys: list[tuple[str, int, bool, Any]] = [render.pool.warm_key(b) for b in warm]
        self.started = False
        self.closed = False
        FakePool.made.append(self)

    def warm(self, keys: Any) -> None:
        self.keys += [k for k in keys if k not in self.keys]

    def start(self) -> None:
        self.started = True

    def close(self, *, wait: bool = True) -> None:
        self.closed = True


class French:
    def public_locale(self, channel_id: int) -> str:
        return "fr"


@pytest.fixture
def fake_pool(monkeypatch: pytest.MonkeyPatch) -> type[FakePool]:
    FakePool.made = []
    monkeypatch.setattr(render.pool, "RenderPool", FakePool)
    return FakePool


async def _games_in_play(url: str) -> None:
    """Three lobbies before the bot starts: two on USA, one on Europe without the colour-blind marks."""
    async with open_repository(url) as repo:
        manager = GameManager(repo)
        await manager.start(dispatcher=False)
        await manager.create_game(guild_id=1, channel_id=10, host_id=1, host_name="Ann", board="usa")
        await manager.create_game(guild_id=1, channel_id=11, host_id=2, host_name="Bob", board="usa")
        await manager.create_game(
            guild_id=2,
            channel_id=12,
            host_id=3,
            host_name="Cy",
            board="europe",
            settings={"colorblind": False},
        )
        await manager.close()


async def test_start_starts_the_pool_and_warms_the_boards_of_the_games_in_play(
    tmp_path: Path, fake_pool: type[FakePool]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    await _games_in_play(url)
    wiring = Wiring(Settings(database_url=url, render_warm=("japan", "usa")))
    svc = await wiring.__aenter__()
    assert isinstance(svc.pictures, PoolPictures) and fake_pool.made == []  # nothing started before start()
    await svc.start(French())  # type: ignore[arg-type]
    assert svc._warming is not None
    await asyncio.wait_for(svc._warming, 10)
    (pool,) = fake_pool.made
    assert pool.started
    english = picture_words("en")  # DEFAULT_LOCALE: the servers' languages are not known before Discord
    assert pool.keys == [
        ("usa", 1600, True, english),  # the board of most games first
        ("europe", 1600, False, english),  # as that game draws it
        ("japan", 1600, True, english),  # then RENDER_WARM's
    ]
    # a new lobby: its board, in its server's words
    await svc.new_game(Caller(3, 20, 4, "Dee", public_locale="fr"), board_id="Italy")
    assert pool.keys[-1] == ("italy", 1600, True, picture_words("fr"))
    await svc.close()
    assert not pool.closed  # the composition root closes the pictures, after the manager
    await wiring.__aexit__(None, None, None)
    assert pool.closed


async def test_nothing_to_warm_still_starts_the_workers(tmp_path: Path, fake_pool: type[FakePool]) -> None:
    async with Wiring(Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}")) as svc:
        await svc.start(French())  # type: ignore[arg-type]
        assert svc._warming is not None
        await asyncio.wait_for(svc._warming, 10)
        (pool,) = fake_pool.made
        assert pool.started and pool.keys == []


def test_render_warm_takes_all_a_list_or_nothing() -> None:
    assert Settings().render_warm == ()
    assert Settings.from_env({"RENDER_WARM": "all"}, dotenv_path=None).render_warm == tuple(board_ids())
    assert Settings.from_env({"RENDER_WARM": " USA, europe,usa "}, dotenv_path=None).render_warm == (
        "usa",
        "europe",
    )
    assert Settings.from_env({"RENDER_WARM": "none"}, dotenv_path=None).render_warm == ()


def test_render_warm_refuses_a_board_that_does_not_exist() -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({"RENDER_WARM": "usa,atlantis"}, dotenv_path=None)
    message = str(info.value)
    assert "RENDER_WARM" in message and "'atlantis'" in message and "europe" in message and "all" in message


def test_a_bad_render_warm_stops_the_bot_at_start_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("RENDER_WARM", "europe,narnia")
    assert run_bot() == 2
    assert "RENDER_WARM" in caplog.text and "narnia" in caplog.text

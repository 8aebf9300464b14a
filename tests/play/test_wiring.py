"""The composition root (bot.wiring): start-up builds the repository, the pictures, the manager and the service in
one place, the service over them (it opens nothing itself), and closes them in reverse."""

from __future__ import annotations

import logging
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from helpers.quiet_messenger import QuietMessenger

from bot.config import Settings
from bot.messages import Text
from bot.play.contract import Caller
from bot.play.press import Press, PressCode
from bot.play.reply import GameError
from bot.play.service import ManagerGameService
from bot.storage import StorageDown
from bot.wiring import Wiring, run_web

ANN = Caller(1, 50, 101, "Ann")


class Recorded:
    """Pictures that draw nothing and note when they are closed."""

    def __init__(self, closed: list[str]) -> None:
        self.closed = closed

    async def board(self, *args: Any, **kwargs: Any) -> bytes:
        return b"png"

    hand = summary = board

    async def gif(self, *args: Any, **kwargs: Any) -> bytes:
        return b"gif"

    def close(self) -> None:
        self.closed.append("pictures")


async def test_the_parts_are_built_in_one_place_and_closed_in_reverse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[str] = []
    service_close = ManagerGameService.close

    async def close_service(self: ManagerGameService) -> None:
        closed.append("service")
        await service_close(self)

    monkeypatch.setattr(ManagerGameService, "close", close_service)
    wiring = Wiring(Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=Recorded(closed))
    async with wiring as service:
        manager = service.games_manager
        assert service.pictures is wiring.pictures
        assert manager._timers.notifier is service  # the timers tell the service
        repo = manager.repository
        for name, part in (("manager", manager), ("repository", repo)):
            monkeypatch.setattr(part, "close", _noting(closed, name, part.close))
        await service.start(QuietMessenger())
        await service.new_game(ANN, board_id="usa")  # the service works over the parts it was given
        assert (await manager.find_open_game(channel_id=ANN.channel_id)) is not None
    # (the pictures were built before the manager: its close finishes the messages in flight, which may draw)
    assert closed == ["service", "manager", "repository", "pictures"]
    assert service.manager is None  # a late call is refused ("errors.unavailable"), not run on closed parts


async def test_a_part_that_cannot_be_built_closes_those_built_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[str] = []

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no service today")

    monkeypatch.setattr("bot.wiring.ManagerGameService", broken)
    wiring = Wiring(Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=Recorded(closed))
    with pytest.raises(RuntimeError, match="no service today"):
        await wiring.__aenter__()
    assert closed == ["pictures"]  # (and the manager and its repository, closed before)


def _noting(closed: list[str], name: str, close: Any) -> Any:
    async def noting() -> None:
        closed.append(name)
        await close()

    return noting


async def test_the_live_map_runs_alongside_the_service_started_after_it_and_stopped_first(
    tmp_path: Path,
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        web_port=port,
        public_url=f"http://127.0.0.1:{port}",
        web_secret="w" * 40,
    )
    async with Wiring(settings, pictures=Recorded([])) as service:
        assert service.map_links is None  # nothing served before the service starts: no chat to tell yet
        await service.start(QuietMessenger())
        assert service.map_links is not None  # the Map buttons now answer with personal links
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as page:
            assert page.status < 500
        await service.close()
        with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the service, before the manager
            async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/"):
                pass


async def test_a_press_is_checked_once_by_the_service_gone_elsewhere_or_the_database_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot asks the service straight away; the service alone checks the press's game: gone, of another
    server (logged), or unreadable for now, which is never called "gone"."""
    async with Wiring(
        Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=Recorded([])
    ) as svc:
        await svc.start(QuietMessenger())
        await svc.new_game(ANN, board_id="usa")
        found = await svc.games_manager.find_open_game(channel_id=ANN.channel_id)
        assert found is not None
        status = Press(found.game_id, PressCode.STATUS)
        with pytest.raises(GameError) as gone:
            await svc.press(ANN, Press("nosuchgame", PressCode.STATUS))
        assert gone.value.message == Text("button.game_gone")
        with (
            caplog.at_level(logging.WARNING, logger="bot.play.service"),
            pytest.raises(GameError) as elsewhere,
        ):
            await svc.press(Caller(2, 60, 102, "Bob"), status)
        assert elsewhere.value.message == Text("button.other_server")
        assert f"refused button for game {found.game_id} of guild 1" in caplog.text
        store = svc.games_manager._store
        store.retry_delays = ()

        async def down(*args: object) -> None:
            raise StorageDown("connection refused")

        monkeypatch.setattr(store.repo, "load_game", down)
        with pytest.raises(GameError) as unreachable:
            await svc.press(ANN, Press("notcached", PressCode.STATUS))
        assert unreachable.value.message == Text("refused.storage_down")


def test_ttr_web_refusing_its_settings_logs_as_the_composition_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The composition root's lines carry its own logger's name (bot.wiring), not the live map's (bot.web)."""
    monkeypatch.chdir(tmp_path)  # (no .env file)
    for name in ("WEB_PORT", "PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    with caplog.at_level(logging.ERROR):
        assert run_web(lambda *args, **kwargs: None) == 2
    assert [(r.name, "WEB_PORT" in r.getMessage()) for r in caplog.records] == [("bot.wiring", True)]

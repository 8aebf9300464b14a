"""The manager is the presentation's only door: whatever the storage raises, only `Refused` comes out of a query
or a command, with issue 22's reason codes (bot.manager.door), so bot.play and bot.web catch `Refused` alone."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.manager_games import HUMANS

from bot.manager import GameManager, ManualClock, Refused
from bot.manager.door import LIFECYCLE
from bot.storage import (
    GameNotFound,
    StorageBroken,
    StorageBug,
    StorageDown,
    StorageError,
    StorageUnavailable,
    VersionConflict,
    open_repository,
)

ANN, BOB = HUMANS[0], HUMANS[1]


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    async with open_repository(f"sqlite:///{tmp_path / 'games.db'}") as repo:
        manager = GameManager(repo, clock=ManualClock(), retry_delays=())
        await manager.start(dispatcher=False)
        try:
            yield manager
        finally:
            await manager.close()


async def test_a_game_deleted_under_a_command_is_refused_as_no_game(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby is read, then gone when the join is written: "no such game", not a storage exception."""
    info = await manager.create_game(guild_id=1, channel_id=10, host_id=ANN[0], host_name=ANN[1], board="usa")

    async def gone(game_id: str, *args: object, **kwargs: object) -> int:
        raise GameNotFound(game_id)

    monkeypatch.setattr(manager.repository, "update_game", gone)
    with pytest.raises(Refused) as refused:
        await manager.join(info.game_id, BOB[0], BOB[1])
    assert (refused.value.code, refused.value.params) == ("no_game", {"game": info.game_id})


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        (StorageUnavailable("locked"), "storage"),  # retry now: spent
        (StorageDown("connection refused"), "storage_down"),  # retry later
        (StorageBroken("disk full", advice="free some space"), "storage_unavailable"),  # the host must act
        (StorageBug("syntax error"), "storage_unavailable"),
        (StorageError("a kind nobody classified"), "storage_down"),  # never "no such game"
        (VersionConflict("g", 1, 2), "conflict"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else v,
)
async def test_a_storage_fault_leaves_the_manager_as_its_refusal(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch, fault: StorageError, code: str
) -> None:
    async def failing(*args: object, **kwargs: object) -> None:
        raise fault

    monkeypatch.setattr(manager.repository, "player_stats", failing)
    monkeypatch.setattr(manager.repository, "find_open_game", failing)
    with pytest.raises(Refused) as refused:
        await manager.player_stats(1, ANN[0])
    assert refused.value.code == code
    with pytest.raises(Refused) as refused:
        await manager.find_open_game(channel_id=10)
    assert refused.value.code == code


def test_every_request_of_the_manager_goes_through_the_door() -> None:
    """A new query or command is guarded by being public: nothing to remember."""
    requests = [
        name
        for name, member in inspect.getmembers(GameManager)
        if not name.startswith("_") and inspect.iscoroutinefunction(member) and name not in LIFECYCLE
    ]
    assert {"act", "join", "game_info", "player_stats", "export_record", "set_player_prefs"} <= set(requests)
    unguarded = [
        name for name in requests if not getattr(getattr(GameManager, name), "__only_refusals__", False)
    ]
    assert unguarded == []

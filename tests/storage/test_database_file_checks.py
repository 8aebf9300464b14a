"""Start-up on a database file the bot cannot use stops `ttr bot` with one line before the Discord login; a 0-byte
file where a database was expected is never taken for a new one."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest

from bot import launch
from bot.config import Settings
from bot.storage import Seat, StorageBroken, check_database_file, open_repository


async def _database_with_a_game(path: Path) -> None:
    async with open_repository(f"sqlite:///{path}") as repo:
        game = await repo.create_game(
            guild_id=1, channel_id=2, host_id=3, board="europe", seats=(Seat("Ann", 3),),
            snapshot={"filler": ["x" * 200] * 200},
        )  # fmt: skip
        await repo.update_game(game.id, 0, status="active")


def _corrupt_pages(path: Path) -> None:
    """Garbage over every page but the first (the header stays valid, the b-trees do not)."""
    size = path.stat().st_size
    assert size > 8192
    with path.open("r+b") as f:
        f.seek(4096)
        f.write(b"\xde\xad\xbe\xef" * ((size - 4096) // 4))


async def test_a_usable_file_or_none_at_all_passes(tmp_path: Path) -> None:
    check_database_file(str(tmp_path / "new.db"))  # does not exist yet: a new database
    db = tmp_path / "games.db"
    await _database_with_a_game(db)
    check_database_file(str(db))


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.write_bytes(b""), "empty (0 bytes)"),
        (lambda p: p.write_bytes(b"not a database at all " * 100), "not an SQLite database"),
        (lambda p: p.mkdir(), "is a folder"),
    ],
    ids=["zero-bytes", "not-a-database", "folder"],
)
def test_a_file_that_cannot_be_used_is_refused_with_advice(tmp_path: Path, make, says: str) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "games.db"
    make(db)
    with pytest.raises(StorageBroken) as err:
        check_database_file(str(db))
    assert says in f"{err.value} {err.value.advice}" and err.value.advice


async def test_a_corrupt_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    await _database_with_a_game(db)
    _corrupt_pages(db)
    with pytest.raises(StorageBroken) as err:
        check_database_file(str(db))
    assert "backup" in err.value.advice


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes any file whatever its mode")
async def test_a_read_only_or_unreadable_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    await _database_with_a_game(db)
    db.chmod(0o444)
    with pytest.raises(StorageBroken, match="read-only"):
        check_database_file(str(db))
    db.chmod(0o000)
    with pytest.raises(StorageBroken, match="cannot be read"):
        check_database_file(str(db))
    db.chmod(0o644)


@pytest.fixture
def no_login(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """start_bot (the Discord login) replaced: records that it was reached."""
    reached: list[str] = []

    async def fake_start(settings: Settings, **kwargs: object) -> None:
        reached.append(settings.database_url)

    monkeypatch.setattr(launch, "start_bot", fake_start)
    return reached


@pytest.mark.parametrize("kind", ["zero-bytes", "corrupt", "not-a-database"])
def test_ttr_bot_stops_before_the_login_with_one_line(
    tmp_path: Path, kind: str, no_login: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.db"
    if kind == "zero-bytes":
        db.write_bytes(b"")
    elif kind == "corrupt":
        asyncio.run(_database_with_a_game(db))
        _corrupt_pages(db)
    else:
        db.write_bytes(b"\x00garbage" * 500)
    before = db.read_bytes()
    with caplog.at_level(logging.INFO):
        status = launch.run_bot(Settings(discord_token="t", database_url=f"sqlite:///{db}"))
    assert status == launch.EXIT_CONFIG and no_login == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None and str(db) in errors[0].getMessage()
    assert db.read_bytes() == before  # nothing written: a 0-byte file did not become an empty database


def test_a_new_database_starts(tmp_path: Path, no_login: list[str]) -> None:
    db = tmp_path / "games.db"
    url = f"sqlite:///{db}"
    assert launch.run_bot(Settings(discord_token="t", database_url=url)) == 0
    assert no_login == [url] and db.stat().st_size > 0  # created, with its tables
    assert launch.run_bot(Settings(discord_token="t", database_url=url)) == 0  # and opens again

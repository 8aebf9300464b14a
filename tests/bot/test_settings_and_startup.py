"""Settings from the environment and `.env`, and the launcher's start-up checks."""

from __future__ import annotations

import logging
import socket

import pytest

from bot import Settings, SettingsError
from bot.config import redact_url
from bot.launch import explain_startup_error, run_bot
from bot.wiring import StartupError, check_database


def test_defaults() -> None:
    s = Settings()
    assert s.database_url == "sqlite:///ttr.db"
    assert s.test_guild_id is None and s.render_workers == 2 and s.default_locale == "en"


def test_environment_wins_over_dotenv(tmp_path) -> None:  # type: ignore[no-untyped-def]
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=from-file\nTEST_GUILD_ID=123\nLOG_LEVEL=debug\nRENDER_WORKERS=1\n")
    s = Settings.from_env({"DISCORD_TOKEN": "from-env", "SYNC_COMMANDS": "no"}, dotenv_path=dotenv)
    assert s.discord_token == "from-env"
    assert s.test_guild_id == 123 and s.log_level == "DEBUG" and s.render_workers == 1
    assert s.sync_commands is False


def test_missing_dotenv_is_fine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    s = Settings.from_env({"DATABASE_URL": "postgresql://ttr@db/ttr"}, dotenv_path=tmp_path / "none.env")
    assert s.database_url == "postgresql://ttr@db/ttr"


def test_empty_values_keep_defaults(tmp_path) -> None:  # type: ignore[no-untyped-def]
    s = Settings.from_env({"TEST_GUILD_ID": "", "DATABASE_URL": "  "}, dotenv_path=None)
    assert s.test_guild_id is None and s.database_url == "sqlite:///ttr.db"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TEST_GUILD_ID", "my-server"),
        ("RENDER_WORKERS", "0"),
        ("LOG_LEVEL", "LOUD"),
        ("DATABASE_URL", "ttr.db"),
        ("LOBBY_EXPIRE_HOURS", "-1"),
        ("LOBBY_EXPIRE_HOURS", "a day"),
        ("LOBBY_EXPIRE_HOURS", "nan"),
    ],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value}, dotenv_path=None)


def test_lobby_expiry_is_a_number_of_hours_and_zero_turns_it_off() -> None:
    assert Settings().lobby_expire_hours == 24.0
    assert Settings.from_env({"LOBBY_EXPIRE_HOURS": "1.5h"}, dotenv_path=None).lobby_expire_hours == 1.5
    assert Settings.from_env({"LOBBY_EXPIRE_HOURS": "0"}, dotenv_path=None).lobby_expire_hours == 0.0


def test_token_and_password_stay_out_of_logs() -> None:
    s = Settings(discord_token="sekrit", database_url="postgresql://ttr:hunter2@db:5432/ttr")
    assert "sekrit" not in repr(s)
    assert s.redacted_database_url() == "postgresql://ttr:***@db:5432/ttr"
    assert redact_url("sqlite:///ttr.db") == "sqlite:///ttr.db"


def test_env_example_lists_every_setting() -> None:
    from pathlib import Path

    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    for name in Settings.__dataclass_fields__:
        assert f"{Settings.env_name(name)}=" in example


def test_no_token_exits_with_a_clear_message(caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.INFO)
    assert run_bot(Settings(discord_token="")) == 2
    assert "DISCORD_TOKEN" in caplog.text and ".env" in caplog.text


def test_sqlite_folder_must_exist(tmp_path) -> None:  # type: ignore[no-untyped-def]
    check_database(Settings(database_url=f"sqlite:///{tmp_path / 'ttr.db'}"))
    check_database(Settings(database_url="sqlite:///ttr.db"))  # relative: current folder
    with pytest.raises(StartupError, match="does not exist"):
        check_database(Settings(database_url=f"sqlite:///{tmp_path / 'missing' / 'ttr.db'}"))


def test_unreachable_postgres_is_explained_without_password() -> None:
    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://ttr:hunter2@127.0.0.1:{port}/ttr"
    with pytest.raises(StartupError) as info:
        check_database(Settings(database_url=url), timeout=1.0)
    assert f"127.0.0.1:{port}" in str(info.value) and "hunter2" not in str(info.value)
    assert explain_startup_error(info.value) == str(info.value)


def test_unknown_errors_are_not_explained_away() -> None:
    assert explain_startup_error(ZeroDivisionError()) is None

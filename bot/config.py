"""Process configuration: one frozen dataclass filled from the environment and an optional `.env` file.

Values set in the process environment win over the `.env` file. Secrets never appear in the repr, so a
`Settings` object is safe to log.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.storage.url import parse_database_url, redact_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot process needs to start.

    Only `discord_token` is needed to connect; every other field has a working default.
    """

    discord_token: str = field(default="", repr=False)
    database_url: str = "sqlite:///ttr.db"
    test_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = 2
    default_locale: str = "en"
    sync_commands: bool = True
    lobby_threads: bool = True  # /ttr new opens each game in a new thread of the channel when permitted

    # Environment variable for each field (the field name upper-cased).
    @staticmethod
    def env_name(field_name: str) -> str:
        return field_name.upper()

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, dotenv_path: str | Path | None = ".env"
    ) -> Settings:
        """Read settings from `environ` (default: the process environment) over the `.env` file.

        Raises SettingsError naming the variable when a value cannot be parsed.
        """
        values: dict[str, str] = {}
        if dotenv_path is not None and Path(dotenv_path).is_file():
            values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
        values.update(os.environ if environ is None else environ)

        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            raw = values.get(cls.env_name(f.name))
            if raw is None or raw.strip() == "":
                continue
            kwargs[f.name] = _parse(f.name, raw.strip())
        return cls(**kwargs)

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def log_level_number(self) -> int:
        return logging.getLevelName(self.log_level)

    def redacted_database_url(self) -> str:
        """The database URL with any password replaced, for log lines."""
        return redact_url(self.database_url)


def _parse(name: str, raw: str) -> Any:
    env = Settings.env_name(name)
    if name == "test_guild_id":
        if not raw.isdigit():
            raise SettingsError(f"{env} must be a server (guild) id made of digits, got {raw!r}")
        return int(raw)
    if name == "render_workers":
        try:
            value = int(raw)
        except ValueError:
            raise SettingsError(f"{env} must be a whole number, got {raw!r}") from None
        if value < 1:
            raise SettingsError(f"{env} must be at least 1, got {value}")
        return value
    if name == "log_level":
        level = raw.upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"{env} must be one of {', '.join(LOG_LEVELS)}, got {raw!r}")
        return level
    if name in ("sync_commands", "lobby_threads"):
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise SettingsError(f"{env} must be true or false, got {raw!r}")
    if name == "database_url":
        try:
            parse_database_url(raw)
        except ValueError as exc:
            raise SettingsError(f"{env}: {exc}") from None
    if name == "default_locale":
        return raw.replace("_", "-")
    return raw

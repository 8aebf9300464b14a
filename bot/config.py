"""Process configuration: one frozen dataclass filled from the environment and an optional `.env` file.

Values set in the process environment win over the `.env` file. Secrets never appear in the repr (the token
is left out, the database URL shown with its secrets masked), so a `Settings` object is safe to log;
`Settings.secrets` lists them for the log filter that masks them wherever else they could show
(`bot/discord/startup.py`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.storage.url import parse_database_url, redact_url, url_secrets

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot process needs to start.

    Only `discord_token` is needed to connect; every other field has a working default.
    """

    discord_token: str = field(default="", repr=False)
    database_url: str = field(default="sqlite:///ttr.db", repr=False)  # shown redacted by __repr__
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
        """The database URL with its secrets replaced, for log lines."""
        return redact_url(self.database_url)

    def secrets(self) -> tuple[str, ...]:
        """Every secret these settings hold (the token, what the database URL carries): never in a log."""
        return tuple(s for s in (self.discord_token, *url_secrets(self.database_url)) if s)

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return f"Settings(database_url={self.redacted_database_url()!r}, {shown})"


def max_render_workers() -> int:
    """The most render processes worth starting: one per CPU this process may use (at least 2)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    return max(2, cpus)


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
        most = max_render_workers()
        if not 1 <= value <= most:
            raise SettingsError(
                f"{env} must be between 1 and {most} (processes that draw pictures: at most one per CPU "
                f"this process may use, more would only compete for them), got {value}"
            )
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

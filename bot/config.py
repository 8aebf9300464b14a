"""Process configuration: one frozen dataclass filled from the environment and an optional `.env` file.

Values set in the process environment win over the `.env` file. Secrets never appear in the repr (the token
is left out, the database URL shown with its secrets masked), so a `Settings` object is safe to log;
`Settings.secrets` lists them for the log filter that masks them wherever else they could show
(`bot/discord/startup.py`, set up by the launcher `bot/launch.py`).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.database_url import parse_database_url, redact_url, url_secrets
from maps.board import board_ids

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
MAX_LOBBY_HOURS = 24 * 60  # sixty days, the longest of the games' own delays


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
    #: Boards every render worker draws once at start-up, besides those of the games in play ("all": every
    #: board; see bot.play.service): their first picture then costs no more than the next ones.
    render_warm: tuple[str, ...] = ()
    default_locale: str = "en"
    #: Servers whose public messages are in another language than their Discord preferred locale says
    #: (SERVER_LOCALES="123456789012345678=de,234567890123456789=ja"): (server id, language) pairs.
    server_locales: tuple[tuple[int, str], ...] = ()
    sync_commands: bool = True
    lobby_threads: bool = True  # /ttr new opens each game in a new thread of the channel when permitted
    lobby_expire_hours: float = (
        24.0  # a lobby nobody starts closes this long after its last change (0: never)
    )
    #: Discord gateway shards: how many in all (None: one process runs Discord's recommended number, all of
    #: them) and which this process runs (None: all of ``shard_count``). Several processes need PostgreSQL.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: The live map (bot/web, issue 21): served on WEB_PORT at PUBLIC_URL when both are set; the Activity needs
    #: the application's OAuth2 client id and secret; WEB_SECRET signs sessions and personal links.
    web_port: int | None = None
    public_url: str = ""
    discord_client_id: str = ""
    discord_client_secret: str = field(default="", repr=False)
    web_secret: str = field(default="", repr=False)
    discord_api: str = "https://discord.com/api/v10"
    #: /metrics, /healthz and /readyz (bot/ops) on a port of their own (None: on the live map's web server when it
    #: runs, else nowhere); LOG_FORMAT "json": one JSON object a line, with the game, guild and shard
    metrics_port: int | None = None
    log_format: str = "text"
    #: Reverse proxies whose X-Forwarded-For the live map believes (addresses or CIDR blocks; none: the
    #: connection's own address is the client's), e.g. 127.0.0.1 behind the README's nginx or Caddy.
    trusted_proxies: tuple[str, ...] = ()
    #: The most connections the live map holds at once (None: half the process's file descriptors, at most 1000);
    #: beyond it a new one gets a 503 at once rather than waiting.
    web_max_connections: int | None = None

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
        settings = cls(**kwargs)
        settings.check_shards()
        return settings

    def server_locale(self, guild_id: int | None) -> str | None:
        """The language SERVER_LOCALES sets for this server's public messages, if any."""
        return next((language for gid, language in self.server_locales if gid == guild_id), None)

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def check_shards(self) -> None:
        """Raise SettingsError when SHARD_IDS and SHARD_COUNT do not fit together."""
        if self.shard_ids is None:
            return
        if self.shard_count is None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards in all, across every process)")
        wrong = [i for i in self.shard_ids if i >= self.shard_count]
        if wrong:
            raise SettingsError(
                f"SHARD_IDS {format_shards(self.shard_ids)}: shard ids go from 0 to SHARD_COUNT - 1 "
                f"({self.shard_count - 1}), got {', '.join(map(str, wrong))}"
            )

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process runs every shard (no other process is needed)."""
        return self.shard_ids is None or set(self.shard_ids) == set(range(self.shard_count or 0))

    def shards_text(self) -> str:
        """This process's shards as an operator reads them: "all (Discord's recommended count)", "all 4",
        "0-3 of 8"."""
        if self.shard_ids is None:
            return (
                "all (Discord's recommended count)" if self.shard_count is None else f"all {self.shard_count}"
            )
        return f"{format_shards(self.shard_ids)} of {self.shard_count}"

    def redacted_database_url(self) -> str:
        """The database URL with its secrets replaced, for log lines."""
        return redact_url(self.database_url)

    def secrets(self) -> tuple[str, ...]:
        """Every secret these settings hold (the token, what the database URL carries): never in a log."""
        held = (
            self.discord_token,
            self.discord_client_secret,
            self.web_secret,
            *url_secrets(self.database_url),
        )
        return tuple(s for s in held if s)

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


def parse_shard_ids(raw: str) -> tuple[int, ...]:
    """``0-3`` / ``0,2,4`` / ``0-3,8`` -> the shard ids, sorted and without repeats; ValueError otherwise."""
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not _digits(first) or (dash and not _digits(last)):
            raise ValueError(f"expected shard ids like 0-3 or 0,2,4, got {raw!r}")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"range {part} goes backwards")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def parse_render_warm(raw: str) -> tuple[str, ...]:
    """``all`` / ``none`` / ``usa,europe`` -> the board ids, in order, without repeats; SettingsError names a
    board that does not exist, and the ones that do."""
    known = board_ids()
    text = raw.strip().lower()
    if text == "all":
        return tuple(known)
    if text in ("", "none"):
        return ()
    wanted = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [b for b in wanted if b not in known]
    if unknown:
        raise SettingsError(
            f"RENDER_WARM: no board {', '.join(map(repr, unknown))}; give board ids separated by commas "
            f"({', '.join(known)}), or all, or none"
        )
    return tuple(dict.fromkeys(wanted))


def parse_trusted_proxies(raw: str) -> tuple[str, ...]:
    """TRUSTED_PROXIES: addresses or CIDR blocks separated by commas or spaces ("none": no proxy)."""
    wanted = [p for p in raw.replace(",", " ").split() if p]
    if [p.lower() for p in wanted] == ["none"]:
        return ()
    for proxy in wanted:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise SettingsError(
                f"TRUSTED_PROXIES: {proxy!r} is not an IP address or CIDR block (e.g. 127.0.0.1, 10.0.0.0/8, ::1)"
            ) from None
    return tuple(dict.fromkeys(wanted))


def format_shards(ids: tuple[int, ...]) -> str:
    """The shortest ``0-3,6`` text for sorted shard ids."""
    parts: list[str] = []
    start = prev = ids[0] if ids else 0
    for i in [*ids[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts) if ids else ""


def parse_setting(name: str, raw: str) -> Any:
    """One field's value from its text (a command-line override); SettingsError names the variable."""
    return _parse(name, raw.strip())


def _parse(name: str, raw: str) -> Any:
    env = Settings.env_name(name)
    if name == "shard_count":
        if not _digits(raw) or int(raw) < 1:
            raise SettingsError(f"{env} must be a whole number of shards, 1 or more, got {raw!r}")
        return int(raw)
    if name == "shard_ids":
        try:
            return parse_shard_ids(raw)
        except ValueError as exc:
            raise SettingsError(f"{env}: {exc}") from None
    if name in ("web_port", "metrics_port"):
        if not raw.isdigit() or not 1 <= int(raw) <= 65535:
            raise SettingsError(f"{env} must be a TCP port number (1-65535), got {raw!r}")
        return int(raw)
    if name == "trusted_proxies":
        return parse_trusted_proxies(raw)
    if name == "web_max_connections":
        if not _digits(raw) or not 1 <= int(raw) <= 1_000_000:
            raise SettingsError(f"{env} must be a whole number of connections, 1 or more, got {raw!r}")
        return int(raw)
    if name in ("public_url", "discord_api"):
        if not raw.startswith(("https://", "http://")):
            raise SettingsError(f"{env} must be an http(s):// address, got {raw!r}")
        return raw.rstrip("/")
    if name == "test_guild_id":
        if not _digits(
            raw
        ):  # (not "１２３": Python reads full-width digits as 123, Discord never sends them)
            raise SettingsError(f"{env} must be a server (guild) id made of digits 0-9, got {raw!r}")
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
    if name == "render_warm":
        return parse_render_warm(raw)
    if name == "lobby_expire_hours":
        try:
            hours = float(raw.lower().removesuffix("h"))
        except ValueError:
            hours = -1.0
        if not 0 <= hours <= MAX_LOBBY_HOURS:  # (NaN fails too)
            raise SettingsError(
                f"{env} must be a number of hours from 0 (lobbies never expire) to {MAX_LOBBY_HOURS}, "
                f"got {raw!r}"
            )
        return hours
    if name == "log_level":
        level = raw.upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"{env} must be one of {', '.join(LOG_LEVELS)}, got {raw!r}")
        return level
    if name == "log_format":
        if raw.lower() not in LOG_FORMATS:
            raise SettingsError(f"{env} must be one of {', '.join(LOG_FORMATS)}, got {raw!r}")
        return raw.lower()
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
        return _locale(env, raw)
    if name == "server_locales":
        return _server_locales(env, raw)
    return raw


def _digits(raw: str) -> bool:
    """Only the digits 0-9 (``str.isdigit`` takes any script's digits, and superscripts)."""
    return raw.isascii() and raw.isdigit()


def _server_locales(env: str, raw: str) -> tuple[tuple[int, str], ...]:
    """``123=de,456=ja-JP``: each server id (digits 0-9) and the language its public messages are in."""
    out: dict[int, str] = {}
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        server, sep, language = item.partition("=")
        if not sep or not _digits(server.strip()):
            raise SettingsError(
                f"{env} must be server=language pairs like 123456789012345678=de, got {item!r}"
            )
        out[int(server.strip())] = _locale(env, language.strip())
    return tuple(out.items())


def _locale(env: str, raw: str) -> str:
    """A language the bot speaks (a catalogue in bot/locales: any that is there), maybe with a region:
    ``fr``, ``en-US``, ``fr_FR``, ``es-419`` (Latin American Spanish, Discord's code)."""
    from bot.i18n import default_catalog

    code = raw.replace("_", "-")
    language, _dash, region = code.partition("-")
    known = default_catalog().locales
    region_ok = region.isascii() and (
        (region.isalpha() and len(region) == 2) or (region.isdigit() and len(region) == 3)
    )
    if code not in known and (language not in known or not region_ok):
        raise SettingsError(
            f"{env} must be a language the bot speaks ({', '.join(known)}), maybe with a region like en-US, "
            f"got {raw!r}"
        )
    return code

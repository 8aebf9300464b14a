"""The one DATABASE_URL parser, and the SQL dialect helpers the two backends share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.storage import parse_database_url, redact_url
from bot.storage._common import decode_cursor, encode_cursor
from bot.storage._dialect import numbered_placeholders


def test_sqlite_urls() -> None:
    relative = parse_database_url("sqlite:///data/games.db?busy_timeout=1234&synchronous=full")
    assert (relative.backend, relative.path, relative.in_memory) == ("sqlite", "data/games.db", False)
    assert relative.options == {"busy_timeout_ms": 1234, "synchronous": "full"}
    assert parse_database_url("sqlite:////srv/ttr/games.db").path == "/srv/ttr/games.db"
    assert parse_database_url("sqlite+aiosqlite:///my%20games.db").path == "my games.db"
    assert parse_database_url("sqlite:///:memory:").in_memory


def test_postgres_urls_keep_foreign_options_for_asyncpg() -> None:
    url = parse_database_url(
        "postgresql+asyncpg://ttr:pw@db.example:5433/ttr?schema=games&max_size=4&synchronous_commit=off"
    )
    assert url.backend == "postgres"
    assert (url.host, url.port) == ("db.example", 5433)
    assert url.options == {"schema": "games", "max_size": 4}
    assert url.dsn == "postgresql://ttr:pw@db.example:5433/ttr?synchronous_commit=off"
    assert (
        url.redacted
        == "postgresql+asyncpg://ttr:***@db.example:5433/ttr?schema=games&max_size=4&synchronous_commit=off"
    )
    default = parse_database_url("postgres:///ttr")
    assert (default.host, default.port, default.options) == ("localhost", 5432, {})


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ttr.db", "must look like sqlite:///path.db"),
        ("mysql://ttr:pw@db/ttr", "unsupported scheme 'mysql'"),
        ("sqlite://host/x.db", "no host"),
        ("sqlite://", "no path"),
        ("sqlite:///x.db?bogus=1", "unknown sqlite URL options: ['bogus']"),
        ("sqlite:///x.db?busy_timeout=soon", "busy_timeout must be a whole number"),
        ("postgresql://ttr:pw@db/ttr?max_size=many", "max_size must be a whole number"),
        ("postgresql://ttr:pw@db:port/ttr", "port"),
    ],
)
def test_bad_urls_say_what_is_wrong_without_the_password(url: str, says: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_database_url(url)
    assert says in str(info.value)
    assert "pw" not in str(info.value)


def test_redaction() -> None:
    assert redact_url("postgresql://ttr:hunter2@db:5432/ttr") == "postgresql://ttr:***@db:5432/ttr"
    assert redact_url("postgresql://ttr@db/ttr") == "postgresql://ttr@db/ttr"
    assert redact_url("sqlite:///ttr.db") == "sqlite:///ttr.db"


def test_numbered_placeholders() -> None:
    assert numbered_placeholders("SELECT 1") == "SELECT 1"
    assert (
        numbered_placeholders("UPDATE games SET a = ?, b = ? WHERE id = ? AND version = ?")
        == "UPDATE games SET a = $1, b = $2 WHERE id = $3 AND version = $4"
    )


def test_listing_cursor_round_trip_in_utc() -> None:
    paris = timezone(timedelta(hours=1))
    moment = datetime(2026, 11, 26, 17, 30, 0, 5, tzinfo=paris)
    cursor = encode_cursor(moment, "k7m2qx9a")
    assert cursor == "2026-11-26T16:30:00.000005+00:00|k7m2qx9a"
    assert decode_cursor(cursor) == (moment.astimezone(UTC), "k7m2qx9a")
    for bad in ("nonsense", "2026-11-26T16:30:00|abc", "|abc", "2026-11-26T16:30:00+00:00|"):
        with pytest.raises(ValueError):
            decode_cursor(bad)

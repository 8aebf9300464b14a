"""Pieces both backends share: migration discovery, JSON encoding, ids, argument checks, rows to records."""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from .base import (
    CLOSED_STATUSES,
    MAX_LISTED,
    BoardStats,
    GameRecord,
    GameStatus,
    GameSummary,
    JSONDict,
    PlayerStats,
    Seat,
    SeatResult,
    StorageError,
    Timer,
)

_MIGRATION_NAME = re.compile(r"^V(\d{3,})__([A-Za-z0-9_]+)\.sql$")

#: Alphabet of game ids: lower-case, no look-alikes (0/o, 1/l/i). 31**8 ~ 8.5e11 ids.
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
ID_LENGTH = 8


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(dialect: str) -> list[Migration]:
    """Numbered ``V###__name.sql`` files of ``bot/migrations/<dialect>/``, in order, checked gapless."""
    folder = resources.files("bot").joinpath("migrations").joinpath(dialect)
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    expected = list(range(1, len(found) + 1))
    if [m.version for m in found] != expected:
        raise StorageError(
            f"{dialect} migrations are not numbered 1..n without gaps: {[m.version for m in found]}"
        )
    return found


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (SQLite's own tokenizer decides, so triggers survive)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        not part.strip() or part.lstrip().startswith("--") for part in buffer.splitlines()
    ):
        raise StorageError(f"incomplete SQL statement at the end of a migration: {buffer[:80]!r}")
    return statements


def dumps(value: Any) -> str:
    """Compact JSON; refuses NaN (neither backend can read it back as JSON)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"value is not JSON-serialisable: {exc}") from exc


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def as_dict(value: Mapping[str, Any] | None, what: str) -> JSONDict:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a mapping, got {type(value).__name__}")
    return dict(value)


def seats_json(seats: Sequence[Seat]) -> str:
    return dumps([seat.to_json() for seat in seats])


def seats_from_json(text: str | list[Any]) -> tuple[Seat, ...]:
    data = json.loads(text) if isinstance(text, str) else text
    return tuple(Seat.from_json(item) for item in data)


def player_rows(game_id: str, seats: Sequence[Seat]) -> list[tuple[str, int, int]]:
    return [(game_id, index, seat.user_id) for index, seat in enumerate(seats) if seat.user_id is not None]


def check_results(results: Sequence[SeatResult]) -> list[SeatResult]:
    rows = list(results)
    seats = [r.seat for r in rows]
    if len(set(seats)) != len(seats):
        raise ValueError(f"results name a seat twice: {seats}")
    for r in rows:
        if r.rank < 1:
            raise ValueError(f"rank must be >= 1, got {r.rank} for seat {r.seat}")
    return rows


def status_value(status: GameStatus | str | None) -> str | None:
    return None if status is None else GameStatus(status).value


def is_closed(status: str) -> bool:
    return GameStatus(status) in CLOSED_STATUSES


def utc_text(value: datetime) -> str:
    """UTC, fixed width: these strings sort like the instants they stand for."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def encode_cursor(created_at: datetime, game_id: str) -> str:
    return f"{utc_text(created_at)}|{game_id}"


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    key, sep, game_id = cursor.rpartition("|")
    if not sep or not key or not game_id:
        raise ValueError(f"not a listing cursor: {cursor!r}")
    created_at = datetime.fromisoformat(key)
    if created_at.tzinfo is None:
        raise ValueError(f"not a listing cursor: {cursor!r}")
    return created_at, game_id


def check_limit(limit: int, maximum: int = MAX_LISTED) -> int:
    if not 1 <= limit <= maximum:
        raise ValueError(f"limit must be in 1..{maximum}, got {limit}")
    return limit


def in_list(values: Iterable[str]) -> str:
    """Placeholders are not allowed here; callers only pass validated status names."""
    return ", ".join(f"'{GameStatus(v).value}'" for v in values)


def stats(guild_id: int | None, user_id: int, per_board: list[tuple[str, int, int, int, int]]) -> PlayerStats:
    boards = {
        board: BoardStats(int(games), int(wins), int(total) / int(games), int(best))
        for board, games, wins, total, best in per_board
    }
    games = sum(int(row[1]) for row in per_board)
    wins = sum(int(row[2]) for row in per_board)
    total = sum(int(row[3]) for row in per_board)
    best = max((int(row[4]) for row in per_board), default=0)
    return PlayerStats(user_id, guild_id, games, wins, total / games if games else 0.0, best, boards)


# --------------------------------------------------------------------------- rows to records
# A row is an sqlite3.Row or an asyncpg.Record (both indexed by column name); ``time`` turns a stored
# time into a datetime (the dialect's ``time_from_db``).


def summary_fields(row: Any, time: Callable[[Any], datetime]) -> dict[str, Any]:
    finished = row["finished_at"]
    return {
        "id": row["id"],
        "guild_id": row["guild_id"],
        "channel_id": row["channel_id"],
        "thread_id": row["thread_id"],
        "host_id": row["host_id"],
        "board": row["board"],
        "variant": row["variant"],
        "options": loads(row["options"]),
        "status": GameStatus(row["status"]),
        "settings": loads(row["settings"]),
        "seats": seats_from_json(row["seats"]),
        "version": row["version"],
        "action_count": row["action_count"],
        "created_at": time(row["created_at"]),
        "updated_at": time(row["updated_at"]),
        "finished_at": None if finished is None else time(finished),
    }


def summary_from_row(row: Any, time: Callable[[Any], datetime]) -> GameSummary:
    return GameSummary(**summary_fields(row, time))


def record_from_row(row: Any, time: Callable[[Any], datetime]) -> GameRecord:
    return GameRecord(
        **summary_fields(row, time), snapshot=loads(row["snapshot"]), snapshot_seq=row["snapshot_seq"] or 0
    )


def timer_from_row(row: Any, time: Callable[[Any], datetime]) -> Timer:
    return Timer(
        row["id"],
        row["game_id"],
        row["kind"],
        time(row["due_at"]),
        loads(row["payload"]),
        time(row["created_at"]),
    )

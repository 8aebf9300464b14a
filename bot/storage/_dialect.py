"""What differs between the two databases, as far as the shared queries (``_repository.py``) care."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

#: A result row: ``sqlite3.Row`` or ``asyncpg.Record``, both indexed by column name.
Row = Any


class Tx(Protocol):
    """One open write transaction of a backend (or, for a single statement, its pool)."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the shared queries need to know about one database."""

    #: also the folder of its migrations, ``bot/migrations/<name>/``
    name: str
    #: an aware UTC datetime as a statement argument, and a stored time back as a datetime
    time_to_db: Callable[[datetime], Any]
    time_from_db: Callable[[Any], datetime]
    #: the driver's errors for a duplicate primary key and for a row whose game does not exist
    duplicate_key: tuple[type[BaseException], ...]
    missing_game: tuple[type[BaseException], ...]
    #: run with the place's key before "is this place free?", so that check and insert are one step
    #: for every process; None where the write transaction already shuts out every other writer
    place_lock: str | None


@functools.lru_cache(maxsize=512)
def numbered_placeholders(sql: str) -> str:
    """``?, ?`` -> ``$1, $2``: PostgreSQL's placeholders (the shared SQL holds no literal ``?``)."""
    parts = sql.split("?")
    if len(parts) == 1:
        return sql
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]

"""`/ttr export`: a server's finished games as a file, for its admins: JSON lines (one game a line, its seats
within) or CSV (one seat a row). The rows are the stored statistics (`bot.storage.people.SeatStats`), written
from the engine's final sheets when each game ended."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from itertools import groupby
from typing import Final

from bot.manager import SeatStats
from bot.messages import Text
from bot.play.reply import FileSpec, Reply

#: the formats offered, and their file names' endings
FORMATS: Final = {"jsonl": "jsonl", "csv": "csv"}

#: the game's own fields, in a JSON line and first in each CSV row
_GAME_FIELDS: Final = ("game_id", "finished_at", "guild_id", "board", "players")


def jsonl(rows: Sequence[SeatStats]) -> bytes:
    """One JSON object a line per game (oldest first): the game's fields and its seats."""
    out = io.StringIO()
    for _game, seats in groupby(rows, key=lambda r: r.game_id):
        lines = [s.to_json() for s in seats]
        game = {k: lines[0][k] for k in _GAME_FIELDS}
        game["seats"] = [{k: v for k, v in line.items() if k not in _GAME_FIELDS} for line in lines]
        out.write(json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n")
    return out.getvalue().encode("utf-8")


def _cell(value: object) -> object:
    if isinstance(value, dict):
        return ";".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list):  # the tickets: "a-b:points:1" (completed) or ":0"
        return ";".join(f"{a}-{b}:{p}:{int(done)}" for a, b, p, done in value)
    return value


def csv_file(rows: Sequence[SeatStats]) -> bytes:
    """One CSV row per seat of each game (oldest first), with a header line."""
    out = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for row in rows:
        line = {k: _cell(v) for k, v in row.to_json().items()}
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(line), lineterminator="\n")
            writer.writeheader()
        writer.writerow(line)
    return out.getvalue().encode("utf-8")


def export_file(rows: Sequence[SeatStats], fmt: str) -> bytes:
    return jsonl(rows) if fmt == "jsonl" else csv_file(rows)


def export_reply(guild_id: int | None, rows: Sequence[SeatStats], fmt: str, *, admin: bool) -> Reply:
    """The export's private answer: the file, or why there is none (outside a server, not an admin, no game)."""
    if guild_id is not None and not admin:
        return Reply(content=Text("export.not_admin"), ephemeral=True)
    if guild_id is None or not rows:
        return Reply(content=Text("export.none"), ephemeral=True)
    games = len({r.game_id for r in rows})
    return Reply(
        content=Text("export.done", {"games": games, "format": fmt.upper()}),
        files=(FileSpec(f"ttr-games-{guild_id}.{FORMATS[fmt]}", export_file(rows, fmt)),),
        ephemeral=True,
    )

"""Cities' names as other languages' readers know them: `maps/names/<board id>.json`, beside the board files.

A board prints its cities in one spelling (Japan's in rōmaji); a names file gives, per language, the name its
readers know (Japanese: 東京 for Tokyo), with its sources. Only the words shown change: the board's own names stay
the cities' identity (records, commands' values, tickets). The loader checks every name against its board: a city
the board has, a name that is not empty, no two cities of one board with one name in a language. A file may name
the board's zoom insets too (`zooms`: Japan's Kyushu and Tokyo), checked against the zooms its cities name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from maps.board import MAPS_DIR, BoardDataError, load_board

NAMES_DIR = MAPS_DIR / "names"
_LANGUAGE = re.compile(r"^[a-z]{2}$")


def names_file(board_id: str) -> Path:
    return NAMES_DIR / f"{board_id}.json"


@cache
def board_city_names(board_id: str) -> Mapping[str, Mapping[str, str]]:
    """{language: {city's name on the board: name in that language}} for one board (empty without a file);
    raises BoardDataError when the file does not fit its board."""
    path = names_file(board_id)
    if not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    where = f"{path.name}"
    if data.get("board") != board_id:
        raise BoardDataError(f"{where}: names for board {data.get('board')!r}, not {board_id!r}")
    if not data.get("sources"):
        raise BoardDataError(f"{where}: no sources for the names")
    cities = {c.name for c in load_board(board_id).cities}
    out: dict[str, dict[str, str]] = {}
    for language, table in (data.get("names") or {}).items():
        if not _LANGUAGE.match(language):
            raise BoardDataError(f"{where}: {language!r} is not a two-letter language code")
        unknown = sorted(set(table) - cities)
        if unknown:
            raise BoardDataError(f"{where}: {language}: not cities of {board_id}: {', '.join(unknown)}")
        empty = sorted(city for city, name in table.items() if not isinstance(name, str) or not name.strip())
        if empty:
            raise BoardDataError(f"{where}: {language}: no name for {', '.join(empty)}")
        seen: dict[str, str] = {}
        for city, name in table.items():
            if name in seen:
                raise BoardDataError(f"{where}: {language}: {seen[name]} and {city} are both {name!r}")
            seen[name] = city
        out[language] = dict(table)
    return out


@cache
def board_zoom_names(board_id: str) -> Mapping[str, Mapping[str, str]]:
    """{language: {zoom inset (a city's `extra.zoom`): its name in that language}}; raises BoardDataError for
    a zoom the board does not have."""
    path = names_file(board_id)
    if not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    zooms = {c.extra.get("zoom") for c in load_board(board_id).cities} - {None}
    out: dict[str, dict[str, str]] = {}
    for language, table in (data.get("zooms") or {}).items():
        unknown = sorted(set(table) - zooms)
        if not _LANGUAGE.match(language) or unknown:
            raise BoardDataError(
                f"{path.name}: zooms: {language}: not zooms of {board_id}: {', '.join(unknown)}"
            )
        out[language] = dict(table)
    return out


def zoom_names(board_id: str, language: str) -> Mapping[str, str]:
    """{zoom inset: its name in `language`} for one board."""
    return board_zoom_names(board_id).get(language.split("-")[0].lower(), {})


def city_names(board_id: str, language: str) -> Mapping[str, str]:
    """{city's name on the board: its name in `language` ("ja", "ja-JP")} for one board; cities not listed keep
    the board's name."""
    return board_city_names(board_id).get(language.split("-")[0].lower(), {})


def to_board_names(board_id: str, text: str) -> str:
    """`text` as typed ("東京 大阪") with every city named in any language's own way written as the board spells
    it ("Tokyo Osaka"), so that the board's route finder reads it."""
    pairs = sorted(
        ((local, city) for table in board_city_names(board_id).values() for city, local in table.items()),
        key=lambda pair: -len(pair[0]),
    )
    for local, city in pairs:
        if local in text:
            text = text.replace(local, f" {city} ")
    return " ".join(text.split()) if pairs else text


def city_name(board_id: str, city: str, language: str) -> str:
    """One city's name as `language`'s readers know it."""
    return city_names(board_id, language).get(city, city)


def languages_with_names() -> frozenset[str]:
    """Every language some board's cities have names in."""
    return frozenset(
        language for path in NAMES_DIR.glob("*.json") for language in board_city_names(path.stem)
    )

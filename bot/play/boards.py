"""Boards and variants named by people in any of the catalogue's languages ("Allemagne", "Méga Europe"): the
lookup of `maps.find` given the catalogue's names, and its refusal worded for the reader."""

from __future__ import annotations

from bot.i18n import default_catalog
from bot.messages import Text, board_name
from bot.play import chat
from bot.play.reply import GameError
from maps import Board, NotFound, playable_boards
from maps import find as data

PROVISIONAL = "provisional"


def boards() -> list[Board]:
    """The boards players may choose, in id order."""
    return playable_boards()


def catalogue_names(key: str) -> tuple[str, ...]:
    """The name of catalogue key `key` in every language (empty where a catalogue lacks it)."""
    catalog = default_catalog()
    return tuple(catalog.exact(key, code) or "" for code in catalog.locales)


def names_of_board(board: Board) -> tuple[str, ...]:
    """Every name of `board`: its id, its data file's name and its name in every catalogue ("Allemagne")."""
    return (*data.board_names(board), *catalogue_names(f"board.{board.id}"))


def names_of_variant(board: Board, vid: str) -> tuple[str, ...]:
    """Every name of a variant: its id, its data file's name and its name in every catalogue."""
    return (*data.variant_names(board, vid), *catalogue_names(f"variant.{board.id}.{vid}"))


def find_board(value: str) -> Board:
    """The board `value` names (its id, its data name, or its name in any language); a refusal listing the
    boards otherwise."""
    try:
        return data.find_board(value, also_named=lambda board: catalogue_names(f"board.{board.id}"))
    except NotFound as missing:
        raise GameError(
            Text("maps.unknown", {"value": chat.quote(value), "known": ", ".join(missing.known)})
        ) from None


def find_variant(board: Board, value: str | None) -> str:
    """The id of `board`'s variant `value` names (the usual one when empty); a refusal listing them otherwise."""
    try:
        return data.find_variant(
            board, value, also_named=lambda vid: catalogue_names(f"variant.{board.id}.{vid}")
        )
    except NotFound as missing:
        params = {
            "value": chat.quote(value or ""),
            "board": board_name(board.id),
            "known": ", ".join(missing.known),
        }
        raise GameError(Text("maps.unknown_variant", params)) from None


def is_provisional(data: object) -> bool:
    """Whether a board or a variant's data are marked provisional (not checked against the printed game)."""
    status = getattr(data, "status", None) or (data.get("status") if isinstance(data, dict) else "")
    return str(status) == PROVISIONAL

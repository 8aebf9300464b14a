"""Finding a board or one of its variants from what a person typed, as python-chess's `find_variant` does: an id or
a name, case-, accent- and dash-insensitive ("Märklin", "marklin", "BIG cities").

The data files give each board and variant one name; a caller with more names (a catalogue's, in every language)
passes them as `also_named`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from maps.board import Board, BoardDataError, board_ids, load_board, normalize_name

log = logging.getLogger(__name__)


class NotFound(LookupError):
    """Nothing is called `value`; `known` lists the ids there are."""

    def __init__(self, value: str, known: tuple[str, ...]) -> None:
        super().__init__(f"nothing called {value!r} (known: {', '.join(known)})")
        self.value = value
        self.known = known


def playable_boards() -> list[Board]:
    """Every board whose data file loads, in id order; a file that does not load is logged and left out."""
    out = []
    for board_id in board_ids():
        try:
            out.append(load_board(board_id))
        except BoardDataError:
            log.exception("board file %s does not load; left out", board_id)
    return out


def board_names(board: Board) -> tuple[str, ...]:
    """The names the data give `board`: its id and its name."""
    return (board.id, board.name)


def variant_names(board: Board, variant: str) -> tuple[str, ...]:
    """The names the data give a variant of `board`: its id and its name."""
    return (variant, str(board.variants[variant].get("name", variant)))


def find_board(
    value: str,
    boards: Iterable[Board] | None = None,
    also_named: Callable[[Board], Iterable[str]] = lambda board: (),
) -> Board:
    """The board (of `boards`, default every playable one) with `value` as its id or one of its names;
    `NotFound` otherwise."""
    candidates = playable_boards() if boards is None else list(boards)
    wanted = normalize_name(value)
    for board in candidates:
        if wanted and wanted in _keys((*board_names(board), *also_named(board))):
            return board
    raise NotFound(value, tuple(b.id for b in candidates))


def find_variant(
    board: Board,
    value: str | None,
    also_named: Callable[[str], Iterable[str]] = lambda variant: (),
) -> str:
    """The id of `board`'s variant with `value` as its id or one of its names (the board's usual variant when
    `value` is empty); `NotFound` otherwise."""
    if value is None or not value.strip():
        return board.default_variant
    wanted = normalize_name(value)
    for variant in board.variants:
        if wanted in _keys((*variant_names(board, variant), *also_named(variant))):
            return variant
    raise NotFound(value, tuple(board.variants))


def _keys(names: Iterable[str]) -> set[str]:
    return {normalize_name(n) for n in names if n}

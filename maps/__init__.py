"""Board data files (one JSON per board) and their validating loader."""

from maps.board import (
    CARD_NAMES,
    CARD_TYPES,
    COLORS,
    GRAY,
    LOCOMOTIVE,
    LOCOMOTIVE_PLUS4,
    PASSENGER_CARD,
    Board,
    BoardDataError,
    City,
    Route,
    Ticket,
    board_from_dict,
    board_ids,
    load_board,
    normalize_name,
)

__all__ = [
    "CARD_NAMES",
    "CARD_TYPES",
    "COLORS",
    "GRAY",
    "LOCOMOTIVE",
    "LOCOMOTIVE_PLUS4",
    "PASSENGER_CARD",
    "Board",
    "BoardDataError",
    "City",
    "Route",
    "Ticket",
    "board_from_dict",
    "board_ids",
    "load_board",
    "normalize_name",
]

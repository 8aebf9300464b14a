"""Shared helpers for the board data tests."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from maps.board import MAPS_DIR, Board

REFERENCE_DIR = MAPS_DIR.parent.parent / "shared" / "maps-reference"


def raw_board(board_id: str) -> dict[str, Any]:
    return json.loads((MAPS_DIR / f"{board_id}.json").read_text(encoding="utf-8"))


def reference(board_id: str) -> dict[str, Any]:
    """The shared reference data; tests that compare with it are skipped where it is not checked out."""
    path = REFERENCE_DIR / f"{board_id}.json"
    if not path.exists():
        pytest.skip(f"reference data not available at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def route_facts(board: Board) -> Counter[tuple[str, str, int, str]]:
    return Counter(
        (*sorted((board.cities[r.a].name, board.cities[r.b].name)), r.length, r.color_name)
        for r in board.routes
    )


def multiplicity(board: Board) -> Counter[int]:
    """How many groups have 1, 2, 3 routes."""
    return Counter(len(g) for g in board.groups)


def between(board: Board, a: str, b: str) -> list[tuple[int, str]]:
    routes = board.routes_between(board.city(a).id, board.city(b).id)
    return sorted((r.length, r.color_name) for r in routes)


def ticket_points(board: Board, a: str, b: str) -> list[int]:
    ia, ib = board.city(a).id, board.city(b).id
    return sorted(t.points for t in board.tickets if {t.a, t.b} == {ia, ib})

"""The routes each seat may still claim, grouped by payment shape, kept in step with `state.route_owner`.

Listing claimable routes is the legal-action hot path: every turn start asks which routes are open to the seat
and which of them its hand can pay. Whether a route is open (unowned, not a second route of a double for the same
player, not a closed double with few players) changes only when a route is claimed, so this index is derived once
and updated by the difference with the owners it was built from. It is a cache: not saved, not copied, always
checked against `route_owner` before use (tests and the score calculator write owners directly).
"""

from __future__ import annotations

from engine.claims import multi_routes_open
from engine.state import NOBODY, GameState
from maps import Board

ShapeKey = tuple[int, int, int, int]  # (colour, length, ferry symbols, waves)


class ShapeTable:
    """A board's routes grouped by payment shape (a hand that cannot pay a shape skips all its routes at once)."""

    __slots__ = ("keys", "routes", "position", "by_color")

    def __init__(self, board: Board):
        by_key: dict[ShapeKey, list[int]] = {}
        for r in board.routes:
            by_key.setdefault((r.color, r.length, r.locomotives, r.waves), []).append(r.id)
        self.keys: list[ShapeKey] = list(by_key)
        self.routes: list[list[int]] = list(by_key.values())  # route ids per shape, ascending
        self.position = [0] * len(board.routes)  # route id -> index of its shape
        for pos, rids in enumerate(self.routes):
            for rid in rids:
                self.position[rid] = pos
        # per route colour (gray included), the shapes by increasing length: a hand stops at the first length
        # it cannot cover. Entries: (position, length, ferry symbols, waves, shape key), unpacked in one step.
        by_color: dict[int, list[tuple[int, int, int, int, ShapeKey]]] = {}
        for pos, key in enumerate(self.keys):
            by_color.setdefault(key[0], []).append((pos, key[1], key[2], key[3], key))
        self.by_color = [
            (c, sorted(shapes, key=lambda entry: entry[1:4])) for c, shapes in sorted(by_color.items())
        ]


_TABLES: dict[int, tuple[Board, ShapeTable]] = {}  # by id(board); the board is held so its id stays its own


def shape_table(board: Board) -> ShapeTable:
    found = _TABLES.get(id(board))
    if found is None:
        found = _TABLES[id(board)] = (board, ShapeTable(board))
    return found[1]


class OpenRoutes:
    """Per seat, per shape of the board's `ShapeTable`: the route ids that seat may claim (payment aside)."""

    __slots__ = ("owners", "by_seat")

    def __init__(self, state: GameState | None = None):
        self.owners: list[int] = []
        self.by_seat: list[list[list[int]]] = []
        if state is not None:  # None: an empty one, filled by `copy`
            self.rebuild(state)

    def copy(self) -> OpenRoutes:
        new = OpenRoutes()
        new.owners = self.owners[:]
        new.by_seat = [[rids[:] for rids in lists] for lists in self.by_seat]
        return new

    def rebuild(self, state: GameState) -> None:
        table = shape_table(state.board)
        groups = state.board.groups_by_route
        owner = state.route_owner
        multi = multi_routes_open(state)
        closed: set[int] = set()  # for everyone
        closed_for: list[set[int]] = [set() for _ in range(state.num_players)]  # doubles of one's own routes
        for r, o in enumerate(owner):
            if o != NOBODY:
                closed.add(r)
                for other in groups[r]:
                    if multi and 0 <= o < len(closed_for):
                        closed_for[o].add(other)
                    else:
                        closed.add(other)
        common = [[r for r in rids if r not in closed] for rids in table.routes]
        self.by_seat = [
            [[r for r in rids if r not in mine] for rids in common] if mine else [rids[:] for rids in common]
            for mine in closed_for
        ]
        self.owners = owner[:]

    def sync(self, state: GameState) -> None:
        """Bring the index in line with `route_owner`: claims since the last call are removed; anything else
        (an owner changed or cleared) rebuilds it."""
        owner = state.route_owner
        if self.owners == owner:
            return
        before = self.owners
        if len(before) != len(owner):
            self.rebuild(state)
            return
        changed = [r for r, (a, b) in enumerate(zip(before, owner, strict=True)) if a != b]
        if any(before[r] != NOBODY for r in changed):
            self.rebuild(state)
            return
        self.remove(state, changed)
        self.owners = owner[:]

    def remove(self, state: GameState, claimed: list[int]) -> None:
        """Take newly claimed routes (and the doubles they close) out of the seats' lists."""
        owner = state.route_owner
        position = shape_table(state.board).position
        groups = state.board.groups_by_route
        multi = multi_routes_open(state)
        by_seat = self.by_seat
        for r in claimed:
            taker = owner[r]
            group = groups[r]
            pos = position[r]
            for lists in by_seat:
                rids = lists[pos]
                if r in rids:  # (absent where a double of it had closed it)
                    rids.remove(r)
            if len(group) > 1:  # its doubles close for the taker, or for everyone with few players
                for seat, lists in enumerate(by_seat):
                    if seat == taker or not multi:
                        for other in group:
                            rids = lists[position[other]]
                            if other in rids:
                                rids.remove(other)


def note_claim(state: GameState, route_id: int) -> None:
    """`route_owner[route_id]` was just set: update the index at once when it was in step before (the usual
    case), which spares `sync` a comparison of every route."""
    index: OpenRoutes | None = state.derived.get("open_routes")
    if index is None:
        return
    before = index.owners
    if len(before) != len(state.route_owner) or before[route_id] != NOBODY:
        index.owners = []  # out of step: the next use rebuilds it
        return
    before[route_id] = state.route_owner[route_id]
    if before != state.route_owner:
        index.owners = []
        return
    index.remove(state, [route_id])


def open_routes(state: GameState) -> OpenRoutes:
    """The state's index, brought up to date."""
    index = state.derived.get("open_routes")
    if index is None:
        index = state.derived["open_routes"] = OpenRoutes(state)
    else:
        index.sync(state)
    return index

"""How far a player is from each ticket: done or not, and the trains the cheapest completion still needs."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from engine.scoring import joined, network, shared_routes
from engine.state import NOBODY, GameState


@dataclass(frozen=True)
class TicketProgress:
    ticket: int
    a: str
    b: str
    points: int
    done: bool
    trains_needed: int | None  # None: cannot be completed any more


def _cheapest(state: GameState, seat: int, a: int, b: int) -> tuple[int, list[int]] | None:
    """Fewest trains to link places a and b over the seat's own routes (free) and unclaimed routes, and the routes
    of one such path (Dijkstra; ties go to the first route of the board)."""
    board = state.board
    owner = state.route_owner
    shared = set(shared_routes(state))
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for r in board.routes:
        o = owner[r.id]
        if o == seat or r.id in shared:
            cost = 0
        elif o == NOBODY:
            cost = r.length
        else:
            continue
        na, nb = board.route_nodes[r.id]
        adj.setdefault(na, []).append((nb, cost, r.id))
        adj.setdefault(nb, []).append((na, cost, r.id))
    # Routes into a dead end end at distinct nodes; a city's own node is the place itself.
    targets = set(board.place_nodes[b])
    dist: dict[int, int] = {}
    came: dict[int, tuple[int, int]] = {}  # node -> (previous node, route)
    best: dict[int, int] = {}
    heap = [(0, n, -1, -1) for n in board.place_nodes[a]]
    while heap:
        d, node, prev, route = heapq.heappop(heap)
        if node in dist:
            continue
        dist[node] = d
        if route >= 0:
            came[node] = (prev, route)
        if node in targets:
            path = []
            while node in came:
                node, route = came[node]
                path.append(route)
            return d, path[::-1]
        for other, cost, rid in adj.get(node, ()):
            if other not in dist and d + cost < best.get(other, d + cost + 1):
                best[other] = d + cost
                heapq.heappush(heap, (d + cost, other, node, rid))
    return None


def trains_needed(state: GameState, seat: int, a: int, b: int) -> int | None:
    """Fewest trains to link places a and b over the seat's own routes (free) and unclaimed routes."""
    found = _cheapest(state, seat, a, b)
    return None if found is None else found[0]


def cheapest_paths(state: GameState, seat: int) -> dict[int, tuple[int, ...]]:
    """For each open ticket of `seat` that can still be completed: the unclaimed routes of its cheapest completion
    (route ids in path order; the seat's own routes on the way are left out). Done and blocked tickets have no
    entry. Private to the seat (it names their tickets)."""
    board = state.board
    owner = state.route_owner
    player = state.players[seat]
    uf = network(state, player.routes + shared_routes(state))
    out: dict[int, tuple[int, ...]] = {}
    for t in player.tickets:
        tk = board.tickets[t]
        if joined(state, uf, tk.a, tk.b):
            continue
        found = _cheapest(state, seat, tk.a, tk.b)
        if found is not None:
            out[t] = tuple(r for r in found[1] if owner[r] == NOBODY)
    return out


def ticket_progress(state: GameState, seat: int) -> list[TicketProgress]:
    board = state.board
    player = state.players[seat]
    uf = network(state, player.routes + shared_routes(state))
    out = []
    for t in player.tickets:
        tk = board.tickets[t]
        done = joined(state, uf, tk.a, tk.b)
        need = 0 if done else trains_needed(state, seat, tk.a, tk.b)
        out.append(TicketProgress(t, board.cities[tk.a].name, board.cities[tk.b].name, tk.points, done, need))
    return out


def routes_by_use(state: GameState, seat: int, routes: Iterable[int]) -> list[int]:
    """`routes` (ids) ranked by their use to `seat`: first those on the cheapest paths of the seat's open tickets
    (a route on more of those paths first, then the one worth more tickets' points), then by the points the route
    itself scores, longest first; ties keep board order. Private to the seat (it reads their tickets)."""
    board = state.board
    paths = cheapest_paths(state, seat)
    on_paths: dict[int, int] = {}
    ticket_points: dict[int, int] = {}
    for t, path in paths.items():
        for r in set(path):
            on_paths[r] = on_paths.get(r, 0) + 1
            ticket_points[r] = ticket_points.get(r, 0) + board.tickets[t].points

    def key(r: int) -> tuple[int, int, int, int]:
        points = board.route_points(board.routes[r].length)
        return (-on_paths.get(r, 0), -ticket_points.get(r, 0), -points, r)

    return sorted(set(routes), key=key)

"""How far a player is from each ticket: done or not, and the trains the cheapest completion still needs."""

from __future__ import annotations

import heapq
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


def trains_needed(state: GameState, seat: int, a: int, b: int) -> int | None:
    """Fewest trains to link places a and b over the seat's own routes (free) and unclaimed routes."""
    board = state.board
    owner = state.route_owner
    shared = set(shared_routes(state))
    adj: dict[int, list[tuple[int, int]]] = {}
    for r in board.routes:
        o = owner[r.id]
        if o == seat or r.id in shared:
            cost = 0
        elif o == NOBODY:
            cost = r.length
        else:
            continue
        na, nb = board.route_nodes[r.id]
        adj.setdefault(na, []).append((nb, cost))
        adj.setdefault(nb, []).append((na, cost))
    # Routes into a dead end end at distinct nodes; a city's own node is the place itself.
    targets = set(board.place_nodes[b])
    dist: dict[int, int] = {}
    heap = [(0, n) for n in board.place_nodes[a]]
    while heap:
        d, node = heapq.heappop(heap)
        if node in dist:
            continue
        dist[node] = d
        if node in targets:
            return d
        for other, cost in adj.get(node, ()):
            if other not in dist:
                heapq.heappush(heap, (d + cost, other))
    return None


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

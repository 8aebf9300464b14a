"""Final scoring: route points, tickets (with stations and shared routes), longest path, board bonuses,
tie-breaks and ranking."""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import GameEnded
from engine.sheets import FinalSheet, ScoreSheet, TicketResult
from engine.state import GameState
from engine.turn import features_for, hooks_for
from engine.union_find import UnionFind


def network(state: GameState, routes: list[int]) -> UnionFind:
    uf = UnionFind(state.board.node_count)
    nodes = state.board.route_nodes
    for r in routes:
        a, b = nodes[r]
        uf.union(a, b)
    return uf


def joined(state: GameState, uf: UnionFind, a: int, b: int) -> bool:
    """Are places a and b linked? Dead ends have one node per route, so any pair of their nodes counts."""
    pn = state.board.place_nodes
    na, nb = pn[a], pn[b]
    if len(na) == 1 and len(nb) == 1:
        return uf.find(na[0]) == uf.find(nb[0])
    roots_a = {uf.find(x) for x in na}
    return any(uf.find(y) in roots_a for y in nb)


def ticket_points(state: GameState, uf: UnionFind, tickets: list[int]) -> int:
    total = 0
    for t in tickets:
        tk = state.board.tickets[t]
        total += tk.points if joined(state, uf, tk.a, tk.b) else -tk.points
    return total


def shared_routes(state: GameState) -> list[int]:
    out: list[int] = []
    for f in features_for(state):
        out.extend(f.shared_routes(state))
    return out


def longest_path(state: GameState, routes: list[int]) -> int:
    """Longest trail in the seat's own routes: cities may repeat, routes may not (sum of route lengths)."""
    if not routes:
        return 0
    board = state.board
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, r in enumerate(routes):
        a, b = board.route_nodes[r]
        length = board.routes[r].length
        adj.setdefault(a, []).append((1 << i, b, length))
        adj.setdefault(b, []).append((1 << i, a, length))
    best = 0

    def dfs(node: int, used: int, total: int) -> None:
        nonlocal best
        if total > best:
            best = total
        for bit, other, length in adj[node]:
            if not used & bit:
                dfs(other, used | bit, total + length)

    # A longest trail can be taken to start at a node of odd degree when one exists (every trail can be
    # extended there); in an all-even component any node will do, so every node is tried.
    starts = [n for n, edges in adj.items() if len(edges) % 2 == 1] or list(adj)
    if len(starts) < len(adj):
        # components without odd nodes still need a start
        starts = list(adj)
    for node in starts:
        dfs(node, 0, 0)
    return best


def tie_key(state: GameState, sheet: ScoreSheet) -> tuple[int, ...]:
    keys: list[int] = []
    built = state.board.rules.get("stations_per_player", 0)
    for name in state.board.rules.get("tie_breaks", []):
        if name == "completed_tickets":
            keys.append(sheet.completed_tickets)
        elif name == "fewest_stations":
            keys.append(-(built - state.players[sheet.seat].stations))
        elif name == "longest_path":
            keys.append(sheet.longest_path)
        else:
            keys.append(sheet.tie_values.get(name, 0))
    return tuple(keys)


def final_scores(state: GameState) -> list[ScoreSheet]:
    """Every player's score sheet, in seat order, with ranks (1 = winner; tied players share a rank)."""
    board = state.board
    shared = shared_routes(state)
    sheets: list[ScoreSheet] = []
    lp_rule = board.rules.get("longest_path_bonus")
    for seat, player in enumerate(state.players):
        sheet = ScoreSheet(seat, player.name)
        sheet.route_points = sum(board.route_points(board.routes[r].length) for r in player.routes)
        base = network(state, player.routes + shared)
        uf = base
        for f in hooks_for(state).ticket_links:  # stations borrowing other players' routes
            uf, borrowed = f.ticket_links(state, seat, uf)
            sheet.station_routes += borrowed
        for t in player.tickets:
            tk = board.tickets[t]
            done = joined(state, uf, tk.a, tk.b)
            sheet.tickets.append(
                TicketResult(t, board.cities[tk.a].name, board.cities[tk.b].name, tk.points, done)
            )
            sheet.ticket_points += tk.points if done else -tk.points
            sheet.completed_tickets += done
        if lp_rule:
            sheet.longest_path = longest_path(state, player.routes)
        sheets.append(sheet)
    if lp_rule:
        best = max(s.longest_path for s in sheets)
        for s in sheets:
            s.bonuses[lp_rule["name"]] = lp_rule["points"] if best > 0 and s.longest_path == best else 0
    most = board.rules.get("most_tickets_bonus")
    if most:  # Globetrotter (Germany), most completed tickets (Märklin): all tied score it
        best = max(s.completed_tickets for s in sheets)
        for s in sheets:
            s.bonuses[most["name"]] = most["points"] if best > 0 and s.completed_tickets == best else 0
    for f in features_for(state):
        f.score(state, sheets)
    for s in sheets:
        s.total = s.route_points + s.ticket_points + sum(s.bonuses.values())
        s.tie_break = tie_key(state, s)
    for s in sheets:
        mine = (s.total, *s.tie_break)
        s.rank = 1 + sum(1 for o in sheets if (o.total, *o.tie_break) > mine)
    return sheets


def winners(sheets: list[ScoreSheet]) -> list[str]:
    return [s.name for s in sheets if s.rank == 1]


# Why a game ended (Outcome.reason): the last round after someone ran low on trains (or a board's own end
# condition) was played out, or nobody could do anything any more.
ENDED_LAST_ROUND = "last_round"
ENDED_STUCK = "stuck"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game as a value: why it ended, every seat's score sheet (seat order) and the winners' seats."""

    reason: str  # ENDED_LAST_ROUND or ENDED_STUCK
    sheets: tuple[FinalSheet, ...]
    winners: tuple[int, ...]


def outcome(state: GameState) -> Outcome | None:
    """None while the game goes on; else how it ended."""
    if not state.finished:
        return None
    ended = next((e for e in state.events if isinstance(e, GameEnded)), None)
    stuck = ended.stuck if ended is not None else state.ended_by is None
    sheets = tuple(s.final() for s in final_scores(state))
    return Outcome(
        ENDED_STUCK if stuck else ENDED_LAST_ROUND,
        sheets,
        tuple(s.seat for s in sheets if s.rank == 1),
    )

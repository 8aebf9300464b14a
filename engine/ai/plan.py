"""Route planning for the AI players: which unclaimed routes would link a seat's tickets, and what cards they need.

Everything here reads only what the seat may know: the board, who owns which route, the seat's own tickets,
hand, trains and stations. Places are the board's connectivity nodes (a dead-end country has one node per
route into it, so a path never runs through a country).

A plan is a cheap Steiner-tree approximation: the tickets are linked one after the other (most valuable first)
by shortest paths in which the seat's routes and the routes already planned cost nothing, unclaimed routes cost
their length (plus small penalties for ferries, tunnels and waves), other players' routes are closed, except that
on boards with stations a route of another player may be "borrowed" at a price when the seat has a station left.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.claims import route_open
from engine.features import Feature
from engine.scoring import joined, network, shared_routes
from engine.state import NOBODY, GameState
from engine.turn import features_for
from maps import COLORS, GRAY, LOCOMOTIVE, Board

ROUTE_PENALTY = 0.35  # per route: fewer, longer routes score more points for the same trains
TUNNEL_PENALTY = 0.6
FERRY_LOCO_PENALTY = 1.2  # each Locomotive a ferry demands
WAVE_PENALTY = 0.6
BORROW_PENALTY = 7.0  # a station: 4 points lost, cards and a turn spent
NON_TRAIN_COST = 0.3  # per space of a route that does not use the seat's trains (Japan's bullet routes)
INF = float("inf")


_ADJ: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}


def adjacency(board: Board) -> tuple[tuple[tuple[int, int], ...], ...]:
    """node -> ((other node, route id), ...) (cached per board id: boards are immutable)"""
    found = _ADJ.get(board.id)
    if found is not None and len(found) == board.node_count:
        return found
    adj: list[list[tuple[int, int]]] = [[] for _ in range(board.node_count)]
    for r in board.routes:
        a, b = board.route_nodes[r.id]
        adj[a].append((b, r.id))
        adj[b].append((a, r.id))
    found = tuple(tuple(x) for x in adj)
    _ADJ[board.id] = found
    return found


# The engine's own ownership rule (cards and trains aside), under the planner's names.
open_for = route_open


@dataclass
class Graph:
    """Edge costs for one seat at one moment (route id -> cost; missing = closed)."""

    cost: dict[int, float]
    borrowed: set[int]  # routes of other players in `cost` that need a station
    train_cost: dict[int, int]  # own trains each open route would use


def seat_graph(state: GameState, seat: int, *, allow_borrow: bool = True) -> Graph:
    board = state.board
    owner = state.route_owner
    features = [f for f in features_for(state) if type(f).uses_own_trains is not Feature.uses_own_trains]
    shared = set(shared_routes(state))
    player = state.players[seat]
    my_stations = {c for c, o in state.station_owner.items() if o == seat}
    borrow = allow_borrow and player.stations > 0
    cost: dict[int, float] = {}
    borrowed: set[int] = set()
    train_cost: dict[int, int] = {}
    for r in board.routes:
        rid = r.id
        o = owner[rid]
        if o == seat or rid in shared:
            cost[rid] = 0.0
            continue
        if o != NOBODY:
            if r.a in my_stations or r.b in my_stations:
                cost[rid] = 0.5
            elif borrow and _station_spot(state, r.a, r.b) is not None:
                cost[rid] = BORROW_PENALTY
                borrowed.add(rid)
            continue
        if not open_for(state, seat, rid):
            continue
        own_trains = not features or all(f.uses_own_trains(state, seat, rid) for f in features)
        if own_trains:
            c = r.length + ROUTE_PENALTY
            train_cost[rid] = r.length
        else:
            c = r.length * NON_TRAIN_COST + ROUTE_PENALTY
            train_cost[rid] = 0
        if r.tunnel:
            c += TUNNEL_PENALTY
        c += r.locomotives * FERRY_LOCO_PENALTY + r.waves * WAVE_PENALTY
        cost[rid] = c
    return Graph(cost, borrowed, train_cost)


def _station_spot(state: GameState, a: int, b: int) -> int | None:
    for c in (a, b):
        if not state.board.cities[c].dead_end and c not in state.station_owner and c not in state.depot_owner:
            return c
    return None


def shortest_path(
    board: Board, cost: dict[int, float], sources: Iterable[int], targets: Iterable[int]
) -> tuple[float, list[int]] | None:
    """Cheapest path (cost, route ids) from any source node to any target node."""
    adj = adjacency(board)
    target_set = set(targets)
    dist: dict[int, float] = {}
    prev: dict[int, tuple[int, int]] = {}
    heap: list[tuple[float, int]] = [(0.0, n) for n in sources]
    best: dict[int, float] = {n: 0.0 for n in sources}
    while heap:
        d, node = heapq.heappop(heap)
        if node in dist:
            continue
        dist[node] = d
        if node in target_set:
            path: list[int] = []
            while node in prev:
                node, rid = prev[node]
                path.append(rid)
            return d, path
        for other, rid in adj[node]:
            c = cost.get(rid)
            if c is None or other in dist:
                continue
            nd = d + c
            if nd < best.get(other, INF):
                best[other] = nd
                prev[other] = (node, rid)
                heapq.heappush(heap, (nd, other))
    return None


@dataclass
class Plan:
    routes: list[int] = field(default_factory=list)  # unclaimed routes to claim
    borrowed: list[int] = field(default_factory=list)  # other players' routes to reach with a station
    trains: int = 0  # own trains the planned routes use
    covered: list[int] = field(default_factory=list)  # uncompleted tickets the plan links
    dropped: list[int] = field(
        default_factory=list
    )  # uncompleted tickets it gives up (unreachable / too dear)
    done: list[int] = field(default_factory=list)  # tickets already completed
    route_ticket: dict[int, int] = field(default_factory=dict)  # planned route -> ticket it was planned for


def completed(state: GameState, seat: int, tickets: Sequence[int]) -> list[bool]:
    board = state.board
    uf = network(state, state.players[seat].routes + shared_routes(state))
    return [joined(state, uf, board.tickets[t].a, board.tickets[t].b) for t in tickets]


def make_plan(
    state: GameState,
    seat: int,
    tickets: Sequence[int] | None = None,
    *,
    graph: Graph | None = None,
    trains: int | None = None,
) -> Plan:
    """Plan routes for `tickets` (default: the seat's kept tickets) within `trains` (default: trains left)."""
    board = state.board
    if tickets is None:
        tickets = state.players[seat].tickets
    if trains is None:
        trains = state.players[seat].trains
    if graph is None:
        graph = seat_graph(state, seat)
    plan = Plan()
    done = completed(state, seat, tickets)
    todo: list[int] = []
    for t, d in zip(tickets, done, strict=True):
        (plan.done if d else todo).append(t)
    if not todo:
        return plan
    cost = dict(graph.cost)
    # Longest first: their paths form the backbone the others join.
    todo.sort(key=lambda t: -board.tickets[t].points)
    for t in todo:
        tk = board.tickets[t]
        found = shortest_path(board, cost, board.place_nodes[tk.a], board.place_nodes[tk.b])
        if found is None:
            plan.dropped.append(t)
            continue
        _, path = found
        new = [r for r in path if cost[r] > 0]
        extra = sum(graph.train_cost.get(r, 0) for r in new)
        if plan.trains + extra > trains:
            plan.dropped.append(t)
            continue
        plan.trains += extra
        plan.covered.append(t)
        for r in new:
            cost[r] = 0.0
            if r in graph.borrowed:
                plan.borrowed.append(r)
            elif r in graph.train_cost:
                plan.routes.append(r)
                plan.route_ticket[r] = t
    return plan


def plan_cost(
    state: GameState, seat: int, tickets: Sequence[int], graph: Graph
) -> tuple[int, int, list[int]]:
    """(trains needed, cards needed, tickets that cannot be linked) for linking all of `tickets`."""
    board = state.board
    cost = dict(graph.cost)
    trains = 0
    cards = 0
    missing: list[int] = []
    for t in sorted(tickets, key=lambda t: -board.tickets[t].points):
        tk = board.tickets[t]
        found = shortest_path(board, cost, board.place_nodes[tk.a], board.place_nodes[tk.b])
        if found is None:
            missing.append(t)
            continue
        for r in found[1]:
            if cost[r] > 0:
                trains += graph.train_cost.get(r, 0)
                if r in graph.train_cost:
                    cards += board.routes[r].length
                cost[r] = 0.0
    return trains, cards, missing


# ---- cards ---------------------------------------------------------------------------------------------------


def route_needs(state: GameState, seat: int, routes: Sequence[int]) -> tuple[list[int], dict[int, int], int]:
    """What the seat's hand still lacks for `routes`: (missing cards per colour, colour chosen per gray route,
    Locomotives missing). Cards already in hand are allotted to the routes, the colours first."""
    board = state.board
    hand = list(state.players[seat].hand)
    missing = [0] * len(COLORS)
    gray_color: dict[int, int] = {}
    locos_missing = 0
    colored = [r for r in routes if board.routes[r].color != GRAY]
    gray = [r for r in routes if board.routes[r].color == GRAY]
    demand = [0] * len(COLORS)
    for r in colored:
        rt = board.routes[r]
        demand[rt.color] += rt.length
    for r in colored:
        rt = board.routes[r]
        take = min(hand[rt.color], rt.length)
        hand[rt.color] -= take
        missing[rt.color] += rt.length - take
    for r in sorted(gray, key=lambda r: -board.routes[r].length):
        rt = board.routes[r]
        locos = rt.locomotives + rt.waves
        use = min(hand[LOCOMOTIVE], locos)
        hand[LOCOMOTIVE] -= use
        locos_missing += locos - use
        need = rt.length - locos
        if need <= 0:
            continue
        # the colour with most spare cards (ties: the one no coloured route wants)
        c = max(range(len(COLORS)), key=lambda c: (min(hand[c], need), -demand[c], -c))
        gray_color[r] = c
        take = min(hand[c], need)
        hand[c] -= take
        missing[c] += need - take
    # spare Locomotives cover what is missing
    spare = hand[LOCOMOTIVE]
    if spare:
        for c in sorted(range(len(COLORS)), key=lambda c: missing[c]):
            take = min(spare, missing[c])
            missing[c] -= take
            spare -= take
    if spare and locos_missing:
        locos_missing -= min(spare, locos_missing)
    return missing, gray_color, locos_missing


def route_shortfall(state: GameState, seat: int, route_id: int) -> int:
    """Cards the seat lacks to claim the route alone (best colour for a gray route, Locomotives as wilds)."""
    board = state.board
    rt = board.routes[route_id]
    hand = state.players[seat].hand
    locos = hand[LOCOMOTIVE]
    need_locos = rt.locomotives + rt.waves
    if need_locos > locos:
        return rt.length - min(locos, rt.length)  # lacks Locomotives: everything counts as missing but these
    rest = rt.length - need_locos
    spare = locos - need_locos
    have = hand[rt.color] if rt.color != GRAY else max(hand[: len(COLORS)])
    return max(0, rest - have - spare)

"""The heuristic AI players ("easy" and "normal"): plan routes for the tickets, collect their colours, claim.

`ranked(state, seat, legal, rng, level)` scores the seat's legal actions and returns them best first; the hard
level searches among the first few. The policies read only what the seat may know (engine.ai.infoset): public
fields of the state, and the seat's own hand, tickets and pending decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import (
    Action,
    BuildStation,
    ChooseTicketMix,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    PlaceDepot,
    TakeWarehouses,
)
from engine.ai import modules
from engine.ai import plan as planning
from engine.ai.context import PARAMS, Context, Scored, rounds_left
from engine.ai.infoset import determinize
from engine.cards import EMPTY
from engine.pending import SecondDraw, TicketChoice, TicketMix, TunnelPayment, WarehouseChoice
from engine.scoring import final_scores, joined, network, shared_routes
from engine.state import DEPOTS, GameState
from engine.tickets import draw_step, ticket_rules
from engine.turn import features_for
from maps import COLORS, GRAY, LOCOMOTIVE, LOCOMOTIVE_PLUS4, PASSENGER_CARD

# ---- tickets ------------------------------------------------------------------------------------------------


def completion_chance(
    state: GameState,
    seat: int,
    trains: int,
    cards: int | None = None,
    hand_cards: int | None = None,
    params: dict[str, float] = PARAMS,
) -> float:
    """Rough chance of linking tickets that need `trains` more trains and `cards` more cards (default: as many
    as trains), from the trains and turns left."""
    player = state.players[seat]
    ratio = trains / max(1, player.trains)
    if ratio > 1.0:
        return 0.0
    safe = params["safe_ratio"]
    p_trains = 1.0 if ratio <= safe else 1.0 - (ratio - safe) / (1.0 - safe) * 0.85
    in_hand = player.card_count() if hand_cards is None else hand_cards
    cards = trains if cards is None else cards
    turns_needed = max(0, cards - in_hand) / 2.0 + cards / 3.2
    p_time = max(0.0, min(1.0, params["time_slack"] - turns_needed / max(1.0, rounds_left(state))))
    return min(p_trains, p_time, 0.97)


def ticket_set_value(
    state: GameState,
    seat: int,
    keep: Sequence[int],
    graph: planning.Graph,
    hand_cards: int | None = None,
    *,
    count_done: bool = False,
    params: dict[str, float] = PARAMS,
) -> float:
    """Expected ticket points of the seat's uncompleted tickets plus `keep` (plus, with `count_done`, those
    already completed), from the trains and turns they need."""
    board = state.board
    player = state.players[seat]
    uf = network(state, player.routes + shared_routes(state))
    tickets = (*player.tickets, *keep)
    todo = [t for t in tickets if not joined(state, uf, board.tickets[t].a, board.tickets[t].b)]
    done = [t for t in (tickets if count_done else keep) if t not in todo]
    value = float(sum(board.tickets[t].points for t in done))
    bonus_per_ticket = 3.0 if board.rules.get("most_tickets_bonus") else 0.0
    value += bonus_per_ticket * len(done)
    if not todo:
        return value
    trains, cards, lost = planning.plan_cost(state, seat, todo, graph)
    value -= sum(board.tickets[t].points for t in lost)
    reachable = [t for t in todo if t not in lost]
    if not reachable:
        return value
    p = completion_chance(state, seat, trains, cards, hand_cards, params)
    pts = sum(board.tickets[t].points for t in reachable)
    value += pts * (2 * p - 1) + bonus_per_ticket * p * len(reachable)
    return value


def choose_tickets(ctx: Context, pending: TicketChoice) -> Scored:
    state, seat = ctx.state, ctx.seat
    board = state.board
    out: Scored = []
    offered = sorted(pending.offered)
    if ctx.level == "easy":
        # the cheapest tickets, as few as allowed
        def cost(t: int) -> float:
            tk = board.tickets[t]
            found = planning.shortest_path(
                board, ctx.graph.cost, board.place_nodes[tk.a], board.place_nodes[tk.b]
            )
            return found[0] if found else 999.0

        best = sorted(offered, key=cost)[: pending.keep_min]
        for a in ctx.of(KeepTickets):
            assert isinstance(a, KeepTickets)
            out.append((100.0 if sorted(a.tickets) == sorted(best) else ctx.rng.random(), a))
        return out
    for a in ctx.of(KeepTickets):
        assert isinstance(a, KeepTickets)
        out.append((ticket_set_value(state, seat, a.tickets, ctx.graph, params=ctx.params), a))
    return out


def mix_choice(ctx: Context, options: list[tuple[int, ...]], setup: bool) -> tuple[int, ...]:
    """Short/long mix: long tickets early with many trains, short ones later."""
    total = sum(options[0]) if options else 0
    trains = ctx.player.trains
    full = ctx.state.board.rules["trains_per_player"]
    if setup:
        want_long = total // 2 if ctx.level != "easy" else 1
    elif trains >= 0.55 * full and ctx.rounds_left > 10:
        want_long = 1
    else:
        want_long = 0
    # mixes are (short, long) in the variant's order; find the closest to the wish
    decks = ticket_rules(ctx.state)["draw"].get("mix") or ["short", "long"]
    long_i = decks.index("long") if "long" in decks else len(decks) - 1
    return min(options, key=lambda m: (abs(m[long_i] - want_long), m))


# ---- claims -------------------------------------------------------------------------------------------------


def payment_penalty(ctx: Context, a: ClaimRoute, demand: list[int]) -> float:
    hand = ctx.player.hand
    pen = 3.0 * a.locomotives + 2.0 * a.plus4 + 0.5 * a.ferry_cards
    rt = ctx.state.board.routes[a.route]
    colored = rt.length - a.locomotives - a.plus4 - min(2 * a.ferry_cards, rt.waves)
    if colored > 0 and a.color < len(COLORS):
        spare = hand[a.color] - demand[a.color]
        pen += 2.0 * max(0, min(colored, colored - spare))
        if rt.tunnel:
            pen -= 0.3 * max(0, hand[a.color] - colored)  # spare cards for the tunnel's extra
    return pen


def best_payments(ctx: Context) -> dict[int, tuple[float, ClaimRoute]]:
    """Per claimable route: its least harmful payment and how much it hurts the other targets. Only the
    payments with the fewest Locomotives are weighed (a Locomotive always costs more than a coloured card)."""
    board = ctx.state.board
    demand = [0] * len(COLORS)
    for r in ctx.targets:
        rt = board.routes[r]
        if rt.color != GRAY:
            demand[rt.color] += rt.length
        elif r in ctx.gray_color:
            demand[ctx.gray_color[r]] += rt.length - rt.locomotives - rt.waves
    by_route: dict[int, list[ClaimRoute]] = {}
    for a in ctx.of(ClaimRoute):
        assert isinstance(a, ClaimRoute)
        by_route.setdefault(a.route, []).append(a)
    best: dict[int, tuple[float, ClaimRoute]] = {}
    targets = set(ctx.targets)
    for route, options in by_route.items():
        rt = board.routes[route]
        d = demand
        if route in targets:
            d = list(demand)
            if rt.color != GRAY:
                d[rt.color] = max(0, d[rt.color] - rt.length)
            elif route in ctx.gray_color:
                c = ctx.gray_color[route]
                d[c] = max(0, d[c] - rt.length)
        fewest = min(a.locomotives + a.plus4 for a in options)
        for a in options:
            if a.locomotives + a.plus4 > fewest:
                continue
            pen = payment_penalty(ctx, a, d)
            if route not in best or pen < best[route][0]:
                best[route] = (pen, a)
    return best


def completes_ticket(ctx: Context, route: int) -> int:
    """Ticket points a claim of `route` would complete now."""
    state, seat = ctx.state, ctx.seat
    board = state.board
    todo = ctx.plan.covered
    if not todo:
        return 0
    uf = network(state, state.players[seat].routes + shared_routes(state) + [route])
    return sum(
        board.tickets[t].points for t in todo if joined(state, uf, board.tickets[t].a, board.tickets[t].b)
    )


def claim_scores(ctx: Context) -> Scored:
    state = ctx.state
    board = state.board
    out: Scored = []
    pays = best_payments(ctx)
    planned = set(ctx.plan.routes)
    groups = board.groups_by_route
    # a planned route may be taken through its twin of a double route
    planned_groups = {board.routes[r].group for r in planned}
    trains = ctx.player.trains
    spare_trains = trains - ctx.plan.trains
    end_near = ctx.rounds_left <= 3
    hand = ctx.player.hand
    for r, (harm, a) in pays.items():
        rt = board.routes[r]
        pts = board.route_points(rt.length)
        pen = payment_penalty(ctx, a, [0] * len(COLORS)) * 0.5
        own_trains = ctx.graph.train_cost.get(r, rt.length)
        score: float | None = None
        if rt.tunnel and not ctx.last_turn:
            # keep a card in reserve for the tunnel's extra cost (one is enough ~85% of the time)
            colored = rt.length - a.locomotives - a.plus4
            spare = hand[LOCOMOTIVE] - a.locomotives + (hand[a.color] - colored if colored else 0)
            if spare < 1:
                continue
        if r in planned or (rt.group in planned_groups and len(groups[r]) > 1):
            score = 100.0 + (4.0 + ctx.params["long_claim"]) * rt.length - pen
            done = completes_ticket(ctx, r)
            if done:
                score += 20.0 + done
            if end_near:
                score += 3.0 * rt.length
        elif ctx.last_turn:
            score = 150.0 + pts + 2 * completes_ticket(ctx, r) - pen
        elif (
            own_trains <= spare_trains
            and (not ctx.plan.routes or end_near)
            and (rt.length >= 3 or end_near or trains <= 4)
        ):
            score = 60.0 + pts - pen  # trains to spare and nothing better to do with them: points
        elif (
            harm <= 0
            and rt.length >= ctx.params["spare_claim_length"]
            and own_trains <= spare_trains - ctx.params["spare_claim_reserve"]
            and not rt.tunnel
            and ctx.level != "easy"
        ):
            score = 86.0 + pts  # spare cards and trains: points now, at no cost to the plan
        extra = modules.claim_extra(ctx, r)
        if extra:
            if score is None and harm <= 0 and own_trains <= spare_trains - 2:
                score = 80.0 + pts
            if score is not None:
                score += 2.0 * extra
        bonus = modules.claim_bonus(ctx, r)
        if bonus is not None and (score is None or bonus - pen > score):
            score = bonus - pen
        if score is not None:
            out.append((score, a))
    return out


# ---- drawing cards -------------------------------------------------------------------------------------------


def card_values(ctx: Context) -> list[float]:
    """How much one more card of each type helps the targets."""
    vals = [0.0] * (PASSENGER_CARD + 1)
    missing = ctx.missing
    board = ctx.state.board
    need_total = sum(missing) + ctx.locos_missing
    for c in range(len(COLORS)):
        if missing[c] > 0:
            vals[c] = 1.0 + 0.15 * min(missing[c], 4)
        else:
            vals[c] = 0.25  # spare cards still pay gray routes and tunnels later
    close = ctx.params["close_bonus"]
    if close:
        for r in ctx.targets:
            rt = board.routes[r]
            c = rt.color if rt.color != GRAY else ctx.gray_color.get(r, -1)
            if c >= 0 and missing[c] > 0:
                short = planning.route_shortfall(ctx.state, ctx.seat, r)
                if short > 0:
                    vals[c] = max(vals[c], 1.0 + close / short)
    long_route = any(board.routes[r].length >= 4 for r in ctx.targets)
    vals[LOCOMOTIVE] = 1.0 + (0.9 if need_total > 0 else 0.0) + 0.5 * min(ctx.locos_missing, 2)
    vals[LOCOMOTIVE_PLUS4] = 1.2 if long_route else 0.2
    vals[PASSENGER_CARD] = 0.3 if "passengers" in [f.name for f in features_for(ctx.state)] else 0.0
    return vals


def blind_value(vals: list[float]) -> float:
    # the unseen cards, assumed evenly spread (12 per colour, 14 Locomotives)
    return (sum(vals[: len(COLORS)]) * 12 + min(vals[LOCOMOTIVE], 1.6) * 14) / (12 * len(COLORS) + 14)


def draw_scores(ctx: Context, second: bool) -> Scored:
    vals = card_values(ctx)
    blind = blind_value(vals)
    face = ctx.state.face_up
    out: Scored = []
    # the second draw's expected value, for comparing first draws
    best_face = sorted((vals[c] for c in face if c != EMPTY and c != LOCOMOTIVE), reverse=True)
    follow = max(blind, best_face[0] if best_face else 0.0)
    warehouse = pick_warehouse(ctx)
    for a in ctx.of(DrawBlind, DrawFaceUp):
        assert isinstance(a, DrawBlind | DrawFaceUp)
        if a.warehouse not in (None, warehouse):
            continue
        if isinstance(a, DrawBlind):
            v = blind + (0 if second else follow)
        elif isinstance(a, DrawFaceUp):
            c = face[a.slot]
            if c == LOCOMOTIVE and not second:
                v = vals[LOCOMOTIVE]
            else:
                rest = (
                    best_face[1]
                    if len(best_face) > 1 and vals[c] == best_face[0]
                    else (best_face[0] if best_face else 0.0)
                )
                v = vals[c] + (0 if second else max(blind, rest))
            if ctx.level == "easy":
                v += ctx.rng.random() * 0.6
        else:
            continue
        out.append((50.0 + 10.0 * v, a))
    return out


def pick_warehouse(ctx: Context) -> int | None:
    """Warehouses & Depots: the warehouse that gets the blind card: the one whose depots the plan reaches."""
    state = ctx.state
    if "warehouses" not in state.options:
        return None
    board = state.board
    counts = [0] * state.num_players
    for r in ctx.plan.routes:
        rt = board.routes[r]
        for c in (rt.a, rt.b):
            o = state.depot_owner.get(c)
            if o is not None:
                counts[o] += 1
    best = max(range(state.num_players), key=lambda o: (counts[o], o == ctx.seat))
    return best


# ---- stations, depots, warehouses ---------------------------------------------------------------------------


def station_scores(ctx: Context) -> Scored:
    if not ctx.plan.borrowed:
        return []
    state = ctx.state
    board = state.board
    cities: list[int] = []
    for r in ctx.plan.borrowed:
        rt = board.routes[r]
        for c in (rt.a, rt.b):
            if c not in cities:
                cities.append(c)
    demand = [0] * len(COLORS)
    for c, n in enumerate(ctx.missing):
        demand[c] = n
    out: Scored = []
    hand = ctx.player.hand
    for a in ctx.of(BuildStation):
        assert isinstance(a, BuildStation)
        if a.city in cities:
            colored = 0 if a.color == LOCOMOTIVE else 1
            pen = 3.0 * a.locomotives + (0.0 if not colored else max(0, demand[a.color] - hand[a.color] + 2))
            out.append((97.0 - pen, a))
    return out


def depot_scores(ctx: Context) -> Scored:
    """Depots are placed in the depot phase only (reserve depots score the majority bonus)."""
    if ctx.state.phase != DEPOTS:
        return []
    board = ctx.state.board
    want: dict[int, int] = {}
    for r in ctx.plan.routes:
        rt = board.routes[r]
        for c in (rt.a, rt.b):
            want[c] = want.get(c, 0) + 1
    return [
        (10.0 + want.get(a.city, 0) + ctx.rng.random() * 0.1, a)
        for a in ctx.of(PlaceDepot)
        if isinstance(a, PlaceDepot)
    ]


def warehouse_scores(ctx: Context, pending: WarehouseChoice) -> Scored:
    state = ctx.state
    out: Scored = []
    for a in ctx.legal:
        if isinstance(a, TakeWarehouses):
            cards = sum(sum(state.warehouses[o]) for o in a.owners)
            out.append((cards - 2.5 * len(a.owners), a))
    return out


def tunnel_scores(ctx: Context, pending: TunnelPayment) -> Scored:
    route = pending.route
    board = ctx.state.board
    planned = route in ctx.plan.routes or any(
        board.routes[r].group == board.routes[route].group for r in ctx.plan.routes
    )
    length = board.routes[route].length
    value = 12.0 + length if planned else float(board.route_points(length))
    out: Scored = []
    for a in ctx.of(PayTunnel):
        assert isinstance(a, PayTunnel)
        cost = 1.2 * (pending.extra - a.locomotives) + 2.5 * a.locomotives
        out.append((value - cost, a))
    out += [(0.0, a) for a in ctx.of(DeclineTunnel)]
    return out


# ---- board modules ----------------------------------------------------------------------------------------------


def lookahead_value(state: GameState, seat: int, action: Action, rng: random.Random) -> float:
    """The seat's margin if the game were scored right after `action`, on a determinized copy whose other
    players' tickets are set aside (never the real hidden information)."""
    from engine.rules import apply

    s = determinize(state, seat, rng)
    for o, p in enumerate(s.players):
        if o != seat:
            p.tickets = []
    apply(s, seat, action)
    sheets = final_scores(s)
    mine = sheets[seat].total
    others = max((sh.total for sh in sheets if sh.seat != seat), default=0)
    return mine - 0.5 * others


def module_scores(ctx: Context, actions: list[Action], base: float, immediate_only: bool) -> Scored:
    """Actions of board modules this policy has no special rule for: one-step lookahead on the score."""
    if not actions:
        return []
    special = modules.special_scores(ctx, actions)
    if special is not None:
        return special
    if len(actions) > 40:
        actions = actions[:40]
    now = None
    out: Scored = []
    for a in actions:
        try:
            v = lookahead_value(ctx.state, ctx.seat, a, random.Random(ctx.rng.random()))
        except Exception:  # noqa: BLE001 - an unknown module must never crash the AI
            continue
        if immediate_only:
            if now is None:
                now = _static_value(ctx)
            gain = v - now
            if gain >= 3:
                out.append((base + gain, a))
        else:
            out.append((base + v / 100.0, a))
    return out


def _static_value(ctx: Context) -> float:
    s = ctx.state.copy()
    for o, p in enumerate(s.players):
        if o != ctx.seat:
            p.tickets = []
    sheets = final_scores(s)
    mine = sheets[ctx.seat].total
    others = max((sh.total for sh in sheets if sh.seat != ctx.seat), default=0)
    return mine - 0.5 * others


# ---- the decision -----------------------------------------------------------------------------------------------

CORE = (
    DrawBlind,
    DrawFaceUp,
    ClaimRoute,
    DrawTickets,
    BuildStation,
    PlaceDepot,
    Pass,
    KeepTickets,
    ChooseTicketMix,
    PayTunnel,
    DeclineTunnel,
    TakeWarehouses,
)


def ranked(
    state: GameState, seat: int, legal: list[Action], rng: random.Random, level: str = "normal"
) -> Scored:
    """The legal actions the policy would consider, best first (scores are only comparable within a call)."""
    ctx = Context(state, seat, legal, rng, level)
    pending = state.pending.get(seat)
    out: Scored = []
    if isinstance(pending, TicketChoice):
        out = choose_tickets(ctx, pending)
    elif isinstance(pending, TicketMix):
        mixes = [a.mix for a in legal if isinstance(a, ChooseTicketMix)]
        best = mix_choice(ctx, mixes, setup=True)
        out = [(1.0 if a.mix == best else 0.0, a) for a in legal if isinstance(a, ChooseTicketMix)]
    elif isinstance(pending, SecondDraw):
        out = draw_scores(ctx, second=True)
    elif isinstance(pending, TunnelPayment):
        out = tunnel_scores(ctx, pending)
    elif isinstance(pending, WarehouseChoice):
        out = warehouse_scores(ctx, pending)
    elif pending is not None:
        out = module_scores(ctx, legal, 0.0, immediate_only=False)
    elif state.phase == DEPOTS:
        out = depot_scores(ctx)
        out += module_scores(ctx, [a for a in legal if not isinstance(a, CORE)], 0.0, immediate_only=False)
    else:
        out = turn_scores(ctx)
    if not out:
        out = [(0.0, legal[0])]
    out.sort(key=lambda x: -x[0])
    return out


def turn_scores(ctx: Context) -> Scored:
    out = claim_scores(ctx)
    if ctx.level != "easy":
        out += station_scores(ctx)
    out += ticket_draw_scores(ctx)
    if not ctx.last_turn or not out:
        out += draw_scores(ctx, second=False)
    out += depot_scores(ctx)
    others = [a for t, acts in ctx.by_type.items() if t not in CORE for a in acts]
    if others:
        out += module_scores(ctx, others, 90.0, immediate_only=True)
    if not out:
        out = [(0.0, a) for a in ctx.of(Pass)]
    if ctx.level == "easy" and out and ctx.rng.random() < 0.15:
        # loose play: now and then a random card draw instead of the plan
        draws = ctx.of(DrawBlind, DrawFaceUp)
        if draws:
            out.append((1000.0, ctx.rng.choice(draws)))
    return out


def ticket_draw_scores(ctx: Context) -> Scored:
    draws = ctx.of(DrawTickets)
    if not draws or ctx.last_turn:
        return []
    full = ctx.state.board.rules["trains_per_player"]
    trains = ctx.player.trains
    outstanding = ctx.plan.trains
    prm = ctx.params
    min_trains = max(9, int(prm["ticket_draw_trains"] * full)) if ctx.level != "easy" else int(0.5 * full)
    if (
        outstanding > prm["ticket_draw_outstanding"]
        or trains - outstanding < min_trains
        or ctx.rounds_left < prm["ticket_draw_rounds"]
    ):
        return []
    step = draw_step(ctx.state)
    tickets = [a for a in draws if isinstance(a, DrawTickets)]
    pick = tickets[0]
    if isinstance(step["draw"], int):
        best = mix_choice(ctx, [a.mix for a in tickets], setup=False)
        pick = next(a for a in tickets if a.mix == best)
    return [(96.0, pick)]

"""Random playouts: a uniformly random legal action, counted rather than built.

`random_legal_action(state, seat, rng)` picks what `legal_actions(state, seat)[rng.randrange(n)]` would, at a
fraction of the cost: the simulator's and the AI playouts' hot path. It lives beside the rules, not in them, so
the rules module holds only the rules.
"""

from __future__ import annotations

import random
from itertools import combinations, islice
from math import comb

from engine import cards as deck_ops
from engine import tickets as ticket_ops
from engine.actions import Action, ClaimRoute, DrawTickets, KeepTickets, Pass
from engine.cards import EMPTY
from engine.claims import PaymentShape, cached_payment_shapes, plus4_min_length
from engine.legal import NO_DRAW_CHOICE, blind_draw, claimable_routes, face_up_draw, route_checks
from engine.payable import payable_counts
from engine.pending import SecondDraw, TicketChoice
from engine.rules import legal_actions
from engine.state import LAST_ROUND, MAIN, GameState
from engine.turn import hooks_for
from maps import LOCOMOTIVE


def random_legal_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """`legal_actions(state, seat)[rng.randrange(n)]` without building every action: the same action for the
    same random draw, at a fraction of the cost (the simulator's and the AI playouts' hot path)."""
    pending = state.pending.get(seat)
    phase = state.phase
    if pending is not None or (phase != MAIN and phase != LAST_ROUND) or seat != state.current:
        if type(pending) is SecondDraw:
            return _random_second_draw(state, rng)
        if type(pending) is TicketChoice:
            return _random_keep(pending, rng)
        legal = legal_actions(state, seat)
        return legal[rng.randrange(len(legal))]
    # draws: per warehouse choice, the blind draw then each face-up slot (as draw_actions lists them)
    blind = deck_ops.can_draw_blind(state)
    face_up = state.face_up
    slots = [i for i, c in enumerate(face_up) if c != EMPTY] if EMPTY in face_up else [0, 1, 2, 3, 4]
    hooks = hooks_for(state)
    warehouses = NO_DRAW_CHOICE
    if blind and hooks.draw_choices:
        owner = hooks.draw_choices[0]
        warehouses = owner.draw_choices(state, seat)
        blind = owner.blind_after_choice(state)
    per_w = blind + len(slots)
    n_draws = per_w * len(warehouses)
    claims: list[tuple[int, list[PaymentShape]]] | None = None
    if route_checks(state):
        claims = claimable_routes(state, seat)
        n_claims = sum(len(shapes) for _, shapes in claims)
    else:  # count per shape; list the routes only when a claim is drawn
        payable = payable_counts(state, seat)
        n_claims = 0
        for rids, _, n in payable:
            n_claims += len(rids) * n
    n_tickets = ticket_draw_count(state)
    total = n_draws + n_claims + n_tickets
    counted = []
    features = hooks.turn_actions
    if features:
        free_only = not total
        for f in features:
            n = f.count_turn_actions(state, seat)
            if n:
                counted.append((f, n))
                total += n
                if not f.free_turn_actions:
                    free_only = False
        if free_only:
            total += 1  # only free actions (or none): Pass comes last
    elif not total:
        total = 1
    k = rng.randrange(total)
    if k < n_draws:
        w, i = divmod(k, per_w)
        if blind and i == 0:
            return blind_draw(warehouses[w])
        return face_up_draw(slots[i - blind], warehouses[w])
    k -= n_draws
    if k < n_claims:
        if claims is None:
            for rid, key, n in sorted([(rid, key, n) for rids, key, n in payable for rid in rids]):
                if k < n:
                    player = state.players[seat]
                    shapes = cached_payment_shapes(
                        key, tuple(player.hand), player.ferry_cards, plus4_min_length(state.board)
                    )
                    c, locos, p4, ferry = shapes[k]
                    return ClaimRoute(rid, c, locos, p4, ferry)
                k -= n
            raise AssertionError("claim count out of step")
        for rid, shapes in claims:
            if k < len(shapes):
                c, locos, p4, ferry = shapes[k]
                return ClaimRoute(rid, c, locos, p4, ferry)
            k -= len(shapes)
    k -= n_claims
    if k < n_tickets:
        step = ticket_ops.draw_step(state)
        if isinstance(step["draw"], int):
            return DrawTickets(ticket_ops.mix_table(state, step)[k])
        return DrawTickets()
    k -= n_tickets
    for f, n in counted:
        if k < n:
            return f.nth_turn_action(state, seat, k)
        k -= n
    return Pass()


def _random_second_draw(state: GameState, rng: random.Random) -> Action:
    """`draw_actions(state, seat, second=True)[rng.randrange(n)]`, counted rather than built."""
    blind = deck_ops.can_draw_blind(state)
    slots = [i for i, c in enumerate(state.face_up) if c != EMPTY and c != LOCOMOTIVE]
    k = rng.randrange(blind + len(slots))
    if blind and k == 0:
        return blind_draw(None)
    return face_up_draw(slots[k - blind], None)


def _random_keep(pending: TicketChoice, rng: random.Random) -> Action:
    """`pending_actions(...)[rng.randrange(n)]` for a ticket choice, without building every combination."""
    offered = sorted(pending.offered)
    sizes = range(pending.keep_min, pending.keep_max + 1)
    k = rng.randrange(sum(comb(len(offered), size) for size in sizes))
    for size in sizes:
        n = comb(len(offered), size)
        if k < n:
            return KeepTickets(next(islice(combinations(offered, size), k, None)))
        k -= n
    raise AssertionError("unreachable")


def ticket_draw_count(state: GameState) -> int:
    """len(ticket_draw_actions(state)), without building them when the board has one ticket deck."""
    step = ticket_ops.draw_step(state)
    draw = step["draw"]
    if isinstance(draw, int):
        return len(ticket_ops.mix_table(state, step))
    decks = state.ticket_decks
    for name, n in draw.items():
        if n and decks.get(name):
            return 1
    return 0

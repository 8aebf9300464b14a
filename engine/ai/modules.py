"""The AI's rules of thumb for board modules' own actions (Germany meeples, Märklin passengers, Japan bullet
routes, Italy ferry cards). Actions of modules not known here fall back on the generic one-step lookahead in
engine.ai.policy. Every helper reads public module state and the seat's own holdings only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import Action, MovePassenger, PlacePassenger, TakeFerryCard, TakeMeeple
from engine.ai.context import Context, Scored


def special_scores(ctx: Context, actions: list[Action]) -> Scored | None:
    """Scores for module actions this file knows (by their class, in the order of `SCORERS`); None when it
    knows none of them (generic lookahead)."""
    out: Scored = []
    known = False
    for kind, scorer in SCORERS.items():
        mine = [a for a in actions if type(a) is kind]
        if mine:
            known = True
            out += scorer(ctx, mine)
    return out if known else None


# ---- Germany: meeples -------------------------------------------------------------------------------------------


def _meeples(ctx: Context, actions: list[TakeMeeple]) -> Scored:
    from engine.features import meeples as mod

    state, seat = ctx.state, ctx.seat
    names = mod.colors(state)
    first, second = (state.board.rules.get("meeples", {}).get("majority_points") or [20, 10])[:2]
    counts = [mod.holdings(state, s) for s in range(state.num_players)]
    out: Scored = []
    for a in actions:
        ci = names.index(a.color)
        before = mod.majority_points([c[ci] for c in counts], first, second)
        after_counts = [c[ci] + (1 if s == seat else 0) for s, c in enumerate(counts)]
        after = mod.majority_points(after_counts, first, second)
        gain = (after[seat] - before[seat]) - 0.5 * (
            max(after[o] for o in range(len(after)) if o != seat)
            - max(before[o] for o in range(len(before)) if o != seat)
        )
        mine = counts[seat][ci]
        best_other = max(c[ci] for s, c in enumerate(counts) if s != seat)
        # a colour within reach of the lead is worth more than a lost cause or a safe lead
        closeness = 1.0 / (1 + abs(best_other + 1 - mine))
        left = sum(p[ci] for p in mod.places(state))
        out.append((gain + 3.0 * closeness + 0.05 * left, a))
    return out


# ---- Italy: ferry cards -------------------------------------------------------------------------------------------


def _ferry(ctx: Context, actions: list[TakeFerryCard]) -> Scored:
    board = ctx.state.board
    waves = sum(board.routes[r].waves for r in ctx.targets)
    if not waves:
        return []
    player = ctx.player
    covered = 2 * player.ferry_cards
    uncovered = max(0, waves - covered - player.hand[8])
    if uncovered <= 0:
        return []
    return [(50.0 + 10.0 * (min(uncovered, 2) + 0.3), a) for a in actions]


# ---- Märklin: passengers -------------------------------------------------------------------------------------------


def _place_passenger(ctx: Context, actions: list[PlacePassenger]) -> Scored:
    from engine.features import merchandise

    state, seat = ctx.state, ctx.seat
    board = state.board
    owner = state.route_owner
    out: Scored = []
    for a in actions:
        city = a.city
        if city is None:
            out.append((0.0, a))
            continue
        # tokens within one or two own routes of the city
        value = 1.0
        for r in board.routes_at[city]:
            if owner[r] == seat:
                rt = board.routes[r]
                nxt = rt.b if rt.a == city else rt.a
                value += merchandise.top_token(state, nxt)
        planned = sum(1 for r in ctx.plan.routes if city in (board.routes[r].a, board.routes[r].b))
        out.append((value + 2.0 * planned, a))
    return out


def _move_passenger(ctx: Context, actions: list[MovePassenger]) -> Scored:
    from engine.features import passengers

    state, seat = ctx.state, ctx.seat
    reserve = state.players[seat].extra.get("passengers", 0)
    end_near = ctx.rounds_left <= 3
    out: Scored = []
    for a in actions:
        try:
            trip = passengers.check_trip(state, seat, a.start, a.routes)
        except Exception:  # noqa: BLE001 - legal actions always check; be safe all the same
            continue
        gain = trip.points - 0.3 * trip.cards
        threshold = 3 if (end_near or ctx.last_turn) else (10 if reserve == 0 else 14)
        if gain >= threshold:
            out.append((88.0 + gain, a))
    return out


# The rule of thumb for each module action, by the action's class (python-chess's and the presenters' way: a
# table, not a chain of kind strings). The order is the order of the scores' list (ties keep it).
SCORERS: dict[type[Action], Callable[[Context, Any], Scored]] = {
    TakeMeeple: _meeples,
    TakeFerryCard: _ferry,
    PlacePassenger: _place_passenger,
    MovePassenger: _move_passenger,
}


# ---- Japan: bullet routes -----------------------------------------------------------------------------------------


def claim_bonus(ctx: Context, route: int) -> float | None:
    """Extra wish to claim `route` for a module's sake (None: no opinion)."""
    state = ctx.state
    rt = state.board.routes[route]
    if rt.bullet and "bullet_trains" in state.board.rules.get("features", []):
        from engine.features import bullet_trains as bt

        if not bt.places_bullet_train(state, route):
            return None
        mine = bt.track(state, ctx.seat)
        others = [bt.track(state, s) for s in range(state.num_players) if s != ctx.seat]
        if mine == 0:
            return 105.0 + rt.length
        if mine <= max(others) + 3:
            return 64.0 + 2.0 * rt.length
        return 45.0
    return None


def claim_extra(ctx: Context, route: int) -> float:
    """Points a claim of `route` adds through a module's end-of-game bonus (Italy's regions)."""
    state = ctx.state
    if "regions" not in state.board.rules.get("features", []):
        return 0.0
    from engine.features.regions import regions_bonus

    mine = list(ctx.player.routes)
    return float(regions_bonus(state.board, [*mine, route]) - regions_bonus(state.board, mine))

"""Legal-action generation: every action a seat may take on its turn (card draws, route claims, ticket draws,
the board modules' own actions, or a pass when nothing else is possible) and every way to resolve what it has
pending (the second card, a ticket mix, a ticket choice, a module's question).

`engine.rules.legal_actions` is the entry; the random playout (engine.playout) counts the same lists without
building them. The draw actions are shared instances, registered in `WELL_FORMED` so that `apply` need not check
their fields.
"""

from __future__ import annotations

from itertools import combinations

from engine import cards as deck_ops
from engine import tickets as ticket_ops
from engine.actions import (
    Action,
    ChooseTicketMix,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from engine.cards import EMPTY
from engine.claims import PaymentShape
from engine.payable import payable_shapes
from engine.pending import Pending, SecondDraw, TicketChoice, TicketMix
from engine.state import GameState
from engine.turn import features_for, hooks_for
from maps import LOCOMOTIVE

NO_DRAW_CHOICE: list[int | None] = [None]


def draw_choices(state: GameState, seat: int) -> list[int | None]:
    """The values a first draw's `warehouse` argument may take: [None] unless a board module uses it."""
    owners = hooks_for(state).draw_choices
    return owners[0].draw_choices(state, seat) if owners else NO_DRAW_CHOICE


def draw_actions(state: GameState, seat: int, *, second: bool) -> list[Action]:
    """The card draws: per warehouse choice, the blind draw then each face-up slot (no Locomotive second)."""
    out: list[Action] = []
    warehouses = NO_DRAW_CHOICE if second else draw_choices(state, seat)
    blind = deck_ops.can_draw_blind(state)
    if not second and blind:
        owners = hooks_for(state).draw_choices
        if owners:
            blind = owners[0].blind_after_choice(state)
    for w in warehouses:
        if blind:
            out.append(blind_draw(w))
        for slot, card in enumerate(state.face_up):
            if card != EMPTY and not (second and card == LOCOMOTIVE):
                out.append(face_up_draw(slot, w))
    return out


# Draw actions are few and immutable: one instance each (built on first use) spares the frozen-dataclass
# constructor on the hot path.
_BLIND_DRAWS: dict[int | None, DrawBlind] = {}
_FACE_UP_DRAWS: dict[tuple[int, int | None], DrawFaceUp] = {}


# The same instances by id: `apply` need not check their field types (the dict keeps them alive, so an id is
# never reused by another object).
WELL_FORMED: dict[int, Action] = {}


def blind_draw(warehouse: int | None) -> DrawBlind:
    """DrawBlind(warehouse) (`warehouse`: the seat whose warehouse gets a card first, or None): one instance."""
    action = _BLIND_DRAWS.get(warehouse)
    if action is None:
        action = _BLIND_DRAWS[warehouse] = DrawBlind(warehouse)
        WELL_FORMED[id(action)] = action
    return action


def face_up_draw(slot: int, warehouse: int | None) -> DrawFaceUp:
    """DrawFaceUp(slot, warehouse), as `blind_draw`: one instance for each pair."""
    action = _FACE_UP_DRAWS.get((slot, warehouse))
    if action is None:
        action = _FACE_UP_DRAWS[(slot, warehouse)] = DrawFaceUp(slot, warehouse)
        WELL_FORMED[id(action)] = action
    return action


def second_draw_possible(state: GameState) -> bool:
    """Whether `draw_actions(..., second=True)` is not empty: a blind card, or a face-up card but a Locomotive."""
    if deck_ops.can_draw_blind(state):
        return True
    return any(c != EMPTY and c != LOCOMOTIVE for c in state.face_up)


def route_checks(state: GameState) -> bool:
    """Whether some module has a say on single routes (claim blocked, trains of another kind)."""
    hooks = hooks_for(state)
    return bool(hooks.claim_error or hooks.uses_own_trains)


def _route_allowed(state: GameState, seat: int, rid: int, length: int) -> bool:
    hooks = hooks_for(state)
    if hooks.claim_error and any(f.claim_error(state, seat, rid) for f in hooks.claim_error):
        return False
    trains = state.players[seat].trains
    return not (length > trains and all(f.uses_own_trains(state, seat, rid) for f in hooks.uses_own_trains))


def claimable_routes(state: GameState, seat: int) -> list[tuple[int, list[PaymentShape]]]:
    """Each route the seat may claim now with its payments, in route id order (the legal-action hot path)."""
    payable = payable_shapes(state, seat)
    if route_checks(state):
        out = [
            (rid, shapes)
            for rids, shapes, length in payable
            for rid in rids
            if _route_allowed(state, seat, rid, length)
        ]
    else:
        out = [(rid, shapes) for rids, shapes, _ in payable for rid in rids]
    out.sort()
    return out


def claim_actions(state: GameState, seat: int) -> list[Action]:
    return [
        ClaimRoute(rid, c, k, p4, f)
        for rid, shapes in claimable_routes(state, seat)
        for c, k, p4, f in shapes
    ]


def ticket_draw_actions(state: GameState) -> list[Action]:
    step = ticket_ops.draw_step(state)
    if isinstance(step["draw"], int):
        return [DrawTickets(mix) for mix in ticket_ops.mix_options(state, step)]
    return [DrawTickets()] if ticket_ops.available(state, step) else []


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """What the seat may do at the start of its turn: draws, claims, tickets, the modules' actions, else pass."""
    out = draw_actions(state, seat, second=False)
    out += claim_actions(state, seat)
    out += ticket_draw_actions(state)
    for f in features_for(state):
        out.extend(f.turn_actions(state, seat))
    if not out or all(a.free for a in out):
        out.append(Pass())
    return out


def pending_actions(state: GameState, seat: int, pending: Pending) -> list[Action]:
    """The ways to resolve what the seat has pending: its second card, ticket mix or choice, a module's step."""
    if isinstance(pending, SecondDraw):
        return draw_actions(state, seat, second=True)
    if isinstance(pending, TicketMix):
        step = ticket_ops.ticket_rules(state)["setup"][pending.step]
        return [ChooseTicketMix(m) for m in ticket_ops.mix_options(state, step)]
    if isinstance(pending, TicketChoice):
        offered = sorted(pending.offered)
        return [
            KeepTickets(combo)
            for k in range(pending.keep_min, pending.keep_max + 1)
            for combo in combinations(offered, k)
        ]
    for f in features_for(state):
        if isinstance(pending, f.pending_types):
            return f.pending_actions(state, seat, pending)
    raise AssertionError(f"no module resolves {pending.kind}")

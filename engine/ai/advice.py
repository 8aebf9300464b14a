"""A suggested move for a player who asks: the normal AI's choice for their seat, with a one-line reason.

The choice is made on a determinized copy of the game (`engine.ai.infoset.determinize`): everything the seat
cannot see (the deck order, the other hands and tickets) is dealt again from a generator seeded by what the
seat can see, so the suggestion cannot depend on a hidden fact. The reason is a code and its parameters (ids of
routes, tickets, cards), never a sentence: the caller words it in the player's language.

| code              | params                    | when                                                        |
|-------------------|---------------------------|-------------------------------------------------------------|
| `completes`       | route, ticket             | the claim completes one of the seat's tickets               |
| `on_path`         | route, ticket             | the claim lies on the planned path of a ticket              |
| `points`          | route, points             | any other claim: its points                                 |
| `draw_toward`     | card, ticket              | a card of a colour a planned route of a ticket still needs  |
| `draw_locomotive` | card                      | a face-up locomotive                                        |
| `draw_blind`      |                           | no face-up card helps more than an unseen one               |
| `draw_tickets`    |                           | trains to spare for more tickets                            |
| `keep_tickets`    | n, points                 | the tickets worth keeping                                   |
| `station`         | city                      | a station to use another player's route                     |
| `tunnel_pay`      |                           | pay the tunnel's extra cost                                 |
| `tunnel_decline`  |                           | give the tunnel up                                          |
| `best`            |                           | anything else                                               |
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
)
from engine.ai.context import Context
from engine.ai.infoset import determinize
from engine.ai.policy import completes_ticket, ranked
from engine.rules import legal_actions
from engine.scoring import joined, network, shared_routes
from engine.state import GameState
from maps import GRAY, LOCOMOTIVE

LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class Suggestion:
    """What the normal AI would do for the seat now, and why (`reason` and `params`, see the module table)."""

    action: Action
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


def _seed(state: GameState, seat: int) -> int:
    """A seed made of public facts only, so asking twice at the same moment gives the same suggestion."""
    return hash((state.turn, seat, len(state.history), tuple(state.face_up))) & 0xFFFFFFFF


def suggest(state: GameState, seat: int) -> Suggestion:
    """The normal AI's move for `seat` and its reason. Raises ValueError when the seat has nothing to do."""
    if not legal_actions(state, seat):
        raise ValueError(f"seat {seat} has nothing to do now")
    rng = random.Random(_seed(state, seat))
    seen = determinize(state, seat, rng)  # what the seat may know, and nothing else
    legal = legal_actions(seen, seat)
    action = ranked(seen, seat, legal, rng, LEVEL)[0][1]
    reason, params = _reason(Context(seen, seat, legal, rng, LEVEL), action)
    return Suggestion(action, reason, params)


def _completed_ticket(ctx: Context, route: int) -> int | None:
    """A ticket of the plan that claiming `route` joins now (the most valuable)."""
    state, seat = ctx.state, ctx.seat
    board = state.board
    uf = network(state, state.players[seat].routes + shared_routes(state) + [route])
    done = [t for t in ctx.plan.covered if joined(state, uf, board.tickets[t].a, board.tickets[t].b)]
    return max(done, key=lambda t: (board.tickets[t].points, -t)) if done else None


def _ticket_for(ctx: Context, route: int) -> int | None:
    """The ticket a planned route (or its twin of a double route) was planned for."""
    board = ctx.state.board
    plan = ctx.plan.route_ticket
    if route in plan:
        return plan[route]
    for twin in board.groups_by_route[route]:
        if twin in plan:
            return plan[twin]
    return None


def _reason(ctx: Context, action: Action) -> tuple[str, dict[str, Any]]:
    state = ctx.state
    board = state.board
    if isinstance(action, ClaimRoute):
        r = action.route
        if completes_ticket(ctx, r):
            ticket = _completed_ticket(ctx, r)
            if ticket is not None:
                return "completes", {"route": r, "ticket": ticket}
        ticket = _ticket_for(ctx, r)
        if ticket is not None:
            return "on_path", {"route": r, "ticket": ticket}
        return "points", {"route": r, "points": board.route_points(board.routes[r].length)}
    if isinstance(action, DrawFaceUp):
        card = state.face_up[action.slot]
        if card == LOCOMOTIVE:
            return "draw_locomotive", {"card": card}
        for r in ctx.targets:
            rt = board.routes[r]
            colour = rt.color if rt.color != GRAY else ctx.gray_color.get(r, -1)
            ticket = _ticket_for(ctx, r)
            if colour == card and ticket is not None and ctx.missing[card] > 0:
                return "draw_toward", {"card": card, "ticket": ticket}
        return "best", {}
    if isinstance(action, DrawBlind):
        return "draw_blind", {}
    if isinstance(action, DrawTickets):
        return "draw_tickets", {}
    if isinstance(action, KeepTickets):
        return "keep_tickets", {
            "n": len(action.tickets),
            "points": sum(board.tickets[t].points for t in action.tickets),
        }
    if isinstance(action, BuildStation):
        return "station", {"city": action.city}
    if isinstance(action, PayTunnel):
        return "tunnel_pay", {}
    if isinstance(action, DeclineTunnel):
        return "tunnel_decline", {}
    return "best", {}

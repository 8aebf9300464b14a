"""What one player, or everyone, may see of a game. The bot, the renderer and the AI players read only these.

`public_view` holds no hand, no kept ticket, no deck order and no seed. `player_view` adds one seat's own secrets.
"""

from __future__ import annotations

from typing import Any

from engine.cards import EMPTY
from engine.events import private_events, public_events
from engine.pending import Pending, TicketChoice, TunnelPayment
from engine.progress import ticket_progress
from engine.state import GameState
from engine.turn import features_for
from maps import CARD_NAMES


def _public_pending(p: Pending) -> dict[str, Any]:
    """What others may know of a seat's pending decision."""
    out: dict[str, Any] = {"kind": p.kind}
    if isinstance(p, TunnelPayment):  # the revealed cards are shown to everyone
        out.update(route=p.route, revealed=[CARD_NAMES[c] for c in p.revealed], extra=p.extra)
    elif isinstance(p, TicketChoice):
        out.update(offered=len(p.offered))
    return out


def public_view(state: GameState) -> dict[str, Any]:
    board = state.board
    module_info: dict[str, Any] = {}
    for f in features_for(state):
        module_info.update(f.public_info(state))
    return {
        "board": board.id,
        "variant": state.variant,
        "options": list(state.options),
        "phase": state.phase,
        "current": state.current,
        "turn": state.turn,
        "last_round_left": state.last_round_left,
        "ended_by": state.ended_by,
        "players": [
            {
                "seat": i,
                "name": p.name,
                "score": p.score,
                "trains": p.trains,
                "stations": p.stations,
                "cards": sum(p.hand),
                "tickets": len(p.tickets),
                "routes": list(p.routes),
                "ferry_cards": p.ferry_cards,
                "depots": p.depots,
                "extra": dict(p.extra),
            }
            for i, p in enumerate(state.players)
        ],
        "face_up": [None if c == EMPTY else CARD_NAMES[c] for c in state.face_up],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "ticket_decks": {k: len(v) for k, v in state.ticket_decks.items()},
        "route_owner": list(state.route_owner),
        "stations": {c: s for c, s in state.station_owner.items()},
        "depots": {c: s for c, s in state.depot_owner.items()},
        "warehouses": [sum(w) for w in state.warehouses],
        "pending": {s: _public_pending(p) for s, p in state.pending.items()},
        "modules": module_info,
        "events": [e.to_json() for e in public_events(state.events)],  # what the last action did
    }


def player_view(state: GameState, seat: int) -> dict[str, Any]:
    """The public view plus what `seat` alone may see: hand, kept tickets and progress, own pending choice."""
    view = public_view(state)
    player = state.players[seat]
    pending = state.pending.get(seat)
    own_pending: dict[str, Any] | None = None
    if pending is not None:
        own_pending = pending.to_json()
        if isinstance(pending, TicketChoice):
            own_pending["offered_tickets"] = [ticket_info(state, t) for t in pending.offered]
    view["you"] = {
        "seat": seat,
        "hand": {CARD_NAMES[c]: n for c, n in enumerate(player.hand) if n},
        "tickets": [
            {**ticket_info(state, p.ticket), "done": p.done, "trains_needed": p.trains_needed}
            for p in ticket_progress(state, seat)
        ],
        "pending": own_pending,
        "events": [e.to_json() for e in private_events(state.events, seat)],
    }
    return view


def ticket_info(state: GameState, t: int) -> dict[str, Any]:
    """Ticket `t` as its owner sees it (cities by name, points, deck)."""
    tk = state.board.tickets[t]
    return {
        "id": t,
        "a": state.board.cities[tk.a].name,
        "b": state.board.cities[tk.b].name,
        "points": tk.points,
        "deck": tk.deck,
    }

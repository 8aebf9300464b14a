"""What one player, or everyone, may see of a game. The bot, the renderer and the AI players read only these.

`public_view` holds no hand, no kept ticket, no deck order and no seed. `player_view` adds one seat's own secrets,
and is the only way out for them. Both are frozen values (cards by type index, cities, routes and tickets by id,
as on the board); a board module's own public state is in `PublicView.modules`, under the module's name.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import EMPTY
from engine.events import Event, private_events, public_events
from engine.pending import Pending, TicketChoice, TunnelPayment
from engine.progress import ticket_progress
from engine.state import GameState
from engine.turn import features_for
from maps import CARD_NAMES


@dataclass(frozen=True, slots=True)
class PendingInfo:
    """What everyone may know of a seat's pending decision: its kind; for a tunnel, the route, the revealed
    cards and the extra cost; for a ticket choice, how many tickets are offered."""

    kind: str
    route: int | None = None
    revealed: tuple[int, ...] = ()
    extra: int = 0
    offered: int = 0


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One seat as everyone sees it: counts, never which cards or tickets."""

    seat: int
    name: str
    score: int  # points scored during play
    trains: int
    stations: int  # stations left to build
    cards: int  # cards in hand (a count)
    tickets: int  # tickets kept (a count)
    routes: tuple[int, ...]
    ferry_cards: int  # Italy
    depots: int  # Warehouses & Depots: depots left
    extra: Mapping[str, Any]  # board modules' per-seat public values (passengers left...)


@dataclass(frozen=True, slots=True)
class PublicView:
    board: str
    variant: str
    options: tuple[str, ...]
    phase: str
    current: int
    first_player: int  # the seat that played first (drawn from the seed)
    turn: int
    last_round_left: int | None
    ended_by: int | None
    players: tuple[PlayerInfo, ...]
    face_up: tuple[int | None, ...]  # card type per slot, None for an empty slot
    deck: int  # cards left to draw
    discard: int
    ticket_decks: Mapping[str, int]  # tickets left per deck
    route_owner: tuple[int, ...]  # seat per route, -1 for none
    stations: Mapping[int, int]  # city -> seat
    depots: Mapping[int, int]  # city -> seat (Warehouses & Depots)
    warehouses: tuple[int, ...]  # cards in each seat's warehouse (a count)
    pending: Mapping[int, PendingInfo]
    modules: Mapping[str, Any]  # board modules' public state, by module name
    events: tuple[Event, ...]  # what the last action did (public events only)


@dataclass(frozen=True, slots=True)
class TicketInfo:
    """A ticket as its owner sees it; `done` and `trains_needed` for a kept ticket (None for one offered)."""

    id: int
    a: str
    b: str
    points: int
    deck: str
    done: bool | None = None
    trains_needed: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The public view plus what `seat` alone may see."""

    public: PublicView
    seat: int
    hand: Mapping[str, int]  # card name -> count, only the colours held
    tickets: tuple[TicketInfo, ...]  # kept, with progress
    pending: Pending | None  # the seat's own pending decision, whole
    offered: tuple[
        TicketInfo, ...
    ]  # the tickets to choose from, when the pending decision is a ticket choice
    events: tuple[Event, ...]  # what the last action told this seat alone


def _public_pending(p: Pending) -> PendingInfo:
    if isinstance(p, TunnelPayment):  # the revealed cards are shown to everyone
        return PendingInfo(p.kind, route=p.route, revealed=tuple(p.revealed), extra=p.extra)
    if isinstance(p, TicketChoice):
        return PendingInfo(p.kind, offered=len(p.offered))
    return PendingInfo(p.kind)


def public_view(state: GameState) -> PublicView:
    module_info: dict[str, Any] = {}
    for f in features_for(state):
        module_info.update(f.public_info(state))
    return PublicView(
        board=state.board.id,
        variant=state.variant,
        options=tuple(state.options),
        phase=state.phase,
        current=state.current,
        first_player=state.first_player,
        turn=state.turn,
        last_round_left=state.last_round_left,
        ended_by=state.ended_by,
        players=tuple(
            PlayerInfo(
                seat=i,
                name=p.name,
                score=p.score,
                trains=p.trains,
                stations=p.stations,
                cards=sum(p.hand),
                tickets=len(p.tickets),
                routes=tuple(p.routes),
                ferry_cards=p.ferry_cards,
                depots=p.depots,
                extra=dict(p.extra),
            )
            for i, p in enumerate(state.players)
        ),
        face_up=tuple(None if c == EMPTY else c for c in state.face_up),
        deck=len(state.deck),
        discard=len(state.discard),
        ticket_decks={k: len(v) for k, v in state.ticket_decks.items()},
        route_owner=tuple(state.route_owner),
        stations=dict(state.station_owner),
        depots=dict(state.depot_owner),
        warehouses=tuple(sum(w) for w in state.warehouses),
        pending={s: _public_pending(p) for s, p in state.pending.items()},
        modules=module_info,
        events=tuple(public_events(state.events)),
    )


def player_view(state: GameState, seat: int) -> PlayerView:
    """The public view plus what `seat` alone may see: hand, kept tickets and progress, own pending choice."""
    player = state.players[seat]
    pending = state.pending.get(seat)
    offered = (
        tuple(ticket_info(state, t) for t in pending.offered) if isinstance(pending, TicketChoice) else ()
    )
    return PlayerView(
        public=public_view(state),
        seat=seat,
        hand={CARD_NAMES[c]: n for c, n in enumerate(player.hand) if n},
        tickets=tuple(
            ticket_info(state, p.ticket, done=p.done, trains_needed=p.trains_needed)
            for p in ticket_progress(state, seat)
        ),
        pending=copy.copy(pending),  # a copy: pending records are mutable
        offered=offered,
        events=tuple(private_events(state.events, seat)),
    )


def ticket_info(
    state: GameState, t: int, *, done: bool | None = None, trains_needed: int | None = None
) -> TicketInfo:
    """Ticket `t` as its owner sees it (cities by name, points, deck)."""
    tk = state.board.tickets[t]
    board = state.board
    return TicketInfo(
        t, board.cities[tk.a].name, board.cities[tk.b].name, tk.points, tk.deck, done, trains_needed
    )

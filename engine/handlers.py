"""The core actions' handlers, one per action type (`HANDLERS`): draw a card, claim a route, draw tickets,
announce a ticket mix, keep tickets, pass.

`engine.rules.apply` checks whose turn it is and calls the handler of the action's type (a board module's own
actions go to its `Feature.apply`). A handler checks everything before it changes anything, raising
`IllegalAction`, so a refused action leaves the state as it was; then it changes the state in place and appends
the action's events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from engine.claims import affordability_error, claim_block, payment_of
from engine.errors import IllegalAction
from engine.events import (
    BLIND_DRAWN,
    BlindCardSeen,
    CardDrawn,
    Passed,
    PlayStarted,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TurnStarted,
)
from engine.legal import second_draw_possible, turn_actions
from engine.pending import Pending, SecondDraw, TicketChoice, TicketMix
from engine.state import LAST_ROUND, MAIN, GameState
from engine.turn import (
    complete_claim,
    end_turn,
    finish,
    hooks_for,
    require_turn_start,
    share_event,
    shared_event,
)
from maps import LOCOMOTIVE


def _draw(state: GameState, seat: int, action: DrawBlind | DrawFaceUp, pending: Pending | None) -> None:
    second = type(pending) is SecondDraw
    if not second:
        if pending is not None or (state.phase != MAIN and state.phase != LAST_ROUND):
            require_turn_start(state, seat, pending, action, "drawing cards")
        if action.warehouse is not None and not hooks_for(state).draw_choices:
            raise IllegalAction("no_warehouses", "There are no warehouses in this game.")
        if isinstance(action, DrawFaceUp) and (
            not 0 <= action.slot < len(state.face_up) or state.face_up[action.slot] == EMPTY
        ):
            raise IllegalAction("no_face_up_card", "There is no face-up card there.", slot=action.slot)
        if isinstance(action, DrawBlind) and not deck_ops.can_draw_blind(state):
            raise IllegalAction(
                "no_card_to_draw", "The deck and the discard pile are empty: no card can be drawn blind."
            )
        for f in hooks_for(state).before_draw:
            f.before_draw(state, seat, action)
    elif action.warehouse is not None:
        raise IllegalAction(
            "warehouse_first_card_only", "The warehouse card is stored before the first card only."
        )
    player = state.players[seat]
    if isinstance(action, DrawFaceUp):
        if not 0 <= action.slot < len(state.face_up) or state.face_up[action.slot] == EMPTY:
            raise IllegalAction("no_face_up_card", "There is no face-up card there.", slot=action.slot)
        card = state.face_up[action.slot]
        if second and card == LOCOMOTIVE:
            raise IllegalAction(
                "face_up_locomotive_second", "A face-up Locomotive cannot be your second card."
            )
        player.hand[card] += 1
        deck_ops.refill_slot(state, action.slot)
        taken = ("face_up", seat, card, action.slot)
        state.events.append(shared_event(taken) or share_event(taken, CardDrawn(seat, card, action.slot)))
        ends_turn = second or card == LOCOMOTIVE
    else:
        drawn = deck_ops.draw_card(state)
        if drawn is None:
            raise IllegalAction(
                "no_card_to_draw", "The deck and the discard pile are empty: no card can be drawn blind."
            )
        player.hand[drawn] += 1
        state.events.append(BLIND_DRAWN[seat])
        seen = ("blind", seat, drawn)
        state.events.append(shared_event(seen) or share_event(seen, BlindCardSeen(seat, drawn)))
        ends_turn = second
    if not ends_turn and not second_draw_possible(state):
        ends_turn = True  # no second card can be had
    if ends_turn:
        state.pending.pop(seat, None)
        end_turn(state)
    else:
        state.pending[seat] = _SECOND_DRAW


_SECOND_DRAW = SecondDraw()  # no fields: one instance serves every game


def _claim(state: GameState, seat: int, action: ClaimRoute, pending: Pending | None) -> None:
    require_turn_start(state, seat, pending, action, "claiming a route")
    board = state.board
    if not 0 <= action.route < len(board.routes):
        raise IllegalAction("no_such_route", "There is no such route.", route=action.route)
    block = claim_block(state, seat, action.route)
    if block is not None:
        raise block
    hooks = hooks_for(state)
    for f in hooks.claim_error:
        why = f.claim_error(state, seat, action.route)
        if why is not None:
            raise why
    route = board.routes[action.route]
    player = state.players[seat]
    if route.length > player.trains and all(
        f.uses_own_trains(state, seat, action.route) for f in hooks.uses_own_trains
    ):
        label = board.route_label(action.route)
        raise IllegalAction(
            "route_needs_trains",
            f"{label} needs {route.length} trains; you have {player.trains} left.",
            route=label,
            need=route.length,
            have=player.trains,
        )
    pay = payment_of(state, action)
    if isinstance(pay, IllegalAction):
        raise pay
    if not pay.colored and action.color != LOCOMOTIVE:  # one spelling per payment, as legal_actions lists it
        raise IllegalAction(
            "wild_payment_color", "A payment of wild cards only has the Locomotive as its colour."
        )
    why = affordability_error(state, seat, action.route, pay)
    if why is not None:
        raise why
    for f in hooks.start_claim:
        if f.start_claim(state, seat, action.route, pay):
            return
    complete_claim(state, seat, action.route, pay)


def _draw_tickets(state: GameState, seat: int, action: DrawTickets, pending: Pending | None) -> None:
    require_turn_start(state, seat, pending, action, "drawing tickets")
    step = ticket_ops.draw_step(state)
    if not isinstance(step["draw"], int) and action.mix:
        raise IllegalAction("no_ticket_mix", "This board has one ticket deck: no mix to announce.")
    _offer(state, seat, step, -1, tuple(action.mix))


def _offer(state: GameState, seat: int, step: dict[str, Any], index: int, mix: tuple[int, ...]) -> None:
    """Deal `seat` the tickets of `step` and say publicly how many (before the private offer)."""
    ticket_ops.offer(state, seat, step, index, mix)
    offered = state.pending[seat]
    assert isinstance(offered, TicketChoice)
    state.events.insert(0, TicketsDrawn(seat, len(offered.offered)))


def _choose_mix(state: GameState, seat: int, action: ChooseTicketMix, pending: Pending | None) -> None:
    if not isinstance(pending, TicketMix):
        raise IllegalAction("no_ticket_mix_now", "There is no ticket mix to announce now.")
    _offer(
        state, seat, ticket_ops.ticket_rules(state)["setup"][pending.step], pending.step, tuple(action.mix)
    )


def _keep(state: GameState, seat: int, action: KeepTickets, pending: Pending | None) -> None:
    if not isinstance(pending, TicketChoice):
        raise IllegalAction("no_ticket_choice", "You have no tickets to choose from now.")
    ticket_ops.keep(state, seat, pending, tuple(action.tickets))
    del state.pending[seat]
    state.events.append(TicketsKept(seat, len(action.tickets)))
    kept = set(action.tickets)
    state.events.append(TicketsChosen(seat, tuple(t for t in state.players[seat].tickets if t in kept)))
    if pending.step < 0:
        end_turn(state)
        return
    steps = ticket_ops.ticket_rules(state)["setup"]
    if pending.step + 1 < len(steps):
        ticket_ops.start_step(state, seat, pending.step + 1)
    elif not state.pending:
        _start_play(state)


def _start_play(state: GameState) -> None:
    ticket_ops.finish_setup(state)
    state.phase = MAIN
    state.current = state.first_player
    for f in hooks_for(state).start_play:
        f.start_play(state)
    state.events.append(TurnStarted(state.current))
    state.events.append(PlayStarted(state.current))


def _pass(state: GameState, seat: int, action: Pass, pending: Pending | None) -> None:
    if pending is not None or any(not a.free for a in turn_actions(state, seat) if not isinstance(a, Pass)):
        raise IllegalAction("cannot_pass", "You can only pass when there is nothing else you can do.")
    passes = state.module.get("passes", 0) + 1
    state.module["passes"] = passes
    state.events.append(Passed(seat))
    if passes >= state.num_players:
        finish(state, stuck=True)  # nobody can do anything: the game is stuck, so it ends
    else:
        end_turn(state)


Handler = Callable[[GameState, int, Any, Pending | None], None]
HANDLERS: dict[type[Action], Handler] = {
    DrawBlind: _draw,
    DrawFaceUp: _draw,
    ClaimRoute: _claim,
    DrawTickets: _draw_tickets,
    ChooseTicketMix: _choose_mix,
    KeepTickets: _keep,
    Pass: _pass,
}

"""Tunnels (Europe): after laying the cards, three cards from the deck are revealed; each of the colour paid
(or a Locomotive) costs one more card. The player pays or declines."""

from __future__ import annotations

from engine.actions import Action, DeclineTunnel, PayTunnel
from engine.cards import draw_card
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import TunnelDeclined, TunnelRevealed
from engine.features import Feature, register_feature
from engine.pending import Pending, TunnelPayment
from engine.state import GameState
from engine.turn import complete_claim, end_turn
from maps import CARD_NAMES, LOCOMOTIVE

REVEALED = 3


def extra_cost(revealed: list[int] | tuple[int, ...], pay: Payment) -> int:
    if pay.colored == 0:  # paid with Locomotives only: only revealed Locomotives cost more
        return sum(1 for c in revealed if c == LOCOMOTIVE)
    return sum(1 for c in revealed if c == pay.color or c == LOCOMOTIVE)


def start_tunnel(state: GameState, seat: int, route_id: int, pay: Payment) -> None:
    revealed: list[int] = []
    for _ in range(REVEALED):
        card = draw_card(state)
        if card is None:
            break  # fewer cards to reveal than three: what there is (nothing means no extra cost)
        revealed.append(card)
    extra = extra_cost(revealed, pay)
    state.events.append(TunnelRevealed(seat, route_id, tuple(revealed), extra, pay))
    if extra == 0:
        state.discard.extend(revealed)
        complete_claim(state, seat, route_id, pay)
        return
    state.pending[seat] = TunnelPayment(
        route_id, pay.color, pay.locomotives, pay.plus4, tuple(revealed), extra
    )


def _laid(p: TunnelPayment, route_length: int) -> Payment:
    colored = route_length - p.locomotives - p.plus4
    return Payment(p.color, colored, p.locomotives, p.plus4, 0)


class Tunnels(Feature):
    name = "tunnels"
    action_types = (PayTunnel, DeclineTunnel)
    pending_types = (TunnelPayment,)

    def start_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> bool:
        if not state.board.routes[route].tunnel:
            return False
        start_tunnel(state, seat, route, pay)
        return True

    def pending_actions(self, state: GameState, seat: int, pending: Pending) -> list[Action]:
        assert isinstance(pending, TunnelPayment)
        out: list[Action] = [DeclineTunnel()]
        laid = _laid(pending, state.board.routes[pending.route].length)
        hand = state.players[seat].hand
        locos_free = hand[LOCOMOTIVE] - laid.locomotives
        if laid.colored == 0:
            if locos_free >= pending.extra:
                out.append(PayTunnel(pending.extra))
            return out
        color_free = hand[laid.color] - laid.colored
        for k in range(max(0, pending.extra - color_free), min(pending.extra, locos_free) + 1):
            out.append(PayTunnel(k))
        return out

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        pending = state.pending.get(seat)
        if not isinstance(pending, TunnelPayment):
            raise IllegalAction("no_tunnel", "There is no tunnel waiting for your payment.")
        route = state.board.routes[pending.route]
        laid = _laid(pending, route.length)
        if isinstance(action, DeclineTunnel):
            del state.pending[seat]
            state.discard.extend(pending.revealed)
            state.events.append(TunnelDeclined(seat, pending.route))
            end_turn(state)
            return
        assert isinstance(action, PayTunnel)
        k = action.locomotives
        if not 0 <= k <= pending.extra or (laid.colored == 0 and k != pending.extra):
            if laid.colored == 0:
                raise IllegalAction(
                    "tunnel_extra_locomotives",
                    f"The tunnel asks {pending.extra} more cards and you paid with Locomotives only: they must "
                    "be Locomotives.",
                    n=pending.extra,
                )
            raise IllegalAction(
                "tunnel_extra", f"The tunnel asks {pending.extra} more cards.", n=pending.extra
            )
        total = Payment(laid.color, laid.colored + pending.extra - k, laid.locomotives + k, laid.plus4, 0)
        hand = state.players[seat].hand
        if (total.colored and hand[total.color] < total.colored) or hand[LOCOMOTIVE] < total.locomotives:
            label = state.board.route_label(pending.route)
            color = CARD_NAMES[total.color]
            raise IllegalAction(
                "tunnel_needs_cards",
                f"{label} now needs {total.colored} {color} and {total.locomotives} Locomotives; "
                f"you have {hand[total.color]} and {hand[LOCOMOTIVE]}.",
                route=label,
                need=total.colored,
                color=color,
                have=hand[total.color],
                locomotives=total.locomotives,
                have_locomotives=hand[LOCOMOTIVE],
            )
        del state.pending[seat]
        state.discard.extend(pending.revealed)
        complete_claim(state, seat, pending.route, total)


register_feature(Tunnels())

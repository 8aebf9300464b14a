"""Tunnels (Europe): the cards a tunnel claim reveals, paying the extra cards or giving up."""

from __future__ import annotations

from typing import Any

from bot.messages import Join, Message, Text
from bot.presenters import ActionWords, Presenter, Told, register
from bot.presenters.words import card, cards_shown, count_of, counted, listed, paid, route_words
from engine.actions import ClaimRoute, DeclineTunnel, PayTunnel
from engine.events import RouteClaimed, TunnelDeclined, TunnelRevealed
from engine.pending import TunnelPayment
from engine.state import GameState
from maps import CARD_NAMES, LOCOMOTIVE


def _pay_label(state: GameState, seat: int, a: Any) -> Message:
    pending: Any = state.pending.get(seat)
    extra = int(getattr(pending, "extra", 0))
    color = int(getattr(pending, "color", 0))
    colored = extra - a.locomotives
    parts: list[Message] = []
    if colored > 0 and color != LOCOMOTIVE:
        parts.append(count_of(colored, color))
    if a.locomotives or (colored > 0 and color == LOCOMOTIVE):
        parts.append(count_of(a.locomotives or colored, LOCOMOTIVE))
    return Text("act.pay", {"cards": Join(tuple(parts), " + ") if parts else Text("pay.nothing")})


def _line(told: Told) -> Message:
    """Paid or gave up: the route (from the claim or the refusal) and, paid, its points."""
    claimed = told.first(RouteClaimed)
    declined = told.first(TunnelDeclined)
    route = claimed.route if claimed is not None else declined.route if declined is not None else None
    p: dict[str, Any] = {
        "player": told.player,
        "route": route_words(told.board, route) if route is not None else Text("ev.the_tunnel"),
    }
    if told.kind == PayTunnel.kind:
        p["points"] = counted("points", (claimed.points if claimed is not None else None) or 0)
    return Text(f"ev.{told.kind}", p)


def _revealed(told: Told, tunnel: TunnelRevealed) -> Message | None:
    """A claim on a tunnel reads as what it revealed: claimed at once, or the extra cards it now asks."""
    if told.kind != ClaimRoute.kind:
        return None
    shown = [card(CARD_NAMES[c]) for c in tunnel.cards]
    p: dict[str, Any] = {
        "player": told.player,
        "route": route_words(told.board, tunnel.route),
        "paid": paid(tunnel.paid),
        "revealed": listed(shown) if shown else Text("ev.no_card"),
    }
    if tunnel.extra:
        return Text("ev.tunnel_tried", {**p, "extra": counted("more_cards", tunnel.extra)})
    claimed = told.first(RouteClaimed)
    points = claimed.points if claimed is not None else None
    return Text("ev.tunnel_claimed", {**p, "points": counted("points", points or 0)})


def _hint(state: GameState, pending: Any) -> Message:
    return Text(
        "hint.tunnel",
        {
            "route": route_words(state.board, pending.route),
            "revealed": cards_shown(pending.revealed),
            "extra": counted("more_cards", int(pending.extra)),
        },
    )


register(
    Presenter(
        "tunnels",
        actions=(
            ActionWords(PayTunnel, "pt", _pay_label, _line),
            ActionWords(DeclineTunnel, "dt", lambda s, seat, a: Text("act.give_up"), _line),
        ),
        events=frozenset({TunnelRevealed, TunnelDeclined}),
        amend={TunnelRevealed: _revealed},
        hints={TunnelPayment: _hint},
        route_notes=lambda r: [Text("route.tunnel")] if r.tunnel else [],
        # the whole table sees the revealed cards before the player decides
        publishes=frozenset({TunnelRevealed}),
    )
)

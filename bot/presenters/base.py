"""The core game's words: drawing cards, claiming routes, tickets, passing, and the turn's own events."""

from __future__ import annotations

from typing import Any

from bot.messages import Message, Text
from bot.presenters import ActionWords, Menu, Presenter, Told, plain_line, register
from bot.presenters.words import (
    card,
    card_of,
    cards,
    count_of,
    counted,
    deck,
    listed,
    paid,
    payment_message,
    route_words,
    semicolon_list,
    ticket_text,
    ticket_words,
)
from engine.actions import (
    ChooseTicketMix,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from engine.events import (
    BlindCardSeen,
    CardDrawn,
    CardsReceived,
    GameEnded,
    LastRoundStarted,
    Passed,
    PlayStarted,
    RouteClaimed,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TicketsOffered,
    TurnStarted,
)
from engine.pending import SecondDraw, TicketChoice, TicketMix
from engine.state import GameState
from maps import CARD_NAMES, LOCOMOTIVE, Board


def _draw_line(told: Told) -> Message:
    p: dict[str, Any] = {"player": told.player}
    if told.kind == DrawFaceUp.kind:
        drawn = told.first(CardDrawn)
        p["card"] = card(CARD_NAMES[drawn.card] if drawn is not None and drawn.card is not None else "?")
    return Text(f"ev.{told.kind}", p)


def _claim_line(told: Told) -> Message:
    p: dict[str, Any] = {"player": told.player}
    claimed = told.first(RouteClaimed)
    if claimed is None:
        return Text("ev.other", {**p, "action": told.kind.replace("_", " ")})
    p["route"] = route_words(told.board, claimed.route)
    p["paid"] = paid(claimed.paid)
    if claimed.points is not None:
        return Text("ev.claim_route", {**p, "points": counted("points", claimed.points)})
    return Text("ev.claim_route_no_points", p)


def _draw_tickets_line(told: Told) -> Message:
    drawn = told.first(TicketsDrawn)
    n = drawn.count if drawn is not None else 0
    return Text("ev.draw_tickets", {"player": told.player, "tickets": counted("dest_tickets", n)})


def _keep_tickets_line(told: Told) -> Message:
    kept = told.first(TicketsKept)
    return Text(
        "ev.keep_tickets", {"player": told.player, "tickets": counted("tickets", kept.count if kept else 0)}
    )


def _claim_label(state: GameState, seat: int, a: Any) -> Message:
    return Text(
        "act.claim",
        {
            "route": route_words(state.board, a.route),
            "payment": payment_message(state, a.route, a.color, a.locomotives, a.plus4, a.ferry_cards),
        },
    )


def _claim_payment(state: GameState, seat: int, a: Any) -> Message:
    return payment_message(state, a.route, a.color, a.locomotives, a.plus4, a.ferry_cards)


def _draw_tickets_label(state: GameState, seat: int, a: Any) -> Message:
    if a.mix:
        return Text("act.draw_tickets_mix", {"mix": "/".join(map(str, a.mix))})
    return Text("act.draw_tickets")


def _deck_names(state: GameState) -> list[str]:
    tickets = state.board.variant(state.variant).get("tickets", {})
    step = tickets.get("draw") or {}
    for s in tickets.get("setup", []):
        if s.get("mix"):
            step = s
    return [str(d) for d in step.get("mix", [])] or ["short", "long"]


def _ticket_mix_label(state: GameState, seat: int, a: Any) -> Message:
    mix = tuple(
        Text("count.deck", {"n": n, "deck": deck(d, n)})
        for n, d in zip(a.mix, _deck_names(state), strict=False)
    )
    return Text("act.ticket_mix", {"mix": listed(mix)})


def _tickets(board: Board, tickets: tuple[int, ...]) -> Message:
    """Tickets as their owner reads them: "Roma – Bari (8); Pisa – Lecce (11)"."""
    return semicolon_list([ticket_words(board, t) for t in tickets])


def _drew(board: Board, e: BlindCardSeen) -> Message:
    return Text("pv.drew", {"card": card(CARD_NAMES[e.card])})


def _received(board: Board, e: CardsReceived) -> Message:
    gained = {CARD_NAMES[c]: n for c, n in e.cards}
    return Text("pv.cards_gained", {"cards": listed(tuple(cards(n, c) for c, n in sorted(gained.items())))})


def _offered(board: Board, e: TicketsOffered) -> Message:
    return Text("pv.tickets_offered", {"min": e.keep_min, "tickets": _tickets(board, e.tickets)})


def _chosen(board: Board, e: TicketsChosen) -> Message:
    return Text("pv.tickets_kept", {"tickets": _tickets(board, e.tickets)})


def _trains(state: GameState, seat: int) -> list[tuple[Message, str]]:
    return [(Text("hand.trains", {"n": state.players[seat].trains}), "🚂")]


def _nothing(state: GameState, pending: Any) -> Message:
    return ""


register(
    Presenter(
        "base",
        order=0,
        actions=(
            ActionWords(DrawBlind, "db", lambda s, seat, a: Text("act.deck"), _draw_line, "draw"),
            ActionWords(
                DrawFaceUp,
                "df",
                lambda s, seat, a: Text("act.face_up", {"card": card_of(s.face_up[a.slot])}),
                _draw_line,
                "draw",
            ),
            ActionWords(
                ClaimRoute,
                "cr",
                _claim_label,
                _claim_line,
                "claim",
                payment=_claim_payment,
            ),
            ActionWords(DrawTickets, "dk", _draw_tickets_label, _draw_tickets_line, "tickets"),
            ActionWords(ChooseTicketMix, "cm", _ticket_mix_label),
            ActionWords(
                KeepTickets,
                "kt",
                lambda s, seat, a: Text(
                    "act.keep", {"tickets": semicolon_list([ticket_text(s, t) for t in a.tickets])}
                ),
                _keep_tickets_line,
            ),
            ActionWords(Pass, "ps", lambda s, seat, a: Text("act.pass"), plain_line, "pass"),
        ),
        events=frozenset(
            {
                CardDrawn,
                BlindCardSeen,
                CardsReceived,
                RouteClaimed,
                TicketsDrawn,
                TicketsOffered,
                TicketsKept,
                TicketsChosen,
                TurnStarted,
                PlayStarted,
                LastRoundStarted,
                Passed,
                GameEnded,
            }
        ),
        private={
            BlindCardSeen: _drew,
            CardsReceived: _received,
            TicketsOffered: _offered,
            TicketsChosen: _chosen,
        },
        hints={
            TicketMix: lambda state, pending: Text("hint.ticket_mix"),
            SecondDraw: _nothing,
            TicketChoice: _nothing,
        },
        counters=_trains,
        route_notes=lambda r: [count_of(r.locomotives, LOCOMOTIVE)] if r.locomotives else [],
        menus=(
            Menu("draw", "btn.draw", "primary", "🃏", 10, cards=True),
            Menu(
                "claim",
                "btn.claim",
                "success",
                "🚂",
                20,
                text="menu.claim",
                places=True,
                pick="menu.pick_route",
            ),
            Menu("tickets", "btn.tickets", "secondary", "🎫", 30, text="menu.tickets"),
            Menu("pass", "btn.pass", "danger", None, 80),
            Menu("decide", "btn.decide", "primary", "👉", 90, text="menu.decide"),
        ),
    )
)

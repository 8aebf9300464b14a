"""The short labels players read on buttons and menus: an action, a payment, a route, a ticket.

Labels are catalogue messages (`Text`, `Join`; see `bot/i18n.py`): colours and fixed words are translated by
the adapter, place and player names stay as the board data spells them. `label` is the English text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from bot.manager.events import card, cards, counted, english
from bot.messages import Join, Message, Text
from engine.actions import Action
from engine.state import GameState
from maps import CARD_NAMES, LOCOMOTIVE


def _count(n: int, card: int) -> Text:
    return cards(n, CARD_NAMES[card])


def payment_message(
    state: GameState, route: int, color: int, locos: int, plus4: int = 0, ferry: int = 0
) -> Message:
    """What a claim pays: "3 red + 1 locomotive"."""
    length = state.board.routes[route].length
    colored = max(0, length - locos - plus4 - ferry)
    parts: list[Message] = []
    if colored and color != LOCOMOTIVE:
        parts.append(_count(colored, color))
    if locos:
        parts.append(_count(locos, LOCOMOTIVE))
    if plus4:
        parts.append(cards(plus4, "locomotive+4"))
    if ferry:
        parts.append(counted("ferry_cards", ferry))
    return Join(tuple(parts), " + ") if parts else Text("pay.free")


def payment_text(state: GameState, route: int, color: int, locos: int, plus4: int = 0, ferry: int = 0) -> str:
    return english(payment_message(state, route, color, locos, plus4, ferry))


def route_message(state: GameState, route: int) -> Text:
    """A route as the claim menu lists it: "Paris – Wien (3 red, tunnel)"."""
    r = state.board.routes[route]
    params: dict[str, Any] = {
        "route": state.board.route_label(route),
        "length": r.length,
        "color": Text("card.gray") if r.color < 0 else card(CARD_NAMES[r.color]),
    }
    extras: list[Message] = []
    if r.tunnel:
        extras.append(Text("route.tunnel"))
    if r.locomotives:
        extras.append(_count(r.locomotives, LOCOMOTIVE))
    if getattr(r, "bullet", False):
        extras.append(Text("route.bullet"))
    if getattr(r, "waves", 0):
        extras.append(Text("route.waves", {"n": r.waves}))
    if extras:
        return Text("route.extras", {**params, "extras": Join(tuple(extras), ", ")})
    return Text("route.plain", params)


def payment_of(state: GameState, seat: int, action: Action) -> Message:
    """What a claim or a station costs, without its place."""
    a: Any = action
    if action.kind == "claim_route":
        return payment_message(state, a.route, a.color, a.locomotives, a.plus4, a.ferry_cards)
    if action.kind == "build_station":
        return station_payment(state, seat, a)
    return message(state, seat, action)


def route_text(state: GameState, route: int) -> str:
    """`route_message` in English (autocomplete names, sorting)."""
    return english(route_message(state, route))


def _city(state: GameState, city: int | None) -> str:
    if city is None:
        return "?"
    return state.board.cities[city].name


def label(state: GameState, seat: int, action: Action) -> str:
    """The English label of a legal action of `seat`, at most 100 characters."""
    return english(message(state, seat, action))[:100]


def message(state: GameState, seat: int, action: Action) -> Message:
    """The label of an action as shown on a button or a menu option (the adapter cuts it to fit)."""
    kind = action.kind
    a: Any = action
    names = [p.name for p in state.players]
    warehouse = getattr(a, "warehouse", None)
    if warehouse is not None:
        owner = names[warehouse]
        if kind == "draw_blind":
            return Text("act.deck_warehouse", {"owner": owner})
        if kind == "draw_face_up":
            return Text("act.face_up_warehouse", {"card": _card(state.face_up[a.slot]), "owner": owner})
    if kind == "draw_blind":
        return Text("act.deck")
    if kind == "draw_face_up":
        return Text("act.face_up", {"card": _card(state.face_up[a.slot])})
    if kind == "claim_route":
        return Text(
            "act.claim",
            {
                "route": state.board.route_label(a.route),
                "payment": payment_message(state, a.route, a.color, a.locomotives, a.plus4, a.ferry_cards),
            },
        )
    if kind == "pay_tunnel":
        pending: Any = state.pending.get(seat)
        extra = int(getattr(pending, "extra", 0))
        color = int(getattr(pending, "color", 0))
        colored = extra - a.locomotives
        parts: list[Message] = []
        if colored > 0 and color != LOCOMOTIVE:
            parts.append(_count(colored, color))
        if a.locomotives or (colored > 0 and color == LOCOMOTIVE):
            parts.append(_count(a.locomotives or colored, LOCOMOTIVE))
        return Text("act.pay", {"cards": Join(tuple(parts), " + ") if parts else Text("pay.nothing")})
    if kind == "decline_tunnel":
        return Text("act.give_up")
    if kind == "draw_tickets":
        return (
            Text("act.draw_tickets_mix", {"mix": "/".join(map(str, a.mix))})
            if a.mix
            else Text("act.draw_tickets")
        )
    if kind == "choose_ticket_mix":
        decks = _deck_names(state)
        mix = ", ".join(f"{n} {d}" for n, d in zip(a.mix, decks, strict=False))
        return Text("act.ticket_mix", {"mix": mix})
    if kind == "keep_tickets":
        return Text("act.keep", {"tickets": "; ".join(ticket_text(state, t) for t in a.tickets)})
    if kind == "build_station":
        return Text("act.station", {"city": _city(state, a.city), "payment": station_payment(state, seat, a)})
    if kind == "place_depot":
        return Text("act.depot", {"city": _city(state, a.city)})
    if kind == "take_warehouses":
        if not a.owners:
            return Text("act.leave_warehouses")
        return Text("act.take_warehouses", {"owners": ", ".join(names[o] for o in a.owners)})
    if kind == "take_meeple":
        return Text("act.meeple", {"color": str(a.color), "city": _city(state, a.city)})
    if kind == "place_passenger":
        if a.city is None:
            return Text("act.keep_passenger")
        return Text("act.passenger", {"city": _city(state, a.city)})
    if kind == "move_passenger":
        return trip_text(state, a.start, a.routes)
    if kind == "take_ferry_card":
        return Text("act.ferry")
    if kind == "pass":
        return Text("act.pass")
    args = ", ".join(f"{f.name}={getattr(a, f.name)}" for f in fields(a))
    return f"{kind.replace('_', ' ')} {args}".strip()


def station_payment(state: GameState, seat: int, a: Any) -> Message:
    from engine.features.stations import station_cost

    cost = station_cost(state, seat)
    colored = max(0, cost - a.locomotives)
    parts: list[Message] = []
    if colored and a.color != LOCOMOTIVE:
        parts.append(_count(colored, a.color))
    if a.locomotives:
        parts.append(_count(a.locomotives, LOCOMOTIVE))
    return Join(tuple(parts), " + ") if parts else Text("pay.free")


def trip_text(state: GameState, start: int, routes: Sequence[int]) -> str:
    board = state.board
    here = start
    stops = [board.cities[start].name]
    for rid in routes:
        r = board.routes[rid]
        here = r.b if r.a == here else r.a
        stops.append(board.cities[here].name)
    if len(stops) > 6:
        stops = [*stops[:3], "…", *stops[-2:]]
    return " → ".join(stops)


def ticket_text(state: GameState, ticket: int) -> str:
    t = state.board.tickets[ticket]
    return f"{state.board.cities[t.a].name} – {state.board.cities[t.b].name} ({t.points})"


def _deck_names(state: GameState) -> list[str]:
    tickets = state.board.variant(state.variant).get("tickets", {})
    step = tickets.get("draw") or {}
    for s in tickets.get("setup", []):
        if s.get("mix"):
            step = s
    return [str(d) for d in step.get("mix", [])] or ["short", "long"]


def cards_shown(indexes: Sequence[int]) -> Message:
    """Cards by colour, as a list: the face-up row, the cards a tunnel revealed."""
    shown = tuple(card(CARD_NAMES[c]) for c in indexes if 0 <= c < len(CARD_NAMES))
    return Join(shown, ", ") if shown else "-"


def face_up(state: GameState) -> Message:
    return cards_shown(state.face_up)


def _card(card_index: int) -> Message:
    return card(CARD_NAMES[card_index]) if 0 <= card_index < len(CARD_NAMES) else "?"

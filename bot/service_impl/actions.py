"""Engine actions <-> short custom-id strings, and the short labels players read on buttons and menus.

The service never decides a rule: it lists `engine.rules.legal_actions`, shows each with a label and sends the
chosen one back. A chosen action travels inside a custom id (`ttr:<game>:do:<token>~<code>`) or a select
value (`<token>~<code>`), so nothing is kept between clicks: `code` is the action itself, e.g. `cr.12.3.1.0.0`
for ClaimRoute(route=12, color=3, locomotives=1). Any board module's action is encoded the same way from its
dataclass fields; unknown codes decode to None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from bot.service import Text
from engine.actions import ACTION_TYPES, Action
from engine.state import GameState
from maps import CARD_NAMES, LOCOMOTIVE

SEP = "~"  # between the turn token and the action code (the token itself may contain dots)

_SHORT = {
    "draw_blind": "db",
    "draw_face_up": "df",
    "claim_route": "cr",
    "pay_tunnel": "pt",
    "decline_tunnel": "dt",
    "draw_tickets": "dk",
    "choose_ticket_mix": "cm",
    "keep_tickets": "kt",
    "build_station": "bs",
    "place_depot": "pd",
    "take_warehouses": "tw",
    "pass": "ps",
    "take_meeple": "tm",
    "place_passenger": "pp",
    "move_passenger": "mp",
    "take_ferry_card": "tf",
}
_LONG = {v: k for k, v in _SHORT.items()}

#: Which turn-message button opens the menu of an action kind. Pending decisions go to "decide".
CATEGORY = {
    "draw_blind": "draw",
    "draw_face_up": "draw",
    "claim_route": "claim",
    "draw_tickets": "tickets",
    "build_station": "station",
    "place_depot": "depot",
    "move_passenger": "move",
    "take_ferry_card": "ferry",
    "pass": "pass",
}
CATEGORY_ORDER = ("draw", "claim", "tickets", "station", "move", "ferry", "depot", "pass")


def category_of(action: Action, pending: bool) -> str:
    if pending:
        return "decide"
    return CATEGORY.get(action.kind, "decide")


def _value(v: Any) -> str:
    if v is None:
        return "n"
    if isinstance(v, tuple | list):
        return "+".join(str(int(x)) for x in v)
    return str(v)


def encode(action: Action) -> str:
    parts = [_SHORT.get(action.kind, action.kind)]
    parts.extend(_value(getattr(action, f.name)) for f in fields(action))
    return ".".join(parts)


def decode(code: str) -> Action | None:
    """The action a code names, or None when it names nothing (never raises)."""
    try:
        head, *values = code.split(".")
        cls = ACTION_TYPES.get(_LONG.get(head, head))
        if cls is None:
            from engine.features import load_modules

            load_modules()
            cls = ACTION_TYPES.get(_LONG.get(head, head))
        if cls is None:
            return None
        fs = fields(cls)
        if len(values) != len(fs):
            return None
        kwargs: dict[str, Any] = {}
        for f, raw in zip(fs, values, strict=True):
            default = f.default
            if isinstance(default, tuple):
                kwargs[f.name] = tuple(int(x) for x in raw.split("+")) if raw else ()
            elif isinstance(default, str):
                kwargs[f.name] = raw
            elif raw == "n":
                kwargs[f.name] = None
            else:
                kwargs[f.name] = int(raw)
        return cls(**kwargs)
    except (ValueError, TypeError):
        return None


def pack(token: str, action: Action) -> str:
    return f"{token}{SEP}{encode(action)}"


def unpack(value: str) -> tuple[str, Action | None]:
    token, _, code = value.partition(SEP)
    return token, decode(code) if code else None


# --------------------------------------------------------------------------- labels


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def payment_text(state: GameState, route: int, color: int, locos: int, plus4: int = 0, ferry: int = 0) -> str:
    length = state.board.routes[route].length
    colored = max(0, length - locos - plus4 - ferry)
    parts = []
    if colored and color != LOCOMOTIVE:
        parts.append(f"{colored} {CARD_NAMES[color]}")
    if locos:
        parts.append(f"{locos} loco")
    if plus4:
        parts.append(f"{plus4} loco+4")
    if ferry:
        parts.append(_plural(ferry, "ferry card"))
    return " + ".join(parts) or "free"


def route_text(state: GameState, route: int) -> str:
    r = state.board.routes[route]
    color = "gray" if r.color < 0 else CARD_NAMES[r.color]
    extras = []
    if r.tunnel:
        extras.append("tunnel")
    if r.locomotives:
        extras.append(f"{r.locomotives} loco")
    if getattr(r, "bullet", False):
        extras.append("bullet train")
    if getattr(r, "waves", 0):
        extras.append(f"{r.waves} waves")
    extra = f", {', '.join(extras)}" if extras else ""
    return f"{state.board.route_label(route)} ({r.length} {color}{extra})"


def _city(state: GameState, city: int | None) -> str:
    if city is None:
        return "?"
    return state.board.cities[city].name


def label(state: GameState, seat: int, action: Action) -> str:
    """A short label (at most 100 characters) for a legal action of `seat`."""
    kind = action.kind
    a: Any = action
    names = [p.name for p in state.players]
    warehouse = getattr(a, "warehouse", None)
    into = f" (deck card to {names[warehouse]}'s warehouse)" if warehouse is not None else ""
    if kind == "draw_blind":
        text = "Deck (blind)" + into
    elif kind == "draw_face_up":
        card = state.face_up[a.slot]
        text = f"Face-up {CARD_NAMES[card] if 0 <= card < len(CARD_NAMES) else '?'}" + into
    elif kind == "claim_route":
        text = f"{state.board.route_label(a.route)}: " + payment_text(
            state, a.route, a.color, a.locomotives, a.plus4, a.ferry_cards
        )
    elif kind == "pay_tunnel":
        pending: Any = state.pending.get(seat)
        extra = int(getattr(pending, "extra", 0))
        color = int(getattr(pending, "color", 0))
        colored = extra - a.locomotives
        parts = []
        if colored > 0 and color != LOCOMOTIVE:
            parts.append(f"{colored} {CARD_NAMES[color]}")
        if a.locomotives or (colored > 0 and color == LOCOMOTIVE):
            parts.append(f"{a.locomotives or colored} loco")
        text = "Pay " + (" + ".join(parts) or "nothing")
    elif kind == "decline_tunnel":
        text = "Give up the tunnel"
    elif kind == "draw_tickets":
        text = "Draw tickets" + (f" (mix {'/'.join(map(str, a.mix))})" if a.mix else "")
    elif kind == "choose_ticket_mix":
        decks = _deck_names(state)
        text = "Draw " + ", ".join(f"{n} {d}" for n, d in zip(a.mix, decks, strict=False))
    elif kind == "keep_tickets":
        text = "Keep " + "; ".join(ticket_text(state, t) for t in a.tickets)
    elif kind == "build_station":
        text = f"Station in {_city(state, a.city)}: " + station_payment(state, seat, a)
    elif kind == "place_depot":
        text = f"Depot in {_city(state, a.city)}"
    elif kind == "take_warehouses":
        text = (
            "Empty the warehouses of " + ", ".join(names[o] for o in a.owners)
            if a.owners
            else "Leave the warehouses"
        )
    elif kind == "take_meeple":
        text = f"{a.color} meeple from {_city(state, a.city)}"
    elif kind == "place_passenger":
        text = f"Passenger on {_city(state, a.city)}" if a.city is not None else "Keep the passenger"
    elif kind == "move_passenger":
        text = trip_text(state, a.start, a.routes)
    elif kind == "take_ferry_card":
        text = "Take a ferry card"
    elif kind == "pass":
        text = "Pass"
    else:
        args = ", ".join(f"{f.name}={getattr(a, f.name)}" for f in fields(a))
        text = f"{kind.replace('_', ' ')} {args}".strip()
    return text[:100]


def station_payment(state: GameState, seat: int, a: Any) -> str:
    from engine.features.stations import station_cost

    cost = station_cost(state, seat)
    colored = max(0, cost - a.locomotives)
    parts = []
    if colored and a.color != LOCOMOTIVE:
        parts.append(f"{colored} {CARD_NAMES[a.color]}")
    if a.locomotives:
        parts.append(f"{a.locomotives} loco")
    return " + ".join(parts) or "free"


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


def cheapest(actions: Sequence[Action], hand: Sequence[int]) -> Action:
    """The sensible default payment: fewest locomotives (and +4s and ferry cards), then the colour the player
    holds most of."""

    def key(a: Any) -> tuple[int, int, int, int]:
        locos = int(getattr(a, "locomotives", 0))
        plus4 = int(getattr(a, "plus4", 0))
        ferry = int(getattr(a, "ferry_cards", 0))
        color = int(getattr(a, "color", 0))
        spare = hand[color] if 0 <= color < LOCOMOTIVE else 0
        return (locos, plus4, ferry, -spare)

    return min(actions, key=key)


def message(state: GameState, seat: int, action: Action, limit: int = 100) -> Text | str:
    """The label of an action as shown: a catalogue message where the wording is fixed (translated by the
    adapter), else the plain label (place names, payments) cut to `limit` characters."""
    a: Any = action
    kind = action.kind
    warehouse = getattr(a, "warehouse", None)
    if warehouse is not None:
        owner = state.players[warehouse].name
        if kind == "draw_blind":
            return Text("act.deck_warehouse", {"owner": owner})
        if kind == "draw_face_up":
            return Text("act.face_up_warehouse", {"card": _card(state.face_up[a.slot]), "owner": owner})
    if kind == "draw_blind":
        return Text("act.deck")
    if kind == "draw_face_up":
        return Text("act.face_up", {"card": _card(state.face_up[a.slot])})
    if kind == "decline_tunnel":
        return Text("act.give_up")
    if kind == "pay_tunnel":
        return Text("act.pay", {"cards": label(state, seat, action).removeprefix("Pay ")})
    if kind == "draw_tickets":
        return (
            Text("act.draw_tickets_mix", {"mix": "/".join(map(str, a.mix))})
            if a.mix
            else Text("act.draw_tickets")
        )
    if kind == "take_ferry_card":
        return Text("act.ferry")
    if kind == "pass":
        return Text("act.pass")
    if kind == "place_passenger" and a.city is None:
        return Text("act.keep_passenger")
    if kind == "take_warehouses" and not a.owners:
        return Text("act.leave_warehouses")
    return label(state, seat, action)[:limit]


def _card(card: int) -> str:
    return CARD_NAMES[card] if 0 <= card < len(CARD_NAMES) else "?"

"""The short labels players read on buttons and menus: an action, a payment, a route, a ticket.

Labels are catalogue messages (`Text`, `Join`; see `bot/i18n.py`): colours and fixed words are translated by
the adapter, place and player names stay as the board data spells them. Each action's label is its feature's
presenter's (`bot.presenters`); this module asks the registry and adds the words that are not one feature's
(routes, the face-up row). `label` is the English text.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot import presenters
from bot.i18n import english
from bot.messages import Message, Text
from bot.presenters.words import card, cards_shown, listed, payment_message, route_words, ticket_text
from engine.actions import Action
from engine.state import GameState
from maps import CARD_NAMES

__all__ = [
    "cards_shown",
    "face_up",
    "label",
    "message",
    "payment_message",
    "payment_of",
    "payment_text",
    "route_message",
    "route_text",
    "ticket_text",
]


def payment_text(state: GameState, route: int, color: int, locos: int, plus4: int = 0, ferry: int = 0) -> str:
    return english(payment_message(state, route, color, locos, plus4, ferry))


def route_message(state: GameState, route: int) -> Text:
    """A route as the claim menu lists it: "Paris – Wien (3 red, tunnel)"."""
    r = state.board.routes[route]
    params: dict[str, Any] = {
        "route": route_words(state.board, route),
        "length": r.length,
        "color": Text("card.gray") if r.color < 0 else card(CARD_NAMES[r.color]),
    }
    extras = presenters.route_notes(r)  # locomotives to lay, tunnel, bullet route...
    if extras:
        return Text("route.extras", {**params, "extras": listed(extras)})
    return Text("route.plain", params)


def payment_of(state: GameState, seat: int, action: Action) -> Message:
    """What a claim or a station costs, without its place (another action: its label)."""
    words = presenters.action_words(action.kind)
    if words is not None and words.payment is not None:
        return words.payment(state, seat, action)
    return message(state, seat, action)


def route_text(state: GameState, route: int) -> str:
    """`route_message` in English (autocomplete names, sorting)."""
    return english(route_message(state, route))


def label(state: GameState, seat: int, action: Action) -> str:
    """The English label of a legal action of `seat`, at most 100 characters."""
    return english(message(state, seat, action))[:100]


def message(state: GameState, seat: int, action: Action) -> Message:
    """The label of an action as shown on a button or a menu option (the adapter cuts it to fit)."""
    worded = presenters.label(state, seat, action)
    if worded is not None:
        return worded
    a: Any = action
    args = ", ".join(f"{f.name}={getattr(a, f.name)}" for f in fields(a))
    return f"{action.kind.replace('_', ' ')} {args}".strip()


def face_up(state: GameState) -> Message:
    return cards_shown(state.face_up)

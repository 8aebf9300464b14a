"""Passenger meeples (Germany): the meeple taken from a route's end after a claim."""

from __future__ import annotations

from bot.messages import Text
from bot.presenters import ActionWords, Presenter, register
from bot.presenters.words import city

register(
    Presenter(
        "meeples",
        actions=(
            ActionWords(
                "take_meeple",
                "tm",
                lambda s, seat, a: Text("act.meeple", {"color": str(a.color), "city": city(s, a.city)}),
            ),
        ),
        events=frozenset({"meeple_taken"}),
        hints={"meeple_choice": lambda state, pending: Text("hint.meeple_choice")},
    )
)

"""Passenger meeples (Germany): the meeple taken from a route's end after a claim."""

from __future__ import annotations

from bot.messages import Text
from bot.presenters import ActionWords, Presenter, register
from bot.presenters.words import city, meeple
from engine.actions import TakeMeeple
from engine.events import MeepleTaken
from engine.pending import MeepleChoice

register(
    Presenter(
        "meeples",
        actions=(
            ActionWords(
                TakeMeeple,
                "tm",
                lambda s, seat, a: Text(
                    "act.meeple", {"color": meeple(str(a.color)), "city": city(s, a.city)}
                ),
            ),
        ),
        events=frozenset({MeepleTaken}),
        hints={MeepleChoice: lambda state, pending: Text("hint.meeple_choice")},
    )
)

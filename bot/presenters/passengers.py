"""Passengers (Märklin): placing a passenger after a claim, moving one along the routes, those left in reserve."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.messages import Join, Message, Text
from bot.presenters import ActionWords, Menu, Presenter, register
from bot.presenters.words import city, place
from engine.actions import MovePassenger, PlacePassenger
from engine.events import PassengerMoved, PassengerPlaced
from engine.pending import PassengerPlacement
from engine.state import GameState


def trip_text(state: GameState, start: int, routes: Sequence[int]) -> Message:
    """A passenger's trip: "Berlin → Leipzig → … → München" (long trips keep their ends)."""
    board = state.board
    here = start
    stops: list[Message] = [place(board, start)]
    for rid in routes:
        r = board.routes[rid]
        here = r.b if r.a == here else r.a
        stops.append(place(board, here))
    if len(stops) > 6:
        stops = [*stops[:3], "…", *stops[-2:]]
    return Join(tuple(stops), " → ")


def _place_label(state: GameState, seat: int, a: Any) -> Message:
    if a.city is None:
        return Text("act.keep_passenger")
    return Text("act.passenger", {"city": city(state, a.city)})


def _counters(state: GameState, seat: int) -> list[tuple[Message, str]]:
    extra = state.players[seat].extra
    if "passengers" not in extra:
        return []
    return [(Text("hand.passengers", {"n": extra["passengers"]}), "🧳")]


register(
    Presenter(
        "passengers",
        order=20,
        actions=(
            ActionWords(PlacePassenger, "pp", _place_label),
            ActionWords(MovePassenger, "mp", lambda s, seat, a: trip_text(s, a.start, a.routes), menu="move"),
        ),
        events=frozenset({PassengerPlaced, PassengerMoved}),
        hints={PassengerPlacement: lambda state, pending: Text("hint.passenger_placement")},
        counters=_counters,
        # the longest trips first (they take the most merchandise)
        menus=(
            Menu(
                "move",
                "btn.move",
                "secondary",
                "🧳",
                50,
                text="menu.move",
                sort=lambda s, seat, a: -len(a.routes),
            ),
        ),
    )
)

"""Stations (Europe): building a station on a city, its cost, the stations left in hand."""

from __future__ import annotations

from typing import Any

from bot.messages import Join, Message, Text
from bot.presenters import ActionWords, Menu, Presenter, Told, register
from bot.presenters.words import city, count_of, place
from engine.actions import BuildStation
from engine.events import StationBuilt
from engine.features.stations import station_cost
from engine.state import GameState
from maps import LOCOMOTIVE


def station_payment(state: GameState, seat: int, a: Any) -> Message:
    """The cards a station costs now: "2 red + 1 locomotive"."""
    cost = station_cost(state, seat)
    colored = max(0, cost - a.locomotives)
    parts: list[Message] = []
    if colored and a.color != LOCOMOTIVE:
        parts.append(count_of(colored, a.color))
    if a.locomotives:
        parts.append(count_of(a.locomotives, LOCOMOTIVE))
    return Join(tuple(parts), " + ") if parts else Text("pay.free")


def _label(state: GameState, seat: int, a: Any) -> Message:
    return Text("act.station", {"city": city(state, a.city), "payment": station_payment(state, seat, a)})


def _line(told: Told) -> Message:
    built = told.first(StationBuilt)
    if built is None:
        return Text("ev.other", {"player": told.player, "action": told.kind.replace("_", " ")})
    return Text("ev.build_station", {"player": told.player, "city": place(told.board, built.city)})


def _counters(state: GameState, seat: int) -> list[tuple[Message, str]]:
    if not state.board.rules.get("stations_per_player"):
        return []
    return [(Text("hand.stations", {"n": state.players[seat].stations}), "🏠")]


register(
    Presenter(
        "stations",
        order=10,
        actions=(ActionWords(BuildStation, "bs", _label, _line, "station", payment=station_payment),),
        events=frozenset({StationBuilt}),
        counters=_counters,
        menus=(
            Menu(
                "station",
                "btn.station",
                "secondary",
                "🏠",
                40,
                text="menu.station",
                places=True,
                pick="menu.pick_city",
            ),
        ),
    )
)

"""Warehouses & Depots (Europe option): the warehouse a card draw stocks, placing depots, emptying warehouses,
the depots in reserve."""

from __future__ import annotations

from typing import Any

from bot.messages import Message, SeatRef, Text
from bot.presenters import ActionWords, DrawChoice, Menu, Presenter, Told, register
from bot.presenters.words import card, card_of, city, counted, listed, place
from engine.actions import DrawBlind, DrawFaceUp, PlaceDepot, TakeWarehouses
from engine.events import CardDrawn, DepotPlaced, WarehousesTaken, WarehouseStocked
from engine.pending import WarehouseChoice
from engine.state import GameState
from maps import CARD_NAMES

_DRAWS = (DrawBlind.kind, DrawFaceUp.kind)  # the core draws, by the kind a record names


def _draw_label(state: GameState, seat: int, a: Any) -> Message | None:
    """A card draw names the warehouse it stocks (an argument this option adds to the core draws)."""
    if not isinstance(a, DrawBlind | DrawFaceUp) or a.warehouse is None:
        return None
    owner = SeatRef(a.warehouse, state.players[a.warehouse].name)
    if isinstance(a, DrawBlind):
        return Text("act.deck_warehouse", {"owner": owner})
    return Text("act.face_up_warehouse", {"card": card_of(state.face_up[a.slot]), "owner": owner})


def _stocked(told: Told, stocked: WarehouseStocked) -> Message | None:
    if told.kind not in _DRAWS:
        return None
    p: dict[str, Any] = {"player": told.player, "owner": told.names[stocked.owner]}
    if told.kind == DrawFaceUp.kind:
        drawn = told.first(CardDrawn)
        p["card"] = card(CARD_NAMES[drawn.card] if drawn is not None and drawn.card is not None else "?")
    return Text(f"ev.{told.kind}_warehouse", p)


def _depot_line(told: Told) -> Message:
    depot = told.first(DepotPlaced)
    if depot is None:
        return Text("ev.other", {"player": told.player, "action": told.kind.replace("_", " ")})
    return Text("ev.place_depot", {"player": told.player, "city": place(told.board, depot.city)})


def _take_label(state: GameState, seat: int, a: Any) -> Message:
    if not a.owners:
        return Text("act.leave_warehouses")
    return Text(
        "act.take_warehouses",
        {"owners": listed(tuple(SeatRef(o, state.players[o].name) for o in a.owners))},
    )


def _take_line(told: Told) -> Message:
    taken = told.first(WarehousesTaken)
    if taken is None or not taken.owners:
        return Text("ev.take_warehouses_none", {"player": told.player})
    owners = listed(tuple(told.names[o] for o in taken.owners))
    return Text(
        "ev.take_warehouses",
        {"player": told.player, "owners": owners, "cards": counted("cards", taken.cards)},
    )


def _counters(state: GameState, seat: int) -> list[tuple[Message, str]]:
    depots = state.players[seat].depots
    return [(Text("hand.depots", {"n": depots}), "📦")] if depots else []


register(
    Presenter(
        "warehouses",
        order=40,
        actions=(
            ActionWords(
                PlaceDepot,
                "pd",
                lambda s, seat, a: Text("act.depot", {"city": city(s, a.city)}),
                _depot_line,
                "depot",
            ),
            ActionWords(TakeWarehouses, "tw", _take_label, _take_line),
        ),
        events=frozenset({WarehouseStocked, DepotPlaced, WarehousesTaken}),
        amend={WarehouseStocked: _stocked},
        hints={WarehouseChoice: lambda state, pending: Text("hint.warehouse_choice")},
        counters=_counters,
        menus=(Menu("depot", "btn.depot", "secondary", "📦", 70, text="menu.depot"),),
        label_for=_draw_label,
        # first the warehouse that gets the top card, then the card
        draw_choice=DrawChoice(
            "warehouse",
            lambda state, w: Text("menu.warehouse_of", {"owner": SeatRef(w, state.players[w].name)}),
            "menu.warehouse",
        ),
    )
)

"""Ferry cards (Italy): taking a Ferry card as a turn, the Ferry cards in hand."""

from __future__ import annotations

from bot.messages import Message, Text
from bot.presenters import ActionWords, Menu, Presenter, register
from engine.actions import TakeFerryCard
from engine.events import FerryCardTaken
from engine.state import GameState


def _counters(state: GameState, seat: int) -> list[tuple[Message, str]]:
    held = state.players[seat].ferry_cards
    return [(Text("hand.ferry", {"n": held}), "⛴")] if held else []


register(
    Presenter(
        "ferry_cards",
        order=30,
        actions=(ActionWords(TakeFerryCard, "tf", lambda s, seat, a: Text("act.ferry"), menu="ferry"),),
        events=frozenset({FerryCardTaken}),
        counters=_counters,
        # the wave spaces of a ferry line, which Ferry cards pay
        route_notes=lambda r: [Text("route.waves", {"n": r.waves})] if getattr(r, "waves", 0) else [],
        menus=(Menu("ferry", "btn.ferry", "secondary", "⛴", 60),),
    )
)

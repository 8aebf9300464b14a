"""A player's own ticket map for the live map (SVG): the same drawing as the chat's "My tickets on the map",
built from that player's view only (`render.from_engine.ticket_map_data`), and only ever sent to them."""

from __future__ import annotations

from bot.manager import GameInfo
from bot.play.names import SeatNames
from bot.play.pictures import board_picture_view, picture_words
from engine.state import GameState
from render.from_engine import ticket_map_data
from render.tickets_map import render_ticket_map_svg


def ticket_map_svg(info: GameInfo, state: GameState, seat: int, language: str) -> str:
    words = picture_words(language)
    named = SeatNames.of(info.seats).state(state, language)
    return render_ticket_map_svg(
        named.board,
        board_picture_view(named, words),
        ticket_map_data(named, seat),
        colorblind=info.settings.colorblind,
        words=words,
    )

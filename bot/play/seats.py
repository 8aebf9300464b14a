"""Seats as the presentation names them: whose seat, how to mention it, whose turn it is."""

from __future__ import annotations

from bot.manager import GameInfo, GameStatus
from bot.messages import Join, Message
from bot.play import chat
from bot.play.names import seat_name
from bot.play.refusals import fail
from engine.state import SETUP, GameState


def seat_of(info: GameInfo, user_id: int) -> int:
    """The caller's seat; "not in this game" otherwise."""
    for s in info.seats:
        if s.user_id == user_id:
            return s.seat
    raise fail("play.not_in_game")


def mention(info: GameInfo, seat: int, *, ping: bool = True) -> Message:
    """A person's seat pings them (unless `ping` is off: they chose another notification, or had theirs
    this turn); an AI's seat shows its name."""
    s = info.seats[seat]
    if ping and s.user_id is not None and s.ai_level is None:
        return chat.user(s.user_id)
    return Join(("**", seat_name(s), "**"), "")


def check_turn(info: GameInfo, state: GameState, user_id: int) -> int:
    """The caller's seat when it is theirs to act; the reason why not otherwise."""
    seat = seat_of(info, user_id)
    if info.status != GameStatus.ACTIVE:
        raise fail("play.not_running")
    if info.seats[seat].ai_level is not None:
        raise fail("play.seat_ai")
    if seat not in info.to_act:
        if state.phase == SETUP:
            raise fail("play.nothing")
        raise fail("play.not_your_turn", current=mention(info, state.current))
    return seat

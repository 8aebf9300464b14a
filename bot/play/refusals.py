"""Refusals a person reads: the manager's `Refused` and the presentation's own, as `GameError`s.

A refusal may quote what someone typed (a setting, a value, a board, a route): those parameters are shortened
with `chat.quote`, so a 6,000-character slash option still gets its refusal within Discord's limits.

A ``board`` parameter that is a board's id (the manager's and the engine's refusals pass ids) becomes the board's
name in the reader's language (`board_name`); text someone typed that names no board stays quoted as typed.

``refused.illegal`` is the engine's reason alone (``{reason}``: the manager passes it as data, `Illegal`, worded
here as an ``illegal.<code>`` sentence that says by itself what is not allowed, :func:`refusal_text`), so a
refusal reads as one sentence, not "That move is not allowed: That move...".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.manager import Illegal, Refused
from bot.messages import Join, SeatRef, Text, board_name
from bot.play import chat
from bot.play.reply import GameError
from bot.presenters.words import DECKS, and_list, card, deck, listed, meeple, or_list
from engine.errors import IllegalAction
from maps.board import board_ids, load_board

#: Manager refusal codes shown with the presentation's own words; the others read `refused.<code>`.
REFUSED_KEYS = {
    "not_seated": "play.not_in_game",
    "stale": "play.stale",
    "not_host": "play.not_host",
    "seat_ai": "play.seat_ai",
    "no_game": "game.none",
}

#: Parameters of a refusal that can hold text someone typed in a slash option.
TYPED = frozenset(
    {"board", "variant", "option", "setting", "value", "key", "route", "color", "game", "topic"}
)


def quoted(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with every typed text shortened for quoting (`chat.quote`), and a board named in the reader's
    language."""
    return {k: _param(k, v) for k, v in params.items()}


def _param(name: str, value: Any) -> Any:
    if name == "deck" and value in DECKS:  # the engine's ticket deck, by its data name
        return deck(value)
    if name == "decks" and isinstance(value, str) and set(value.split(" / ")) <= DECKS:
        return Join(tuple(deck(d, 2) for d in value.split(" / ")), " / ")  # each a pile of several tickets
    if name == "board" and isinstance(value, str) and value in _boards():
        return board_name(value)
    if isinstance(value, Illegal):  # the engine's reason inside refused.illegal
        value = refusal_text(value)
    if isinstance(value, Text):
        return Text(value.key, quoted(value.params))
    return chat.quote(value) if name in TYPED and isinstance(value, str) else value


@cache
def _boards() -> frozenset[str]:
    """The boards' ids (a directory listing, read once)."""
    return frozenset(board_ids())


@cache
def _meeple_colors() -> frozenset[str]:
    """The colours the boards' meeples come in (their data names), read once."""
    return frozenset(
        str(c) for b in board_ids() for c in (load_board(b).rule("meeples") or {}).get("colors", ())
    )


def _engine_param(name: str, value: Any) -> Any:
    """An engine refusal's parameter in the reader's words: a card colour (``color``), meeple colours (``meeple``,
    ``meeples``, the engine's ", " list) and the route's ends (``cities``, the engine's " and " / " or " list)."""
    if name == "color":
        return card(str(value))
    if name in ("meeple", "meeples") and isinstance(value, str) and value:
        colors = value.split(", ")
        if set(colors) <= _meeple_colors():
            return listed(tuple(meeple(c) for c in colors))
    if name == "cities" and isinstance(value, str):
        for joiner, joined in ((" and ", and_list), (" or ", or_list)):
            if joiner in value:
                return joined(value.split(joiner))
    return value


def refusal_text(exc: Illegal | IllegalAction) -> Text:
    """The engine's refusal as a catalogue message, ``illegal.<code>`` with its parameters in the reader's words
    (`_engine_param`; the player a refusal names, by its ``seat``)."""
    params = {k: _engine_param(k, v) for k, v in exc.params.items()}
    seat = exc.params.get("seat")
    if isinstance(seat, int) and "player" in params:  # the seat by its number, named when shown
        params["player"] = SeatRef(seat, str(params["player"]))
    return Text(f"illegal.{exc.code}", params)


def refusal(exc: Refused) -> GameError:
    key = REFUSED_KEYS.get(exc.code)
    if key:
        return GameError(Text(key))
    return GameError(Text(exc.key, quoted(exc.params)))


def worded(error: BaseException) -> GameError | None:
    """`error` as the refusal a person reads when it is the manager's (a `Refused` no handler worded: the
    database cannot be reached, say, in a call that expected no refusal), else None. The adapters' last net:
    a refusal is never "something went wrong" with a traceback."""
    return refusal(error) if isinstance(error, Refused) else None


def fail(message_key: str, /, **params: Any) -> GameError:
    return GameError(Text(message_key, quoted(params)))

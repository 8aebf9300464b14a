"""The "Suggest a move" answer (games with the `hints` setting on): the normal AI's move for the asker's seat,
with its one-line reason, and a button to play it. Only ever an ephemeral reply to the seat's own player: the
move and its reason name their tickets and cards.

The move and the reason come from `engine.ai.advice.suggest` as an action and a reason code with ids; this
module words them from the catalogue (`suggest.reason.<code>`).
"""

from __future__ import annotations

from typing import Any

from bot.manager import turn_token
from bot.messages import Message, Text
from bot.play import chat, codec, labels, layout
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, Reply
from bot.presenters.words import place, route_words
from engine.ai.advice import Suggestion
from engine.state import GameState

#: every reason code of engine.ai.advice, each worded by the catalogue key suggest.reason.<code>
REASONS = (
    "completes",
    "on_path",
    "points",
    "draw_toward",
    "draw_locomotive",
    "draw_blind",
    "draw_tickets",
    "keep_tickets",
    "station",
    "tunnel_pay",
    "tunnel_decline",
    "best",
)


def reason_message(state: GameState, suggestion: Suggestion) -> Message:
    """The reason as the player reads it: the code's catalogue entry, its ids turned into names."""
    board = state.board
    params: dict[str, Any] = {}
    for key, value in suggestion.params.items():
        if key == "ticket":
            params[key] = labels.ticket_text(state, value)
        elif key == "route":
            params[key] = route_words(board, value)
        elif key == "card":
            params[key] = labels.cards_shown((value,))
        elif key == "city":
            params[key] = place(board, value)
        else:
            params[key] = value
    code = suggestion.reason if suggestion.reason in REASONS else "best"
    return Text(f"suggest.reason.{code}", params)


def suggestion_reply(game_id: str, state: GameState, seat: int, suggestion: Suggestion) -> Reply:
    """Privately: what the normal AI would play and why, with a button to play it now."""
    action = labels.message(state, seat, suggestion.action)
    content = Text("suggest.reply", {"action": action, "reason": reason_message(state, suggestion)})
    token = turn_token(state, seat)
    args = (codec.encode(suggestion.action),)
    buttons = []
    if chat.button_arg_fits(token, args):
        buttons.append(
            ButtonSpec(
                game_id, PressCode.DO, Text("btn.play_suggestion"), token=token, args=args, style="success"
            )
        )
    return Reply(content=content, rows=layout.rows_of_buttons(buttons), ephemeral=True)

"""The public turn message: what happened since the last one, the board, whose turn, the seat's buttons.

Public messages are made of the words of `GameEvent`s only (the manager's public facts, worded by
`bot.play.event_words`); what a player alone may know (`PrivateEvent`, hand, tickets) is only ever in ephemeral
replies. Not every move posts one:
lines gather until the turn passes to someone else or something everyone should see happens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot import presenters
from bot.manager import GameEvent, GameInfo, GameStatus
from bot.messages import Join, Message, Text
from bot.play import chat, layout
from bot.play.event_words import Table, line
from bot.play.final import final_message
from bot.play.lobby import seat_title
from bot.play.menus import card_buttons, menu_buttons
from bot.play.names import seated
from bot.play.overview import face_up_row, seat_counts
from bot.play.pictures import Pictures, drawn, drawn_names
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, FileSpec, Reply
from bot.play.seats import mention
from bot.presenters.words import counted, listed, sentences
from engine.state import SETUP, GameState
from render.words import ENGLISH, PictureWords

MAX_LINES = 24  # a player back after a round of five seats reads every move of it
PUBLISH_KINDS = frozenset({"play_started", "game_over", "last_round", "abandoned", "seat_ai", "seat_human"})


_DRAW_LINES = {"ev.draw_blind": "ev.draw_blind_n", "ev.draw_face_up": "ev.draw_face_up_n"}


def _draw(message: Message) -> tuple[Text, Message | None] | None:
    """The plain card-draw line of `message` (blind or face-up, one card or several) and the sentence that
    follows it ("bob's turn."), or None."""
    head: Any = message
    tail: Message | None = None
    if isinstance(message, Text) and message.key == "sentence.then":  # `sentences(line, next_turn)`
        head, tail = message.params.get("said"), message.params.get("next")
    if isinstance(head, Text) and (head.key in _DRAW_LINES or head.key in _DRAW_LINES.values()):
        return head, tail
    return None


def _same_draw(before: Text, this: Text) -> bool:
    """Whether two draw lines tell the same draw: both blind, or both face-up cards of one colour."""
    return _DRAW_LINES.get(before.key, before.key) == _DRAW_LINES.get(this.key, this.key) and (
        before.params.get("card") == this.params.get("card")
    )


def _merged(before: Text, this: Text) -> Text:
    """One line for both draws: "bob drew 2 cards from the deck", "bob took 2 face-up white cards"."""
    n = int(before.params.get("n", 1)) + 1
    params = {"player": this.params.get("player", ""), "n": n}
    card = this.params.get("card")
    if isinstance(card, Text):  # the colour word agrees with the count ("2 cartes blanches")
        params["card"] = Text(card.key, {**card.params, "n": n})
    return Text(_DRAW_LINES.get(this.key, this.key), params)


def told_lines(events: Sequence[GameEvent], table: Table) -> list[Message]:
    """The lines of `events` at `table` as a player reads them: one seat's draws of the same kind in a row make one
    line, "bob drew 2 cards from the deck" (nobody sees which cards they were) or "bob took 2 face-up white
    cards" (the same sentence twice would read as a repeated message)."""
    lines: list[Message] = []
    last: GameEvent | None = None
    for e in events:
        said = line(e, table)
        this = _draw(said) if e.kind in ("draw_blind", "draw_face_up") else None
        before = _draw(lines[-1]) if lines and last is not None and last.kind == e.kind else None
        if (
            this is not None
            and before is not None
            and before[1] is None
            and last is not None
            and last.seat == e.seat
            and _same_draw(before[0], this[0])
        ):
            merged = _merged(before[0], this[0])
            lines[-1] = sentences(merged, this[1]) if this[1] is not None else merged
        else:
            lines.append(said)
        last = e
    return lines


def should_publish(events: Iterable[GameEvent]) -> bool:
    """Whether these events call for a new turn message (else their lines wait for the next one)."""
    for e in events:
        if e.kind in PUBLISH_KINDS or "next" in e.data:
            return True
        if any(presenters.publishes(f) for f in e.facts):
            return True
    return False


async def turn_message(
    info: GameInfo,
    state: GameState,
    lines: list[Message],
    pictures: Pictures,
    words: PictureWords = ENGLISH,
    quiet: frozenset[int] = frozenset(),
    since: int | None = None,
) -> Reply:
    """The turn message after `lines`; the final scores once the game is over (its GIF follows: `gif_message`).
    `words` are the picture's, in the server's language; the seats in `quiet` are named without a ping; the
    picture outlines every route and city taken from log position `since` on (what the lines tell)."""
    if len(lines) > MAX_LINES:
        lines = ["…", *lines[-MAX_LINES:]]
    text = Join(tuple(lines), tail=1500)
    if state.finished or info.status != GameStatus.ACTIVE:
        return seated(info.seats, await final_message(info, state, text, pictures, words))
    gid = info.game_id
    buttons: list[ButtonSpec] = []
    cards: list[ButtonSpec] = []  # the first card of a draw, in rows of their own above the other buttons
    if state.phase == SETUP:
        waiting = [s for s in info.to_act if info.seats[s].ai_level is None]
        who = listed(tuple(mention(info, s, ping=s not in quiet) for s in waiting))
        content = Text("turn.setup", {"lines": text, "players": who if waiting else "-"})
        buttons.append(
            ButtonSpec(gid, PressCode.DECIDE, Text("btn.choose_tickets"), style="primary", emoji="🎫")
        )
    else:
        seat = state.current
        content = Text("turn.message", {"lines": text, "player": mention(info, seat, ping=seat not in quiet)})
        if info.seats[seat].ai_level is None:
            cards = card_buttons(gid, state, seat)
            buttons.extend(menu_buttons(gid, state, seat))
    if info.settings.hints and any(info.seats[s].ai_level is None for s in info.to_act):
        buttons.append(ButtonSpec(gid, PressCode.SUGGEST, Text("btn.suggest"), emoji="💡"))
    buttons.append(ButtonSpec(gid, PressCode.HAND, Text("btn.hand"), emoji="✋"))
    buttons.append(ButtonSpec(gid, PressCode.BOARD, Text("btn.board"), emoji="🗺"))
    board = pictures.board(
        state,
        colorblind=info.settings.colorblind,
        words=words,
        since=since,
        turn=True,
        names=drawn_names(info.seats, words),
    )
    png = await drawn(board, gid)
    rnd = state.turn // max(1, state.num_players) + 1
    footer = Text("turn.footer", {"game": gid, "round": rnd, "deck": len(state.deck)})
    if state.last_round_left is not None:  # only once the end is triggered does a player need the count
        left = counted("turns_left", state.last_round_left)
        footer = Text("turn.footer_last", {**footer.params, "left": left})
    # the face-up row and every seat's counts as text: a phone user need not zoom into the picture
    fields = [FieldSpec(Text("turn.face_up", {"deck": len(state.deck)}), face_up_row(state), False)]
    for s in info.seats:
        marker = "▶ " if s.seat in info.to_act else ""
        fields.append(FieldSpec(seat_title(s, marker), seat_counts(s), True))
    embed = EmbedSpec(
        image="board.png" if png else None,
        fields=tuple(fields),
        color=chat.EMBED_COLOR,
        footer=footer,
    )
    alt = Text("alt.turn_board", {"round": rnd})
    reply = Reply(
        content=content,
        embeds=(embed,),
        files=(FileSpec("board.png", png, description=alt),) if png else (),
        rows=(*layout.rows_of_buttons(cards), *layout.rows_of_buttons(buttons)),
    )
    return seated(info.seats, reply)

"""The replies that only show: the board with the face-up cards, the status of a game, the list of games.
(A player's results and ratings: `bot/play/social.py`.)"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.manager import GameEvent, GameInfo, GameSummary
from bot.manager.read import SeatInfo
from bot.messages import Join, Message, Text, board_name
from bot.play import chat, labels
from bot.play.event_words import line, table_of
from bot.play.lobby import seat_title
from bot.play.names import seat_name
from bot.play.pictures import Pictures, drawn, drawn_names
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, FileSpec, Reply
from bot.play.seats import mention
from bot.presenters.words import card, counted, listed, sentences
from engine.state import GameState
from maps import CARD_NAMES
from render.words import PictureWords


def _count(word: str, n: int | None) -> Message:
    return "-" if n is None else counted(word, n)


def seat_counts(s: SeatInfo) -> Text:
    """A seat's public counts: "12 points · 40 trains · 6 cards · 3 tickets"."""
    counts = {
        "score": _count("points", s.score),
        "trains": _count("trains", s.trains),
        "cards": _count("cards", s.cards),
        "tickets": _count("tickets", s.tickets),
    }
    return Text("status.seat", counts)


#: A coloured square before each colour's name, so the face-up row reads at a glance on a phone.
CARD_SQUARES = {
    "red": "🟥",
    "blue": "🟦",
    "green": "🟩",
    "yellow": "🟨",
    "black": "⬛",
    "white": "⬜",
    "orange": "🟧",
    "pink": "🟪",
    "locomotive": "🌈",
    "locomotive+4": "🌈",
    "passenger": "🧳",
}


def face_up_row(state: GameState) -> Message:
    """The face-up cards as text: "🟥 red · 🟦 blue · 🌈 locomotive"."""
    shown = tuple(
        Join((CARD_SQUARES.get(CARD_NAMES[c], "▫️"), card(CARD_NAMES[c])), " ")
        for c in state.face_up
        if 0 <= c < len(CARD_NAMES)
    )
    return Join(shown, " · ") if shown else "-"


async def board_reply(info: GameInfo, state: GameState, pictures: Pictures, words: PictureWords) -> Reply:
    """The board picture (when it can be drawn), the face-up cards and a button to one's hand."""
    board = pictures.board(
        state, colorblind=info.settings.colorblind, words=words, names=drawn_names(info.seats, words)
    )
    png = await drawn(board, info.game_id)
    embed = EmbedSpec(
        title=Text("board.title", {"board": board_name(info.board)}),
        description=Text("board.face_up", {"cards": labels.face_up(state), "deck": len(state.deck)}),
        image="board.png" if png else None,
        footer=Text("footer.game", {"game": info.game_id}),
        color=chat.EMBED_COLOR,
    )
    return Reply(
        embeds=(embed,),
        files=(FileSpec("board.png", png, description=Text("alt.board")),) if png else (),
        rows=((ButtonSpec(info.game_id, PressCode.HAND, Text("btn.hand"), emoji="✋"),),),
    )


def status_reply(info: GameInfo, since: datetime) -> Reply:
    """Whose turn and since when, and every seat's score, trains, cards and tickets."""
    fields = []
    for s in info.seats:
        fields.append(FieldSpec(seat_title(s, "▶ " if s.to_act else ""), seat_counts(s), True))
    whose = listed(tuple(mention(info, s) for s in info.to_act)) if info.to_act else "-"
    turn = {
        "players": whose,
        "since": chat.relative_time(since),
        "phase": Text(f"phase.{info.phase or 'main'}"),
    }
    embed = EmbedSpec(
        title=Text("status.title", {"board": board_name(info.board)}),
        description=Text("status.turn", turn),
        fields=tuple(fields),
        footer=Text("footer.game", {"game": info.game_id}),
        color=chat.EMBED_COLOR,
    )
    return Reply(embeds=(embed,))


def log_reply(info: GameInfo, events: Sequence[GameEvent]) -> Reply:
    """The last moves, numbered by their place in the game's log, privately."""
    by_seq: dict[int, list[Message]] = {}  # an action and what it set off ("play begins") share a number
    table = table_of(info)
    for e in events:
        if e.seq:
            by_seq.setdefault(e.seq, []).append(line(e, table))
    numbered = tuple(Join((f"{seq}. ", sentences(*said)), "") for seq, said in by_seq.items())
    text: Message = Join(numbered, tail=chat.MAX_DESCRIPTION) if numbered else "-"
    return Reply(
        embeds=(
            EmbedSpec(
                title=Text("log.title"), description=text, footer=Text("footer.game", {"game": info.game_id})
            ),
        ),
        ephemeral=True,
    )


def games_reply(found: Sequence[GameSummary]) -> Reply:
    """Open games, one line each: id, board, status (``games.status.<status>``), where, who."""
    lines = tuple(
        Join(
            (
                f"`{r.id}` ",
                board_name(r.board),
                " · ",
                Text(f"games.status.{r.status.value}"),
                f" · {chat.channel(r.thread_id or r.channel_id)} · ",
                listed(tuple(seat_name(s) for s in r.seats)),
            ),
            "",
        )
        for r in found
    )
    listing: Message = Join(lines, head=chat.MAX_DESCRIPTION) if lines else Text("games.none")
    return Reply(embeds=(EmbedSpec(title=Text("games.title"), description=listing),), ephemeral=True)

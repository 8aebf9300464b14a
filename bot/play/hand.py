"""A player's hand, privately: cards, tickets (done or trains to go), stock counters (each feature's presenter's,
`bot.presenters`) and the hand picture; and, from its button, the player's tickets on the map."""

from __future__ import annotations

from bot import presenters
from bot.manager import GameInfo
from bot.messages import Join, Message, Place, Text
from bot.play import chat
from bot.play.pictures import Pictures, drawn, drawn_names
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, EmbedSpec, FieldSpec, FileSpec, Reply
from bot.presenters.words import cards as counted_cards
from bot.presenters.words import listed
from engine.state import GameState
from engine.views import player_view
from render.words import ENGLISH, PictureWords


async def ticket_map_reply(
    info: GameInfo, state: GameState, seat: int, pictures: Pictures, words: PictureWords = ENGLISH
) -> Reply:
    """`seat`'s tickets on the board (ephemeral, only ever to that seat): ticket cities marked, done ones ticked,
    their network bold, each open ticket's cheapest remaining path (`engine.progress.cheapest_paths`)."""
    png = await drawn(
        pictures.ticket_map(
            state,
            seat,
            colorblind=info.settings.colorblind,
            words=words,
            names=drawn_names(info.seats, words),
        ),
        info.game_id,
    )
    embed = EmbedSpec(
        title=Text("tmap.title"),
        description=Text("tmap.legend"),
        footer=Text("footer.game", {"game": info.game_id}),
        image="tickets.png" if png else None,
        color=chat.EMBED_COLOR,
    )
    files = (FileSpec("tickets.png", png, description=Text("alt.ticket_map")),) if png else ()
    return Reply(embeds=(embed,), files=files, ephemeral=True)


#: the most characters a catalogue's words in a ticket line take in any language ("12 trains to go")
_WORDS_ROOM = 32


def _longest(message: Message) -> int:
    """How long `message` can be once worded, in any language (its words counted as ``_WORDS_ROOM``)."""
    if isinstance(message, str):
        return len(message)
    if isinstance(message, Join):
        return sum(map(_longest, message.parts)) + len(message.sep) * max(0, len(message.parts) - 1)
    return _WORDS_ROOM


def ticket_fields(tickets: list[Message]) -> tuple[FieldSpec, ...]:
    """The tickets, whole, in as many fields as they need (an embed field holds ``chat.MAX_FIELD`` characters;
    a long game keeps 24 tickets and more): the first named "Tickets", the others continuing it."""
    if not tickets:
        return (FieldSpec(Text("hand.tickets"), "-", False),)
    groups: list[list[Message]] = [[]]
    size = 0
    for line in tickets:
        room = _longest(line) + 1
        if groups[-1] and size + room > chat.MAX_FIELD:
            groups.append([])
            size = 0
        groups[-1].append(line)
        size += room
    return tuple(
        FieldSpec(Text("hand.tickets") if i == 0 else "", Join(tuple(group), head=chat.MAX_FIELD), False)
        for i, group in enumerate(groups)
    )


async def hand_reply(
    info: GameInfo, state: GameState, seat: int, pictures: Pictures, words: PictureWords = ENGLISH
) -> Reply:
    """`seat`'s hand (ephemeral), with a button to its pending decision when it has one."""
    you = player_view(state, seat)
    cards: Message = listed(tuple(counted_cards(n, c) for c, n in you.hand.items())) if you.hand else "-"
    tickets: list[Message] = []
    for t in you.tickets:
        mark = "✅" if t.done else "⬜"
        board = state.board.id
        line: Message = Join((f"{mark} ", Place(board, t.a), " – ", Place(board, t.b), f" ({t.points})"), "")
        if t.done or t.trains_needed is None:
            tickets.append(line)
        else:
            tickets.append(Join((line, Text("hand.to_go", {"n": t.trains_needed})), " · "))
    # trains, and each feature's pieces in hand (stations, passengers...): the presenters' counters
    stock = [FieldSpec(count, emoji) for count, emoji in presenters.counters(state, seat)]
    fields = (
        FieldSpec(Text("hand.cards"), cards, False),
        *ticket_fields(tickets),
        *stock,
    )
    png = await drawn(
        pictures.hand(state, seat, colorblind=info.settings.colorblind, words=words), info.game_id
    )
    embed = EmbedSpec(
        title=Text("hand.title"),
        fields=fields,
        footer=Text("footer.game", {"game": info.game_id}),
        image="hand.png" if png else None,
        color=chat.EMBED_COLOR,
    )
    buttons: list[ComponentSpec] = []
    if seat in info.to_act and state.pending.get(seat) is not None and info.seats[seat].ai_level is None:
        buttons.append(ButtonSpec(info.game_id, PressCode.DECIDE, Text("btn.decide"), style="primary"))
    # the seat travels with the press: a press by anyone else (a forwarded or forged button) is refused
    buttons.append(
        ButtonSpec(info.game_id, PressCode.TICKET_MAP, Text("btn.ticket_map"), args=(str(seat),), emoji="🗺️")
    )
    rows: tuple[tuple[ComponentSpec, ...], ...] = (tuple(buttons),)
    return Reply(
        embeds=(embed,),
        files=(FileSpec("hand.png", png, description=Text("alt.hand")),) if png else (),
        rows=rows,
        ephemeral=True,
    )

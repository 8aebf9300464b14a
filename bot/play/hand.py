"""A player's hand, privately: cards, tickets (done or trains to go), stock counters (each feature's presenter's,
`bot.presenters`) and the hand picture; and, from its button, the player's tickets on the map."""

from __future__ import annotations

from bot import presenters
from bot.manager import GameInfo
from bot.manager.events import cards as counted_cards
from bot.messages import Join, Message, Text
from bot.play import chat
from bot.play.pictures import Pictures, drawn, named_pictures
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, EmbedSpec, FieldSpec, FileSpec, Reply
from engine.state import GameState
from engine.views import player_view
from render.words import ENGLISH, PictureWords


async def ticket_map_reply(
    info: GameInfo, state: GameState, seat: int, pictures: Pictures, words: PictureWords = ENGLISH
) -> Reply:
    """`seat`'s tickets on the board (ephemeral, only ever to that seat): ticket cities marked, done ones ticked,
    their network bold, each open ticket's cheapest remaining path (`engine.progress.cheapest_paths`)."""
    png = await drawn(
        named_pictures(pictures, info.seats).ticket_map(
            state, seat, colorblind=info.settings.colorblind, words=words
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


async def hand_reply(
    info: GameInfo, state: GameState, seat: int, pictures: Pictures, words: PictureWords = ENGLISH
) -> Reply:
    """`seat`'s hand (ephemeral), with a button to its pending decision when it has one."""
    you = player_view(state, seat)
    cards: Message = Join(tuple(counted_cards(n, c) for c, n in you.hand.items()), ", ") if you.hand else "-"
    tickets: list[Message] = []
    for t in you.tickets:
        mark = "✅" if t.done else "⬜"
        line = f"{mark} {t.a} – {t.b} ({t.points})"
        if t.done or t.trains_needed is None:
            tickets.append(line)
        else:
            tickets.append(Join((line, Text("hand.to_go", {"n": t.trains_needed})), " · "))
    # trains, and each feature's pieces in hand (stations, passengers...): the presenters' counters
    stock = [FieldSpec(count, emoji) for count, emoji in presenters.counters(state, seat)]
    fields = (
        FieldSpec(Text("hand.cards"), cards, False),
        FieldSpec(Text("hand.tickets"), Join(tuple(tickets), head=chat.MAX_FIELD) if tickets else "-", False),
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

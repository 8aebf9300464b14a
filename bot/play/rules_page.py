"""`/ttr rules`: one board's short rules, an overview with the list of topics or one topic, as an embed."""

from __future__ import annotations

from bot.messages import Text, board_name
from bot.play import chat
from bot.play.boards import boards, find_variant, is_provisional
from bot.play.chat import EMBED_COLOR
from bot.play.reply import EmbedSpec, FieldSpec, GameError, Reply
from bot.rules_text import topic_list, topics
from maps import Board, normalize_name


def rules_page(
    board: Board | None, topic: str | None, variant: str | None, *, locale: str, share: bool = False
) -> Reply:
    """The rules of `board` (the first board if None) in `variant` (its usual one if None): the overview and
    the other topics' titles, or the topic `topic` names (by id or title). The rule texts are in `locale`, the
    language the reply is read in (the caller's, or the server's when `share` makes it public)."""
    if board is None:
        every = boards()
        if not every:
            raise GameError(Text("maps.none"))
        board = every[0]
    found = topics(board, locale, find_variant(board, variant))
    fields: tuple[FieldSpec, ...] = ()
    if topic is None:
        chosen = found[0]
        fields = (FieldSpec(name=Text("rules.more"), value=topic_list(found[1:]) or "-", inline=False),)
    else:
        wanted = normalize_name(topic)
        match = next((t for t in found if wanted in (normalize_name(t.id), normalize_name(t.title))), None)
        if match is None:
            params = {"topic": chat.quote(topic), "board": board_name(board.id), "known": topic_list(found)}
            raise GameError(Text("rules.unknown", params))
        chosen = match
    embed = EmbedSpec(
        title=Text("rules.title", {"board": board_name(board.id), "topic": chosen.title}),
        description=chosen.text,
        fields=fields,
        color=EMBED_COLOR,
        footer=Text("maps.provisional_note") if is_provisional(board) else None,
    )
    return Reply(embeds=(embed,), ephemeral=not share)

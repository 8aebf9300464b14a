"""`/ttr maps`: the boards, their variants and options, as one embed worded in the reader's language."""

from __future__ import annotations

from bot.messages import Join, Message, Text, board_name, option_name, variant_name
from bot.play.boards import boards, is_provisional
from bot.play.chat import EMBED_COLOR
from bot.play.reply import EmbedSpec, FieldSpec, Reply
from bot.presenters.words import listed
from maps import Board

PROVISIONAL_FLAG = Join(("⚠ ", Text("maps.provisional")), sep="")


def board_list(*, share: bool = False) -> Reply:
    """Every board with its variants (the usual one and provisional data flagged), options and sizes; private
    unless `share`."""
    every = boards()
    fields = tuple(_board_field(board) for board in every)
    provisional = any(is_provisional(b) or any(map(is_provisional, b.variants.values())) for b in every)
    embed = EmbedSpec(
        title=Text("maps.title"),
        description=None if fields else Text("maps.none"),
        fields=fields,
        color=EMBED_COLOR,
        footer=Text("maps.provisional_note") if provisional else None,
    )
    return Reply(embeds=(embed,), ephemeral=not share)


def _board_field(board: Board) -> FieldSpec:
    lines: list[Message] = []
    for vid, data in board.variants.items():
        flags: list[Message] = []
        if vid == board.default_variant:
            flags.append(Text("maps.default"))
        if is_provisional(data):
            flags.append(PROVISIONAL_FLAG)
        suffix: Message = Join(("(", listed(flags), ")"), sep="") if flags else ""
        lines.append(
            Join(("• **", variant_name(board.id, vid), f"** `{vid}`", " " if flags else "", suffix), sep="")
        )
    for oid in board.options:
        lines.append(
            Join(("• ", Text("maps.option", {"name": option_name(board.id, oid), "id": oid})), sep="")
        )
    lines.append(
        Text(
            "maps.counts",
            {
                "cities": len(board.cities),
                "routes": len(board.routes),
                "tickets": len(board.tickets),
                "trains": board.rule("trains_per_player", 45),
            },
        )
    )
    title: list[Message] = [board_name(board.id), f" — `{board.id}`"]
    if is_provisional(board):
        title += [" ", PROVISIONAL_FLAG]
    return FieldSpec(name=Join(tuple(title), sep=""), value=Join(tuple(lines)), inline=False)

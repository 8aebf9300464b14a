"""The lobby message: the board, who sits where, and the Join / Leave / Start / Add AI components."""

from __future__ import annotations

from bot.manager import GameInfo
from bot.manager.game_settings import AI_LEVELS
from bot.messages import Message, Text
from bot.play import chat
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, EmbedSpec, FieldSpec, OptionSpec, Reply, SelectSpec
from bot.storage import GameStatus
from maps import load_board


def ai_marker(name: str, level: str | None) -> str:
    """What follows a seat's name when an AI plays it: a robot, and its level unless the name says it
    ("AI 1 (normal)")."""
    if not level:
        return ""
    return " 🤖" if f"({level})" in name else f" 🤖 {level}"


def lobby_reply(info: GameInfo, *, note: Message | None = None) -> Reply:
    """The lobby of `info`, replacing the message pressed (its components only while seats are open)."""
    board = load_board(info.board)
    variant = str(board.variant(info.variant).get("name", info.variant))
    seats = (
        "\n".join(
            f"{s.seat + 1}. "
            + (chat.user(s.user_id) if s.user_id is not None else s.name)
            + ai_marker(s.name, s.ai_level)
            for s in info.seats
        )
        or "-"
    )
    lo, hi = board.rules.get("players", [2, 5])
    most = min(hi, info.settings.max_players or hi)
    fields = [
        FieldSpec(Text("lobby.players", {"n": len(info.seats), "max": most}), seats, False),
        FieldSpec(Text("lobby.options"), ", ".join(info.options) or Text("lobby.no_options"), True),
        FieldSpec(Text("lobby.host"), chat.user(info.host_id), True),
    ]
    title = (
        Text("lobby.title", {"board": board.name, "variant": variant, "game": info.game_id})
        if len(board.variants) > 1 and variant != board.name
        else Text("lobby.title_plain", {"board": board.name, "game": info.game_id})
    )
    help_text = {
        GameStatus.LOBBY: Text("lobby.help", {"min": lo}),
        GameStatus.ACTIVE: Text("lobby.under_way"),
    }.get(info.status, Text("lobby.over"))
    embed = EmbedSpec(
        title=title,
        description=help_text,
        fields=tuple(fields),
        color=chat.EMBED_COLOR,
        footer=Text("lobby.footer", {"game": info.game_id}),
    )
    gid = info.game_id
    rows: tuple[tuple[ComponentSpec, ...], ...] = ()
    if info.status == GameStatus.LOBBY:
        rows = (
            (
                ButtonSpec(gid, PressCode.JOIN, Text("btn.join"), style="success"),
                ButtonSpec(gid, PressCode.LEAVE, Text("btn.leave")),
                ButtonSpec(gid, PressCode.START, Text("btn.start"), style="primary"),
            ),
            (
                SelectSpec(
                    gid,
                    PressCode.ADD_AI,
                    tuple(OptionSpec(Text(f"ai.{lvl}"), args=(lvl,)) for lvl in AI_LEVELS),
                    placeholder=Text("btn.add_ai"),
                ),
            ),
        )
    return Reply(content=note, embeds=(embed,), rows=rows, edit_source=True)

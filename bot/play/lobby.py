"""The lobby message: the board, who sits where, and the Join / Leave / Start / Add AI components; and what
the lobby's place is told when the lobby expires (:func:`expired_reply`)."""

from __future__ import annotations

import dataclasses
import functools
import logging

from bot.manager import GameInfo, GameManager, GameStatus, Outcome, Refused
from bot.manager.game_settings import AI_LEVELS
from bot.manager.tell import EXPIRY_TOLD
from bot.messages import Join, Message, Text, board_name, option_name, variant_name
from bot.play import chat
from bot.play.contract import Caller, Messenger
from bot.play.event_words import lines_of
from bot.play.names import Named, is_ai_seat, seat_name
from bot.play.press import PressCode
from bot.play.refusals import fail, refusal
from bot.play.reply import ButtonSpec, ComponentSpec, EmbedSpec, FieldSpec, OptionSpec, Reply, SelectSpec
from bot.presenters.words import listed
from maps import Board, load_board

log = logging.getLogger(__name__)

#: the note (in the game's settings JSON, beside the turn message's) of where the lobby message is:
#: [channel id, message id], so the lobby's buttons can be taken away when it expires
LOBBY_MESSAGE = "lobby_message"


def ai_marker(seat: Named) -> Message:
    """What follows a seat's name when an AI plays it: a robot, and its level in the reader's language unless
    the seat's name says it (an AI seat: "IA 1 (normale)")."""
    if seat.ai_level is None:
        return ""
    return " 🤖" if is_ai_seat(seat) else Join((" 🤖", Text(f"level.{seat.ai_level}")), " ")


def seat_title(seat: Named, marker: str = "") -> Message:
    """A seat's name as a field's title: the turn marker, the name, the AI marker."""
    return Join((marker, seat_name(seat), ai_marker(seat)), "")


def _options(board: Board, options: tuple[str, ...]) -> Message | None:
    """The game's options named in the reader's language ("Entrepôts et Dépôts"); None without options."""
    named = tuple(option_name(board.id, o) if o in board.options else o for o in options)
    return listed(named) if named else None


def lobby_reply(info: GameInfo, *, note: Message | None = None) -> Reply:
    """The lobby of `info`, replacing the message pressed (its components only while seats are open)."""
    board = load_board(info.board)
    variant = variant_name(board.id, info.variant)
    seats: Message = (
        Join(
            tuple(
                Join(
                    (
                        f"{s.seat + 1}. ",
                        chat.user(s.user_id) if s.user_id is not None else seat_name(s),
                        ai_marker(s),
                    ),
                    "",
                )
                for s in info.seats
            )
        )
        if info.seats
        else "-"
    )
    lo, hi = board.rules.get("players", [2, 5])
    most = min(hi, info.settings.max_players or hi)
    fields = [
        FieldSpec(Text("lobby.players", {"n": len(info.seats), "max": most}), seats, False),
        FieldSpec(Text("lobby.options"), _options(board, info.options) or Text("lobby.no_options"), True),
        FieldSpec(Text("lobby.host"), chat.user(info.host_id), True),
    ]
    title = (
        Text("lobby.title", {"board": board_name(board.id), "variant": variant})
        if len(board.variants) > 1
        else Text("lobby.title_plain", {"board": board_name(board.id)})
    )
    gid = info.game_id
    help_text = {
        GameStatus.LOBBY: Text("lobby.help", {"min": lo}),
        GameStatus.ACTIVE: Text("lobby.under_way"),
    }.get(info.status, Text("lobby.closed") if info.phase is None else Text("lobby.over"))  # never started
    embed = EmbedSpec(
        title=title,
        description=help_text,
        fields=tuple(fields),
        color=chat.EMBED_COLOR,
        footer=Text(
            "lobby.footer" if info.status == GameStatus.LOBBY else "lobby.footer_game", {"game": gid}
        ),
    )
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


async def open_lobby(
    manager: GameManager,
    caller: Caller,
    board_id: str,
    variant: str | None,
    options: tuple[str, ...],
    max_players: int | None,
) -> Reply:
    """/ttr new: the lobby opened in the caller's channel, as a new message whose place is noted once posted
    (:data:`LOBBY_MESSAGE`)."""
    try:
        info = await manager.create_game(
            guild_id=caller.guild_id,
            channel_id=caller.channel_id,
            host_id=caller.user_id,
            host_name=caller.display_name,
            board=board_id,
            variant=variant,
            options=options,
            settings={"max_players": max_players} if max_players else None,
        )
    except Refused as exc:
        raise refusal(exc) from None
    return _new_lobby(manager, info, Text("lobby.opened", {"host": chat.user(caller.user_id)}))


def _new_lobby(manager: GameManager, info: GameInfo, note: Message) -> Reply:
    reply = lobby_reply(info, note=note)
    posted = functools.partial(_note_lobby_message, manager, info.game_id)
    return dataclasses.replace(reply, edit_source=False, posted=posted)


async def play_again(manager: GameManager, caller: Caller, done: GameInfo) -> Reply:
    """ "Play again" on the final scores: a new lobby where the button was, with the finished game's board,
    variant, options, settings and AI seats. Whoever pressed hosts it and sits in it; every other person
    presses Join, as in any lobby (nobody is seated without asking)."""
    if done.status != GameStatus.FINISHED:
        raise fail("again.not_over")
    try:
        info = await manager.create_game(
            guild_id=caller.guild_id,
            channel_id=caller.channel_id,
            host_id=caller.user_id,
            host_name=caller.display_name,
            board=done.board,
            variant=done.variant,
            options=done.options,
            settings=done.settings.to_json(),
        )
        for seat in done.seats:
            if seat.user_id is None and seat.ai_level is not None:  # an AI seat (not a person handed to one)
                info = await manager.add_ai(info.game_id, caller.user_id, seat.ai_level)
    except Refused as exc:
        raise refusal(exc) from None
    return _new_lobby(manager, info, Text("again.opened", {"host": chat.user(caller.user_id)}))


async def _note_lobby_message(manager: GameManager, game_id: str, channel_id: int, message_id: int) -> None:
    try:
        await manager.swap_note(game_id, LOBBY_MESSAGE, [channel_id, message_id])
    except Refused:
        log.info("game %s: could not note where its lobby message is", game_id)


async def _note_expiry_told(manager: GameManager, game_id: str, channel_id: int, message_id: int) -> None:
    try:
        await manager.swap_note(game_id, EXPIRY_TOLD, True)
    except Refused:  # the row stays: the notice may be posted again when its lease ends
        log.warning("game %s: could not note that its expiry notice is posted", game_id)


def expired_reply(outcome: Outcome) -> Reply:
    """Posted in the lobby's channel or thread when it expired (bot.manager.lobbies): what happened."""
    told = lines_of(outcome)
    return Reply(content=Join(told) if told else Text("lobby.over"))


async def lobby_expired(manager: GameManager, messenger: Messenger | None, outcome: Outcome) -> None:
    """A lobby nobody started expired: say so where it was, take the lobby message's buttons away, and
    archive the thread when the bot opened it for the game. Once Discord acknowledged the notice, the
    ``expiry_told`` note clears the game's ``notice`` row (bot.manager.lobbies): a process that dies before
    it leaves the notice to be posted by the next one; after it, the notice is not posted again."""
    if messenger is None:
        return
    place = outcome.info.thread_id or outcome.info.channel_id
    told = functools.partial(_note_expiry_told, manager, outcome.game_id)
    await messenger.post(place, dataclasses.replace(expired_reply(outcome), posted=told))
    try:
        where = await manager.note(outcome.game_id, LOBBY_MESSAGE)
    except Refused:
        where = None
    if where:  # the lobby message now reads closed, its buttons gone
        await messenger.edit(int(where[0]), int(where[1]), lobby_reply(outcome.info))
    await messenger.close_thread(place)

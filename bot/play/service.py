"""`ManagerGameService`: the `GameService` the /ttr cog calls, on top of `bot.manager.GameManager`.

Every rule decision is the engine's: menus list the seat's `legal_actions`, a choice travels back encoded
(`bot/play/codec.py`) with the turn token, and `GameManager.act` applies it or refuses it, changing nothing.

This module is the facade: the lifecycle, `press` (a table from each `PressCode` to its handler;
`bot/play/press.py` says what each asks for) and the slash commands. It stands on three parts, one concept each:
`game_reading` (the manager, and a game read the way a command needs it), `chat_posts` (the turn messages, and
the manager's notifier) and `acting` (menus and moves). What the replies look like is one module per concern:
`lobby`, `menus`, `confirm`, `turn`, `final`, `hand`, `social`, `advice`; `notices` tells players of their turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.config import Settings
from bot.manager import GameInfo, GameManager, GameStatus, Outcome, Refused
from bot.manager.game_settings import GameSettings
from bot.messages import Join, Message, Text
from bot.play import chat, completion, overview, social
from bot.play.acting import Acting
from bot.play.contract import Caller, Messenger
from bot.play.event_words import lines_of
from bot.play.export import export_reply
from bot.play.hand import hand_reply, ticket_map_reply
from bot.play.live_map import link_button, link_reply, map_reply, with_button
from bot.play.lobby import lobby_reply, open_lobby, play_again
from bot.play.my_games import my_games_reply
from bot.play.names import seated, seating
from bot.play.pictures import Pictures, stop_warming, warm_lobby, warm_up
from bot.play.prefs import player_prefs
from bot.play.press import Press, PressCode
from bot.play.refusals import fail, refusal
from bot.play.reply import Choice, Reply
from bot.play.seats import seat_of
from bot.play.server_language import ServerLanguages, server_language_reply
from bot.play.settings_text import settings_reply
from bot.play.statistics import stats_reply
from render.words import PictureWords

log = logging.getLogger(__name__)

#: The presses a notice sent by direct message carries (bot.play.notices): answered there to a player of the game
IN_DIRECT_MESSAGES = frozenset({PressCode.MAP})


Handler = Callable[["ManagerGameService", Caller, GameInfo, Press], Awaitable[Reply]]
Starter = Callable[[], Awaitable[None]]


class ManagerGameService(Acting):
    """The game service of the production bot, over a manager and pictures that the composition root
    (bot.wiring) builds and closes; `pictures` may be others (tests, benchmarks)."""

    def __init__(self, config: Settings, *, manager: GameManager, pictures: Pictures) -> None:
        super().__init__(config, manager=manager, pictures=pictures)
        self._warming: asyncio.Task[None] | None = None
        self._companions: list[tuple[Starter, Starter]] = []  # (start, stop) of the parts run alongside
        self.server_languages = ServerLanguages(lambda: self.games_manager)  # /ttr language, read at the edge

    # ------------------------------------------------------------------ lifecycle

    async def start(self, messenger: Messenger) -> None:
        """Keep `messenger`, then start the manager (its timer dispatcher tells through it) and warm the
        pictures."""
        self.messenger = messenger
        manager = self.games_manager
        await manager.start()  # with the timer dispatcher; the composition root closes the manager
        await self.server_languages.load_all()
        self._warming = asyncio.create_task(warm_up(self.pictures, manager, self.config))
        for start, _ in self._companions:
            await start()

    def run_with(self, start: Starter, stop: Starter) -> None:
        """A part the composition root runs alongside the service (the live map's server): started once the
        service has started (its messages can be posted), stopped first when the service closes."""
        self._companions.append((start, stop))

    async def join_cluster(self, *, shard_ids: str, shard_count: int | None) -> None:
        """Write this process's heartbeat row (its shards), again when Discord told the count."""
        await self.games_manager.join_cluster(shard_ids=shard_ids, shard_count=shard_count)

    async def finish_posts(self, timeout: float) -> bool:
        """A clean stop, before Discord is closed: the owed messages in flight are posted and recorded, no new
        one starts (GameManager.finish_posts)."""
        return True if self.manager is None else await self.manager.finish_posts(timeout)

    async def close(self) -> None:
        """Stop the service's own tasks (the warm-up's database read, the GIFs: they read the storage) before
        the composition root closes the manager, the pictures and the repository."""
        companions, self._companions = self._companions, []
        for _, stop in reversed(companions):
            try:
                await stop()
            except Exception:
                log.exception("a part run alongside the game service did not stop cleanly")
        self.manager = None
        warming, self._warming = self._warming, None
        await stop_warming(warming)
        await self.thread.close()  # never raises (waits for the cancelled tasks, errors and all)

    # ------------------------------------------------------------------ lobby

    async def new_game(
        self,
        caller: Caller,
        *,
        board_id: str,
        variant: str | None = None,
        options: Sequence[str] = (),
        max_players: int | None = None,
    ) -> Reply:
        reply = await open_lobby(self.games_manager, caller, board_id, variant, tuple(options), max_players)
        warm_lobby(self.pictures, board_id, self._words(caller.public_locale))  # drawn when the game starts
        return reply

    async def _join(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        info = await self._call(self.games_manager.join(info.game_id, caller.user_id, caller.display_name))
        return lobby_reply(info, note=Text("lobby.joined", {"player": chat.user(caller.user_id)}))

    async def _add_ai(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        level = press.arg(0) or "normal"
        manager = self.games_manager
        info = await self._call(
            manager.add_ai(info.game_id, caller.user_id, level, moderator=caller.moderator)
        )
        return lobby_reply(info)

    async def _leave(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        if info.status != GameStatus.LOBBY:
            return await self.leave(caller, game_id=info.game_id)
        left = await self._call(self.games_manager.leave(info.game_id, caller.user_id))
        return lobby_reply(left.info, note=Text("lobby.left", {"player": chat.user(caller.user_id)}))

    async def _start(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        manager = self.games_manager
        outcome = await self._call(
            manager.start_game(info.game_id, caller.user_id, moderator=caller.moderator)
        )
        lobby = lobby_reply(outcome.info, note=Text("lobby.started"))
        public = await self._after_public(outcome, force=True)
        return Reply(content=lobby.content, embeds=lobby.embeds, rows=(), edit_source=True, also=public)

    async def _again(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        return await play_again(self.games_manager, caller, info)  # its board is warm: it was just played

    # ------------------------------------------------------------------ presses

    async def press(self, caller: Caller, press: Press) -> Reply:
        """The one check of a press's game (the bot asks nothing before): it exists, and is of this server (or,
        for the buttons a notice's direct message carries, the caller sits in it)."""
        try:
            info = await self.games_manager.game_info(press.game_id)
        except Refused as exc:  # (a fault of the database is refused as such, never "gone")
            raise (fail("button.game_gone") if exc.code == "no_game" else refusal(exc)) from None
        in_their_dm = caller.guild_id is None and press.code in IN_DIRECT_MESSAGES
        if info.guild_id != caller.guild_id and not (
            in_their_dm and seat_of(info, caller.user_id) is not None
        ):
            log.warning(
                "refused button for game %s of guild %s pressed by user %s in guild %s",
                press.game_id,
                info.guild_id,
                caller.user_id,
                caller.guild_id,
            )
            raise fail("button.other_server")
        return await seating(info.seats, _PRESSES[press.code](self, caller, info, press))

    async def _hand(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        return await self.hand(caller, game_id=info.game_id)

    async def _ticket_map(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        """The caller's tickets on the map, always privately; refused to anyone but the seat the button names."""
        if press.arg(0) != str(seat := seat_of(info, caller.user_id)):
            raise fail("tmap.not_yours")
        state = await self._running(info.game_id)
        return await ticket_map_reply(info, state, seat, self.pictures, self._words(caller.locale))

    async def _board(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        # the button answers privately (no channel spam), in the caller's language; /ttr board posts publicly
        shown = await self._board_reply(info, self._words(caller.locale))
        return Reply(embeds=shown.embeds, files=shown.files, ephemeral=True)

    async def _status(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        return await self.status(caller, game_id=info.game_id)

    async def _map(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        if (
            caller.guild_id is None
        ):  # a notice's direct message: the Activity opens in the game's channel only
            return link_reply(self.map_links, info, caller.user_id, caller.locale)
        return map_reply(self.map_links, info, caller.user_id, caller.locale)

    async def _map_link(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        return link_reply(self.map_links, info, caller.user_id, caller.locale)

    async def map(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """`/ttr map`: the live map of the game here (the Activity, else the caller's personal link)."""
        return map_reply(self.map_links, await self._find(caller, game_id), caller.user_id, caller.locale)

    # ------------------------------------------------------------------ commands

    async def hand(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        seat = seat_of(info, caller.user_id)
        state = await self._running(info.game_id)
        reply = await hand_reply(info, state, seat, self.pictures, self._words(caller.locale))
        reply = with_button(reply, link_button(info.game_id)) if self.map_links is not None else reply
        return seated(info.seats, reply)

    async def board(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        return await self._board_reply(info, self._public_words(info))

    async def _board_reply(self, info: GameInfo, words: PictureWords) -> Reply:
        return await overview.board_reply(info, await self._running(info.game_id), self.pictures, words)

    async def status(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        if info.status == GameStatus.LOBBY:
            return Reply(embeds=lobby_reply(info).embeds)
        return overview.status_reply(info, await self.games_manager.waiting_since(info.game_id))

    async def log(self, caller: Caller, *, game_id: str | None = None, limit: int = 10) -> Reply:
        info = await self._find(caller, game_id)
        if info.status == GameStatus.LOBBY:
            raise fail("play.not_running")
        events = await self._call(self.games_manager.recent_events(info.game_id, max(1, min(limit, 50))))
        return seated(info.seats, overview.log_reply(info, events))

    async def settings(
        self, caller: Caller, *, game_id: str | None = None, key: str | None = None, value: str | None = None
    ) -> Reply:
        info = await self._find(caller, game_id)
        current: GameSettings = info.settings
        if key:
            if value is None:
                raise fail("settings.need_value", key=key)
            current = await self._call(
                self.games_manager.update_settings(
                    info.game_id, caller.user_id, {key: value}, moderator=caller.moderator
                )
            )
        return settings_reply(info, current, key)

    async def games(self, caller: Caller, *, scope: str = "channel") -> Reply:
        manager = self.games_manager
        if scope == "mine" or caller.guild_id is None:  # their games in every server (bot.play.my_games)
            mine = await self._call(manager.my_games(caller.user_id))
            return my_games_reply(mine, caller.user_id, self.map_links, caller.locale)
        channel_id = caller.channel_id if scope == "channel" else None
        found = await self._call(manager.open_games(guild_id=caller.guild_id, channel_id=channel_id))
        return overview.games_reply([r for r in found if caller.guild_id in (None, r.guild_id)])

    async def stats(self, caller: Caller, *, target_user_id: int | None = None) -> Reply:
        where = caller.guild_id  # in a DM one's own statistics only: another's would show where they play
        who = (target_user_id or caller.user_id) if where is not None else caller.user_id
        try:  # (bot.play.statistics)
            return await stats_reply(self.games_manager, self.pictures, where, who, caller.public_locale)
        except Refused as exc:
            raise refusal(exc) from None

    async def export(self, caller: Caller, *, fmt: str = "jsonl", admin: bool = False) -> Reply:
        """A server's finished games as a file (bot.play.export), for members who may manage the server."""
        guild = caller.guild_id  # (export_reply words the refusal to a non-admin or a DM)
        rows = await self._call(self.games_manager.export_all(guild)) if guild is not None and admin else ()
        return export_reply(caller.guild_id, rows, fmt, admin=admin)

    async def leaderboard(self, caller: Caller, *, board_id: str | None = None) -> Reply:
        """The server's ratings, best first: over every board, or on one board (that board's own ratings)."""
        board = board_id or ""
        leaders = (
            []
            if caller.guild_id is None
            else await self._call(self.games_manager.ratings(caller.guild_id, board))
        )
        return social.leaderboard_reply(leaders, board)

    async def prefs(self, caller: Caller, **changes: Any) -> Reply:
        """The caller's own preferences: show them, or change some (bot.play.prefs)."""
        try:
            return await player_prefs(self.games_manager, caller.user_id, caller.guild_id, **changes)
        except Refused as exc:
            raise refusal(exc) from None

    async def server_language(self, caller: Caller, **asked: Any) -> Reply:
        """The server's public language: shown, or chosen by its admins (bot.play.server_language)."""
        return await server_language_reply(self.server_languages, caller.guild_id, **asked)

    async def _outcome_reply(self, outcome: Outcome) -> Reply:
        text: Message = Join(lines_of(outcome)) if outcome.events else "-"
        if any(e.seq for e in outcome.events):
            public = await self._after_public(outcome, force=True)
            return public[0] if public else seated(outcome.info.seats, Reply(content=text))
        return seated(outcome.info.seats, Reply(content=text))

    async def leave(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        outcome = await self._call(self.games_manager.leave(info.game_id, caller.user_id))
        return await self._outcome_reply(outcome)

    async def kick(self, caller: Caller, *, target_user_id: int, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        outcome = await self._call(
            self.games_manager.kick(info.game_id, caller.user_id, target_user_id, moderator=caller.moderator)
        )
        return await self._outcome_reply(outcome)

    async def end(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        info = await self._find(caller, game_id)
        outcome = await self._call(
            self.games_manager.abandon(info.game_id, caller.user_id, moderator=caller.moderator)
        )
        self._lines.pop(info.game_id, None)
        self.notices.forget(info.game_id)
        lines = lines_of(outcome)
        return seated(outcome.info.seats, Reply(content=Join(lines) if lines else Text("game.ended")))

    async def replace(
        self,
        caller: Caller,
        *,
        target_user_id: int,
        replacement_user_id: int,
        replacement_name: str = "",
        game_id: str | None = None,
    ) -> Reply:
        """Same person twice: that player hands their seat to the AI, or takes it back. Otherwise the host
        (or a moderator) gives the seat to another member."""
        info = await self._find(caller, game_id)
        manager = self.games_manager
        user_id = caller.user_id
        if target_user_id == replacement_user_id:
            if target_user_id != user_id:
                raise fail("replace.self_only")
            seat = seat_of(info, user_id)
            if info.seats[seat].ai_level is None:
                outcome = await self._call(manager.hand_to_ai(info.game_id, user_id, "normal"))
            else:
                outcome = await self._call(manager.take_back(info.game_id, user_id))
        else:
            outcome = await self._call(
                manager.replace_player(
                    info.game_id,
                    user_id,
                    target_user_id,
                    replacement_user_id,
                    replacement_name or str(replacement_user_id),
                    moderator=caller.moderator,
                )
            )
        return await self._outcome_reply(outcome)

    async def complete(
        self, caller: Caller, *, field: str, current: str, game_id: str | None = None
    ) -> list[Choice]:
        return await completion.complete(
            self.games_manager, caller, field, current, lambda: self._find(caller, game_id)
        )


#: What each press does (`bot/play/press.py` has the table of what each asks for).
_PRESSES: dict[PressCode, Handler] = {
    PressCode.JOIN: ManagerGameService._join,
    PressCode.LEAVE: ManagerGameService._leave,
    PressCode.START: ManagerGameService._start,
    PressCode.ADD_AI: ManagerGameService._add_ai,
    PressCode.HAND: ManagerGameService._hand,
    PressCode.TICKET_MAP: ManagerGameService._ticket_map,
    PressCode.BOARD: ManagerGameService._board,
    PressCode.STATUS: ManagerGameService._status,
    PressCode.OPEN: ManagerGameService._menu_press,
    PressCode.MENU: ManagerGameService._menu_press,
    PressCode.GROUP: ManagerGameService._menu_press,
    PressCode.DECIDE: ManagerGameService._menu_press,
    PressCode.DO: ManagerGameService._do,
    PressCode.KEEP: ManagerGameService._keep,
    PressCode.SUGGEST: ManagerGameService._suggest,
    PressCode.AGAIN: ManagerGameService._again,
    PressCode.MAP: ManagerGameService._map,
    PressCode.MAP_LINK: ManagerGameService._map_link,
}

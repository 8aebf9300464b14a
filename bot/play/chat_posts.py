"""`ChatPosts`: what the play service posts in a game's thread, and the manager's notifier (`bot.manager.Notifier`).

The public lines of each move wait here until a move calls for a turn message (`bot.play.turn.should_publish`);
the turn message tells them, draws the board in the server's language, names (or pings, `bot.play.notices`)
the seats to play, and keeps the thread readable once posted (`bot.play.thread`). The notifier's calls (moves
nobody clicked, reminders, held pings, absent players, expired lobbies, daily digests) post the same way."""

from __future__ import annotations

import dataclasses

from bot.config import Settings
from bot.manager import GameEvent, GameInfo, GameManager, Outcome, PingKind
from bot.messages import Message, Text
from bot.play import chat
from bot.play.contract import Messenger
from bot.play.event_words import table_of
from bot.play.game_reading import GameReading
from bot.play.live_map import MapLinks, map_button, with_button
from bot.play.lobby import lobby_expired
from bot.play.my_games import DigestNotices
from bot.play.names import seated
from bot.play.notices import TurnNotices
from bot.play.pictures import Pictures
from bot.play.refusals import fail
from bot.play.reply import Reply
from bot.play.seats import mention
from bot.play.thread import ThreadKeeper, gif_of, ours_to_tell, since_last_turn
from bot.play.turn import should_publish, told_lines, turn_message
from engine.state import GameState
from render.words import PictureWords


class ChatPosts(GameReading, DigestNotices):
    """The turn messages and notices of the games, posted through the messenger the service was started with."""

    def __init__(self, config: Settings, *, manager: GameManager, pictures: Pictures) -> None:
        super().__init__(config, manager=manager, pictures=pictures)
        self.messenger: Messenger | None = None
        self._lines: dict[str, list[GameEvent]] = {}  # public events not yet posted, per game
        self.thread = ThreadKeeper()  # one live set of buttons, the GIF after the scores
        self.notices = TurnNotices(lambda: self.map_links is not None)  # who is told of each turn, and how
        self.map_links: MapLinks | None = None  # the live map (bot/web), when the start-up runs it

    # ------------------------------------------------------------------ public messages

    async def _after_public(self, outcome: Outcome, *, force: bool = False) -> tuple[Reply, ...]:
        """Gather the outcome's public lines; a turn message when they call for one (or `force`)."""
        lines = self._lines.setdefault(outcome.game_id, [])
        lines.extend(outcome.events)
        if not (force or should_publish(outcome.events)):
            return ()
        reply = await self._publish(outcome.info, outcome.state)
        return (reply,) if await ours_to_tell(self.games_manager, outcome) else ()  # (another posts it)

    async def turn_message(self, game_id: str) -> Reply:
        """The public message after a turn: what happened, the board, whose turn, the buttons of the seat."""
        return await self._publish(await self._info(game_id), await self._state(game_id))

    async def _publish(self, info: GameInfo, state: GameState | None) -> Reply:
        waiting = self._lines.pop(info.game_id, [])
        if state is None:
            raise fail("play.not_running")
        game_id = info.game_id
        since, missed = await since_last_turn(self.games_manager, info, state, waiting)
        lines = told_lines(missed, table_of(info))
        words = self._public_words(info)
        quiet = await self.notices.turn(self.games_manager, self.messenger, info, state)
        reply = await turn_message(info, state, lines, self.pictures, words, quiet=quiet, since=since)
        reply = with_button(reply, map_button(game_id)) if self.map_links is not None else reply
        gif = gif_of(info, self.pictures, lambda: self._record(game_id), words)  # after the final scores
        posted = lambda ch, mid: self.thread.posted(self.games_manager, self.messenger, info, ch, mid, gif)  # noqa: E731
        return dataclasses.replace(reply, posted=posted)

    def _public_words(self, info: GameInfo) -> PictureWords:
        """Public pictures speak the language of the game's server, as its public messages do."""
        channel = info.thread_id or info.channel_id
        return self._words(self.messenger.public_locale(channel) if self.messenger is not None else None)

    # ------------------------------------------------------------------ notifier (bot.manager.Notifier)

    async def _post(self, game_id: str, reply: Reply) -> None:
        if self.messenger is None:
            return
        info = await self._info(game_id)
        await self.messenger.post(info.thread_id or info.channel_id, seated(info.seats, reply))

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        for reply in await self._after_public(outcome, force=not outcome.events):  # empty: one owed
            await self._post(game_id, reply)

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        info = await self._info(game_id)
        reply = await self.notices.reminder(self.games_manager, self.messenger, info, seat, user_id, n)
        if reply is not None:
            await self._post(game_id, reply)

    async def on_ping(self, game_id: str, seat: int, user_id: int, what: PingKind, n: int) -> None:
        info = await self._info(game_id)
        reply = await self.notices.ping(self.games_manager, self.messenger, info, seat, user_id, what, n)
        if reply is not None:
            await self._post(game_id, reply)

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        who: Message = chat.user(user_id) if user_id else Text("turn.seat", {"n": seat + 1})
        if user_id and await self.games_manager.quiet_now(user_id):  # named, not pinged, in their quiet hours
            who = mention(await self._info(game_id), seat, ping=False)
        await self._post(game_id, Reply(content=Text(f"turn.absent_{policy}", {"player": who})))

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        await lobby_expired(self.games_manager, self.messenger, outcome)

"""Telling a player it is their turn, the way they chose (`/ttr prefs`): a mention in the turn message (the
default), a direct message with a link to the game, or nothing. Reminders of an absent player go the same way.

One notification per turn: the turn token each seat was last told about is remembered, so a turn that gets a
second public message (a resignation, a replaced seat) names the player without pinging them again. The memory
is this process's: after a restart a player may be told once more about the turn they were already told of.

A player's time (`/ttr prefs`, bot.manager.player_time): a player with a ping delay, in their quiet hours, or
away is named in the turn message without a ping; the manager holds the ping in a row and the dispatcher sends it
later (:meth:`TurnNotices.ping`), once, unless they moved first. A reminder due in their quiet hours waits for
their end the same way. The heads-up ("you are next") is a direct message only: a quiet note, never a mention.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.manager import GameInfo, GameManager, GameStatus, PingKind
from bot.messages import Text
from bot.play import chat
from bot.play.contract import Messenger
from bot.play.live_map import map_button, with_button
from bot.play.reply import Reply
from bot.play.seats import mention
from engine.state import GameState


def game_link(info: GameInfo) -> str:
    return chat.jump_link(info.guild_id, info.thread_id or info.channel_id)


class TurnNotices:
    """Who is told about each turn, and how. Every notice that calls a player to the game (a turn by direct
    message, a reminder, a held ping, the heads-up) carries the game's Map button while the live map runs
    (`map_on`): it opens the Activity on that game, or the player's personal link where it cannot launch (a
    direct message)."""

    def __init__(self, map_on: Callable[[], bool] = lambda: False) -> None:
        self._told: dict[tuple[str, int], str] = {}  # (game, seat) -> the turn token it was told about
        self._map_on = map_on

    def _notice(self, info: GameInfo, text: Text) -> Reply:
        reply = Reply(content=text)
        return with_button(reply, map_button(info.game_id)) if self._map_on() else reply

    async def turn(
        self, manager: GameManager, messenger: Messenger | None, info: GameInfo, state: GameState
    ) -> frozenset[int]:
        """Send the direct messages this turn calls for; the seats the turn message must name without a
        ping (they chose another way, or were already told of this turn)."""
        if state.finished or info.status != GameStatus.ACTIVE:
            return frozenset()
        quiet: set[int] = set()
        people = frozenset(s for s in info.to_act if info.seats[s].user_id is not None)
        held = await manager.hold_turn_pings(info.game_id, people)  # (their ping later, if still owed)
        for seat in info.to_act:
            s = info.seats[seat]
            if s.user_id is None or s.ai_level is not None:
                continue
            token, key = info.tokens.get(seat, ""), (info.game_id, seat)
            told = self._told.get(key) == token or seat in held
            prefs = await manager.player_prefs(s.user_id, info.guild_id)
            if told or prefs.notify != "mention":
                quiet.add(seat)
            if told:
                continue
            self._told[key] = token
            if prefs.notify == "dm":
                text = Text("notify.turn_dm", {"game": info.game_id, "link": game_link(info)})
                if messenger is None or not await messenger.direct(s.user_id, self._notice(info, text)):
                    quiet.discard(seat)  # their direct messages are closed: the mention tells them instead
        return frozenset(quiet)

    async def reminder(
        self,
        manager: GameManager,
        messenger: Messenger | None,
        info: GameInfo,
        seat: int,
        user_id: int,
        n: int,
        *,
        held: bool = True,
    ) -> Reply | None:
        """Remind a player the way they chose: the public reminder to post (a mention), or None (a direct
        message was sent, or they want nothing)."""
        if held and await manager.hold_reminder(info.game_id, seat, user_id, n):
            return None  # their quiet hours: sent at the end of them (a ping row), if still owed
        prefs = await manager.player_prefs(user_id, info.guild_id)
        if prefs.notify == "none":
            return None
        if prefs.notify == "dm":
            text = Text("notify.reminder_dm", {"game": info.game_id, "n": n, "link": game_link(info)})
            if messenger is not None and await messenger.direct(user_id, self._notice(info, text)):
                return None  # else their direct messages are closed: the public reminder tells them
        return self._notice(info, Text("turn.reminder", {"player": chat.user(user_id), "n": n}))

    async def ping(
        self,
        manager: GameManager,
        messenger: Messenger | None,
        info: GameInfo,
        seat: int,
        user_id: int,
        what: PingKind,
        n: int,
    ) -> Reply | None:
        """A notification the manager held (bot.manager.player_time), now due: the public message to post, or
        None (a direct message was sent, or nothing is wanted)."""
        if what == PingKind.REMINDER:
            return await self.reminder(manager, messenger, info, seat, user_id, n, held=False)
        if what == PingKind.AWAY:
            times = await manager.player_time(user_id)
            if times.away_until is None:  # back already: nothing to tell
                return None
            until = int(times.away_until.timestamp())
            policy = Text(f"settings.policy.{info.settings.absent_policy}")
            return Reply(
                content=Text(  # (named, not pinged: they are away)
                    "notify.away",
                    {"player": mention(info, seat, ping=False), "until": f"<t:{until}:f>", "policy": policy},
                )
            )
        link = game_link(info)
        if what == PingKind.HEADS_UP:  # a quiet note: a direct message or nothing
            if messenger is not None:
                await messenger.direct(
                    user_id,
                    self._notice(info, Text("notify.heads_up_dm", {"game": info.game_id, "link": link})),
                )
            return None
        prefs = await manager.player_prefs(user_id, info.guild_id)
        if prefs.notify == "none":
            return None
        if prefs.notify == "dm":
            text = Text("notify.turn_dm", {"game": info.game_id, "link": link})
            if messenger is not None and await messenger.direct(user_id, self._notice(info, text)):
                return None  # else their direct messages are closed: the mention tells them
        return self._notice(info, Text("notify.turn_ping", {"player": chat.user(user_id)}))

    def forget(self, game_id: str) -> None:
        for key in [k for k in self._told if k[0] == game_id]:
            del self._told[key]

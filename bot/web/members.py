"""Who may watch a game's live map: its seated players, and the members of the game's server (the public view).

The live map knows no Discord server: it is given a `Membership` port by the composition root (bot.wiring), which
the Discord adapter answers from the gateway (`bot.discord.messenger.DiscordMessenger.is_member`: the member cache,
else one REST look-up), and tests by a fake. Without one (``ttr web`` alone has no gateway) nobody can be told a
member: only the seated players watch, the safe side. Answers are kept a few minutes, so a page that reads its view
again asks Discord nothing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

#: Is this user a member of this server? True, False, or None when that cannot be told now (Discord unreachable).
Membership = Callable[[int, int], Awaitable[bool | None]]


@runtime_checkable
class MemberDirectory(Protocol):
    """What answers `Membership` in the bot process (the Discord adapter's messenger)."""

    async def is_member(self, guild_id: int, user_id: int) -> bool | None: ...


class Members:
    """`Membership` answers, kept `keep` seconds (a refusal `keep_refused`); unknown answers are not kept."""

    def __init__(
        self,
        membership: Membership | None,
        *,
        keep: float = 300.0,
        keep_refused: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        most: int = 20_000,
    ) -> None:
        self.membership = membership
        self.keep = keep
        self.keep_refused = keep_refused
        self._clock = clock
        self._most = most
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}

    async def is_member(self, guild_id: int | None, user_id: int) -> bool | None:
        if self.membership is None or guild_id is None:
            return False
        now = self._clock()
        known = self._known.get((guild_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        answer = await self.membership(guild_id, user_id)
        if answer is not None:
            if len(self._known) >= self._most:
                self._known = {k: v for k, v in self._known.items() if v[1] > now}
                if len(self._known) >= self._most:
                    self._known.clear()
            self._known[(guild_id, user_id)] = (answer, now + (self.keep if answer else self.keep_refused))
        return answer

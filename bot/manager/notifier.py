"""How the manager reaches the bot layer for things no command is waiting for (:class:`Notifier`, served by
the dispatcher of bot.manager.timers), and the call each reminder or absent-player announcement row carries
(``remind`` and ``absent`` rows, bot.manager.tell): :func:`announcement` sends a row, :func:`current` says
whether a row found after its writer died still says something true."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.manager.read import Outcome
from bot.manager.store import LiveGame
from bot.manager.timer_rows import Absent, PingKind, Remind

__all__ = ["Notifier", "NullNotifier", "announcement", "current"]


class Notifier(Protocol):
    """How the manager reaches the bot layer for things no command is waiting for. Errors are logged."""

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        """Moves made without a command (absent-player policy, AI seats resumed after a restart)."""

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        """Reminder number `n` (1 or 2) for the player who must act in `game_id`."""

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        """The absent-player policy is being applied to `seat` ("ai", "skip" or "wait")."""

    async def on_ping(self, game_id: str, seat: int, user_id: int, what: PingKind, n: int) -> None:
        """A held notification of `seat`'s player (bot.manager.player_time), of the kind `what`: their turn,
        reminder `n`, a heads-up (they are next), or the others told that they are away."""

    async def on_digest(self, user_id: int) -> None:
        """The player's daily digest is due (bot.manager.digests): they sit in at least one open game."""

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        """The lobby `game_id` saw no change for the expiry delay: it is abandoned (bot.manager.lobbies)."""


class NullNotifier:
    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        return None

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        return None

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        return None

    async def on_ping(self, game_id: str, seat: int, user_id: int, what: PingKind, n: int) -> None:
        return None

    async def on_digest(self, user_id: int) -> None:
        return None

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        return None


def announcement(notifier: Notifier, game_id: str, owed: Remind | Absent) -> Callable[[], Awaitable[None]]:
    """The notifier call a ``remind`` or ``absent`` row of `game_id` carries (its payload: `owed`)."""
    if isinstance(owed, Remind):
        return functools.partial(notifier.on_reminder, game_id, owed.seat, owed.user, owed.n)
    return functools.partial(notifier.on_absent, game_id, owed.seat, owed.user, owed.policy)


def current(game: LiveGame, owed: Remind | Absent) -> bool:
    """Whether a ``remind`` or ``absent`` row of `game` found by the dispatcher (its writer died before the
    post; its payload: `owed`) is still to be sent: the ``ai`` or ``skip`` announcement always (it was written
    with the move it announces); a reminder, or the ``wait`` announcement, only while the game still waits for
    that seat's player in the same wait (phase, turn and current seat): a reminder made stale by a move
    meanwhile is dropped rather than sent late."""
    if isinstance(owed, Absent) and not owed.waits:
        return True
    humans, _ai = game.waiting()
    if owed.seat not in humans or owed.key != game.wait_key():
        return False
    return game.seats[owed.seat].user_id == owed.user  # (not when another player took the seat)

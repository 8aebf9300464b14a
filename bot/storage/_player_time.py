"""A player's time (issue 33): their time zone, quiet hours, ping delay, heads-up and away mode (one row per
player, in every server), and the claim of a notification timer row (a ping, a heads-up, an away notice): sent
at most once per game, wait and seat, whichever process serves the row. Mixed into
:class:`~bot.storage._repository.SQLRepository`, written once for both databases."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from ._dialect import Dialect, Row, Tx
from .base import PlayerTime, VersionConflict


class PlayerTimeQueries:
    """Mixed into the repository: it provides ``dialect``, ``_write``, ``_read`` and ``_now``."""

    dialect: ClassVar[Dialect]

    if TYPE_CHECKING:  # what the repository provides (declared here for the type checker only)

        def _write(self, doing: str) -> AbstractAsyncContextManager[Tx]: ...

        async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

        def _now(self) -> datetime: ...

    async def load_player_time(self, user_id: int) -> PlayerTime:
        rows = await self._read(
            "SELECT time_zone, quiet_start, quiet_end, ping_delay, heads_up, away_until"
            " FROM player_time WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return PlayerTime()
        row = rows[0]
        away = row["away_until"]
        return PlayerTime(
            time_zone=row["time_zone"],
            quiet_start=row["quiet_start"],
            quiet_end=row["quiet_end"],
            ping_delay=int(row["ping_delay"]),
            heads_up=bool(row["heads_up"]),
            away_until=None if away is None else self.dialect.time_from_db(away),
        )

    async def save_player_time(self, user_id: int, prefs: PlayerTime) -> None:
        now = self.dialect.time_to_db(self._now())
        away = None if prefs.away_until is None else self.dialect.time_to_db(prefs.away_until)
        async with self._write("save a player's time") as tx:
            await tx.execute(
                "INSERT INTO player_time (user_id, time_zone, quiet_start, quiet_end, ping_delay, heads_up,"
                " away_until, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " time_zone = excluded.time_zone, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end, ping_delay = excluded.ping_delay,"
                " heads_up = excluded.heads_up, away_until = excluded.away_until,"
                " updated_at = excluded.updated_at",
                (
                    user_id,
                    prefs.time_zone,
                    prefs.quiet_start,
                    prefs.quiet_end,
                    prefs.ping_delay,
                    prefs.heads_up,
                    away,
                    now,
                ),
            )

    async def end_away(self, user_id: int, until: datetime) -> bool:
        """The away mode that was to end at `until` is over (its timer row fired): cleared, unless the player
        set another since. Returns whether it was cleared now."""
        async with self._write("end away mode") as tx:
            rows = await tx.fetch(
                "UPDATE player_time SET away_until = NULL WHERE user_id = ? AND away_until <= ? RETURNING user_id",
                (user_id, self.dialect.time_to_db(until)),
            )
        return bool(rows)

    async def claim_ping(
        self, timer_id: int, owner: str, game_id: str, version: int, wait_key: str, seat: int, what: str
    ) -> bool:
        """Claim the notification of timer row `timer_id` (held by `owner`) for sending, in one transaction:
        the game is still at `version` (VersionConflict else: decide again from the game as it is now), the
        row is still `owner`'s, and no notification `what` was sent yet for `seat` in the wait `wait_key`
        (it is recorded as sent now, and the row deleted). False: sent already, or the row is not ours."""
        lock = " FOR UPDATE" if self.dialect.name == "postgres" else ""
        async with self._write("claim a ping") as tx:
            # the game's row locked until the commit on PostgreSQL: a move of it waits, or came first
            stored = await tx.fetch(f"SELECT version FROM games WHERE id = ?{lock}", (game_id,))
            if not stored:
                return False
            if int(stored[0]["version"]) != version:
                raise VersionConflict(game_id, version, int(stored[0]["version"]))
            held = await tx.fetch(
                f"SELECT id FROM timers WHERE id = ? AND claimed_by = ?{lock}", (timer_id, owner)
            )
            if not held:
                return False
            await tx.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            # what was sent in the game's earlier waits can never be owed again (their rows are dropped unsent):
            # the table keeps a few rows per game, not one per turn
            await tx.execute(
                "DELETE FROM pings_sent WHERE game_id = ? AND wait_key <> ? AND wait_key NOT LIKE 'away:%'",
                (game_id, wait_key),
            )
            sent = await tx.fetch(
                "INSERT INTO pings_sent (game_id, wait_key, seat, what, sent_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, wait_key, seat, what) DO NOTHING RETURNING seat",
                (game_id, wait_key, seat, what, self.dialect.time_to_db(self._now())),
            )
        return bool(sent)

    async def postpone_timer(self, timer_id: int, owner: str, due: datetime) -> bool:
        """The row `owner` holds is due again at `due` (and free): its notification waits (quiet hours)."""
        async with self._write("postpone a timer") as tx:
            rows = await tx.fetch(
                "UPDATE timers SET due_at = ?, claimed_by = NULL, lease_until = NULL"
                " WHERE id = ? AND claimed_by = ? RETURNING id",
                (self.dialect.time_to_db(due), timer_id, owner),
            )
        return bool(rows)

    async def ping_sent(self, game_id: str, wait_key: str, seat: int, what: str) -> bool:
        rows = await self._read(
            "SELECT seat FROM pings_sent WHERE game_id = ? AND wait_key = ? AND seat = ? AND what = ?",
            (game_id, wait_key, seat, what),
        )
        return bool(rows)

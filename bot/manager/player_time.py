"""A player's time across days (issue 33): quiet hours in their own time zone, a ping delay, a heads-up when the
player before them starts, and away mode. A base class of :class:`bot.manager.GameManager`, with the pure
functions of local time it uses (and the dispatcher, bot.manager.timers, too).

Every notification that does not go with the turn message now is a ``ping`` row (bot.manager.timer_rows.Ping),
keyed by game, wait (phase, turn and current seat) and seat, and served by the dispatcher when it is due:

* the turn ping of a player with a ping delay, or in their quiet hours: the turn message posts without their
  mention, and the row pings them (the way they chose, ``/ttr prefs notify:``) once the delay is over and their
  quiet hours too, unless they acted meanwhile;
* a reminder due in the player's quiet hours: held to the end of them;
* the heads-up (a private note: "you are next"), when the player before them starts their turn;
* the notice that a player is away, told once to the others in each game they sit in.

Sent at most once: the process serving the row claims it in one transaction with the game still at the version it
decided on and with the ``pings_sent`` row of (game, wait, seat, kind) inserted
(:meth:`~bot.storage.GameRepository.claim_ping`); a move that came first makes it decide again, from the game as it
is. So two processes never both send one ping, and none is sent once the player moved. (The one window left is
the post itself: a move made while Discord carries the ping.) A ping whose post fails is not sent again.

Times are wall-clock times of the player's IANA time zone (zoneinfo): quiet hours from 22:00 to 07:00 stay 22:00
to 07:00 across a daylight-saving change, however many hours that night has.
"""

from __future__ import annotations

import functools
import logging
import re
import zoneinfo
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from bot.manager.clock import Clock
from bot.manager.moves import Collector
from bot.manager.refusals import Refused
from bot.manager.store import GameStore, LiveGame
from bot.manager.timer_rows import AwayEnd, Ping, PingKind, TimerKind, TurnWait
from bot.storage import MAX_LISTED, GameRepository, GameStatus, NewTimer, PlayerTime, Timer, TimerChange
from engine.turn import next_player

if TYPE_CHECKING:
    from bot.manager.cluster import Member
    from bot.manager.notifier import Notifier

Note = Callable[[], Awaitable[None]]  # a call owed after the game's lock (bot.manager.timers)


class Dispatcher(Protocol):
    """What of the dispatcher (`bot.manager.timers.TurnTimers`) serving these rows uses."""

    _store: GameStore
    _clock: Clock
    member: Member
    notifier: Notifier


__all__ = [
    "ABSENT_STAGE",
    "MAX_AWAY_DAYS",
    "MAX_PING_DELAY",
    "PlayerTime",
    "PlayerTimes",
    "away",
    "in_quiet",
    "parse_quiet",
    "ping_current",
    "quiet_over",
    "time_zones",
    "waking_after",
]

#: the ``turn`` row's stage at which the absent-player policy applies (bot.manager.timers)
ABSENT_STAGE = 2
MAX_PING_DELAY = 7 * 24 * 60  # minutes: a week
MAX_AWAY_DAYS = 60
log = logging.getLogger(__name__)
_CLOCK = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")


@functools.cache
def time_zones() -> tuple[str, ...]:
    """The IANA time zone names zoneinfo knows here, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def _zone(prefs: PlayerTime) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(prefs.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # (a zone the host's tzdata no longer has)
        return zoneinfo.ZoneInfo("UTC")


def _has_quiet(prefs: PlayerTime) -> bool:
    return (
        prefs.quiet_start is not None and prefs.quiet_end is not None and prefs.quiet_start != prefs.quiet_end
    )


def _minute_of(moment: datetime, zone: zoneinfo.ZoneInfo) -> int:
    local = moment.astimezone(zone)
    return local.hour * 60 + local.minute


def in_quiet(moment: datetime, prefs: PlayerTime) -> bool:
    """Whether `moment` falls in the player's quiet hours (their local wall clock; start included, end not)."""
    if not _has_quiet(prefs):
        return False
    start, end = prefs.quiet_start, prefs.quiet_end
    assert start is not None and end is not None
    m = _minute_of(moment, _zone(prefs))
    return start <= m < end if start < end else (m >= start or m < end)


def _next_wall(moment: datetime, minute: int, zone: zoneinfo.ZoneInfo) -> datetime:
    """The first moment after `moment` at which the local wall clock shows `minute` (after midnight); on a day
    whose clock skips that time (spring forward), the moment the clock jumps past it."""
    local = moment.astimezone(zone)
    day: date = local.date()
    for _ in range(3):
        wall = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=zone)
        at = wall.astimezone(UTC)
        # a wall time in a skipped hour converts to a moment after the jump: still the right "first moment"
        if at > moment:
            return at
        day += timedelta(days=1)
    raise AssertionError("unreachable: a wall-clock time recurs within two days")  # pragma: no cover


def quiet_over(moment: datetime, prefs: PlayerTime) -> datetime:
    """`moment`, or the end of the quiet hours it falls in."""
    if not in_quiet(moment, prefs):
        return moment
    assert prefs.quiet_end is not None
    return _next_wall(moment, prefs.quiet_end, _zone(prefs))


def waking_after(start: datetime, hours: float, prefs: PlayerTime) -> datetime:
    """The moment `hours` of the player's waking time (outside their quiet hours) have passed since `start`."""
    left = timedelta(hours=hours)
    at = quiet_over(start, prefs)
    if not _has_quiet(prefs):
        return start + left
    assert prefs.quiet_start is not None
    zone = _zone(prefs)
    while True:
        sleep = _next_wall(at, prefs.quiet_start, zone)
        if at + left <= sleep:
            return at + left
        left -= sleep - at
        at = quiet_over(sleep, prefs)


def next_digest(after: datetime, at_minute: int, prefs: PlayerTime) -> datetime:
    """When the daily digest sent at `at_minute` of the player's day (bot.manager.digests) is owed next after
    `after`: that wall-clock time in their zone (the moment the clock jumps past it, on a day that skips it), or
    the end of their quiet hours if it falls in them."""
    return quiet_over(_next_wall(after, at_minute, _zone(prefs)), prefs)


def away(prefs: PlayerTime, now: datetime) -> bool:
    return prefs.away_until is not None and prefs.away_until > now


def parse_clock(text: str) -> int:
    """``"22:30"`` (or ``"7"``) -> minutes after midnight; ValueError else."""
    found = _CLOCK.match(text)
    if found is None:
        raise ValueError(text)
    hours, minutes = int(found.group(1)), int(found.group(2) or 0)
    if not (0 <= hours <= 23 and 0 <= minutes <= 59):
        raise ValueError(text)
    return hours * 60 + minutes


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``"22:00-07:00"`` -> (start, end) in minutes after midnight; ``"off"`` -> None; ValueError else."""
    if text.strip().lower() in ("off", "none", "no", "-"):
        return None
    start, sep, end = text.partition("-")
    if not sep:
        raise ValueError(text)
    first, last = parse_clock(start), parse_clock(end)
    if first == last:
        raise ValueError(text)
    return first, last


def parse_away(text: str, prefs: PlayerTime, now: datetime) -> datetime | None:
    """``"2026-12-24"`` (the start of that day, their time) or ``"2026-12-24 18:00"`` -> the moment away mode
    ends; ``"off"`` -> None; ValueError for anything else, a moment past, or more than MAX_AWAY_DAYS ahead."""
    if text.strip().lower() in ("off", "none", "no", "back", "-"):
        return None
    moment = datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_zone(prefs))
    moment = moment.astimezone(UTC)
    if moment <= now or moment > now + timedelta(days=MAX_AWAY_DAYS):
        raise ValueError(text)
    return moment


def ping_current(game: LiveGame, owed: Ping, prefs: PlayerTime, now: datetime) -> bool:
    """Whether the ping row `owed` of `game` still says something true now: its player still holds the seat;
    a turn ping or a reminder only while the game waits for that seat in the same wait (a turn ping: and they
    have not started their turn); a heads-up while the player before them is still at it; an away notice while
    the player is away."""
    humans, _ai = game.waiting()
    if game.status != "active" or owed.seat >= len(game.seats) or game.seats[owed.seat].user_id != owed.user:
        return False
    if owed.what == PingKind.AWAY:
        return away(prefs, now)
    if owed.key != game.wait_key():
        return False
    if owed.what == PingKind.HEADS_UP:
        return owed.seat not in humans
    if owed.seat not in humans:
        return False
    return not (owed.what == PingKind.TURN and game.turn_started(owed.seat))


def next_seat(game: LiveGame) -> int | None:
    """The seat whose turn comes after the current one, as the engine's turn order says (None: no heads-up now,
    e.g. the last round's last turn)."""
    return None if game.state is None else next_player(game.state)


async def waiting_times(store: GameStore, game: LiveGame, humans: list[int]) -> dict[int, PlayerTime]:
    """The time preferences of the players of the seats `humans`."""
    repo, times = store.repo, {}
    for seat in humans:
        user = game.seats[seat].user_id
        if user is not None:
            times[seat] = await store.storage(functools.partial(repo.load_player_time, user))
    return times


async def later(
    store: GameStore, game: LiveGame, humans: list[int], start: datetime, hours: float
) -> datetime:
    """`hours` after `start`; with the game's ``waking_clock`` on, `hours` of the waiting players' (`humans`)
    waking time, outside their quiet hours (the latest of theirs)."""
    wall = start + timedelta(hours=hours)
    if not game.settings.waking_clock:
        return wall
    times = await waiting_times(store, game, humans)
    return max((waking_after(start, hours, p) for p in times.values()), default=wall)


# ---------------------------------------------------------------------- the rows, served by the dispatcher


async def serve_ping(
    timers: Dispatcher, game: LiveGame, row: Timer, out: Collector, notes: list[Note]
) -> None:
    """A held notification (bot.manager.player_time): sent once, while still true, outside quiet hours."""
    owed, repo = Ping.of(row), timers._store.repo
    owner, now = timers.member.process_id, timers._clock.now()
    prefs = await timers._store.storage(lambda: repo.load_player_time(owed.user))
    if not ping_current(game, owed, prefs, now):  # they moved (or left): dropped, never sent late
        log.info("timer %s of game %s: %s ping no longer current", row.id, game.id, owed.what)
        await repo.delete_timer(row.id, owner=owner)
        return
    due = now if owed.what == PingKind.AWAY else quiet_over(now, prefs)
    if due > now:  # their quiet hours began since the row was written: it waits for their end
        await repo.postpone_timer(row.id, owner, due)
        return
    # claimed with the game at the version decided on (VersionConflict: decided again) and recorded as sent
    sent_as = (
        f"{owed.what.value}{owed.n}" if owed.n else owed.what.value
    )  # (reminders 1 and 2 of one wait: two)
    if await repo.claim_ping(row.id, owner, game.id, game.version, owed.key, owed.seat, sent_as):
        notes.append(
            functools.partial(timers.notifier.on_ping, game.id, owed.seat, owed.user, owed.what, owed.n)
        )


async def serve_away(
    timers: Dispatcher, game: LiveGame, row: Timer, out: Collector, notes: list[Note]
) -> None:
    """A player's away mode ends (their other games' rows find it ended); back on their turn: pinged."""
    owed, repo = AwayEnd.of(row), timers._store.repo
    owner, now = timers.member.process_id, timers._clock.now()
    await repo.end_away(owed.user, owed.until)
    await repo.delete_timer(row.id, owner=owner)
    game.timers = [t for t in game.timers if t.id != row.id]
    humans, _ai = game.waiting()
    prefs = await repo.load_player_time(owed.user)
    if away(prefs, now):  # away again, until later
        return
    back = [s for s in humans if game.seats[s].user_id == owed.user]
    key = game.wait_key() if back else ""
    add: list[NewTimer] = []
    for seat in back:
        if not await repo.ping_sent(game.id, key, seat, PingKind.TURN.value):
            add.append(Ping(key, seat, owed.user, PingKind.TURN).row(quiet_over(now, prefs)))
    if add:
        await timers._store.change_timers(game, TimerChange(add=tuple(add)))


class PlayerTimes:
    """Players' time zones, quiet hours, ping delays, heads-ups and away mode (a base class of
    :class:`bot.manager.GameManager`)."""

    _store: GameStore
    clock: Clock

    async def player_time(self, user_id: int) -> PlayerTime:
        """The player's time (in every server): the defaults until they change one."""
        repo = self._store.repo
        prefs = await self._store.storage(lambda: repo.load_player_time(user_id))
        if prefs.away_until is not None and not away(prefs, self.clock.now()):  # over (its row may lag)
            prefs = replace(prefs, away_until=None)
        return prefs

    async def quiet_now(self, user_id: int) -> bool:
        """Whether the player is in their quiet hours now (a message naming them must not ping them)."""
        return in_quiet(self.clock.now(), await self.player_time(user_id))

    async def set_player_time(
        self,
        user_id: int,
        *,
        time_zone: str | None = None,
        quiet_hours: str | None = None,
        ping_delay: int | None = None,
        heads_up: bool | None = None,
        away_until: str | None = None,
    ) -> PlayerTime:
        """Change some of the player's time preferences; the preferences now. A value that cannot be read is
        refused (``bad_time_pref``). Away mode set: each of their running games follows its absent-player policy
        at once and its other players are told (once); it ends by itself (an ``away`` row per game)."""
        repo, now = self._store.repo, self.clock.now()
        async with self._store.locks.hold(f"player-time:{user_id}"):
            prefs = await self.player_time(user_id)
            changes: dict[str, Any] = {}
            if time_zone is not None:
                if time_zone not in time_zones():
                    raise Refused("bad_time_pref", name="time_zone", value=time_zone)
                changes["time_zone"] = time_zone
            if quiet_hours is not None:
                try:
                    quiet = parse_quiet(quiet_hours)
                except ValueError:
                    raise Refused("bad_time_pref", name="quiet_hours", value=quiet_hours) from None
                changes["quiet_start"], changes["quiet_end"] = quiet or (None, None)
            if ping_delay is not None:
                if not 0 <= ping_delay <= MAX_PING_DELAY:
                    raise Refused("bad_time_pref", name="ping_delay", value=str(ping_delay))
                changes["ping_delay"] = ping_delay
            if heads_up is not None:
                changes["heads_up"] = heads_up
            prefs = replace(prefs, **changes)
            starts = None
            if away_until is not None:
                try:
                    until = parse_away(away_until, prefs, now)
                except ValueError:
                    raise Refused("bad_time_pref", name="away_until", value=away_until) from None
                prefs = replace(prefs, away_until=until)
                starts = until
            await self._store.storage(lambda: repo.save_player_time(user_id, prefs))
            moved = time_zone is not None or quiet_hours is not None  # the daily digest follows their day
            digest = await self._store.storage(lambda: repo.load_digest(user_id)) if moved else None
            if digest is not None:
                due = next_digest(now, digest.at_minute, prefs)
                await self._store.storage(lambda: repo.save_digest(user_id, digest.at_minute, due))
                self._store.on_timers_written(due)
        if starts is not None:
            playing = await self._store.storage(
                lambda: repo.games_for_player(user_id, status=GameStatus.ACTIVE, limit=MAX_LISTED)
            )
            for game in playing:
                await self._store.locked(game.id, functools.partial(self._go_away, user_id, starts))
        return prefs

    async def _go_away(self, user_id: int, until: datetime, game: LiveGame) -> None:
        """In `game`: the others are told (an ``away`` ping per seat of `user_id`), the policy applies at once if
        it is their turn, and an ``away`` row ends the away mode at `until`."""
        now = self.clock.now()
        seats = [i for i, s in enumerate(game.seats) if s.user_id == user_id and s.ai_level is None]
        if not seats or game.status != "active":
            return
        add = [AwayEnd(user_id, until).row(until)]
        add += [Ping(f"away:{until.isoformat()}", seat, user_id, PingKind.AWAY).row(now) for seat in seats]
        clear: tuple[str, ...] = ()
        humans, _ai = game.waiting()
        if any(seat in humans for seat in seats):
            clear, add = (TimerKind.TURN,), [*add, TurnWait(game.wait_key(), ABSENT_STAGE).row(now)]
        await self._store.change_timers(game, TimerChange(clear=clear, add=tuple(add)))

    async def hold_turn_pings(self, game_id: str, seats: frozenset[int]) -> frozenset[int]:
        """The turn of `game_id` is being told (its turn message): which of `seats` (the people to act, whom it
        would mention) it must not ping now: a player away (their game follows its absent-player policy at
        once), in their quiet hours, or with a ping delay (a ``ping`` row pings them later, unless they act
        first). Writes the heads-up of the player after the current one too, if they want one."""
        repo, now = self._store.repo, self.clock.now()
        game = await self._store.get(game_id)  # a look without the lock first: most players hold nothing
        after = next_seat(game)
        users = {
            game.seats[s].user_id
            for s in (*seats, *([] if after is None else [after]))
            if s < len(game.seats)
        }
        for user in (u for u in users if u is not None):
            prefs = await self._store.storage(functools.partial(repo.load_player_time, user))
            if prefs.ping_delay or prefs.heads_up or in_quiet(now, prefs) or away(prefs, now):
                return await self._store.locked(game_id, functools.partial(self._hold, repo, now, seats))
        return frozenset()

    async def _hold(
        self, repo: GameRepository, now: datetime, seats: frozenset[int], game: LiveGame
    ) -> frozenset[int]:
        humans, _ai = game.waiting()
        if not humans:
            return frozenset()
        key = game.wait_key()
        stored = [Ping.of(t) for t in await repo.timers_for_game(game.id, TimerKind.PING)]
        add, held, to_absent = [], set(), False
        for seat in sorted(seats & set(humans)):
            user = game.seats[seat].user_id
            if user is None:
                continue
            prefs = await repo.load_player_time(user)
            if away(prefs, now):
                held.add(seat)
                to_absent = True
                continue
            due = quiet_over(now + timedelta(minutes=prefs.ping_delay), prefs)
            if due > now:
                held.add(seat)
                if not await _owed(repo, game.id, stored, key, seat, PingKind.TURN):
                    add.append(Ping(key, seat, user, PingKind.TURN).row(due))
        after = next_seat(game)
        if after is not None and after not in humans:
            user = game.seats[after].user_id
            if user is not None and game.seats[after].ai_level is None:
                prefs = await repo.load_player_time(user)
                if (
                    prefs.heads_up
                    and not away(prefs, now)
                    and not await _owed(repo, game.id, stored, key, after, PingKind.HEADS_UP)
                ):
                    add.append(Ping(key, after, user, PingKind.HEADS_UP).row(quiet_over(now, prefs)))
        change_rows: tuple[str, ...] = ()
        if to_absent and not any(
            TurnWait.of(t).key == key and TurnWait.of(t).stage >= ABSENT_STAGE
            for t in game.timers
            if t.kind == TimerKind.TURN
        ):
            change_rows = (TimerKind.TURN,)
            add.append(TurnWait(key, ABSENT_STAGE).row(now))
        if add:
            await self._store.change_timers(game, TimerChange(clear=change_rows, add=tuple(add)))
        return frozenset(held)

    async def hold_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> bool:
        """Reminder `n` is due to `user_id`: True when it is held (a ``ping`` row sends it at the end of their
        quiet hours, if they have not moved by then), False when it may go now."""
        repo, now = self._store.repo, self.clock.now()
        prefs = await self._store.storage(lambda: repo.load_player_time(user_id))
        if not in_quiet(now, prefs):
            return False

        async def write(game: LiveGame) -> None:
            if game.status != "active":
                return
            row = Ping(game.wait_key(), seat, user_id, PingKind.REMINDER, n).row(quiet_over(now, prefs))
            await self._store.change_timers(game, TimerChange(add=(row,)))

        await self._store.locked(game_id, write)
        return True


async def _owed(
    repo: GameRepository, game_id: str, stored: list[Ping], key: str, seat: int, what: PingKind
) -> bool:
    """Whether the notification `what` of `seat` in the wait `key` already has its row, or was sent."""
    if any(p.key == key and p.seat == seat and p.what == what for p in stored):
        return True
    return bool(await repo.ping_sent(game_id, key, seat, what.value))

"""A player's time across days (issue 33, bot.manager.player_time), on a fake clock: quiet hours in several time
zones (across daylight-saving changes), the held ping sent at the end of them, the ping delay (never sent once
the player acted, never twice), the heads-up, the game clock counting waking hours only, away mode's start and
end."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai, started_game

from bot.manager import GameManager, ManualClock, PingKind, Refused
from bot.manager.player_time import in_quiet, parse_away, quiet_over, waking_after
from bot.storage import GameRepository, PlayerTime
from engine.state import SETUP

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


def night(zone: str) -> PlayerTime:
    return PlayerTime(time_zone=zone, quiet_start=22 * 60, quiet_end=7 * 60)


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


# ---------------------------------------------------------------------- local time, pure


@pytest.mark.parametrize(
    ("zone", "asleep", "wakes"),
    [
        # Paris, the night clocks spring forward (29 March 2026): 22:00 CET to 07:00 CEST is 8 hours
        ("Europe/Paris", utc(2026, 3, 28, 21, 30), utc(2026, 3, 29, 5, 0)),
        # Paris, an ordinary night: 07:00 CET
        ("Europe/Paris", utc(2026, 3, 26, 21, 30), utc(2026, 3, 27, 6, 0)),
        # Paris, the night clocks fall back (25 October 2026): 10 hours, waking 07:00 CET
        ("Europe/Paris", utc(2026, 10, 24, 20, 30), utc(2026, 10, 25, 6, 0)),
        # New York, the night of 8 March 2026 (spring forward): 07:00 EDT is 11:00 UTC
        ("America/New_York", utc(2026, 3, 8, 4, 0), utc(2026, 3, 8, 11, 0)),
        # Tokyo (no daylight saving): 07:00 JST is 22:00 UTC the day before
        ("Asia/Tokyo", utc(2026, 3, 8, 14, 0), utc(2026, 3, 8, 22, 0)),
        # Sydney, the night clocks fall back (5 April 2026): 07:00 AEST is 21:00 UTC
        ("Australia/Sydney", utc(2026, 4, 4, 12, 0), utc(2026, 4, 4, 21, 0)),
    ],
)
def test_quiet_hours_end_at_the_local_wake_up_time_across_daylight_saving(
    zone: str, asleep: datetime, wakes: datetime
) -> None:
    prefs = night(zone)
    assert in_quiet(asleep, prefs)
    assert quiet_over(asleep, prefs) == wakes
    assert not in_quiet(wakes, prefs)
    assert in_quiet(wakes - timedelta(minutes=1), prefs)


def test_no_quiet_hours_and_a_daytime_window() -> None:
    moment = utc(2026, 3, 28, 3, 0)
    assert not in_quiet(moment, PlayerTime(time_zone="Europe/Paris"))
    lunch = PlayerTime(time_zone="Europe/Paris", quiet_start=12 * 60, quiet_end=14 * 60)
    assert in_quiet(utc(2026, 1, 5, 11, 30), lunch)  # 12:30 CET
    assert not in_quiet(utc(2026, 1, 5, 13, 0), lunch)  # 14:00 CET: over
    assert quiet_over(utc(2026, 1, 5, 11, 30), lunch) == utc(2026, 1, 5, 13, 0)


def test_waking_hours_skip_the_night_even_a_short_one() -> None:
    prefs = night("Europe/Paris")
    # 21:00 CET on 28 March: one waking hour, the 8-hour night (the clocks spring forward), then two more
    assert waking_after(utc(2026, 3, 28, 20, 0), 3, prefs) == utc(2026, 3, 29, 7, 0)
    # started in the night: counted from 07:00
    assert waking_after(utc(2026, 3, 27, 2, 0), 1, prefs) == utc(2026, 3, 27, 7, 0)
    # 24 waking hours from 07:00 CET: 15 that day, 9 the next morning (07:00 + 9 h = 16:00 CET)
    assert waking_after(utc(2026, 1, 5, 6, 0), 24, prefs) == utc(2026, 1, 6, 15, 0)
    assert waking_after(utc(2026, 1, 5, 6, 0), 24, PlayerTime()) == utc(2026, 1, 6, 6, 0)


def test_an_away_date_is_the_start_of_that_day_in_the_players_zone() -> None:
    now = utc(2026, 3, 1, 12, 0)
    assert parse_away("2026-03-10", night("Asia/Tokyo"), now) == utc(2026, 3, 9, 15, 0)
    assert parse_away("off", night("Asia/Tokyo"), now) is None
    for bad in ("2026-02-01", "2027-03-01", "soon"):
        with pytest.raises(ValueError):
            parse_away(bad, night("Asia/Tokyo"), now)


# ---------------------------------------------------------------------- with a manager


@dataclass
class Notified(RecordingNotifier):
    pings: list[tuple[str, int, int, PingKind, int]] = field(default_factory=list)

    async def on_ping(self, game_id: str, seat: int, user_id: int, what: PingKind, n: int) -> None:
        assert type(what) is PingKind  # the notifier is told a typed kind, never a bare word
        self.pings.append((game_id, seat, user_id, what, n))


@pytest.fixture
def notifier() -> Notified:
    return Notified()


@dataclass
class Table:
    """A two-player game past its ticket choice: `first` (at seat `seat`) to play, then `second`."""

    game_id: str
    first: int
    seat: int
    second: int
    next_seat: int


async def main_phase(manager: GameManager, settings: dict[str, object] | None = None) -> Table:
    """A two-player game past its ticket choice."""
    game_id, _ = await started_game(manager, humans=2, settings=settings)
    rng = random.Random(3)
    while True:
        info = await manager.status(game_id)
        state = await manager.state_of(game_id)
        assert state is not None
        if state.phase != SETUP:
            break
        seat = info.to_act[0]
        uid = info.seats[seat].user_id
        assert uid is not None
        legal = await manager.legal_actions(game_id, uid)
        await manager.act(game_id, uid, rng.choice(legal), expected_turn=info.tokens[seat])
    (seat,) = info.to_act
    other = 1 - seat
    first, second = info.seats[seat].user_id, info.seats[other].user_id
    assert first is not None and second is not None
    return Table(game_id, first, seat, second, other)


async def a_move(manager: GameManager, game_id: str, user: int) -> None:
    """`user` starts (or plays) their turn: one legal action."""
    info = await manager.status(game_id)
    seat = next(s for s in info.to_act if info.seats[s].user_id == user)
    legal = await manager.legal_actions(game_id, user)
    await manager.act(game_id, user, legal[0], expected_turn=info.tokens[seat])


async def test_a_ping_delay_pings_once_when_it_is_over(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(ANN, ping_delay=30)
    assert await manager.hold_turn_pings(game_id, frozenset({A})) == {A}
    clock.advance(minutes=29)
    await manager.run_due_timers()
    assert notifier.pings == []
    clock.advance(minutes=1)
    await manager.run_due_timers()
    assert notifier.pings == [(game_id, A, ANN, "turn", 0)]
    # told again of the same turn (a second turn message): no second row, no second ping
    assert await manager.hold_turn_pings(game_id, frozenset({A})) == {A}
    clock.advance(hours=2)
    await manager.run_due_timers()
    assert len(notifier.pings) == 1


async def test_no_ping_once_the_player_acted(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(ANN, ping_delay=30)
    await manager.hold_turn_pings(game_id, frozenset({A}))
    clock.advance(minutes=10)
    await a_move(manager, game_id, ANN)
    clock.advance(minutes=30)
    await manager.run_due_timers()
    assert [p for p in notifier.pings if p[3] == "turn" and p[1] == 0] == []


async def test_without_a_delay_or_quiet_hours_nothing_is_held(
    manager: GameManager, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, _ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    assert await manager.hold_turn_pings(game_id, frozenset({A})) == frozenset()
    await manager.run_due_timers()
    assert notifier.pings == []


async def test_quiet_hours_hold_the_ping_to_their_end_across_the_spring_forward(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(ANN, time_zone="Europe/Paris", quiet_hours="22:00-07:00")
    clock.advance(utc(2026, 3, 28, 21, 30) - clock.now())  # 22:30 in Paris, the night of the change
    assert await manager.hold_turn_pings(game_id, frozenset({A})) == {A}
    clock.advance(utc(2026, 3, 29, 4, 59) - clock.now())  # 06:59 CEST
    await manager.run_due_timers()
    assert notifier.pings == []
    clock.advance(minutes=1)  # 07:00 CEST
    await manager.run_due_timers()
    assert notifier.pings == [(game_id, A, ANN, "turn", 0)]


async def test_a_reminder_due_in_quiet_hours_waits_for_their_end(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(ANN, time_zone="Asia/Tokyo", quiet_hours="23:00-08:00")
    clock.advance(utc(2026, 3, 8, 16, 0) - clock.now())  # 01:00 in Tokyo
    assert await manager.hold_reminder(game_id, A, ANN, 1)
    await manager.run_due_timers()
    assert notifier.pings == []
    clock.advance(utc(2026, 3, 8, 23, 0) - clock.now())  # 08:00 in Tokyo
    await manager.run_due_timers()
    assert notifier.pings == [(game_id, A, ANN, "reminder", 1)]
    clock.advance(hours=1)  # awake: a reminder goes at once
    assert not await manager.hold_reminder(game_id, A, ANN, 2)


async def test_the_heads_up_tells_the_next_player_once(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, _ANN, BOB, A, B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(BOB, heads_up=True)
    await manager.hold_turn_pings(game_id, frozenset({A}))
    await manager.hold_turn_pings(game_id, frozenset({A}))
    await manager.run_due_timers()
    assert notifier.pings == [(game_id, B, BOB, "heads_up", 0)]


async def test_a_late_heads_up_is_dropped_once_the_turn_came(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    game_id, ANN, BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    await manager.set_player_time(BOB, heads_up=True, time_zone="UTC", quiet_hours="00:00-08:00")
    clock.advance(utc(2026, 3, 8, 2, 0) - clock.now())
    await manager.hold_turn_pings(game_id, frozenset({A}))
    while (await manager.status(game_id)).to_act == (A,):
        await a_move(manager, game_id, ANN)  # Ann's whole turn: Bob's has come
    clock.advance(hours=7)
    await manager.run_due_timers()
    assert [p for p in notifier.pings if p[3] == "heads_up"] == []


async def test_the_waking_clock_counts_only_the_waiting_players_waking_hours(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    clock.advance(utc(2026, 1, 5, 20, 0) - clock.now())  # 20:00 UTC
    for user in (HUMANS[0][0], HUMANS[1][0]):  # (whoever plays first)
        await manager.set_player_time(user, time_zone="UTC", quiet_hours="22:00-07:00")
    t = await main_phase(manager, {"waking_clock": True, "remind_after_hours": 3})
    _game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    start = clock.now()
    clock.advance(hours=3)  # 23:00: three hours by the wall clock, only two of Ann's waking ones
    await manager.run_due_timers()
    assert notifier.reminders == []
    clock.advance(utc(2026, 1, 6, 7, 59) - clock.now())
    await manager.run_due_timers()
    assert notifier.reminders == []
    clock.advance(utc(2026, 1, 6, 8, 0) - clock.now() + (start - start.replace(second=0, microsecond=0)))
    await manager.run_due_timers()
    assert [r[1:] for r in notifier.reminders] == [(A, ANN, 1)]


async def test_the_wall_clock_is_the_default(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    clock.advance(utc(2026, 1, 5, 20, 0) - clock.now())
    for user in (HUMANS[0][0], HUMANS[1][0]):  # (whoever plays first)
        await manager.set_player_time(user, time_zone="UTC", quiet_hours="22:00-07:00")
    t = await main_phase(manager, {"remind_after_hours": 3})
    first, A = t.first, t.seat
    clock.advance(hours=3, seconds=1)
    await manager.run_due_timers()
    assert [r[1:] for r in notifier.reminders] == [(A, first, 1)]


async def test_away_mode_reaches_each_running_game_of_the_player_and_no_lobby(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    ann = HUMANS[0][0]
    running = {(await main_phase(manager)).game_id, (await main_phase(manager)).game_id}
    lobby = await manager.create_game(guild_id=1, channel_id=77, host_id=ann, host_name="Ann", board="europe")
    await manager.set_player_time(ann, away_until=(clock.now() + timedelta(days=2)).isoformat())
    await manager.run_due_timers()
    assert {p[0] for p in notifier.pings if p[3] == PingKind.AWAY and p[2] == ann} == running
    assert (await manager.status(lobby.game_id)).status.value == "lobby"  # (no seat of a lobby goes away)


async def test_away_mode_plays_at_once_tells_the_others_once_and_ends_by_itself(
    manager: GameManager, clock: ManualClock, notifier: Notified, repo: GameRepository
) -> None:
    t = await main_phase(manager)  # policy "ai" (the default)
    game_id, ANN, BOB, A, B = t.game_id, t.first, t.second, t.seat, t.next_seat
    until = (clock.now() + timedelta(days=3)).date().isoformat()
    prefs = await manager.set_player_time(ANN, away_until=until)
    assert prefs.away_until is not None
    await manager.run_due_timers()
    assert [p for p in notifier.pings if p[3] == "away"] == [(game_id, A, ANN, "away", 0)]
    assert notifier.absent == []  # (told once, by the away notice: not each turn)
    assert (await manager.status(game_id)).to_act == (B,)  # an AI played Ann's turn at once
    # Bob plays; Ann's next turn is played at once too, and nobody is told again
    for _ in range(4):
        info = await manager.status(game_id)
        if info.to_act != (B,):
            break
        await a_move(manager, game_id, BOB)
    held = await manager.hold_turn_pings(game_id, frozenset((await manager.status(game_id)).to_act))
    await manager.run_due_timers()
    if A in held:
        assert (await manager.status(game_id)).to_act != (A,)
    assert len([p for p in notifier.pings if p[3] == "away"]) == 1
    # the end: by itself, at that date
    assert prefs.away_until is not None
    clock.advance(prefs.away_until - clock.now())
    await manager.run_due_timers()
    assert (await manager.player_time(ANN)).away_until is None


async def test_away_under_the_wait_policy_waits_then_pings_the_player_back(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager, {"absent_policy": "wait"})
    game_id, ANN, _BOB, A, _B = t.game_id, t.first, t.second, t.seat, t.next_seat
    prefs = await manager.set_player_time(ANN, away_until=(clock.now() + timedelta(days=2)).isoformat())
    await manager.run_due_timers()
    assert (await manager.status(game_id)).to_act == (A,)  # the game waits
    assert [p[3] for p in notifier.pings] == ["away"]
    assert prefs.away_until is not None
    clock.advance(prefs.away_until - clock.now())
    await manager.run_due_timers()
    await manager.run_due_timers()
    assert [p[3] for p in notifier.pings] == ["away", "turn"]


async def test_bad_values_are_refused(manager: GameManager) -> None:
    for kwargs in (
        {"time_zone": "Mars/Olympus"},
        {"quiet_hours": "late"},
        {"quiet_hours": "25:00-07:00"},
        {"ping_delay": -1},
        {"away_until": "yesterday"},
    ):
        with pytest.raises(Refused):
            await manager.set_player_time(ANN, **kwargs)  # type: ignore[arg-type]
    assert await manager.player_time(ANN) == PlayerTime()


_ = random_ai  # (the manager fixture's AI)


async def test_both_reminders_held_in_one_night_are_both_sent(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    await manager.set_player_time(t.first, time_zone="UTC", quiet_hours="22:00-07:00")
    clock.advance(utc(2026, 3, 8, 23, 0) - clock.now())
    assert await manager.hold_reminder(t.game_id, t.seat, t.first, 1)
    assert await manager.hold_reminder(t.game_id, t.seat, t.first, 2)
    clock.advance(utc(2026, 3, 9, 7, 0) - clock.now())
    await manager.run_due_timers()
    assert sorted(p[3:] for p in notifier.pings) == [("reminder", 1), ("reminder", 2)]


async def test_a_delay_that_ends_in_quiet_hours_waits_for_their_end_the_night_clocks_fall_back(
    manager: GameManager, clock: ManualClock, notifier: Notified
) -> None:
    t = await main_phase(manager)
    await manager.set_player_time(
        t.first, time_zone="America/New_York", quiet_hours="22:00-07:00", ping_delay=30
    )
    clock.advance(
        utc(2026, 11, 1, 1, 50) - clock.now()
    )  # 21:50 EDT, 31 October; the clocks fall back at 2:00
    assert await manager.hold_turn_pings(t.game_id, frozenset({t.seat})) == {t.seat}
    clock.advance(utc(2026, 11, 1, 11, 59) - clock.now())  # 06:59 EST
    await manager.run_due_timers()
    assert notifier.pings == []
    clock.advance(minutes=1)  # 07:00 EST: ten hours and ten minutes later
    await manager.run_due_timers()
    assert notifier.pings == [(t.game_id, t.seat, t.first, "turn", 0)]

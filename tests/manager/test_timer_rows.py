"""The typed timer rows (bot.manager.timer_rows): one payload type per kind, whose JSON is the one rows already
stored hold. Rows written by the version before the types (their JSON written here by hand, as that version's
code spelled it) are read and served; rows written now read the same to a process still running that version
(a rolling deploy). Self-contained: its own repository, manager and notifier."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.manager import GameManager, ManualClock, Outcome
from bot.manager.game_settings import GameSettings
from bot.manager.timer_rows import (
    PAYLOAD_TYPES,
    Absent,
    LobbyWatch,
    Notice,
    Ping,
    PingKind,
    Remind,
    Resume,
    Tell,
    TimerKind,
    TurnWait,
    kind_of,
)
from bot.storage import GameRepository, NewTimer, Timer, TimerChange, open_repository

ANN, BOB = 101, 102
NOW = datetime(2026, 1, 1, tzinfo=UTC)

#: each kind's payload as the code before the payload types wrote it (bot/manager/store.py, tell.py,
#: lobbies.py, timers.py at 26df20c), and the typed value it reads as
TODAYS_JSON = [
    ("turn", {"key": "main:3:1", "stage": 1}, TurnWait("main:3:1", 1)),
    ("turn", {"key": "setup:0:0", "stage": 0}, TurnWait("setup:0:0", 0)),
    ("resume", {}, Resume()),
    ("lobby", {}, LobbyWatch()),
    ("tell", {"through": 12}, Tell(12)),
    ("notice", {}, Notice()),
    ("remind", {"key": "main:3:1", "seat": 1, "user": BOB, "n": 2}, Remind("main:3:1", 1, BOB, 2)),
    ("absent", {"key": "main:3:1", "seat": 0, "user": ANN, "policy": "ai"}, Absent("main:3:1", 0, ANN, "ai")),
    (
        "absent",
        {"key": "main:3:1", "seat": 2, "user": None, "policy": "wait"},
        Absent("main:3:1", 2, None, "wait"),
    ),
    (
        "ping",
        {"key": "main:3:1", "seat": 1, "user": BOB, "what": "reminder", "n": 2},
        Ping("main:3:1", 1, BOB, PingKind.REMINDER, 2),
    ),
    (
        "ping",
        {"key": "away:x", "seat": 0, "user": ANN, "what": "away", "n": 0},
        Ping("away:x", 0, ANN, PingKind.AWAY),
    ),
]


def _row(kind: str, payload: dict[str, object], row_id: int = 1) -> Timer:
    return Timer(row_id, "g1", kind, NOW, payload, NOW)


def test_one_payload_type_per_kind() -> None:
    assert set(PAYLOAD_TYPES) == set(TimerKind)
    assert all(cls.kind is kind for kind, cls in PAYLOAD_TYPES.items())
    assert len(set(PAYLOAD_TYPES.values())) == len(TimerKind)


@pytest.mark.parametrize(("kind", "payload", "typed"), TODAYS_JSON)
def test_todays_json_reads_and_is_written_back_unchanged(
    kind: str, payload: dict[str, object], typed: object
) -> None:
    row = _row(kind, payload)
    read = PAYLOAD_TYPES[TimerKind(kind)].of(row)
    assert read == typed
    if isinstance(read, Ping):  # the kind of notification is typed, not the stored word
        assert type(read.what) is PingKind
    assert read.to_json() == payload  # what an older process reads back, key for key
    assert read.row(NOW) == NewTimer(kind, NOW, payload)


def test_keys_older_rows_may_lack_keep_their_old_meaning() -> None:
    # a turn row without key or stage: stage 0, armed for no wait (re-armed for the current one when it fires)
    assert TurnWait.of(_row("turn", {})) == TurnWait(None, 0)
    assert TurnWait.of(_row("turn", {"stage": 2})).to_json() == {"stage": 2}
    # a tell row without "through": the message is owed up to the end of the log
    assert Tell.of(_row("tell", {})) == Tell(None) and Tell(None).to_json() == {}
    # numbers stored as text (a hand-written row) still read as numbers
    assert Remind.of(_row("remind", {"key": "k", "seat": "1", "user": str(BOB), "n": "1"})) == Remind(
        "k", 1, BOB, 1
    )


def test_a_row_of_another_kind_or_an_unreadable_payload_is_refused() -> None:
    with pytest.raises(ValueError, match="not 'turn'"):
        TurnWait.of(_row("remind", {"key": "k", "seat": 0, "user": ANN, "n": 1}))
    with pytest.raises(ValueError, match="unreadable"):
        Remind.of(_row("remind", {"key": "k", "user": ANN, "n": 1}))  # no seat
    with pytest.raises(ValueError, match="unreadable"):
        Absent.of(_row("absent", {"key": "k", "seat": 0, "user": ANN}))  # no policy
    with pytest.raises(ValueError, match="unreadable"):  # a kind of notification this version does not know
        Ping.of(_row("ping", {"key": "k", "seat": 0, "user": ANN, "what": "birthday"}))
    assert kind_of(_row("from-a-newer-version", {})) is None
    assert kind_of(_row("turn", {})) is TimerKind.TURN


# ---------------------------------------------------------------------------- rows stored in a database


@dataclass
class Heard:
    reminders: list[tuple[str, int, int, int]] = field(default_factory=list)
    absent: list[tuple[str, int, int | None, str]] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        self.turns.append(game_id)

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.reminders.append((game_id, seat, user_id, n))

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        self.absent.append((game_id, seat, user_id, policy))

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        return None


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[tuple[GameManager, GameRepository, ManualClock, Heard]]:
    clock, heard = ManualClock(), Heard()
    async with open_repository(f"sqlite:///{tmp_path / 'rows.db'}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, notifier=heard, retry_delays=(0.01,))
        await manager.start(dispatcher=False)
        try:
            yield manager, repo, clock, heard
        finally:
            await manager.close()


async def _two_players_choosing_tickets(manager: GameManager) -> str:
    info = await manager.create_game(guild_id=1, channel_id=555, host_id=ANN, host_name="Ann")
    await manager.join(info.game_id, BOB, "Bob")
    await manager.start_game(info.game_id, ANN, seed=3)
    assert (await manager.status(info.game_id)).to_act == (
        0,
        1,
    )  # both choose their tickets: wait "setup:0:0"
    return info.game_id


async def _store_raw(repo: GameRepository, gid: str, clear: tuple[str, ...], *rows: NewTimer) -> None:
    """Rows written as an older version wrote them: plain kind strings, the payload as a plain dict."""
    await repo.change_timers(gid, TimerChange(clear=clear, add=rows))


async def test_a_stored_turn_row_of_today_is_served_and_re_armed_in_the_same_json(
    setup: tuple[GameManager, GameRepository, ManualClock, Heard],
) -> None:
    manager, repo, clock, heard = setup
    gid = await _two_players_choosing_tickets(manager)
    now = clock.now()
    await _store_raw(
        repo, gid, ("turn",), NewTimer("turn", now - timedelta(seconds=1), {"key": "setup:0:0", "stage": 1})
    )
    assert await manager.run_due_timers() == 1
    assert sorted(heard.reminders) == [(gid, 0, ANN, 2), (gid, 1, BOB, 2)]  # stage 1 -> reminder 2, to each
    rows = await repo.timers_for_game(gid)
    assert [(t.kind, t.payload) for t in rows] == [("turn", {"key": "setup:0:0", "stage": 2})]
    assert rows[0].due_at == now + timedelta(
        hours=GameSettings().absent_after_hours
    )  # (the default settings)


async def test_stored_announcement_rows_of_today_are_sent_once_and_deleted(
    setup: tuple[GameManager, GameRepository, ManualClock, Heard],
) -> None:
    manager, repo, clock, heard = setup
    gid = await _two_players_choosing_tickets(manager)
    past = clock.now() - timedelta(seconds=1)
    await _store_raw(
        repo,
        gid,
        (),
        NewTimer("remind", past, {"key": "setup:0:0", "seat": 1, "user": BOB, "n": 1}),
        NewTimer("absent", past, {"key": "setup:0:0", "seat": 0, "user": ANN, "policy": "wait"}),
        NewTimer("remind", past, {"key": "main:9:0", "seat": 0, "user": ANN, "n": 2}),  # a wait that is over
        NewTimer(
            "absent", past, {"key": "main:9:0", "seat": 1, "user": None, "policy": "skip"}
        ),  # with its move
    )
    assert await manager.run_due_timers() == 4
    assert heard.reminders == [(gid, 1, BOB, 1)]  # the stale reminder is dropped, not sent late
    assert sorted(heard.absent, key=str) == [(gid, 0, ANN, "wait"), (gid, 1, None, "skip")]
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]  # every announcement row gone
    assert await manager.run_due_timers() == 0 and len(heard.reminders) == 1 and len(heard.absent) == 2


async def test_a_stored_row_of_an_unknown_kind_is_dropped_and_the_game_goes_on(
    setup: tuple[GameManager, GameRepository, ManualClock, Heard],
) -> None:
    manager, repo, clock, heard = setup
    gid = await _two_players_choosing_tickets(manager)
    await _store_raw(repo, gid, (), NewTimer("from-a-newer-version", clock.now(), {"x": 1}))
    assert await manager.run_due_timers() == 1
    assert [t.kind for t in await repo.timers_for_game(gid)] == [TimerKind.TURN]
    assert heard.reminders == heard.absent == heard.turns == []


def test_the_dispatcher_has_one_handler_per_kind() -> None:
    from bot.manager.timers import _HANDLERS  # the table a new kind must join

    assert set(_HANDLERS) == set(TimerKind)
    assert len(set(_HANDLERS.values())) == len(TimerKind)

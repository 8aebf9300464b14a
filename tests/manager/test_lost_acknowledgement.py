"""A write that landed but whose acknowledgement was lost (the connection dropped during COMMIT) is retried; the
retry meets the write itself. Every command that writes recognises it and answers as if the first try had been
acknowledged (with the events its answer posts), never with a refusal about its own write ("already open here",
"already started", "already in this game"...). The wrapper below lets one call commit, then raises
StorageUnavailable, as a killed connection does."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from helpers.manager_games import HUMANS, random_ai, started_game

from bot.manager import GameManager, ManualClock, Refused
from bot.storage import GameRepository, StorageUnavailable

ANN, BOB, CLEO, DAN = (h[0] for h in HUMANS[:4])


class CommitsThenFails:
    """A repository whose next call of `lie_on` (a method name) commits, then reports StorageUnavailable.
    `fails_first`: that call fails before committing instead, and `meanwhile` runs before the error (another
    process's write slipping in)."""

    def __init__(self, inner: GameRepository) -> None:
        self._inner = inner
        self.lie_on: str | None = None
        self.lied = 0
        self.fails_first = False
        self.meanwhile: Callable[[], Awaitable[Any]] | None = None

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name != self.lie_on:
            return attr

        async def commits_then_fails(*args: Any, **kwargs: Any) -> Any:
            if not self.fails_first:
                await attr(*args, **kwargs)
            self.lie_on = None
            self.lied += 1
            if self.meanwhile is not None:
                await self.meanwhile()
            raise StorageUnavailable("connection lost during COMMIT")

        return commits_then_fails


@pytest.fixture
def flaky(repo: GameRepository) -> CommitsThenFails:
    return CommitsThenFails(repo)


@pytest.fixture
def lied_to(flaky: CommitsThenFails, clock: ManualClock) -> GameManager:
    return GameManager(flaky, clock=clock, ai=random_ai, retry_delays=(0.0,))  # type: ignore[arg-type]


async def _lobby(manager: GameManager, *joined: int) -> str:
    info = await manager.create_game(guild_id=1, channel_id=555, host_id=ANN, host_name="Ann")
    for uid in joined:
        await manager.join(info.game_id, uid, dict(HUMANS)[uid])
    return info.game_id


async def _lying(flaky: CommitsThenFails, method: str, call: Callable[[], Awaitable[Any]]) -> Any:
    flaky.lie_on = method
    result = await call()
    assert flaky.lied == 1, "the write was not made through the lying call"
    flaky.lied = 0
    return result


async def test_new_game_meets_its_own_lobby_and_answers_it(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository
) -> None:
    info = await _lying(
        flaky,
        "create_game",
        lambda: lied_to.create_game(guild_id=1, channel_id=777, host_id=ANN, host_name="Ann"),
    )
    stored = await repo.find_open_game(channel_id=777)
    assert stored is not None and info.game_id == stored.id
    assert [s.user_id for s in info.seats] == [ANN]
    page = await repo.list_games(channel_id=777)
    assert len(page.items) == 1  # written once
    await lied_to.join(info.game_id, BOB, "Bob")  # and the lobby goes on from there


async def test_join_answers_as_joined(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository
) -> None:
    gid = await _lobby(lied_to)
    info = await _lying(flaky, "update_game", lambda: lied_to.join(gid, BOB, "Bob"))
    assert [s.user_id for s in info.seats] == [ANN, BOB]
    assert [s.user_id for s in (await repo.load_game(gid)).seats] == [ANN, BOB]


async def test_leave_answers_as_left(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository
) -> None:
    gid = await _lobby(lied_to, BOB)
    out = await _lying(flaky, "update_game", lambda: lied_to.leave(gid, BOB))
    assert [e.kind for e in out.events] == ["left"]
    assert [s.user_id for s in (await repo.load_game(gid)).seats] == [ANN]


async def test_start_answers_with_the_start_message_and_the_deal(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository
) -> None:
    gid = await _lobby(lied_to, BOB)
    out = await _lying(flaky, "update_game", lambda: lied_to.start_game(gid, ANN, seed=3))
    assert [e.kind for e in out.events] == ["started"]
    assert {p.seat for p in out.private} == {0, 1}  # the ticket choice of each seat
    stored = await repo.load_game(gid)
    assert stored.status == "active" and stored.version == 2  # created (0), joined, started: once each


async def test_ai_seats_and_settings_answer_as_done(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository
) -> None:
    gid = await _lobby(lied_to)
    info = await _lying(flaky, "update_game", lambda: lied_to.add_ai(gid, ANN, "easy"))
    assert [s.ai_level for s in info.seats] == [None, "easy"]
    info = await _lying(flaky, "update_game", lambda: lied_to.remove_seat(gid, ANN, 1))
    assert len(info.seats) == 1
    settings = await _lying(
        flaky, "update_game", lambda: lied_to.update_settings(gid, ANN, {"remind_after_hours": "6"})
    )
    assert settings.remind_after_hours == 6
    assert (await repo.load_game(gid)).settings["remind_after_hours"] == 6


async def test_kick_replace_and_seat_changes_in_a_running_game_answer_as_done(
    manager: GameManager, repo: GameRepository, clock: ManualClock
) -> None:
    flaky = CommitsThenFails(repo)
    lied_to = GameManager(flaky, clock=clock, ai=random_ai, retry_delays=(0.0,))  # type: ignore[arg-type]
    gid, _ = await started_game(lied_to, humans=4, seed=5)
    out = await _lying(flaky, "update_game", lambda: lied_to.replace_player(gid, ANN, BOB, 106, "Fay"))
    assert [e.kind for e in out.events] == ["seat_human"]
    out = await _lying(flaky, "update_game", lambda: lied_to.kick(gid, ANN, CLEO))
    assert out.events[0].kind == "seat_ai"
    out = await _lying(flaky, "update_game", lambda: lied_to.hand_to_ai(gid, DAN, "easy"))
    assert out.events[0].kind == "seat_ai"
    out = await _lying(flaky, "update_game", lambda: lied_to.take_back(gid, DAN))
    assert out.events[0].kind == "seat_human"
    seats = (await repo.load_game(gid)).seats
    assert [(s.user_id, s.ai_level) for s in seats] == [
        (ANN, None),
        (106, None),
        (None, "normal"),
        (DAN, None),
    ]


async def test_another_processs_write_at_that_version_is_not_taken_for_ours(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository, clock: ManualClock
) -> None:
    """Recognising its own write is not trusting any write at the version it expected to write: Cleo's join
    really failed, and Bob's join by another process took that version meanwhile. The retry meets Bob's write,
    not Cleo's: it reloads and runs Cleo's join again on it."""
    gid = await _lobby(lied_to)
    other = GameManager(repo, clock=clock, ai=random_ai)
    flaky.fails_first = True
    flaky.meanwhile = lambda: other.join(gid, BOB, "Bob")
    info = await _lying(flaky, "update_game", lambda: lied_to.join(gid, CLEO, "Cleo"))
    assert [s.user_id for s in info.seats] == [ANN, BOB, CLEO]
    assert [s.user_id for s in (await repo.load_game(gid)).seats] == [ANN, BOB, CLEO]


async def test_another_lobby_opened_meanwhile_is_refused_as_busy(
    lied_to: GameManager, flaky: CommitsThenFails, repo: GameRepository, clock: ManualClock
) -> None:
    other = GameManager(repo, clock=clock, ai=random_ai)
    flaky.fails_first = True
    flaky.meanwhile = lambda: other.create_game(guild_id=1, channel_id=888, host_id=BOB, host_name="Bob")
    with pytest.raises(Refused) as err:
        await _lying(
            flaky,
            "create_game",
            lambda: lied_to.create_game(guild_id=1, channel_id=888, host_id=ANN, host_name="Ann"),
        )
    assert err.value.code == "channel_busy"

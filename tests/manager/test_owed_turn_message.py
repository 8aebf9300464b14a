"""The turn message owed after automatic moves is durable work: the change that makes it due (the AI's move)
writes a ``tell`` row in its own transaction, the dispatcher serves the row after a crash, and the turn message
writes the ``told_through`` note that clears the row in the same transaction, so it is posted exactly once.

The kill is injected as in test_no_stall: the repository dies instead of making its n-th call, for every n."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from helpers.manager_games import HUMANS, RecordingNotifier, random_ai, started_game, state_of
from helpers.pg_schema import fresh_pg_schema
from test_no_stall import _bob_plays_his_turn, _prepare, _run_killed

from bot.manager import GameManager, ManualClock, Outcome
from bot.manager.cluster import Member
from bot.manager.tell import TOLD_THROUGH
from bot.play.thread import ThreadKeeper, since_last_turn
from bot.storage import GameRepository, GameStatus, open_repository


async def _restart(path: Path, now: datetime, gid: str) -> tuple[list[int], int, bool, list[str]]:
    """Restart on the file, let ten simulated minutes pass: (turn messages posted, log length, whether the AI
    seat made the last move, the timer kinds left)."""
    clock = ManualClock(now)
    notifier = RecordingNotifier()
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
        notifier.manager = manager
        await manager.start()
        try:
            for _ in range(10):
                await asyncio.wait_for(manager.timers.settled(), 10)
                clock.advance(minutes=1)
            await asyncio.wait_for(manager.timers.settled(), 10)
            game = await manager._store.get(gid)
            assert game.state is not None
            history = game.state.history
            by_ai = bool(history) and game.seats[history[-1][0]].ai_level is not None
            kinds = sorted(t.kind for t in await repo.timers_for_game(gid))
            told = [len(o.state.history) for _, o in notifier.turns if o.state is not None]
            return told, len(history), by_ai, kinds
        finally:
            await manager.close()


async def _told_so_far(path: Path, clock: ManualClock, gid: str) -> None:
    """The turn messages of the moves so far were posted (_prepare plays with no bot attached)."""
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        game = await manager._store.get(gid)
        assert game.state is not None
        await manager.swap_note(gid, TOLD_THROUGH, len(game.state.history))
        await manager.close()


async def test_a_kill_after_the_ai_move_posts_its_turn_message_exactly_once_after_the_restart(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    base = tmp_path / "before.db"
    gid = await _prepare(base, clock, started=True)
    await _told_so_far(base, clock, gid)
    now = clock.now() + timedelta(minutes=5)
    dry = tmp_path / "dry.db"
    shutil.copy(base, dry)
    calls = await _run_killed(dry, now, gid, _bob_plays_his_turn, None)
    wrong = []
    # the last point (no kill) is the process dying after the manager answered, before the post
    for at in [*range(1, calls + 1), None]:
        db = tmp_path / f"kill{at}.db"
        shutil.copy(base, db)
        await _run_killed(db, now, gid, _bob_plays_his_turn, at)
        turns, length, by_ai, kinds = await _restart(db, now, gid)
        expected = [length] if by_ai else []
        if turns != expected or "tell" in kinds:
            wrong.append(f"killed before call {at}: posted {turns}, expected {expected}, rows {kinds}")
    assert wrong == []


async def test_an_owed_turn_message_already_told_is_not_posted_again(tmp_path: Path) -> None:
    """A crash after the post but before the row goes: the note says the position is told, no second post."""
    clock = ManualClock()
    path = tmp_path / "game.db"
    gid = await _prepare(path, clock, started=True)
    await _told_so_far(path, clock, gid)
    now = clock.now() + timedelta(minutes=5)
    await _run_killed(path, now, gid, _bob_plays_his_turn, None)
    async with open_repository(f"sqlite:///{path}", clock=ManualClock(now).now) as repo:
        assert "tell" in [t.kind for t in await repo.timers_for_game(gid)]
        manager = GameManager(repo, clock=ManualClock(now), ai=random_ai)
        game = await manager._store.get(gid)
        told = len(game.state.history) if game.state is not None else 0
        await manager.swap_note(gid, TOLD_THROUGH, told)  # the note the post wrote; then the kill
        await manager.close()
        await repo.add_timer(gid, "tell", now, {})  # the row as if the note had not cleared it
    turns, length, by_ai, kinds = await _restart(path, now, gid)
    assert by_ai and length == told and turns == [] and "tell" not in kinds


async def test_the_final_message_of_a_game_an_ai_move_ended_is_posted_once_after_a_crash(
    tmp_path: Path,
) -> None:
    """The AI's move ends the game and the process dies before the final scores are posted: the finished game
    keeps its ``tell`` row (and only it), the next process posts the scores once, then the row is gone."""
    clock = ManualClock()
    url = f"sqlite:///{tmp_path / 'game.db'}"
    async with open_repository(url, clock=clock.now) as repo:
        first = GameManager(repo, clock=clock, ai=random_ai)  # no bot: nothing posted, as if killed first
        await first.start(dispatcher=False)
        gid, _ = await started_game(first, humans=1, ais=2, seed=11)
        ended = await first.hand_to_ai(gid, HUMANS[0][0], "normal")
        assert ended.finished
        await first.close()
        assert [t.kind for t in await repo.timers_for_game(gid)] == ["tell"]
        notifier = RecordingNotifier()
        second = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
        notifier.manager = second
        await second.start()
        try:
            await asyncio.wait_for(second.timers.settled(), 10)
            assert notifier.turns == []  # the first process's for a lease: it may still be posting
            for _ in range(3):
                clock.advance(seconds=31)
                await asyncio.wait_for(second.timers.settled(), 10)
        finally:
            await second.close()
        ((told, outcome),) = notifier.turns
        assert told == gid and outcome.events == () and outcome.info.status == GameStatus.FINISHED
        assert outcome.info.final and outcome.state is not None and outcome.state.finished
        assert await repo.timers_for_game(gid) == []


class SlowNotifier(RecordingNotifier):
    """Posts a turn message more slowly than a lease lasts (a slow render, a slow Discord)."""

    def __init__(self, delay: float, posted: list[str]) -> None:
        super().__init__()
        self.delay = delay
        self.posted = posted

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        await asyncio.sleep(self.delay)
        self.posted.append(game_id)
        await super().on_turn(game_id, outcome)


@pytest.mark.cluster  # two dispatchers on real PostgreSQL, 0.5 s leases waited out in real time
@pytest.mark.xdist_group("timing")
async def test_a_message_posted_for_longer_than_the_lease_is_posted_by_one_dispatcher_of_two() -> None:
    """Two dispatchers (two processes' worth, each its own connection pool) and a post four leases long: the
    serving process renews its lease, so the other never takes the row over."""
    lease = 0.5
    async with fresh_pg_schema() as (url, _schema):
        async with open_repository(url) as repo:
            setup = GameManager(repo, ai=random_ai, member=Member(lease=lease))
            await setup.start(dispatcher=False)
            gid, _ = await started_game(setup, humans=1, ais=2, seed=11)
            assert (await setup.hand_to_ai(gid, HUMANS[0][0], "normal")).finished  # the final scores owed
            await setup.close()
        posted: list[str] = []
        async with open_repository(url) as repo_a, open_repository(url) as repo_b:
            managers = []
            for repo in (repo_a, repo_b):
                notifier = SlowNotifier(4 * lease, posted)
                manager = GameManager(
                    repo, ai=random_ai, notifier=notifier, member=Member(lease=lease), max_sleep=lease
                )
                notifier.manager = manager
                managers.append(manager)
            try:
                for manager in managers:
                    await manager.start()
                deadline = time.monotonic() + 30
                while await repo_a.timers_for_game(gid) and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                await asyncio.sleep(4 * lease)  # a second post would show by now
            finally:
                for manager in managers:
                    await manager.close()
            assert posted == [gid]
            assert await repo_a.timers_for_game(gid) == []


async def test_building_the_turn_message_leaves_the_row_only_the_acknowledged_post_clears_it(
    manager: GameManager, repo: GameRepository
) -> None:
    """A kill anywhere between building the message and Discord's acknowledgement leaves the row to be served:
    building only reads the note; the post writes it (with the message id), which clears the row."""
    gid, _ = await started_game(manager, humans=1, ais=2, seed=11)
    assert (await manager.hand_to_ai(gid, HUMANS[0][0], "normal")).finished  # the final scores owed
    info, state = await manager.status(gid), await state_of(manager, gid)
    await since_last_turn(manager, info, state, [])  # what the message tells, read from the log
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["tell"]  # built, not posted: still owed
    assert await manager.note(gid, TOLD_THROUGH) is None

    async def no_gif() -> None:
        return None

    keeper = ThreadKeeper()
    await keeper.posted(manager, None, info, 5, 55, no_gif)
    await keeper.close()
    assert await repo.timers_for_game(gid) == []
    assert await manager.note(gid, TOLD_THROUGH) == info.action_count
    assert await manager.note(gid, "turn_message") == [5, 55]
    # a message built before it but acknowledged after it never winds the note back
    await manager.swap_notes(gid, {TOLD_THROUGH: info.action_count - 3}, rising=(TOLD_THROUGH,))
    assert await manager.note(gid, TOLD_THROUGH) == info.action_count


@contextlib.asynccontextmanager
async def _writer_and_dispatcher(lease: float) -> AsyncIterator[tuple[GameManager, RecordingNotifier]]:
    """Process A (no dispatcher: the writer of a command) and process B (its dispatcher serving due rows),
    each with its own connection pool, on one fresh PostgreSQL schema; yields A and B's notifier."""
    async with (
        fresh_pg_schema() as (url, _schema),
        open_repository(url) as repo_a,
        open_repository(url) as repo_b,
    ):
        writer = GameManager(repo_a, ai=random_ai, member=Member(lease=lease))
        notifier = RecordingNotifier()
        other = GameManager(
            repo_b, ai=random_ai, notifier=notifier, member=Member(lease=lease), max_sleep=lease
        )
        notifier.manager = other
        await writer.start(dispatcher=False)
        await other.start()
        try:
            yield writer, notifier
        finally:
            await writer.close()
            await other.close()


@pytest.mark.cluster  # two dispatchers on real PostgreSQL, 0.5 s leases waited out in real time
@pytest.mark.xdist_group("timing")
async def test_the_writer_renews_its_claim_while_it_builds_and_posts_a_slow_turn_message() -> None:
    """A command makes AI seats move (the final scores owed): its process claimed the ``tell`` row for one
    lease, and builds and posts the message for four: the lease is renewed meanwhile, so the other process's
    dispatcher never takes the row over; the note the post writes clears it."""
    lease = 0.5
    async with _writer_and_dispatcher(lease) as (writer, notifier):
        repo = writer._store.repo
        gid, _ = await started_game(writer, humans=1, ais=2, seed=11)
        ended = await writer.hand_to_ai(gid, HUMANS[0][0], "normal")
        assert ended.finished and [t.kind for t in await repo.timers_for_game(gid)] == ["tell"]
        await asyncio.sleep(4 * lease)  # a slow picture, a slow Discord
        through = len(ended.state.history) if ended.state is not None else 0
        assert await writer.may_tell(gid, through)  # still this process's to post
        await writer.swap_notes(gid, {TOLD_THROUGH: through}, rising=(TOLD_THROUGH,))  # acknowledged
        await asyncio.sleep(2 * lease)
        assert notifier.turns == []  # the other process never posted it
        assert await repo.timers_for_game(gid) == []


@pytest.mark.cluster  # two dispatchers on real PostgreSQL, 0.5 s leases waited out in real time
@pytest.mark.xdist_group("timing")
async def test_a_writer_that_lost_its_claim_does_not_post_the_turn_message_the_other_process_posted() -> None:
    """The writer stalls past its lease (its renewal stopped): the other process serves the row and posts the
    message; the writer, checking just before it posts, leaves it."""
    lease = 0.5
    async with _writer_and_dispatcher(lease) as (writer, notifier):
        gid, _ = await started_game(writer, humans=1, ais=2, seed=11)
        ended = await writer.hand_to_ai(gid, HUMANS[0][0], "normal")
        writer.timers.leases.keeping[gid].cancel()  # the stall: no renewal any more
        deadline = time.monotonic() + 20
        while not notifier.turns and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert [g for g, _ in notifier.turns] == [gid]
        through = len(ended.state.history) if ended.state is not None else 0
        assert not await writer.may_tell(gid, through)


async def test_the_other_process_posting_between_the_writers_two_reads_is_seen() -> None:
    """may_tell reads the game's rows and its ``told_through`` note: the other process's post may land (its note
    clears its row in the same transaction) between the two reads. Whatever the timing, the writer sees one of
    the two and leaves the message: here the note commits just after the writer checked its cached game's
    version (read first, the note would be missed and the rows found gone: a second post)."""
    async with (
        fresh_pg_schema() as (url, _schema),
        open_repository(url) as repo_a,
        open_repository(url) as repo_b,
    ):
        other = GameManager(repo_b, ai=random_ai)
        posted: list[bool] = []

        class RacedRepository(type(repo_a)):  # type: ignore[misc]
            """Process A's repository: the other process's post lands as A checks its cached game."""

            def __init__(self) -> None:
                pass

            def __getattribute__(self, name: str) -> object:
                if name == "game_version":
                    return raced_version
                return getattr(repo_a, name)

        async def raced_version(game_id: str) -> int | None:
            version = await repo_a.game_version(game_id)
            if armed and not posted:
                posted.append(True)  # the other process posted the message; its note clears the row
                await other.swap_notes(game_id, {TOLD_THROUGH: through}, rising=(TOLD_THROUGH,))
            return version

        armed, through = False, 0
        writer = GameManager(RacedRepository(), ai=random_ai, member=Member(lease=30))
        gid, _ = await started_game(writer, humans=1, ais=2, seed=11)
        ended = await writer.hand_to_ai(gid, HUMANS[0][0], "normal")
        assert [t.kind for t in await repo_a.timers_for_game(gid)] == ["tell"]
        through = len(ended.state.history) if ended.state is not None else 0
        armed = True
        assert not await writer.may_tell(gid, through)
        assert posted and await repo_a.timers_for_game(gid) == []
        await writer.close()
        await other.close()

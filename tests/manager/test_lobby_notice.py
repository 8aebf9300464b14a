"""The notice of an expired lobby is durable work: the abandonment writes a ``notice`` row (claimed by the
writing process for a lease) in its own transaction, and the ``expiry_told`` note the bot writes once Discord
acknowledged the notice clears it. A process that dies anywhere in between leaves the row: the next process
posts the notice once, when the lease ends. Only a death between the acknowledgement and the note (one write)
posts it twice.

The kill is injected as in test_no_stall: the repository dies instead of making its n-th call, for every n."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from helpers.kill_harness import Killed, restarted_past_leases, serve_killed
from helpers.manager_games import HUMANS, random_ai

from bot.manager import GameManager, ManualClock, NullNotifier, Outcome
from bot.manager.tell import EXPIRY_TOLD
from bot.play.event_words import line, table_of
from bot.storage import GameStatus, open_repository

ANN = HUMANS[0][0]


@dataclass
class Discord:
    """What reached the channel: one entry per notice posted, and whether its note was written after it."""

    posted: list[str] = field(default_factory=list)
    noted: list[str] = field(default_factory=list)


@dataclass
class NoticeBot(NullNotifier):
    """The bot's side of the notice: post it, then write the note (as bot.play.lobby.lobby_expired does)."""

    discord: Discord
    manager: GameManager | None = None

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        assert outcome.status == GameStatus.ABANDONED
        (event,) = outcome.events
        said = line(event, table_of(outcome.info))
        assert said.key == "ev.lobby_expired" and said.params == {"n": 24}  # type: ignore[union-attr]
        self.discord.posted.append(game_id)
        assert self.manager is not None
        await self.manager.swap_note(game_id, EXPIRY_TOLD, True)
        self.discord.noted.append(game_id)


async def _lobby(path: Path, clock: ManualClock) -> str:
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        manager = GameManager(repo, clock=clock, ai=random_ai)
        await manager.start(dispatcher=False)
        info = await manager.create_game(guild_id=1, channel_id=5, host_id=ANN, host_name="Ann", board="usa")
        await manager.close()
    return info.game_id


async def _restart(path: Path, now: datetime, discord: Discord, gid: str) -> tuple[GameStatus, list[str]]:
    """A fresh process past the dead one's leases: the game's status and the rows left."""
    async with restarted_past_leases(path, now, NoticeBot(discord)) as repo:
        status = (await repo.load_game(gid)).status
        return status, [t.kind for t in await repo.timers_for_game(gid)]


async def test_a_kill_anywhere_in_the_expiry_posts_the_notice_once(tmp_path: Path) -> None:
    clock = ManualClock()
    base = tmp_path / "lobby.db"
    gid = await _lobby(base, clock)
    now = clock.now() + timedelta(hours=24, minutes=1)
    dry = tmp_path / "dry.db"
    shutil.copy(base, dry)
    calls, _ = await serve_killed(dry, now, NoticeBot(Discord()), None)
    wrong = []
    for at in range(1, calls + 1):
        db = tmp_path / f"kill{at}.db"
        shutil.copy(base, db)
        discord = Discord()
        await serve_killed(db, now, NoticeBot(discord), at)
        # posted but killed before its note: the one window where it is posted again
        expected = 2 if discord.posted and not discord.noted else 1
        status, rows = await _restart(db, now, discord, gid)
        if discord.posted != [gid] * expected or status != GameStatus.ABANDONED or rows:
            wrong.append(
                f"killed at call {at}: posted {len(discord.posted)} (expected {expected}), {status}, {rows}"
            )
    assert wrong == []


async def test_a_crash_between_the_abandonment_and_the_post_leaves_the_notice_to_the_next_process(
    tmp_path: Path,
) -> None:
    """The process dies right after the commit (its notifier never runs): the row stays with the abandoned
    game, claimed for a lease; the next process posts the notice once that lease ended, never before."""
    clock = ManualClock()
    path = tmp_path / "lobby.db"
    gid = await _lobby(path, clock)
    now = clock.now() + timedelta(hours=24, minutes=1)

    class DiesBeforePosting(NoticeBot):
        async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
            raise Killed("after the commit, before the post")

    discord = Discord()
    async with open_repository(f"sqlite:///{path}", clock=ManualClock(now).now) as repo:
        manager = GameManager(repo, clock=ManualClock(now), ai=random_ai, notifier=DiesBeforePosting(discord))
        with contextlib.suppress(Killed):
            await manager.run_due_timers()
        await manager.timers.stop()
        assert (await repo.load_game(gid)).status == GameStatus.ABANDONED
        assert [t.kind for t in await repo.timers_for_game(gid)] == ["notice"]
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        bot = NoticeBot(discord)
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=bot)
        bot.manager = manager
        await manager.start()
        try:
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == []  # the dead process's for a lease: it might still be posting
            clock.advance(seconds=31)
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == [gid] and discord.noted == [gid]
            assert await repo.timers_for_game(gid) == []
            assert await manager.note(gid, EXPIRY_TOLD) is True
            clock.advance(hours=48)
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == [gid]  # once
        finally:
            await manager.close()

"""Reminders and the absent-player announcement are durable work, exactly once: each is a row (``remind`` or
``absent``, one per seat, carrying what to send) written in the transaction that re-arms the game's turn row
(or, for the ``ai`` and ``skip`` policies, with the first move made for the absent seat), claimed by the writing
process for a lease and deleted once the notifier returned. A process that dies anywhere before that deletion
leaves the row: the next process sends it once, when the lease ends. Only a death between the notifier's return
and the deletion (one write) sends it twice. A reminder made stale by a move meanwhile is dropped, not sent late.

The kill is injected as in test_no_stall: the repository dies instead of making its n-th call, for every n."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from helpers.kill_harness import Killed, restarted_past_leases, serve_killed
from helpers.manager_games import HUMANS, RecordingNotifier, play_random, random_ai, started_game

from bot.manager import GameManager, ManualClock, Outcome
from bot.manager.ai import AIChooser
from bot.storage import GameRepository, open_repository
from engine.actions import Action, DrawBlind
from engine.rules import legal_actions
from engine.state import GameState

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


async def draws_blind_first(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    """An AI whose turn takes two moves: a blind draw first (then any legal move)."""
    legal = legal_actions(state, seat)
    return next((a for a in legal if isinstance(a, DrawBlind)), legal[rng.randrange(len(legal))])


@dataclass
class Discord:
    """What reached the channel, in order: ("remind", seat, n), ("absent", seat, policy), ("turn", seqs)."""

    posted: list[tuple[object, ...]] = field(default_factory=list)
    noted: list[tuple[int, ...]] = field(default_factory=list)  # turn messages whose note was written


@dataclass
class Bot:
    """The bot's side: reminders and announcements are posted (the manager deletes their rows); a turn message
    is posted, then its ``told_through`` note written (as bot.play.thread does)."""

    discord: Discord
    manager: GameManager | None = None
    dies_posting: bool = False  # the process dies as it starts posting a reminder or announcement

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        self.discord.posted.append(("turn", tuple(outcome.seqs)))
        assert self.manager is not None and outcome.state is not None
        await self.manager.swap_note(game_id, "told_through", len(outcome.state.history))
        self.discord.noted.append(tuple(outcome.seqs))

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        if self.dies_posting:
            raise Killed("before the post")
        assert user_id == HUMANS[seat][0]
        self.discord.posted.append(("remind", seat, n))

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        if self.dies_posting:
            raise Killed("before the post")
        assert user_id == HUMANS[seat][0]
        self.discord.posted.append(("absent", seat, policy))

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        return None


async def _prepare(path: Path, clock: ManualClock, scenario: str) -> str:
    """A game whose next turn-row step is due 24 h + 1 min from the clock returned:
    ``remind``: Ann's first reminder (in the main phase, Ann alone to act; advanced 12 h more);
    ``remind_both``: Ann and Bob both still choosing tickets (setup: two seats reminded at once);
    ``ai`` / ``wait``: the absent-player policy for Ann (both reminders already sent)."""
    scenario = "ai" if scenario == "ai_two_steps" else scenario
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        notifier = RecordingNotifier()
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
        notifier.manager = manager
        await manager.start(dispatcher=False)
        policy = scenario if scenario in ("ai", "wait") else "ai"
        gid, _ = await started_game(manager, humans=2, seed=4, settings={"absent_policy": policy})
        if scenario != "remind_both":
            await play_random(manager, gid, random.Random(4), moves=2)
            assert (await manager.status(gid)).to_act == (0,)
        if scenario in ("ai", "wait"):
            for _ in range(2):
                clock.advance(hours=12)
                await manager.run_due_timers()
            assert [n for *_, n in notifier.reminders] == [1, 2]
        else:
            clock.advance(hours=12)  # (reminder 1 due 12 h after the last move: as far as the others)
        await manager.close()
    return gid


async def _restart(
    path: Path, now: datetime, discord: Discord, gid: str, ai: AIChooser = random_ai
) -> list[tuple[str, int, int]]:
    """A fresh process past the dead one's leases: the game's rows left, as (kind, stage, seat) sorted."""
    async with restarted_past_leases(path, now, Bot(discord), ai) as repo:
        rows = await repo.timers_for_game(gid)
        return sorted((t.kind, int(t.payload.get("stage", -1)), int(t.payload.get("seat", -1))) for t in rows)


#: what the due step sends, once, and the rows left after it
EXPECTED = {
    "remind": ([("remind", 0, 1)], [("turn", 1, -1)]),
    "remind_both": ([("remind", 0, 1), ("remind", 1, 1)], [("turn", 1, -1)]),
    "ai": ([("absent", 0, "ai")], [("turn", 0, -1)]),  # Bob's own chain, after the AI played Ann's turn
    # the same with an AI whose turn takes two moves (a blind draw, then another): a death between them
    "ai_two_steps": ([("absent", 0, "ai")], [("turn", 0, -1)]),
    "wait": ([("absent", 0, "wait")], [("turn", 3, -1)]),  # parked
}


@pytest.mark.parametrize("scenario", list(EXPECTED))
async def test_a_kill_at_any_storage_call_sends_the_reminder_or_announcement_once(
    tmp_path: Path, scenario: str
) -> None:
    clock = ManualClock()
    base = tmp_path / "game.db"
    gid = await _prepare(base, clock, scenario)
    now = clock.now() + timedelta(hours=24, minutes=1)
    sends, rows_after = EXPECTED[scenario]
    ai = draws_blind_first if scenario == "ai_two_steps" else random_ai
    dry = tmp_path / "dry.db"
    shutil.copy(base, dry)
    discord = Discord()
    calls, _ = await serve_killed(dry, now, Bot(discord), None, ai)
    assert [p for p in discord.posted if p[0] != "turn"] == sends  # the writer sends them itself
    assert await _restart(dry, now, discord, gid, ai) == rows_after
    assert [p for p in discord.posted if p[0] != "turn"] == sends  # and nobody again
    wrong = []
    for at in range(1, calls + 1):
        db = tmp_path / f"kill{at}.db"
        shutil.copy(base, db)
        discord = Discord()
        _, died = await serve_killed(db, now, Bot(discord), at, ai)
        # sent, then killed before its row was deleted: the one window where it is sent again
        again = discord.posted[-1] if discord.posted and died == "delete_timer" else None
        expected = Counter(sends) + Counter([again] if again else [])
        # a turn message's own window: posted, killed before its note
        turns_window = len(discord.noted) < len([p for p in discord.posted if p[0] == "turn"])
        rows = await _restart(db, now, discord, gid, ai)
        sent = Counter(p for p in discord.posted if p[0] != "turn")
        turns = [p for p in discord.posted if p[0] == "turn"]
        if scenario.startswith("ai") and len(turns) != 1 + turns_window:  # the absent turn's message: once
            wrong.append(f"killed at call {at} ({died}): turn messages {turns}")
        if sent != expected or rows != rows_after:
            wrong.append(f"killed at call {at} ({died}): sent {sorted(sent.items())}, rows {rows}")
    assert wrong == []


async def _died_posting_a_reminder(tmp_path: Path) -> tuple[Path, str, datetime, Discord]:
    """Ann's first reminder due; the process dies as it posts it, right after the re-arm's commit (the reminder
    unsent, its row claimed for a lease). Returns the file, the game, the time of death and the channel."""
    clock = ManualClock()
    path = tmp_path / "game.db"
    gid = await _prepare(path, clock, "remind")
    now = clock.now() + timedelta(hours=24, minutes=1)
    discord = Discord()
    async with open_repository(f"sqlite:///{path}", clock=ManualClock(now).now) as repo:
        manager = GameManager(
            repo, clock=ManualClock(now), ai=random_ai, notifier=Bot(discord, dies_posting=True)
        )
        with contextlib.suppress(Killed):
            await manager.run_due_timers()
        await manager.timers.stop()
        rows = await repo.timers_for_game(gid)
        assert sorted(t.kind for t in rows) == ["remind", "turn"]  # written with the re-arm, unsent
    return path, gid, now, discord


async def test_a_reminder_made_stale_by_a_move_is_dropped_not_sent_late(tmp_path: Path) -> None:
    """The process dies right after the re-arm's commit (its reminder unsent, its row claimed for a lease);
    Ann plays her turn meanwhile: the next process finds the row once the lease ended and drops it. Bob's own
    reminder comes on time, once."""
    path, gid, now, discord = await _died_posting_a_reminder(tmp_path)
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        bot = Bot(discord)
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=bot)
        bot.manager = manager
        await manager.start()
        try:
            await manager.act(gid, ANN, DrawBlind())  # Ann is back: her turn is played before the lease ends
            await manager.act(gid, ANN, DrawBlind())
            await asyncio.wait_for(manager.timers.settled(), 10)
            clock.advance(seconds=31)  # the dead process's lease ends: the row is served, and stale
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == []
            assert await _kinds(repo, gid) == ["turn"]
            clock.advance(hours=12)  # Bob's first reminder, from his own chain
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == [("remind", 1, 1)]
            assert await _kinds(repo, gid) == ["turn"]
        finally:
            await manager.close()


async def test_an_unsent_reminder_still_current_is_sent_by_the_next_process_after_the_lease(
    tmp_path: Path,
) -> None:
    """The same death, and nobody moves: the next process sends the reminder once the lease ended, never
    before (the dead process might still be posting), and once."""
    path, gid, now, discord = await _died_posting_a_reminder(tmp_path)
    clock = ManualClock(now)
    async with open_repository(f"sqlite:///{path}", clock=clock.now) as repo:
        bot = Bot(discord)
        manager = GameManager(repo, clock=clock, ai=random_ai, notifier=bot)
        bot.manager = manager
        await manager.start()
        try:
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == []
            clock.advance(seconds=31)
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == [("remind", 0, 1)]
            assert await _kinds(repo, gid) == ["turn"]
            clock.advance(minutes=30)
            await asyncio.wait_for(manager.timers.settled(), 10)
            assert discord.posted == [("remind", 0, 1)]
        finally:
            await manager.close()


async def _kinds(repo: GameRepository, gid: str) -> list[str]:
    return sorted(t.kind for t in await repo.timers_for_game(gid))

"""Asynchronous play across days: reminders, the absent-player policies, timers that survive a restart."""

from __future__ import annotations

import asyncio
import random

from helpers.manager_games import HUMANS, RecordingNotifier, play_random, random_ai, started_game, state_of

from bot.manager import GameManager, ManualClock
from bot.storage import GameRepository, open_repository
from engine.actions import DrawBlind, KeepTickets
from engine.pending import TicketChoice
from engine.state import MAIN, SETUP

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


async def _ann_to_play(manager: GameManager, **kw: object) -> str:
    gid, _ = await started_game(manager, humans=2, seed=4, **kw)  # type: ignore[arg-type]
    await play_random(manager, gid, random.Random(4), moves=2)
    info = await manager.status(gid)
    assert info.phase == MAIN and info.to_act == (0,)
    return gid


async def test_two_reminders_then_an_ai_plays_the_absent_players_turn(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid = await _ann_to_play(manager)
    timers = await repo.timers_for_game(gid)
    # one row per game, armed when the ticket choice began; moves do not rewrite it
    assert [(t.kind, t.payload["stage"], t.payload["key"]) for t in timers] == [("turn", 0, "setup:0:0")]
    assert (await manager.status(gid)).seats[0].next_timer == timers[0].due_at
    clock.advance(hours=11, minutes=59)
    assert await manager.run_due_timers() == 0 and notifier.reminders == []
    clock.advance(minutes=1)
    await manager.run_due_timers()
    assert notifier.reminders == [(gid, 0, ANN, 1)]
    clock.advance(hours=12)
    await manager.run_due_timers()
    assert notifier.reminders == [(gid, 0, ANN, 1), (gid, 0, ANN, 2)]
    clock.advance(hours=23)
    await manager.run_due_timers()
    assert notifier.absent == [] and notifier.turns == []
    clock.advance(hours=1)
    await manager.run_due_timers()
    assert notifier.absent == [(gid, 0, ANN, "ai")]
    ((turn_gid, outcome),) = notifier.turns
    assert turn_gid == gid and outcome.events and outcome.events[0].by == "absent_ai"
    assert gid in outcome.events[0].game_id and outcome.to_act == (1,)
    assert len(notifier.reminders) == 2  # at most two per turn
    timers = await repo.timers_for_game(gid)
    assert [(t.kind, t.payload["stage"], t.payload["key"]) for t in timers] == [("turn", 0, "main:1:1")]
    assert (await manager.status(gid)).seats[0].ai_level is None  # only that turn: the seat stays Ann's


async def test_skip_policy_draws_blind_and_keeps_the_cheapest_tickets_at_setup(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    gid, _ = await started_game(manager, humans=2, seed=4, settings={"absent_policy": "skip"})  # Ann first
    state = await state_of(manager, gid)
    offered = state.pending[1]
    assert isinstance(offered, TicketChoice)
    await manager.act(gid, ANN, (await manager.legal_actions(gid, ANN))[0])  # Ann chooses; Bob is away
    for _ in range(3):  # reminder, reminder, policy: each stage counts from the one before
        clock.advance(hours=24, minutes=1)
        await manager.run_due_timers()
    state = await state_of(manager, gid)
    cheapest = sorted(offered.offered, key=lambda t: (state.board.tickets[t].points, t))[: offered.keep_min]
    assert sorted(state.players[1].tickets) == sorted(cheapest)
    assert state.phase == MAIN
    # now Ann is away on her turn: skipping it means two blind cards
    hand_before = sum(state.players[0].hand)
    for _ in range(3):  # reminder, reminder, policy: each stage counts from the one before
        clock.advance(hours=24, minutes=1)
        await manager.run_due_timers()
    state = await state_of(manager, gid)
    kinds = [(e.kind, e.by) for _, o in notifier.turns for e in o.events if e.seat == 0]
    assert kinds[-2:] == [("draw_blind", "absent_skip"), ("draw_blind", "absent_skip")]
    assert sum(state.players[0].hand) == hand_before + 2 and state.current == 1


async def test_wait_policy_waits_without_more_reminders(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid = await _ann_to_play(manager, settings={"absent_policy": "wait"})
    count = (await repo.load_game(gid)).action_count
    for _ in range(40):  # forty days later
        clock.advance(hours=24)
        await manager.run_due_timers()
    assert [n for *_, n in notifier.reminders] == [1, 2]
    assert notifier.absent == [(gid, 0, ANN, "wait")] and notifier.turns == []
    assert (await repo.load_game(gid)).action_count == count
    await manager.act(gid, ANN, DrawBlind())
    await manager.act(gid, ANN, DrawBlind())
    timers = await repo.timers_for_game(gid)
    assert [(t.payload["key"], t.payload["stage"]) for t in timers] == [("main:1:1", 0)]  # Bob's own chain
    clock.advance(hours=12)
    await manager.run_due_timers()
    assert notifier.reminders[-1] == (gid, 1, BOB, 1)


async def test_timers_fire_after_a_restart(db_url: str) -> None:
    clock = ManualClock()
    async with open_repository(db_url, clock=clock.now) as repo:
        m1 = GameManager(repo, clock=clock, ai=random_ai)
        await m1.start(dispatcher=False)
        gid = await _ann_to_play(m1)
        await m1.close()
    clock.advance(hours=13)  # the bot was down while the reminder fell due
    notifier = RecordingNotifier()
    async with open_repository(db_url, clock=clock.now) as repo:
        m2 = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
        await m2.start()  # the dispatcher task serves the stored rows
        try:
            assert gid in m2.open_game_ids
            for _ in range(200):
                if notifier.reminders:
                    break
                await asyncio.sleep(0.01)
            assert notifier.reminders == [(gid, 0, ANN, 1)]
            clock.advance(hours=12)  # moving the clock wakes the dispatcher
            for _ in range(200):
                if len(notifier.reminders) == 2:
                    break
                await asyncio.sleep(0.01)
            assert notifier.reminders[-1] == (gid, 0, ANN, 2)
        finally:
            await m2.close()


async def test_ai_moves_interrupted_by_a_crash_resume_from_their_timer(
    db_url: str, repo: GameRepository
) -> None:
    clock = ManualClock()

    async def broken_ai(*args: object) -> DrawBlind:
        raise RuntimeError("the process died here")

    m1 = GameManager(repo, clock=clock, ai=broken_ai)
    gid, _ = await started_game(m1, humans=1, ais=1, seed=8)
    assert sorted(t.kind for t in await repo.timers_for_game(gid)) == ["resume", "turn"]
    state = await state_of(m1, gid)
    assert state.phase == SETUP and 1 in state.pending  # the AI has not chosen its tickets
    clock.advance(seconds=31)
    await m1.run_due_timers()  # still broken: the resume row is re-armed, not lost
    resume = [t for t in await repo.timers_for_game(gid) if t.kind == "resume"]
    assert len(resume) == 1 and resume[0].due_at > clock.now()
    notifier = RecordingNotifier()
    m2 = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
    notifier.manager = m2  # the turn message tells the AI's moves: none is owed after it
    clock.advance(seconds=31)
    await m2.run_due_timers()
    state = await state_of(m2, gid)
    assert 1 not in state.pending and notifier.turns and notifier.turns[0][1].events[0].kind == "keep_tickets"
    assert [t.kind for t in await repo.timers_for_game(gid)] == ["turn"]
    await m2.act(gid, ANN, KeepTickets(tuple(sorted(state.pending[0].offered))))  # type: ignore[union-attr]
    state = await state_of(m2, gid)
    assert state.phase == MAIN


async def test_stale_timers_of_a_turn_already_played_are_dropped(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid = await _ann_to_play(manager)
    old = await repo.timers_for_game(gid)
    # simulate a crash between "add the new timer" and "delete the old one": re-add Ann's old chain
    await repo.add_timer(gid, "turn", old[0].due_at, old[0].payload)
    await manager.act(gid, ANN, DrawBlind())
    await manager.act(gid, ANN, DrawBlind())
    manager._store.evict(gid)  # forget the cached timer list, as after a restart
    clock.advance(hours=13)
    await manager.run_due_timers()
    assert notifier.reminders == [(gid, 1, BOB, 1)]  # nothing for Ann's finished turn
    assert [t.payload["key"] for t in await repo.timers_for_game(gid)] == ["main:1:1"]


class CallbackNotifier(RecordingNotifier):
    """A bot layer that asks the manager about the game from inside the callback (no deadlock)."""

    manager: GameManager | None = None
    seen: list[tuple[int, ...]] = []

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        await super().on_reminder(game_id, seat, user_id, n)
        assert self.manager is not None
        self.seen.append((await self.manager.status(game_id)).to_act)


async def test_everyone_still_choosing_tickets_is_reminded_and_callbacks_may_call_back(
    repo: GameRepository, clock: ManualClock
) -> None:
    notifier = CallbackNotifier()
    notifier.seen = []
    manager = GameManager(repo, clock=clock, ai=random_ai, notifier=notifier)
    notifier.manager = manager
    gid, _ = await started_game(manager, humans=3, seed=2)
    await manager.act(gid, HUMANS[2][0], (await manager.legal_actions(gid, HUMANS[2][0]))[0])
    clock.advance(hours=12)
    await asyncio.wait_for(manager.run_due_timers(), 5)
    assert sorted(notifier.reminders) == [(gid, 0, ANN, 1), (gid, 1, BOB, 1)]
    assert notifier.seen == [(0, 1), (0, 1)]


async def test_a_started_turn_is_not_finished_by_the_timer_until_its_grace_time_after_the_last_action(
    manager: GameManager, clock: ManualClock, notifier: RecordingNotifier, repo: GameRepository
) -> None:
    gid = await _ann_to_play(manager)
    clock.advance(hours=12)  # reminder 1
    await manager.run_due_timers()
    clock.advance(hours=12)  # reminder 2
    await manager.run_due_timers()
    clock.advance(hours=23, minutes=59)
    await manager.act(gid, ANN, DrawBlind())  # Ann starts her turn a minute before the takeover
    clock.advance(minutes=1)
    await manager.run_due_timers()
    state = await state_of(manager, gid)
    assert notifier.absent == [] and notifier.turns == [] and state.current == 0 and 0 in state.pending
    # the takeover waits the absent-player delay (24 h) after her last action, then plays the rest
    clock.advance(hours=23, minutes=58)
    await manager.run_due_timers()
    assert notifier.absent == [] and (await state_of(manager, gid)).current == 0
    clock.advance(minutes=2)
    await manager.run_due_timers()
    assert notifier.absent == [(gid, 0, ANN, "ai")]
    assert (await state_of(manager, gid)).current == 1

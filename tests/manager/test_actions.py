"""act(): staleness, refusals that change nothing, serialisation under concurrency (one manager and two)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from helpers.manager_games import HUMANS, play_random, random_ai, started_game, state_of
from helpers.pg_schema import fresh_pg_schema
from helpers.stored_games import assert_stored_is_log_replayed

from bot.i18n import english
from bot.manager import GameManager, ManualClock, Refused
from bot.play.refusals import refusal_text
from bot.storage import GameRepository, open_repository
from engine.actions import ClaimRoute, DrawBlind
from engine.record import replay

ANN, BOB, CLEO = (uid for uid, _ in HUMANS[:3])


async def _in_play(manager: GameManager, humans: int = 3, seed: int = 4) -> str:  # seed 4: Ann plays first
    gid, _ = await started_game(manager, humans=humans, seed=seed)
    await play_random(manager, gid, random.Random(seed), moves=humans)  # everyone keeps tickets
    return gid


async def test_double_click_and_old_buttons_are_stale_and_change_nothing(
    manager: GameManager, repo: GameRepository
) -> None:
    gid = await _in_play(manager)
    info = await manager.status(gid)
    token = info.tokens[0]
    assert token == f"t{info.action_count}"
    await manager.act(gid, ANN, DrawBlind(), expected_turn=token)
    before = await repo.load_game(gid)
    with pytest.raises(Refused) as err:  # the same click again
        await manager.act(gid, ANN, DrawBlind(), expected_turn=token)
    assert err.value.code == "stale" and err.value.params == {}
    after = await repo.load_game(gid)
    assert (after.version, after.action_count, after.snapshot) == (
        before.version,
        before.action_count,
        before.snapshot,
    )
    await manager.act(gid, ANN, DrawBlind(), expected_turn=await manager.turn_token(gid, ANN))
    for _ in range(3):  # a button from Ann's previous turn, pressed later
        await play_random(manager, gid, random.Random(3), moves=1)
    with pytest.raises(Refused) as err:
        await manager.act(gid, ANN, DrawBlind(), expected_turn=token)
    assert err.value.code == "stale"


async def test_setup_tokens_are_per_seat(manager: GameManager) -> None:
    gid, outcome = await started_game(manager, humans=2)
    ann_token, bob_token = outcome.tokens[0], outcome.tokens[1]
    assert ann_token != bob_token
    await manager.act(gid, BOB, (await manager.legal_actions(gid, BOB))[0], expected_turn=bob_token)
    # Bob's choice does not make Ann's ticket buttons stale
    await manager.act(gid, ANN, (await manager.legal_actions(gid, ANN))[-1], expected_turn=ann_token)


async def test_refusals_are_readable_and_change_nothing(manager: GameManager, repo: GameRepository) -> None:
    gid = await _in_play(manager)
    before = await repo.load_game(gid)
    with pytest.raises(Refused) as err:
        await manager.act(gid, BOB, DrawBlind())
    assert err.value.code == "illegal" and "not your turn" in english(
        refusal_text(err.value.params["reason"])
    )
    with pytest.raises(Refused) as err:
        await manager.act(gid, ANN, ClaimRoute(route=0, color=0))
    assert err.value.code == "illegal" and err.value.params["reason"]
    with pytest.raises(Refused) as err:
        await manager.act(gid, 999, DrawBlind())
    assert err.value.code == "not_seated"
    with pytest.raises(Refused) as err:
        await manager.act(gid, ANN, {"type": "teleport"})
    assert err.value.code == "bad_action"
    with pytest.raises(Refused) as err:
        await manager.act("nosuchid", ANN, DrawBlind())
    assert err.value.code == "no_game"
    after = await repo.load_game(gid)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    outcome = await manager.act(gid, ANN, {"type": "draw_blind"})  # JSON actions are accepted too
    assert outcome.seqs == (before.action_count + 1,)


async def test_concurrent_clicks_on_one_turn_apply_exactly_once(
    manager: GameManager, repo: GameRepository
) -> None:
    gid = await _in_play(manager)
    rng = random.Random(5)
    for _ in range(15):
        info = await manager.status(gid)
        if info.status != "active":
            break
        seat = info.to_act[0]
        uid = info.seats[seat].user_id
        assert uid is not None
        legal = await manager.legal_actions(gid, uid)
        token = info.tokens[seat]
        calls = [manager.act(gid, uid, rng.choice(legal), expected_turn=token) for _ in range(8)]
        calls += [
            manager.act(gid, other, DrawBlind(), expected_turn=token)
            for other in (ANN, BOB, CLEO)
            if other != uid
        ]
        results = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 10)
        accepted = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, Refused)]
        assert len(accepted) == 1 and len(refused) == len(results) - 1
        assert {r.code for r in refused} <= {"stale", "illegal"}
        assert (await repo.load_game(gid)).action_count == info.action_count + 1


async def test_many_tasks_without_tokens_no_lost_update_no_deadlock(
    manager: GameManager, repo: GameRepository
) -> None:
    gid = await _in_play(manager)
    start = (await repo.load_game(gid)).action_count
    accepted: list[int] = []

    async def player(uid: int, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(25):
            legal = await manager.legal_actions(gid, uid)
            if not legal:
                await asyncio.sleep(0)
                continue
            try:
                outcome = await manager.act(gid, uid, rng.choice(legal))
            except Refused as exc:
                assert exc.code in {"illegal", "over"}, exc
            else:
                accepted.extend(outcome.seqs)

    await asyncio.wait_for(
        asyncio.gather(*(player(uid, i) for i, uid in enumerate([ANN, BOB, CLEO] * 4))), 30
    )
    rows = await repo.load_actions(gid)
    assert sorted(accepted) == list(range(start + 1, len(rows) + 1))  # one order, nothing lost or doubled
    assert replay(await manager.export_record(gid)).to_dict() == (await state_of(manager, gid)).to_dict()


async def test_two_managers_on_one_database_stay_consistent(db_url: str, repo: GameRepository) -> None:
    """Two processes' worth of managers (separate caches and connections): version conflicts reload."""
    clock = ManualClock()
    first = GameManager(repo, clock=clock, ai=random_ai)
    async with open_repository(db_url) as repo2:
        second = GameManager(repo2, clock=clock, ai=random_ai)
        gid = await _in_play(first)
        await second.status(gid)  # second caches the game now; first will move on
        seqs: list[int] = []

        async def player(m: GameManager, uid: int, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(20):
                legal = await m.legal_actions(gid, uid)
                if not legal:
                    await asyncio.sleep(0.001)
                    continue
                try:
                    seqs.extend((await m.act(gid, uid, rng.choice(legal))).seqs)
                except Refused as exc:
                    assert exc.code in {"illegal", "conflict", "over"}, exc

        tasks = [
            player(m, uid, i)
            for i, (m, uid) in enumerate(
                [(first, ANN), (second, BOB), (first, CLEO), (second, ANN), (first, BOB), (second, CLEO)]
            )
        ]
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        rows = await repo.load_actions(gid)
        assert sorted(seqs) == [r.seq for r in rows][-len(seqs) :] and len(set(seqs)) == len(seqs)
        await assert_stored_is_log_replayed(repo, gid, await second.export_record(gid))


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh schema in the test PostgreSQL database (skipped when the server cannot be reached)."""
    async with fresh_pg_schema() as (url, _schema):
        yield url


async def test_postgres_concurrent_play_two_managers(pg_url: str) -> None:
    clock = ManualClock()
    async with open_repository(pg_url) as repo, open_repository(pg_url) as repo2:
        first = GameManager(repo, clock=clock, ai=random_ai)
        second = GameManager(repo2, clock=clock, ai=random_ai)
        gid = await _in_play(first)
        await second.status(gid)
        seqs: list[int] = []

        async def player(m: GameManager, uid: int, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(12):
                legal = await m.legal_actions(gid, uid)
                if not legal:
                    await asyncio.sleep(0.001)
                    continue
                try:
                    seqs.extend((await m.act(gid, uid, rng.choice(legal))).seqs)
                except Refused as exc:
                    assert exc.code in {"illegal", "conflict", "over"}, exc

        pairs = [(first, ANN), (second, BOB), (first, CLEO), (second, ANN), (first, BOB), (second, CLEO)]
        await asyncio.wait_for(asyncio.gather(*(player(m, uid, i) for i, (m, uid) in enumerate(pairs))), 30)
        assert len(set(seqs)) == len(seqs) and seqs
        await assert_stored_is_log_replayed(repo, gid, await first.export_record(gid))

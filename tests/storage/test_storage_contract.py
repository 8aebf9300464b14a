"""The GameRepository contract, run against SQLite (file and memory) and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import (
    OPEN_STATUSES,
    UNSET,
    GameNotFound,
    GameRecord,
    GameRepository,
    GameStatus,
    LeaseLost,
    NewTimer,
    PlaceTaken,
    Seat,
    SeatResult,
    StorageError,
    Timer,
    TimerChange,
    VersionConflict,
)
from bot.storage._common import load_migrations

SEATS = (Seat("Ada", user_id=101), Seat("Bob", user_id=102), Seat("Bot", ai_level="hard"))


async def new_game(repo: GameRepository, **overrides: object) -> GameRecord:
    fields: dict[str, object] = {
        "guild_id": 1,
        "channel_id": 10,
        "host_id": 101,
        "board": "europe",
        "seats": SEATS,
    }
    fields.update(overrides)
    return await repo.create_game(**fields)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- games


async def test_is_a_game_repository(repo: GameRepository) -> None:
    assert isinstance(repo, GameRepository)
    assert await repo.schema_version() == len(load_migrations("sqlite"))


async def test_create_load_round_trip(repo: GameRepository) -> None:
    big_id = 2**63 - 1  # discord snowflakes use all 64 bits
    created = await repo.create_game(
        guild_id=big_id,
        channel_id=big_id - 1,
        thread_id=big_id - 2,
        host_id=big_id - 3,
        board="usa",
        variant="1910",
        options={"big_cities": True, "tickets": ["a", "b"]},
        settings={"reminders": {"after_h": 12}, "absent": "skip", "colour_blind": True},
        seats=(Seat("Ada", user_id=big_id), Seat("Ünïcode 🚂", ai_level=2), Seat("open")),
        snapshot={"turn": 0, "deck": list(range(50)), "nested": {"x": [1.5, None, "é"]}},
    )
    assert created.version == 0 and created.action_count == 0
    assert created.status is GameStatus.LOBBY
    assert created.created_at.tzinfo is not None and created.created_at == created.updated_at
    assert created.finished_at is None
    assert len(created.id) == 8

    loaded = await repo.load_game(created.id)
    assert loaded == created
    assert loaded.seat_of(big_id) == 0 and loaded.seat_of(5) is None
    assert loaded.seats[1].ai_level == 2 and loaded.seats[2].user_id is None
    assert await repo.find_game("nope") is None
    with pytest.raises(GameNotFound):
        await repo.load_game("nope")


async def test_create_with_explicit_id_and_duplicate(repo: GameRepository) -> None:
    await new_game(repo, game_id="fixed001")
    assert (await repo.load_game("fixed001")).board == "europe"
    with pytest.raises(StorageError):
        await new_game(repo, game_id="fixed001")


async def test_append_action_writes_action_snapshot_and_version(repo: GameRepository) -> None:
    game = await new_game(repo)
    first = await repo.append_action(game.id, 0, 0, {"type": "draw", "n": 2}, {"turn": 1})
    assert (first.seq, first.version, first.seat) == (1, 1, 0)
    second = await repo.append_action(game.id, 1, None, {"type": "timeout"}, {"turn": 2}, status="active")
    assert (second.seq, second.version, second.seat) == (2, 2, None)

    loaded = await repo.load_game(game.id)
    assert loaded.version == 2 and loaded.action_count == 2
    assert loaded.snapshot == {"turn": 2}
    assert loaded.status is GameStatus.ACTIVE
    assert loaded.updated_at >= loaded.created_at

    actions = await repo.load_actions(game.id)
    assert [a.seq for a in actions] == [1, 2]
    assert actions[0] == first and actions[1] == second
    assert [a.seq for a in await repo.load_actions(game.id, after_seq=1)] == [2]
    assert await repo.load_actions("missing") == []


async def test_a_move_without_a_position_keeps_the_saved_one(repo: GameRepository) -> None:
    game = await new_game(repo, snapshot={"turn": 0})
    assert (game.snapshot, game.snapshot_seq) == ({"turn": 0}, 0)
    await repo.append_action(game.id, 0, 0, {"n": 1}, None)
    await repo.append_action(game.id, 1, 1, {"n": 2}, None, results=[SeatResult(0, 1, 5, 1, True)])
    loaded = await repo.load_game(game.id)
    assert (loaded.version, loaded.action_count, loaded.snapshot, loaded.snapshot_seq) == (
        2,
        2,
        {"turn": 0},
        0,
    )
    third = await repo.append_action(game.id, 2, 0, {"n": 3}, {"turn": 3})
    loaded = await repo.load_game(game.id)
    assert (loaded.snapshot, loaded.snapshot_seq) == ({"turn": 3}, third.seq) and third.seq == 3
    # update_game's snapshot is the position after the game's actions so far
    await repo.update_game(game.id, 3, snapshot={"turn": "again"})
    loaded = await repo.load_game(game.id)
    assert (loaded.snapshot, loaded.snapshot_seq, loaded.version) == ({"turn": "again"}, 3, 4)
    assert [a.action for a in await repo.load_actions(game.id, after_seq=loaded.snapshot_seq - 1)] == [
        {"n": 3}
    ]
    assert await repo.load_log(game.id) == [[0, {"n": 1}], [1, {"n": 2}], [0, {"n": 3}]]
    await repo.append_action(game.id, 4, None, {"type": "timeout", "text": "é,[]"}, None)
    assert (await repo.load_log(game.id))[-1] == [None, {"type": "timeout", "text": "é,[]"}]
    assert await repo.load_log("missing") == []


async def test_save_snapshot_writes_only_a_newer_position_within_the_log(repo: GameRepository) -> None:
    game = await new_game(repo, snapshot={"turn": 0})
    for version in range(3):
        await repo.append_action(game.id, version, 0, {"n": version}, None)
    assert not await repo.save_snapshot(game.id, 4, {"turn": 4})  # beyond the log: nothing
    assert await repo.save_snapshot(game.id, 2, {"turn": 2})
    assert not await repo.save_snapshot(game.id, 1, {"turn": 1})  # older than the saved one: nothing
    assert not await repo.save_snapshot("missing", 1, {"turn": 1})
    loaded = await repo.load_game(game.id)
    # not a change of the game: the version stays (no process's cached copy is made stale by it)
    assert (loaded.snapshot, loaded.snapshot_seq, loaded.version) == ({"turn": 2}, 2, 3)
    lobby = await new_game(repo)  # a game without a position yet takes one
    assert await repo.save_snapshot(lobby.id, 0, {"turn": 0})
    assert (await repo.load_game(lobby.id)).snapshot == {"turn": 0}
    assert await repo.delete_game(game.id)
    assert await repo.find_game(game.id) is None


async def test_version_counts_updates_but_seq_counts_actions(repo: GameRepository) -> None:
    game = await new_game(repo)
    v1 = await repo.update_game(game.id, 0, status="active")
    action = await repo.append_action(game.id, v1, 1, {"type": "claim"}, {"turn": 1})
    assert (action.seq, action.version) == (1, 2)


async def test_stale_version_raises_and_writes_nothing(repo: GameRepository) -> None:
    game = await new_game(repo, snapshot={"turn": 0})
    await repo.append_action(game.id, 0, 0, {"n": 1}, {"turn": 1})
    with pytest.raises(VersionConflict) as info:
        await repo.append_action(game.id, 0, 1, {"n": 2}, {"turn": 99})
    assert (info.value.expected, info.value.actual, info.value.game_id) == (0, 1, game.id)
    with pytest.raises(VersionConflict):
        await repo.update_game(game.id, 5, settings={"x": 1})
    loaded = await repo.load_game(game.id)
    assert loaded.version == 1 and loaded.snapshot == {"turn": 1} and loaded.settings == {}
    assert len(await repo.load_actions(game.id)) == 1
    with pytest.raises(GameNotFound):
        await repo.append_action("missing", 0, 0, {}, {})
    with pytest.raises(GameNotFound):
        await repo.update_game("missing", 0, status="active")


async def test_two_appends_same_expected_version_exactly_one_wins(repo: GameRepository) -> None:
    game = await new_game(repo)
    outcomes = await asyncio.gather(
        repo.append_action(game.id, 0, 0, {"who": "a"}, {"by": "a"}),
        repo.append_action(game.id, 0, 1, {"who": "b"}, {"by": "b"}),
        return_exceptions=True,
    )
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    wins = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(conflicts) == 1 and len(wins) == 1, outcomes
    winner = wins[0]
    loaded = await repo.load_game(game.id)
    assert loaded.version == 1 and loaded.action_count == 1
    assert loaded.snapshot == {"by": winner.action["who"]}
    assert [a.action for a in await repo.load_actions(game.id)] == [winner.action]


async def test_fifty_concurrent_appenders_with_retries_give_gapless_log(repo: GameRepository) -> None:
    game = await new_game(repo)
    conflicts = 0

    async def player(n: int) -> None:
        nonlocal conflicts
        while True:
            current = await repo.load_game(game.id)
            try:
                await repo.append_action(
                    game.id,
                    current.version,
                    n % 3,
                    {"task": n},
                    {"last": n, "count": current.action_count + 1},
                )
                return
            except VersionConflict:
                conflicts += 1
                await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(*(player(n) for n in range(50))), timeout=120)
    actions = await repo.load_actions(game.id)
    assert [a.seq for a in actions] == list(range(1, 51))
    assert [a.version for a in actions] == list(range(1, 51))
    assert sorted(a.action["task"] for a in actions) == list(range(50))
    loaded = await repo.load_game(game.id)
    assert loaded.version == 50 and loaded.action_count == 50
    assert loaded.snapshot == {"last": actions[-1].action["task"], "count": 50}


async def test_failed_transaction_is_never_half_applied(repo: GameRepository) -> None:
    game = await new_game(repo, snapshot={"turn": 0})
    # seat -1 violates a CHECK in game_results: the action row and snapshot written before it roll back
    with pytest.raises(StorageError):
        await repo.append_action(
            game.id, 0, 0, {"type": "end"}, {"turn": 1}, status="finished",
            results=[SeatResult(seat=-1, user_id=101, score=1, rank=1, won=True)],
        )  # fmt: skip
    loaded = await repo.load_game(game.id)
    assert (loaded.version, loaded.action_count, loaded.status) == (0, 0, GameStatus.LOBBY)
    assert loaded.snapshot == {"turn": 0} and loaded.finished_at is None
    assert await repo.load_actions(game.id) == []
    assert await repo.load_results(game.id) == []
    # and the repository still works afterwards
    assert (await repo.append_action(game.id, 0, 0, {"type": "ok"}, {"turn": 1})).seq == 1


async def test_unserialisable_values_are_refused_before_writing(repo: GameRepository) -> None:
    game = await new_game(repo)
    with pytest.raises(TypeError):
        await repo.append_action(game.id, 0, 0, {"when": datetime.now(UTC)}, {})
    with pytest.raises(TypeError):
        await repo.append_action(game.id, 0, 0, {}, {"nan": float("nan")})
    assert (await repo.load_game(game.id)).version == 0


async def test_update_game_fields_and_finished_at(repo: GameRepository) -> None:
    game = await new_game(repo, thread_id=555)
    v = await repo.update_game(game.id, 0, settings={"reminders": False}, options={"o": 1}, host_id=102)
    assert v == 1
    v = await repo.update_game(game.id, v, seats=[Seat("Cy", user_id=103), Seat("Ada", user_id=101)])
    v = await repo.update_game(game.id, v, thread_id=None, snapshot={"s": 1})
    loaded = await repo.load_game(game.id)
    assert loaded.version == 3 == v
    assert loaded.settings == {"reminders": False} and loaded.options == {"o": 1}
    assert loaded.host_id == 102 and loaded.thread_id is None and loaded.snapshot == {"s": 1}
    assert [s.name for s in loaded.seats] == ["Cy", "Ada"]
    # the player index follows the seats
    assert [g.id for g in await repo.games_for_player(103)] == [game.id]
    assert await repo.games_for_player(102) == []
    # UNSET leaves thread_id alone
    v = await repo.update_game(game.id, v, thread_id=UNSET, status="finished")
    finished = await repo.load_game(game.id)
    assert finished.status is GameStatus.FINISHED and finished.finished_at == finished.updated_at
    assert finished.thread_id is None
    v = await repo.update_game(game.id, v, status="abandoned")
    assert (await repo.load_game(game.id)).finished_at == finished.finished_at  # kept from first close
    v = await repo.update_game(game.id, v, status="active")
    assert (await repo.load_game(game.id)).finished_at is None
    with pytest.raises(ValueError):
        await repo.update_game(game.id, v, status="paused")


async def test_delete_game_cascades_but_keeps_results(repo: GameRepository) -> None:
    game = await new_game(repo)
    await repo.append_action(game.id, 0, 0, {"a": 1}, {"s": 1}, status="finished")
    await repo.record_results(game.id, [SeatResult(0, 101, 50, 1, True)])
    await repo.add_timer(game.id, "remind", datetime.now(UTC))
    assert await repo.delete_game(game.id) is True
    assert await repo.delete_game(game.id) is False
    assert await repo.find_game(game.id) is None
    assert await repo.load_actions(game.id) == []
    assert await repo.timers_for_game(game.id) == []
    assert await repo.games_for_player(101) == []
    assert (await repo.player_stats(1, 101)).games == 1


# ----------------------------------------------------------------------------- lookups and listings


async def test_find_open_game_by_channel_and_thread(repo: GameRepository) -> None:
    in_channel = await new_game(repo, channel_id=20)
    in_thread = await new_game(repo, channel_id=20, thread_id=21)
    assert (await repo.find_open_game(channel_id=20)).id == in_channel.id  # type: ignore[union-attr]
    assert (await repo.find_open_game(thread_id=21)).id == in_thread.id  # type: ignore[union-attr]
    assert await repo.find_open_game(channel_id=21) is None
    await repo.update_game(in_channel.id, 0, status="finished")
    assert await repo.find_open_game(channel_id=20) is None
    await repo.update_game(in_thread.id, 0, status="active")
    assert (await repo.find_open_game(thread_id=21)).status is GameStatus.ACTIVE  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await repo.find_open_game()


async def test_status_filters_paging_and_lazy_ids(repo: GameRepository) -> None:
    made: dict[str, tuple[int, GameStatus]] = {}
    statuses = [GameStatus.LOBBY, GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABANDONED]
    for n in range(14):
        guild = 1 if n % 2 == 0 else 2
        status = statuses[n % 4]
        game = await new_game(repo, guild_id=guild, channel_id=100 + n, status=status)
        made[game.id] = (guild, status)

    def expected(pred) -> set[str]:
        return {gid for gid, (guild, status) in made.items() if pred(guild, status)}

    open_page = await repo.list_games(status=OPEN_STATUSES, limit=100)
    assert {g.id for g in open_page.items} == expected(lambda g, s: s in OPEN_STATUSES)
    assert open_page.next_cursor is None
    finished = await repo.list_games(status="finished", guild_id=1)
    assert {g.id for g in finished.items} == expected(lambda g, s: s is GameStatus.FINISHED and g == 1)
    assert all(not hasattr(g, "snapshot") for g in finished.items)

    # keyset paging: newest first, every game exactly once
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = await repo.list_games(limit=4, after=cursor)
        seen += [g.id for g in page.items]
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
    assert pages == 4 and len(seen) == 14 and set(seen) == set(made)
    everything = (await repo.list_games(limit=100)).items
    assert [g.id for g in everything] == seen
    keys = [(g.created_at, g.id) for g in everything]
    assert keys == sorted(keys, reverse=True)

    ids = [gid async for gid in repo.iter_game_ids(status=OPEN_STATUSES, batch_size=3)]
    assert ids == sorted(expected(lambda g, s: s in OPEN_STATUSES))
    ids = [gid async for gid in repo.iter_game_ids(guild_id=2, batch_size=7)]
    assert ids == sorted(expected(lambda g, s: g == 2))
    assert [gid async for gid in repo.iter_game_ids(batch_size=1)] == sorted(made)
    with pytest.raises(ValueError):
        await repo.list_games(status="bogus")
    with pytest.raises(ValueError):
        await repo.list_games(limit=0)


async def test_games_for_player(repo: GameRepository) -> None:
    a = await new_game(repo, seats=(Seat("Ada", 101), Seat("Bob", 102)))
    b = await new_game(repo, guild_id=2, seats=(Seat("Ada", 101), Seat("Cy", 103)), status="active")
    c = await new_game(repo, seats=(Seat("Bob", 102),), status="finished")
    assert {g.id for g in await repo.games_for_player(101)} == {a.id, b.id}
    assert [g.id for g in await repo.games_for_player(101, guild_id=2)] == [b.id]
    assert {g.id for g in await repo.games_for_player(102, status=OPEN_STATUSES)} == {a.id}
    assert [g.id for g in await repo.games_for_player(102, status="finished")] == [c.id]
    # most recently updated first
    await repo.append_action(a.id, 0, 0, {}, {})
    assert [g.id for g in await repo.games_for_player(101)] == [a.id, b.id]


# ----------------------------------------------------------------------------- timers


async def test_timers_ordering_and_deletion(repo: GameRepository) -> None:
    game = await new_game(repo)
    other = await new_game(repo, channel_id=11)
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    assert await repo.next_timer_due() is None
    late = await repo.add_timer(game.id, "absent", t0 + timedelta(hours=2), {"seat": 1})
    early = await repo.add_timer(game.id, "remind", t0, {"seat": 0})
    tie = await repo.add_timer(other.id, "remind", t0)
    # a non-UTC aware time is stored as the same instant
    paris = await repo.add_timer(other.id, "remind", (t0 + timedelta(hours=1)).astimezone(timedelta_tz(1)))
    assert early.payload == {"seat": 0} and tie.payload == {}

    assert await repo.next_timer_due() == t0
    assert await repo.due_timers(t0 - timedelta(seconds=1)) == []
    assert [t.id for t in await repo.due_timers(t0)] == [early.id, tie.id]
    assert [t.id for t in await repo.due_timers(t0 + timedelta(days=1))] == [
        early.id,
        tie.id,
        paris.id,
        late.id,
    ]
    assert [t.id for t in await repo.due_timers(t0 + timedelta(days=1), limit=1)] == [early.id]
    fetched = (await repo.due_timers(t0))[0]
    assert fetched == early and fetched.due_at == t0
    assert (await repo.due_timers(t0 + timedelta(hours=1)))[-1].due_at == t0 + timedelta(hours=1)

    assert [t.kind for t in await repo.timers_for_game(game.id)] == ["remind", "absent"]
    assert [t.id for t in await repo.timers_for_game(game.id, "absent")] == [late.id]
    assert await repo.delete_timer(early.id) is True
    assert await repo.delete_timer(early.id) is False
    assert await repo.next_timer_due() == t0  # the tie
    assert await repo.delete_timers(other.id, kind="absent") == 0
    assert await repo.delete_timers(other.id, kind="remind") == 2
    assert await repo.delete_timers(game.id) == 1
    assert await repo.next_timer_due() is None


def _rows(timers: list[Timer]) -> list[tuple[str, datetime, dict[str, object]]]:
    return [(t.kind, t.due_at, t.payload) for t in timers]


async def test_an_action_and_the_timers_it_makes_due_are_one_write(repo: GameRepository) -> None:
    game = await new_game(repo)
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    await repo.add_timer(game.id, "turn", t0, {"stage": 2})
    await repo.add_timer(game.id, "other", t0)
    change = TimerChange(clear=("turn",), add=(NewTimer("resume", t0 + timedelta(seconds=30)),))
    await repo.append_action(game.id, 0, 0, {"n": 1}, {"turn": 1}, timers=change)
    assert _rows(await repo.timers_for_game(game.id)) == [
        ("other", t0, {}),
        ("resume", t0 + timedelta(seconds=30), {}),
    ]
    # a conflict writes neither the action nor the timers
    with pytest.raises(VersionConflict):
        await repo.append_action(game.id, 0, 0, {"n": 2}, {"turn": 2}, timers=TimerChange(clear_all=True))
    assert len(await repo.timers_for_game(game.id)) == 2
    # the game's last action clears its timers in the same transaction as its results
    results = [SeatResult(0, 101, 10, 1, True)]
    await repo.append_action(
        game.id, 1, 0, {"n": 2}, {"turn": 2}, "finished", results=results, timers=TimerChange(clear_all=True)
    )
    assert await repo.timers_for_game(game.id) == [] and len(await repo.load_results(game.id)) == 1


async def test_an_update_and_the_timers_it_makes_due_are_one_write(repo: GameRepository) -> None:
    game = await new_game(repo)
    other = await new_game(repo, channel_id=11)
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    await repo.add_timer(other.id, "turn", t0)
    change = TimerChange(add=(NewTimer("turn", t0, {"key": "main:1:0", "stage": 0}), NewTimer("resume", t0)))
    version = await repo.update_game(game.id, 0, status="active", timers=change)
    assert version == 1
    assert sorted(_rows(await repo.timers_for_game(game.id))) == [
        ("resume", t0, {}),
        ("turn", t0, {"key": "main:1:0", "stage": 0}),
    ]
    with pytest.raises(VersionConflict):
        await repo.update_game(game.id, 0, status="abandoned", timers=TimerChange(clear_all=True))
    assert len(await repo.timers_for_game(game.id)) == 2
    await repo.update_game(game.id, 1, status="abandoned", timers=TimerChange(clear_all=True))
    assert await repo.timers_for_game(game.id) == []
    assert len(await repo.timers_for_game(other.id)) == 1  # another game's rows stay


async def test_a_new_game_and_its_first_timers_are_one_write(repo: GameRepository) -> None:
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    lobby = await new_game(repo, timers=TimerChange(add=(NewTimer("lobby", t0),)), only_if_place_free=True)
    assert _rows(await repo.timers_for_game(lobby.id)) == [("lobby", t0, {})]
    # refused (the place is taken): neither the game nor its rows are written
    with pytest.raises(PlaceTaken):
        await new_game(repo, timers=TimerChange(add=(NewTimer("lobby", t0),)), only_if_place_free=True)
    assert [t.game_id for t in await repo.due_timers(t0)] == [lobby.id]
    assert await repo.timers_for_game((await new_game(repo, channel_id=11)).id) == []


async def test_change_timers_clears_then_adds_in_one_step(repo: GameRepository) -> None:
    game = await new_game(repo)
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    first = await repo.add_timer(game.id, "turn", t0, {"stage": 0})
    await repo.add_timer(game.id, "turn", t0, {"stage": 1})  # a duplicate, as an older version could leave
    added = await repo.change_timers(
        game.id, TimerChange(clear=("turn",), add=(NewTimer("turn", t0 + timedelta(hours=1), {"stage": 2}),))
    )
    assert [(t.kind, t.payload) for t in added] == [("turn", {"stage": 2})] and added[0].id != first.id
    assert await repo.timers_for_game(game.id) == added
    assert await repo.change_timers(game.id, TimerChange()) == []
    with pytest.raises(GameNotFound):
        await repo.change_timers("nope", TimerChange(add=(NewTimer("turn", t0),)))
    assert await repo.timers_for_game("nope") == []


async def test_a_claimed_row_is_completed_only_by_its_holder_and_renewed_while_served(
    repo: GameRepository,
) -> None:
    game = await new_game(repo)
    t0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    # inserted already held: its writer does the work; nobody may claim it before the lease ends
    (held,) = await repo.change_timers(
        game.id,
        TimerChange(add=(NewTimer("tell", t0, {}, held_by="a", held_until=t0 + timedelta(seconds=30)),)),
    )
    assert await repo.holds_timer(held.id, "a") and not await repo.holds_timer(held.id, "b")
    assert await repo.claim_due_timers("b", t0 + timedelta(seconds=29)) == []
    assert await repo.next_timer_servable() == t0 + timedelta(seconds=30)
    # "a" renews its lease while it serves the row: still nobody else's at the old end
    assert await repo.renew_leases("a", t0 + timedelta(seconds=60)) == 1
    assert await repo.claim_due_timers("b", t0 + timedelta(seconds=31)) == []
    # renewing named rows only: another row of "a" (a failed post) is not kept alive by it
    assert await repo.renew_leases("a", t0 + timedelta(seconds=60), [held.id + 1000]) == 0
    assert await repo.renew_leases("a", t0 + timedelta(seconds=60), []) == 0
    assert await repo.renew_leases("a", t0 + timedelta(seconds=60), [held.id]) == 1
    # "a" stalled past its lease: "b" takes the row over, and "a" can no longer complete it
    (taken,) = await repo.claim_due_timers("b", t0 + timedelta(seconds=61), lease=30)
    assert taken.id == held.id and await repo.holds_timer(held.id, "b")
    assert await repo.renew_leases("a", t0 + timedelta(seconds=90)) == 0
    replace = TimerChange(clear=("tell",), add=(NewTimer("turn", t0),))
    with pytest.raises(LeaseLost):
        await repo.change_timers(game.id, replace, fence=(held.id, "a"))
    assert not await repo.delete_timer(held.id, owner="a")
    assert [t.id for t in await repo.timers_for_game(game.id)] == [held.id]  # nothing written
    (turn,) = await repo.change_timers(game.id, replace, fence=(held.id, "b"))  # its holder completes it
    assert await repo.timers_for_game(game.id) == [turn]
    with pytest.raises(LeaseLost):  # served: a second completion writes nothing
        await repo.change_timers(game.id, replace, fence=(held.id, "b"))
    assert await repo.timers_for_game(game.id) == [turn]


async def test_timer_arguments_are_checked(repo: GameRepository) -> None:
    game = await new_game(repo)
    with pytest.raises(ValueError):
        await repo.add_timer(game.id, "remind", datetime(2030, 1, 1))  # naive
    with pytest.raises(ValueError):
        await repo.due_timers(datetime(2030, 1, 1))
    with pytest.raises(GameNotFound):
        await repo.add_timer("missing", "remind", datetime.now(UTC))
    assert await repo.timers_for_game(game.id) == []
    # due_timers() without an argument means "now"
    await repo.add_timer(game.id, "remind", datetime.now(UTC) - timedelta(seconds=1))
    assert len(await repo.due_timers()) == 1


def timedelta_tz(hours: int):
    from datetime import timezone

    return timezone(timedelta(hours=hours))


# ----------------------------------------------------------------------------- results and stats


async def finish(repo: GameRepository, board: str, guild: int, scores: dict[int | None, int]) -> str:
    """Finish a game with these (user -> score) results; rank by score, ties share a rank."""
    users = list(scores)
    game = await new_game(
        repo,
        board=board,
        guild_id=guild,
        seats=[Seat(f"p{u}", user_id=u, ai_level=None if u else 1) for u in users],
    )
    ordered = sorted(scores.values(), reverse=True)
    results = [
        SeatResult(seat=i, user_id=u, score=s, rank=ordered.index(s) + 1, won=s == ordered[0])
        for i, (u, s) in enumerate(scores.items())
    ]
    await repo.append_action(
        game.id, 0, None, {"type": "final"}, {"over": True}, status="finished", results=results
    )
    return game.id


async def test_stats_and_leaderboard_maths(repo: GameRepository) -> None:
    await finish(repo, "europe", 1, {101: 100, 102: 80, None: 120})  # the AI wins
    await finish(repo, "europe", 1, {101: 90, 102: 95})
    await finish(repo, "usa", 1, {101: 60, 103: 60})  # shared win
    await finish(repo, "usa", 2, {101: 200, 102: 10})  # other guild

    s = await repo.player_stats(1, 101)
    assert (s.games, s.wins, s.best_score) == (3, 1, 100)
    assert s.mean_score == pytest.approx((100 + 90 + 60) / 3)
    assert s.win_rate == pytest.approx(1 / 3)
    assert set(s.per_board) == {"europe", "usa"}
    assert (s.per_board["europe"].games, s.per_board["europe"].wins) == (2, 0)
    assert s.per_board["europe"].mean_score == pytest.approx(95.0)
    assert (s.per_board["usa"].games, s.per_board["usa"].wins, s.per_board["usa"].best_score) == (1, 1, 60)

    everywhere = await repo.player_stats(None, 101)
    assert (everywhere.games, everywhere.wins, everywhere.best_score) == (4, 2, 200)
    assert everywhere.mean_score == pytest.approx(450 / 4)

    nobody = await repo.player_stats(1, 999)
    assert (nobody.games, nobody.wins, nobody.mean_score, nobody.per_board) == (0, 0, 0.0, {})

    board = await repo.leaderboard(1)
    # all have one win here, so mean score decides: 102 (87.5) > 101 (83.3) > 103 (60)
    assert [(r.user_id, r.games, r.wins) for r in board] == [(102, 2, 1), (101, 3, 1), (103, 1, 1)]
    assert board[0].mean_score == pytest.approx(87.5)
    usa = await repo.leaderboard(1, board="usa")
    assert [r.user_id for r in usa] == [101, 103]  # same wins, same mean, same games: user_id breaks it
    assert [r.user_id for r in await repo.leaderboard(1, limit=1)] == [102]
    assert [r.user_id for r in await repo.leaderboard(None, limit=1)] == [101]  # 2 wins overall
    assert await repo.leaderboard(3) == []


async def test_results_are_replaced_not_duplicated(repo: GameRepository) -> None:
    gid = await finish(repo, "europe", 1, {101: 10, 102: 20})
    stored = await repo.load_results(gid)
    assert [(r.user_id, r.rank, r.won) for r in stored] == [(102, 1, True), (101, 2, False)]
    game = await repo.load_game(gid)
    assert all(r.finished_at == game.finished_at and r.board == "europe" and r.guild_id == 1 for r in stored)
    await repo.record_results(gid, [SeatResult(0, 101, 30, 1, True), SeatResult(1, 102, 20, 2, False)])
    assert [(r.user_id, r.score) for r in await repo.load_results(gid)] == [(101, 30), (102, 20)]
    assert (await repo.player_stats(1, 101)).wins == 1
    with pytest.raises(ValueError):
        await repo.record_results(gid, [SeatResult(0, 101, 1, 1, True), SeatResult(0, 102, 1, 2, False)])
    with pytest.raises(GameNotFound):
        await repo.record_results("missing", [SeatResult(0, 101, 1, 1, True)])


# ----------------------------------------------------------------------------- lifecycle


async def test_closed_repository_refuses_work_and_close_is_idempotent(repo_url: str) -> None:
    from bot.storage import open_repository

    repo = open_repository(repo_url)
    with pytest.raises(StorageError):
        await repo.find_game("x")
    await repo.connect()
    await repo.connect()  # idempotent
    await new_game(repo)
    await repo.close()
    await repo.close()
    with pytest.raises(StorageError):
        await repo.find_game("x")
    with pytest.raises(StorageError):
        await new_game(repo)


async def test_reopening_keeps_data(repo_url: str) -> None:
    from bot.storage import open_repository

    if repo_url.endswith(":memory:"):
        pytest.skip("an in-memory database ends with its connection")
    async with open_repository(repo_url) as repo:
        game = await new_game(repo)
        await repo.append_action(game.id, 0, 0, {"a": 1}, {"s": 1})
    async with open_repository(repo_url) as repo:
        assert (await repo.load_game(game.id)).snapshot == {"s": 1}
        assert await repo.schema_version() == len(load_migrations("sqlite"))


async def test_direct_message_games_have_no_guild(repo: GameRepository) -> None:
    game = await new_game(repo, guild_id=None, channel_id=77)
    assert (await repo.load_game(game.id)).guild_id is None
    assert (await repo.find_open_game(channel_id=77)).id == game.id  # type: ignore[union-attr]
    await repo.append_action(
        game.id, 0, None, {"type": "final"}, {}, status="finished",
        results=[SeatResult(0, 101, 40, 1, True), SeatResult(1, 102, 30, 2, False)],
    )  # fmt: skip
    assert [r.guild_id for r in await repo.load_results(game.id)] == [None, None]
    assert (await repo.player_stats(None, 101)).wins == 1  # None: every guild and DMs
    assert (await repo.player_stats(1, 101)).games == 0
    assert [r.user_id for r in await repo.leaderboard(None)] == [101, 102]


async def test_list_games_in_a_channel_and_its_threads(repo: GameRepository) -> None:
    direct = await new_game(repo, channel_id=50)
    threaded = await new_game(repo, channel_id=50, thread_id=51)
    elsewhere = await new_game(repo, channel_id=60)
    assert {g.id for g in (await repo.list_games(channel_id=50)).items} == {direct.id, threaded.id}
    assert [g.id for g in (await repo.list_games(channel_id=51)).items] == [threaded.id]
    assert [g.id for g in (await repo.list_games(channel_id=60)).items] == [elsewhere.id]


async def test_mixed_concurrent_updates_and_appends_keep_version_and_log_consistent(
    repo: GameRepository,
) -> None:
    game = await new_game(repo)
    done = {"append": 0, "update": 0}

    async def worker(n: int) -> None:
        for _ in range(3):
            while True:
                current = await repo.load_game(game.id)
                try:
                    if n % 2:
                        await repo.append_action(
                            game.id, current.version, n % 3, {"n": n}, {"v": current.version + 1}
                        )
                        done["append"] += 1
                    else:
                        await repo.update_game(game.id, current.version, settings={"last": n})
                        done["update"] += 1
                    break
                except VersionConflict:
                    await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(*(worker(n) for n in range(12))), timeout=120)
    loaded = await repo.load_game(game.id)
    assert done == {"append": 18, "update": 18}
    assert loaded.version == 36 and loaded.action_count == 18
    actions = await repo.load_actions(game.id)
    assert [a.seq for a in actions] == list(range(1, 19))
    versions = [a.version for a in actions]
    assert versions == sorted(versions) and len(set(versions)) == 18 and max(versions) <= 36
    assert loaded.snapshot == {"v": actions[-1].version}

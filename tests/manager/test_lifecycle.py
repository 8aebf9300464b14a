"""Lobby, start, seats, settings, abandon: the lifecycle of a game as the manager runs it."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from helpers.manager_games import HUMANS, play_random, started_game, state_of
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import english
from bot.manager import GameManager, GameSettings, ManualClock, Refused, SettingError
from bot.messages import SeatRef
from bot.play.event_words import line, table_of
from bot.storage import GameRepository, GameStatus
from engine import scoring
from engine.record import replay
from engine.rules import apply
from engine.state import MAIN, SETUP

ANN, BOB, CLEO = (uid for uid, _ in HUMANS[:3])


async def test_lobby_join_leave_add_ai_remove_and_start(manager: GameManager, repo: GameRepository) -> None:
    info = await manager.create_game(guild_id=1, channel_id=50, host_id=ANN, host_name="Ann", board="europe")
    gid = info.game_id
    assert info.status == GameStatus.LOBBY and [s.name for s in info.seats] == ["Ann"]
    info = await manager.join(gid, BOB, "Bob")
    with pytest.raises(Refused) as err:
        await manager.join(gid, BOB, "Bob")
    assert err.value.code == "already_seated"
    with pytest.raises(Refused) as err:
        await manager.add_ai(gid, BOB, "normal")
    assert err.value.code == "not_host"
    info = await manager.add_ai(gid, ANN, "hard")
    assert info.seats[2].ai_level == "hard" and info.seats[2].user_id is None
    info = await manager.remove_seat(gid, ANN, 2)
    assert len(info.seats) == 2
    await manager.leave(gid, BOB)
    with pytest.raises(Refused) as err:
        await manager.start_game(gid, ANN)
    assert err.value.code == "player_count"
    await manager.join(gid, CLEO, "Cleo")
    outcome = await manager.start_game(gid, ANN, seed=3)
    assert outcome.status == GameStatus.ACTIVE
    assert outcome.events[0].kind == "started"
    first = (await state_of(manager, gid)).first_player
    started = line(outcome.events[0], table_of(outcome.info))
    assert started.params["first"] == SeatRef(first, ["Ann", "Cleo"][first])  # type: ignore[union-attr]
    # (the start names who plays first)
    assert set(outcome.to_act) == {0, 1}  # both choose their tickets, in any order
    offered = [e for e in outcome.private if e.kind == "tickets_offered"]
    assert {e.user_id for e in offered} == {ANN, CLEO}
    stored = await repo.load_game(gid)
    assert stored.status == GameStatus.ACTIVE and stored.snapshot is not None
    with pytest.raises(Refused) as err:
        await manager.join(gid, BOB, "Bob")
    assert err.value.code == "started"


async def test_lobby_is_full_at_the_board_maximum_or_the_setting(manager: GameManager) -> None:
    info = await manager.create_game(
        guild_id=1, channel_id=51, host_id=ANN, host_name="Ann", settings={"max_players": 3}
    )
    await manager.join(info.game_id, BOB, "Bob")
    await manager.add_ai(info.game_id, ANN)
    with pytest.raises(Refused) as err:
        await manager.join(info.game_id, CLEO, "Cleo")
    assert err.value.code == "lobby_full"


async def test_one_open_game_per_channel_or_thread_but_many_per_server(manager: GameManager) -> None:
    first = await manager.create_game(guild_id=1, channel_id=60, host_id=ANN, host_name="Ann")
    with pytest.raises(Refused) as err:
        await manager.create_game(guild_id=1, channel_id=60, host_id=BOB, host_name="Bob")
    assert err.value.code == "channel_busy" and err.value.params == {"game": first.game_id}
    in_thread = await manager.create_game(
        guild_id=1, channel_id=60, thread_id=61, host_id=BOB, host_name="Bob"
    )
    other = await manager.create_game(
        guild_id=1, channel_id=62, host_id=ANN, host_name="Ann"
    )  # Ann sits twice
    assert len({first.game_id, in_thread.game_id, other.game_id}) == 3
    assert set(await manager.games_of(ANN)) == {first.game_id, other.game_id}
    found = await manager.find_open_game(thread_id=61)
    assert found is not None and found.game_id == in_thread.game_id
    await manager.abandon(first.game_id, ANN)
    again = await manager.create_game(guild_id=1, channel_id=60, host_id=BOB, host_name="Bob")
    assert again.game_id != first.game_id


async def test_bad_board_option_and_settings_are_refused(manager: GameManager) -> None:
    with pytest.raises(Refused) as err:
        await manager.create_game(guild_id=1, channel_id=70, host_id=ANN, host_name="Ann", board="atlantis")
    assert err.value.code == "bad_board"
    with pytest.raises(Refused) as err:
        await manager.create_game(guild_id=1, channel_id=70, host_id=ANN, host_name="Ann", options=["nope"])
    assert err.value.code == "bad_option" and err.value.params["option"] == "nope"
    with pytest.raises(Refused) as err:
        await manager.create_game(guild_id=1, channel_id=70, host_id=ANN, host_name="Ann", variant="nope")
    assert err.value.code == "bad_variant" and err.value.params["variant"] == "nope"
    with pytest.raises(Refused) as err:
        await manager.create_game(
            guild_id=1, channel_id=70, host_id=ANN, host_name="Ann", settings={"absent_policy": "explode"}
        )
    assert err.value.code == "bad_setting"
    assert err.value.params == {"setting": "absent_policy", "value": "explode"}


def test_settings_defaults_parsing_and_validation() -> None:
    s = GameSettings()
    assert (s.remind_after_hours, s.remind_again_hours, s.absent_after_hours) == (12, 12, 24)
    assert s.absent_policy == "ai" and s.absent_ai_level == "normal"
    t = s.with_values(remind_after_hours="6h", absent_policy="Skip", max_players="4")
    assert (t.remind_after_hours, t.absent_policy, t.max_players) == (6.0, "skip", 4)
    assert GameSettings.from_json({**t.to_json(), "unknown": 1}) == t
    for bad in (
        {"remind_after_hours": "0"},
        {"absent_policy": "pray"},
        {"max_players": "9"},
        {"colour": "red"},
    ):
        with pytest.raises(SettingError):
            s.with_values(**bad)


async def test_update_settings_by_host_only(manager: GameManager) -> None:
    gid, _ = await started_game(manager)
    new = await manager.update_settings(gid, ANN, {"absent_policy": "wait", "remind_after_hours": "2"})
    assert new.absent_policy == "wait" and (await manager.status(gid)).settings == new
    with pytest.raises(Refused) as err:
        await manager.update_settings(gid, BOB, {"absent_policy": "skip"})
    assert err.value.code == "not_host"


async def test_abandon_by_host_or_moderator_only(manager: GameManager, repo: GameRepository) -> None:
    gid, _ = await started_game(manager)
    with pytest.raises(Refused) as err:
        await manager.abandon(gid, BOB)
    assert err.value.code == "not_host"
    outcome = await manager.abandon(gid, BOB, moderator=True)
    assert outcome.status == GameStatus.ABANDONED and outcome.events[-1].kind == "abandoned"
    assert (await repo.load_game(gid)).status == GameStatus.ABANDONED
    assert await repo.timers_for_game(gid) == []
    assert gid not in manager.open_game_ids
    with pytest.raises(Refused) as err:
        await manager.act(gid, ANN, {"type": "draw_blind"})
    assert err.value.code == "over" and err.value.params == {"game": gid}


async def test_setup_choice_in_any_order_then_play(manager: GameManager) -> None:
    gid, _ = await started_game(manager, humans=3)
    state = await state_of(manager, gid)
    assert state.phase == SETUP
    for uid in (CLEO, ANN, BOB):  # any order
        legal = await manager.legal_actions(gid, uid)
        token = await manager.turn_token(gid, uid)
        await manager.act(gid, uid, legal[0], expected_turn=token)
    info = await manager.status(gid)
    assert info.phase == MAIN and info.to_act == ((await state_of(manager, gid)).first_player,)


async def test_hand_seat_to_ai_and_take_it_back(manager: GameManager) -> None:
    gid, _ = await started_game(manager, humans=2, seed=4)
    await play_random(manager, gid, random.Random(1), moves=2)  # both keep tickets; Ann to play (seed 4)
    outcome = await manager.hand_to_ai(gid, ANN, "easy")
    assert outcome.events[0].kind == "seat_ai"
    assert any(e.by == "ai" for e in outcome.events)  # the AI played Ann's turn at once
    info = await manager.status(gid)
    assert info.to_act == (1,) and info.seats[0].ai_level == "easy" and info.seats[0].user_id == ANN
    with pytest.raises(Refused) as err:
        await manager.act(gid, ANN, {"type": "draw_blind"})
    assert err.value.code == "seat_ai"
    await manager.take_back(gid, ANN)
    bob_token = info.tokens[1]
    legal = await manager.legal_actions(gid, BOB)
    outcome = await manager.act(gid, BOB, legal[0], expected_turn=bob_token)
    assert all(e.by != "ai" for e in outcome.events)


async def test_resigning_hands_the_seat_to_an_ai_and_the_last_person_leaving_abandons(
    manager: GameManager,
) -> None:
    gid, _ = await started_game(manager, humans=2)
    await manager.leave(gid, BOB)
    info = await manager.status(gid)
    assert info.seats[1].user_id is None and info.seats[1].ai_level == "normal"
    assert info.to_act == (0,)  # the AI already chose Bob's tickets
    outcome = await manager.leave(gid, ANN)
    assert outcome.status == GameStatus.ABANDONED


async def test_ai_seats_play_a_whole_game_to_the_end(manager: GameManager, repo: GameRepository) -> None:
    gid, _ = await started_game(manager, humans=1, ais=2, seed=11)
    outcome = await manager.hand_to_ai(gid, ANN, "normal")  # nobody left to wait for
    assert outcome.finished
    assert outcome.events[-1].kind == "game_over"
    results = await repo.load_results(gid)
    assert len(results) == 3 and {r.user_id for r in results} == {ANN, None}
    assert [r.seat for r in results if r.rank == 1] == [r.seat for r in outcome.results if r.won]
    record = await manager.export_record(gid)
    assert record["format"] == 1 and record["map"] == "europe" and len(record["actions"]) > 50
    assert replay(record).to_dict() == (await state_of(manager, gid)).to_dict()
    info = await manager.status(gid)
    assert info.status == GameStatus.FINISHED and info.final
    # the AI's last move ended the game: its final message is owed (a durable row) until posted
    (tell,) = await repo.timers_for_game(gid)
    assert tell.kind == "tell" and tell.payload == {"through": info.action_count}
    await manager.swap_note(gid, "told_through", info.action_count)  # the note the posted message writes
    assert await repo.timers_for_game(gid) == []
    # one score sheet shape: the engine's final sheets are the game info's and the stored results' source
    end = scoring.outcome(await state_of(manager, gid))
    assert end is not None and info.final == end.sheets
    stored = {r.seat: (r.score, r.rank) for r in results}
    assert stored == {s.seat: (s.total, s.rank) for s in info.final}


async def test_export_record_matches_engine_make_record(manager: GameManager) -> None:
    from engine.record import make_record

    gid, _ = await started_game(manager, humans=3, seed=5)
    await play_random(manager, gid, random.Random(2), moves=40)
    assert await manager.export_record(gid) == make_record(await state_of(manager, gid))


def test_recent_events_replay_the_recorded_first_player() -> None:
    """A game saved before the first player was drawn had seat 0 first, which its seed need not draw: the
    record names it, and the replay of the recent events follows it."""
    from bot.manager.read import _replay_events
    from engine.playout import random_legal_action
    from engine.record import make_record
    from engine.rules import new_game, to_act

    seed = next(s for s in range(20) if new_game("europe", 3, seed=s).first_player != 0)
    state = new_game("europe", ["Ann", "Bob", "Cleo"], seed=seed, first_player=0)
    rng = random.Random(1)
    for _ in range(12):
        seat = to_act(state)[0]
        apply(state, seat, random_legal_action(state, seat, rng))
    record = make_record(state)
    assert record["first_player"] == 0
    events = _replay_events("g1", record, limit=3)
    assert events and all(e.seq > 9 for e in events)


async def test_kick_and_replace_by_host_or_moderator(manager: GameManager, repo: GameRepository) -> None:
    gid, _ = await started_game(manager, humans=3)
    with pytest.raises(Refused) as err:
        await manager.kick(gid, BOB, CLEO)
    assert err.value.code == "not_host"
    outcome = await manager.replace_player(gid, BOB, CLEO, 999, "Zoe", moderator=True)
    assert outcome.events[0].kind == "seat_human"
    info = await manager.status(gid)
    assert info.seats[2].user_id == 999 and info.seats[2].name == "Cleo"  # same seat, same hand
    assert gid in await manager.games_of(999) and gid not in await manager.games_of(CLEO)
    outcome = await manager.kick(gid, ANN, BOB)
    info = await manager.status(gid)
    assert info.seats[1].user_id is None and info.seats[1].ai_level == "normal"
    assert 1 not in info.to_act  # the AI chose Bob's tickets at once
    with pytest.raises(Refused) as err:
        await manager.kick(gid, ANN, ANN)
    assert err.value.code == "host_stays"


async def test_recent_events_rebuild_the_public_log(manager: GameManager) -> None:
    gid, _ = await started_game(manager, humans=2, seed=3)
    outcomes = []
    rng = random.Random(8)
    for _ in range(12):
        info = await manager.status(gid)
        seat = info.to_act[0]
        uid = info.seats[seat].user_id
        assert uid is not None
        outcomes.append(await manager.act(gid, uid, rng.choice(await manager.legal_actions(gid, uid))))
    table = table_of(await manager.status(gid))
    live = [english(line(e, table)) for o in outcomes for e in o.events][-5:]
    replayed = [english(line(e, table)) for e in await manager.recent_events(gid, limit=5)]
    assert replayed[-5:] == live


@given(
    hours=st.tuples(*[st.floats(min_value=0.01, max_value=1440, allow_nan=False)] * 3),
    policy=st.sampled_from(["ai", "skip", "wait"]),
    level=st.sampled_from(["easy", "normal", "hard"]),
    players=st.one_of(st.none(), st.integers(2, 5)),
)
def test_settings_round_trip_through_storage_json(
    hours: tuple[float, float, float], policy: str, level: str, players: int | None
) -> None:
    s = GameSettings(*hours, absent_policy=policy, absent_ai_level=level, max_players=players)
    assert GameSettings.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert s.with_values(remind_after_hours=str(hours[0])) == s


@given(st.one_of(st.floats(max_value=0, allow_nan=False), st.floats(min_value=1441, allow_infinity=False)))
def test_settings_refuse_hours_out_of_range(bad: float) -> None:
    with pytest.raises(SettingError):
        GameSettings(remind_after_hours=bad)


async def test_the_heartbeat_row_is_rewritten_when_discord_tells_the_shard_count(
    manager: GameManager, repo: GameRepository, clock: ManualClock
) -> None:
    """Started without SHARD_COUNT the row says "all"; once Discord told the count (the bot joins again with
    the real shards) `ttr cluster-status` reads them at once, not at the next beat (SQLite writes no beats)."""
    await manager.join_cluster(shard_ids="all", shard_count=None)
    [row] = await repo.processes_seen(clock.now() - timedelta(minutes=1))
    assert (row.shard_ids, row.shard_count) == ("all", None)
    await manager.join_cluster(shard_ids="0-1", shard_count=2)
    [row] = await repo.processes_seen(clock.now() - timedelta(minutes=1))
    assert (row.shard_ids, row.shard_count) == ("0-1", 2)

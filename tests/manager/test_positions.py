"""How the manager stores a game (bot.manager.positions): a position every few moves and with the last one, a load
replaying the log after it; a log read after its row that has grown meanwhile."""

from __future__ import annotations

import dataclasses
import random

from helpers.manager_games import HUMANS, play_random, started_game, state_of

from bot.manager import GameManager, GameStatus
from bot.manager.positions import SAVE_POSITION_EVERY, changed_fields
from bot.manager.positions import state_of as stored_game_of
from bot.manager.store import LiveGame
from bot.storage import GameRepository


async def test_positions_are_saved_every_few_moves_and_loads_replay_the_rest(
    manager: GameManager, repo: GameRepository
) -> None:
    gid, _ = await started_game(manager, humans=3)
    rng = random.Random(4)
    await play_random(manager, gid, rng, moves=SAVE_POSITION_EVERY + 7)
    rec = await repo.load_game(gid)
    assert rec.action_count == SAVE_POSITION_EVERY + 7 and rec.snapshot_seq == SAVE_POSITION_EVERY
    assert "history" not in (rec.snapshot or {})
    before = (await state_of(manager, gid)).to_dict()
    manager._store.evict(gid)
    assert (await state_of(manager, gid)).to_dict() == before  # the position played on through 7 actions
    await play_random(manager, gid, rng)  # to the end: the last move saves the position
    rec = await repo.load_game(gid)
    assert rec.status == "finished" and rec.snapshot_seq == rec.action_count


async def test_a_log_that_grew_after_its_row_was_read_is_cut_to_the_row(
    manager: GameManager, repo: GameRepository
) -> None:
    gid, _ = await started_game(manager, humans=2)
    rng = random.Random(5)
    await play_random(manager, gid, rng, moves=SAVE_POSITION_EVERY + 3)
    rec = await repo.load_game(gid)
    then = (await state_of(manager, gid)).to_dict()
    await play_random(manager, gid, rng, moves=4)  # (another process's moves, between the row and the log)
    log = await repo.load_log(gid)
    assert len(log) == rec.action_count + 4
    state = stored_game_of(rec, log)
    assert state is not None and state.to_dict() == then


def _cached_fields(game: LiveGame) -> tuple[object, ...]:
    state = None if game.state is None else game.state.to_dict()
    return game.status, game.seats, game.raw_settings, game.host_id, state, game.snapshot_seq, game.version


async def test_each_stored_change_of_a_game_is_the_cached_game_s_too(
    manager: GameManager, repo: GameRepository
) -> None:
    """`GameStore.update` sets on the cached game exactly what it stored (`changed_fields`): seats, host, settings,
    status, position; a game loaded afresh from storage is the same."""
    (ann, _), (bob, _), (cleo, _) = HUMANS[:3]
    gid = (await manager.create_game(guild_id=1, channel_id=90, host_id=ann, host_name="Ann")).game_id
    await manager.join(gid, bob, "Bob")
    await manager.join(gid, cleo, "Cleo")
    await manager.leave(gid, ann)  # the host leaves: Bob hosts now
    await manager.update_settings(gid, bob, {"hints": "on"})
    await manager.start_game(gid, bob, seed=3)  # (refused unless the cached game knows Bob hosts)
    store = manager._store
    cached = _cached_fields(await store.get(gid))
    assert cached[0] == GameStatus.ACTIVE and cached[3] == bob and cached[2].get("hints") is True
    store.evict(gid)
    assert _cached_fields(await store.get(gid)) == cached


def test_changed_fields_name_fields_of_the_cached_game() -> None:
    stored = {"status": "lobby", "seats": [], "settings": {"hints": True}, "host_id": 5}
    changed = changed_fields(stored)
    assert set(changed) <= {f.name for f in dataclasses.fields(LiveGame)}
    assert changed == {"status": GameStatus.LOBBY, "seats": (), "raw_settings": {"hints": True}, "host_id": 5}

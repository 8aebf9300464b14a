"""How the manager stores a game (bot.manager.positions): a position every few moves and with the last one, a load
replaying the log after it; a log read after its row that has grown meanwhile."""

from __future__ import annotations

import random

from helpers.manager_games import play_random, started_game, state_of

from bot.manager import GameManager
from bot.manager.positions import SAVE_POSITION_EVERY
from bot.manager.positions import state_of as stored_game_of
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

"""What a stored game must be (bot.storage V006: a saved position every few moves, the log in between): its saved
position is exactly its log replayed up to it, and the game loaded from storage is exactly its whole log replayed."""

from __future__ import annotations

from typing import Any

from bot.manager.positions import stored_state
from bot.storage import GameRepository
from engine.record import replay, saved_position


async def assert_stored_is_log_replayed(repo: GameRepository, game_id: str, record: dict[str, Any]) -> None:
    """`record`: the game's record (``GameManager.export_record``), its setup and its stored log."""
    stored = await repo.load_game(game_id)
    at = stored.snapshot_seq
    assert 0 <= at <= len(record["actions"]) == stored.action_count
    assert saved_position(replay({**record, "actions": record["actions"][:at]})) == stored.snapshot
    state = await stored_state(repo, game_id)
    assert state is not None and replay(record).to_dict() == state.to_dict()

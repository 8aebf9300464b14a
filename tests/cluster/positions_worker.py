"""Subprocess of test_kill_between_action_and_position.py: plays random moves of one game through a GameManager and
prints ``ACK <seq>`` for every action acknowledged (after act() returned, so after its commit); it may kill itself
with SIGKILL at the moments the test names.

    python positions_worker.py DB_URL GAME_ID_FILE SEED EVERY DIE

EVERY: the store's save_position_every. DIE: ``none``; ``after_action`` (SIGKILL right after a move that saved no
position committed, before anyone learns of it: the action is stored, its game's position is not); ``in_save``
(SIGKILL inside the position a load saves after replaying many actions, before it is written).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import signal
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# The manager needs neither discord nor the bot's app: skip bot/__init__.py (which imports the discord adapter).
_BOT = Path(__file__).resolve().parents[2] / "bot"
_bot = types.ModuleType("bot")
_bot.__path__ = [str(_BOT)]
_bot.__file__ = str(_BOT / "__init__.py")
_bot.__spec__ = importlib.util.spec_from_file_location(
    "bot", _BOT / "__init__.py", submodule_search_locations=[str(_BOT)]
)
sys.modules.setdefault("bot", _bot)

from bot.manager import GameManager, ManualClock, random_action  # noqa: E402
from bot.storage import open_repository  # noqa: E402


def _die(why: str) -> None:
    print(f"DYING {why}", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


async def main(url: str, id_file: str, seed: int, every: int, die: str) -> None:
    rng = random.Random(seed)
    async with open_repository(url) as repo:
        if die == "after_action":
            append = repo.append_action

            async def append_then_die(*args: Any, **kwargs: Any) -> Any:
                record = await append(*args, **kwargs)
                snapshot: Mapping[str, Any] | None = args[4] if len(args) > 4 else kwargs.get("new_snapshot")
                if snapshot is None and rng.random() < 0.15:
                    _die(f"after action {record.seq}")
                return record

            repo.append_action = append_then_die  # type: ignore[method-assign]
        elif die == "in_save":

            async def save_then_die(*args: Any, **kwargs: Any) -> bool:
                _die("in save_snapshot")
                return False

            repo.save_snapshot = save_then_die  # type: ignore[method-assign]
        manager = GameManager(repo, clock=ManualClock())
        manager._store.save_position_every = every
        await manager.start(dispatcher=False)
        if os.path.exists(id_file):
            with open(id_file) as f:
                gid = f.read().strip()
        else:
            info = await manager.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ann")
            gid = info.game_id
            await manager.join(gid, 2, "Bob")
            await manager.start_game(gid, 1, seed=seed)
            with open(id_file + ".tmp", "w") as f:
                f.write(gid)
            os.replace(id_file + ".tmp", id_file)
        print(f"GAME {gid}", flush=True)
        while True:
            info = await manager.status(gid)  # (the first one loads the game: its log replayed)
            if info.status != "active":
                print("DONE", flush=True)
                break
            seat = rng.choice(list(info.to_act))
            uid = info.seats[seat].user_id
            assert uid is not None
            game = await manager._store.get(gid)
            assert game.state is not None
            action = random_action(game.state, seat, rng)
            outcome = await manager.act(gid, uid, action, expected_turn=info.tokens[seat])
            for seq in outcome.seqs:
                print(f"ACK {seq}", flush=True)
        await manager.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))

"""Subprocess of test_crash.py: plays random legal moves through a GameManager on a SQLite file and prints
``ACK <seq>`` for every action the manager acknowledged (after act() returned, so after the commit).

    python crash_worker.py DB_URL GAME_ID_FILE SEED

Creates a game (two people, one AI seat) on first run and writes its id to GAME_ID_FILE; later runs resume it.
The parent kills it with SIGKILL at random moments.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import sys
import types
from pathlib import Path

# The manager needs neither discord nor the bot's app: skip bot/__init__.py (which imports the discord
# adapter) so that this worker starts fast and does not depend on the adapter's state.
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
from engine.actions import Action  # noqa: E402
from engine.state import GameState  # noqa: E402


async def _random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    return random_action(state, seat, rng)


async def main(url: str, id_file: str, seed: int) -> None:
    rng = random.Random(seed)
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=_random_ai)
        await manager.start(dispatcher=False)
        if os.path.exists(id_file):
            with open(id_file) as f:
                gid = f.read().strip()
        else:
            info = await manager.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ann")
            gid = info.game_id
            await manager.join(gid, 2, "Bob")
            await manager.add_ai(gid, 1, "easy")
            await manager.start_game(gid, 1, seed=seed)
            with open(id_file + ".tmp", "w") as f:
                f.write(gid)
            os.replace(id_file + ".tmp", id_file)
        print(f"GAME {gid}", flush=True)
        while True:
            info = await manager.status(gid)
            if info.status != "active":
                print("DONE", flush=True)
                break
            seats = [s for s in info.to_act if info.seats[s].user_id is not None]
            if not seats:  # AI seats left to play after a crash: their timer does it
                await manager.run_due_timers()
                manager.clock.advance(seconds=31)  # type: ignore[attr-defined]
                continue
            seat = rng.choice(seats)
            uid = info.seats[seat].user_id
            assert uid is not None
            legal = await manager.legal_actions(gid, uid)
            outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
            for seq in outcome.seqs:
                print(f"ACK {seq}", flush=True)
        await manager.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))

"""Messages posted twice across a stop, with a slow Discord: a reminder is due, Discord takes up to `--slow` s to
answer its post, and the process is stopped at a random moment: cleanly (SIGTERM: ``GameManager.close``, which
finishes the posts in flight) or killed (emulated in the process: its tasks cancelled where they are, nothing
finished, its claims left to their lease, as after ``kill -9``). The next process then serves what is due.
Prints, per way of stopping, the trials, the messages posted twice and those never posted.

    python bench/bench_deploy_posts.py                  # 40 trials each way, Discord answering within 1.5 s
    python bench/bench_deploy_posts.py --trials 100 --slow 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class SlowDiscord:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.posted = 0  # the message is in the channel from the request on

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.posted += 1
        await asyncio.sleep(self.delay)

    async def on_turn(self, game_id: str, outcome: Any) -> None:
        return None

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        return None

    async def on_lobby_expired(self, game_id: str, outcome: Any) -> None:
        return None


async def trial(folder: Path, n: int, clean: bool, slow: float, rng: random.Random) -> int:
    """One stop during a due reminder's post; returns how many times the reminder was posted."""
    from bot.manager import GameManager, ManualClock, random_action
    from bot.storage import open_repository

    async def ai(state: Any, seat: int, level: str, r: random.Random) -> Any:
        return random_action(state, seat, r)

    url = f"sqlite:///{folder / f'games{n}.db'}"
    clock = ManualClock()
    discord = SlowDiscord(rng.uniform(0.05, slow))
    async with open_repository(url, clock=clock.now) as repo:
        first = GameManager(repo, clock=clock, ai=ai, notifier=discord)
        await first.start()
        info = await first.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ann")
        await first.join(info.game_id, 2, "Bob")
        await first.start_game(info.game_id, 1, seed=n)
        clock.advance(hours=12, minutes=1)  # the reminders are due: the dispatcher posts them
        await asyncio.sleep(rng.uniform(0, discord.delay * 1.2))  # the stop comes somewhere in the post
        if clean:
            await first.close()
        else:  # kill -9: nothing after this moment runs; its claims stay until their lease ends
            await first.timers.stop()
    async with open_repository(url, clock=clock.now) as repo:
        discord.delay = 0.0
        second = GameManager(repo, clock=clock, ai=ai, notifier=discord)
        await second.start(dispatcher=False)
        clock.advance(minutes=2)  # past every lease
        await second.run_due_timers()
        await second.close()
    return discord.posted


async def main(trials: int, slow: float, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        for clean in (True, False):
            twice = never = posts = 0
            for n in range(trials):
                # (two people choosing tickets: each is reminded, in one post each)
                count = await trial(Path(tmp), n + (0 if clean else trials), clean, slow, rng)
                posts += count
                twice += max(0, count - 2)
                never += max(0, 2 - count)
            how = "SIGTERM (clean stop)" if clean else "kill -9 (emulated)  "
            print(
                f"{how}: {trials} stops during a post (Discord answers within {slow} s): reminders owed"
                f" {2 * trials}, posted {posts}, posted twice {twice}, never posted {never}",
                flush=True,
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--slow", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.trials, args.slow, args.seed))

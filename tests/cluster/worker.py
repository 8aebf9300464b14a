"""One bot process's worth of game manager on a shared PostgreSQL database, run as a real OS process by the
cluster tests (``python tests/cluster/worker.py MODE URL ...``). It reports on stdout, one JSON object a line,
and records what it did for players (reminders, absent-player moves, turn messages, expired lobbies) in an append-only file, one
fsynced JSON line each, so the test counts them across processes, even after a ``kill -9``.

Modes:
- ``moves URL GAMES SEED COUNT``: COUNT random legal moves of human seats on the games (comma-separated ids),
  each acknowledged (``ack``, with its action seqs) or refused (``refused``, with its code); ``error`` else.
- ``timers URL LOG LEASE [mute|mute-reminder|mute-lobby]``: serve due timer rows (the dispatcher) until
  SIGTERM; every notification logged. ``mute``: a turn message (``mute-reminder``: a reminder, ``mute-lobby``:
  an expired lobby's notice) is never posted: ``posting`` is logged, then the post hangs (to be killed).
- ``hold URL LEASE``: claim every due timer row for LEASE seconds, say ``claimed``, then hang (to be killed).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's code, not an installed copy

from bot.manager import GameManager, Outcome, Refused, random_action  # noqa: E402
from bot.manager.cluster import Member  # noqa: E402
from bot.storage import open_repository  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.state import GameState  # noqa: E402


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


async def random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    return random_action(state, seat, rng)


class FileNotifier:
    """Appends one fsynced line per notification: what a player would have been sent."""

    def __init__(self, path: str, *, mute: str = "") -> None:
        self.mute = mute  # the kind of notification whose post hangs ("" none)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        #: set: a turn message writes the "told_through" note once posted, as the bot's does (bot.play.thread)
        self.manager: GameManager | None = None

    def _write(self, **fields: object) -> None:
        os.write(self._fd, (json.dumps({**fields, "pid": os.getpid()}) + "\n").encode())
        os.fsync(self._fd)

    async def _hang_if_muted(self, kind: str, **fields: object) -> None:
        if self.mute == kind:
            self._write(kind="posting", of=kind, **fields)
            await asyncio.Event().wait()  # the post never returns: the process is killed here

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        await self._hang_if_muted("turn", game=game_id, seqs=list(outcome.seqs))
        self._write(kind="turn", game=game_id, seqs=list(outcome.seqs))  # posted, then the note (as the bot)
        if self.manager is not None and outcome.state is not None:
            await self.manager.swap_note(game_id, "told_through", len(outcome.state.history))

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        await self._hang_if_muted("reminder", game=game_id, seat=seat, n=n)
        self._write(kind="reminder", game=game_id, seat=seat, n=n)

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        self._write(kind="absent", game=game_id, seat=seat, policy=policy)

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        await self._hang_if_muted("lobby", game=game_id)
        self._write(kind="lobby_expired", game=game_id, status=str(outcome.status))


async def moves(url: str, games: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    ids = games.split(",")
    async with open_repository(url) as repo:
        manager = GameManager(repo, ai=random_ai, retry_delays=(0.01, 0.02))
        await manager.start(dispatcher=False)
        say(ready=True)
        for _ in range(count):
            gid = rng.choice(ids)
            try:
                info = await manager.status(gid)
                humans = [s for s in info.to_act if info.seats[s].ai_level is None]
                if info.status != "active" or not humans:
                    continue
                seat = rng.choice(humans)
                uid = info.seats[seat].user_id
                assert uid is not None
                legal = await manager.legal_actions(gid, uid)
                if not legal:  # the other process moved in between: this seat has nothing to do now
                    continue
                outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
                say(ack=gid, seqs=list(outcome.seqs))
            except Refused as exc:
                say(refused=exc.code, game=gid)
            except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
                say(error=repr(exc), game=gid)
        await manager.close()
    say(done=True)


async def timers(url: str, log_path: str, lease: float, mute: str = "") -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with open_repository(url) as repo:
        notifier = FileNotifier(log_path, mute=mute)
        manager = GameManager(
            repo, ai=random_ai, notifier=notifier, member=Member(lease=lease), max_sleep=lease
        )
        notifier.manager = manager
        await manager.start()
        await manager.join_cluster(shard_ids="0", shard_count=2, every=0.5)
        say(ready=True, process=manager.timers.member.process_id)
        await stop.wait()
        await manager.close()
    say(done=True)


async def hold(url: str, lease: float) -> None:
    async with open_repository(url) as repo:
        rows = await repo.claim_due_timers("doomed-process", lease=lease, limit=100_000)
        say(claimed=len(rows))
        await asyncio.sleep(3600)


def main() -> None:
    mode, url, *rest = sys.argv[1:]
    if mode == "moves":
        asyncio.run(moves(url, rest[0], int(rest[1]), int(rest[2])))
    elif mode == "timers":
        muted = {"mute": "turn", "mute-reminder": "reminder", "mute-lobby": "lobby"}
        asyncio.run(timers(url, rest[0], float(rest[1]), mute=muted[rest[2]] if rest[2:] else ""))
    elif mode == "hold":
        asyncio.run(hold(url, float(rest[0])))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()

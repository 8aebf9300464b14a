"""Benchmarks of the game manager.

1. One move: ``GameManager.act`` (checks, engine apply on a copy, ``append_action`` with the new snapshot, timer
   rows when the turn passes) timed per call over random games, p50/p99; and the persist step alone
   (``append_action``). On SQLite (a temporary file) and on PostgreSQL (a fresh schema, dropped afterwards).
2. Reads per move: how often one move, as a caller needs it (whose turn and its token before, the new game info
   and state after), reads storage (a counting wrapper around the repository), reads the manager's cache
   (``GameStore.get``, ``_get`` before the split) and builds a ``GameInfo``; with the game cached, and with a
   cold cache (two games, cache of one). Two callers: "rereading" asks ``game_info``/``state_of`` before and
   after ``act`` (the only way before act() returned them); "from_outcome" keeps ``Outcome.info`` and
   ``Outcome.state``. Per move, 400 moves of 2-player Europe games on SQLite:

   ====================================  ===========  ==============  ===============================
   caller                                cache reads  GameInfo built  storage reads (cold cache)
   ====================================  ===========  ==============  ===============================
   before the split (rereading)          5.01         2.02            0.01 (2.0: one load, 2 queries)
   after, rereading                      5.01         3.02            0.01 (2.0)
   after, from the Outcome               1.01         1.01            0.01 (2.0)
   ====================================  ===========  ==============  ===============================
3. 10,000 stored active games: in a fresh process, the time from opening storage to the first served request
   (``start()`` learns the open game ids, the dispatcher starts; a random game is loaded on demand) and the
   resident memory after start and after touching 2,000 random games (LRU cache of 256).

    python bench/bench_manager.py [--moves 2000] [--games 10000] [--pg URL | --no-pg] [--pg-games N]
    python bench/bench_manager.py --reads-only
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.manager import GameInfo, GameManager, ManualClock, Outcome, random_action  # noqa: E402
from bot.storage import GameRepository, GameStatus, Seat, open_repository  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.rules import apply, legal_actions, new_game, to_act  # noqa: E402
from engine.state import GameState  # noqa: E402

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def _random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    return random_action(state, seat, rng)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(_pct(values, 0.50) * 1000, 3),
        "p99_ms": round(_pct(values, 0.99) * 1000, 3),
        "mean_ms": round(statistics.fmean(values) * 1000, 3),
        "max_ms": round(max(values) * 1000, 3),
    }


async def bench_moves(url: str, moves: int) -> dict[str, Any]:
    """Random 3-player games through GameManager.act until `moves` moves were timed."""
    act_times: list[float] = []
    persist_times: list[float] = []
    async with open_repository(url) as repo:
        manager = GameManager(repo, clock=ManualClock(), ai=_random_ai)
        await manager.start(dispatcher=False)
        rng = random.Random(1)
        channel = 0
        while len(act_times) < moves:
            channel += 1
            info = await manager.create_game(guild_id=1, channel_id=channel, host_id=1, host_name="Ann")
            gid = info.game_id
            await manager.join(gid, 2, "Bob")
            await manager.join(gid, 3, "Cleo")
            await manager.start_game(gid, 1, seed=channel)
            while len(act_times) < moves:
                info = await manager.status(gid)
                if info.status != GameStatus.ACTIVE:
                    break
                seat = rng.choice(info.to_act)
                uid = info.seats[seat].user_id
                assert uid is not None
                action = rng.choice(await manager.legal_actions(gid, uid))
                t0 = time.perf_counter()
                await manager.act(gid, uid, action, expected_turn=info.tokens[seat])
                act_times.append(time.perf_counter() - t0)
        # the persist step alone: append_action of a realistic snapshot (mid-game state)
        state = new_game("europe", 3, seed=5)
        prng = random.Random(5)
        record = await repo.create_game(
            guild_id=1,
            channel_id=10**9,
            host_id=1,
            board="europe",
            seats=[Seat("A", 1), Seat("B", 2), Seat("C", 3)],
            snapshot=state.to_dict(),
            status=GameStatus.ACTIVE,
        )
        version = record.version
        for _ in range(min(moves, 1000)):
            if state.finished:
                break
            seat = to_act(state)[0]
            action = prng.choice(legal_actions(state, seat))
            apply(state, seat, action)
            snapshot = state.to_dict()
            t0 = time.perf_counter()
            row = await repo.append_action(record.id, version, seat, action.to_json(), snapshot)
            persist_times.append(time.perf_counter() - t0)
            version = row.version
        await manager.close()
    return {"act": _ms(act_times), "append_action": _ms(persist_times)}


#: Repository calls that read (every other call writes).
STORAGE_READS = frozenset(
    {
        "load_game",
        "timers_for_game",
        "load_actions",
        "find_open_game",
        "games_for_player",
        "list_games",
        "player_stats",
        "leaderboard",
        "due_timers",
        "next_timer_due",
    }
)


class CountingRepository:
    """Passes every call to `repo`, counting the reads by name."""

    def __init__(self, repo: GameRepository) -> None:
        self._repo = repo
        self.reads: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._repo, name)
        if name not in STORAGE_READS:
            return target

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.reads[name] = self.reads.get(name, 0) + 1
            return target(*args, **kwargs)

        return counted


class Counts:
    """Cache reads (``_get``) and GameInfo builds of one manager, counted by wrapping them."""

    def __init__(self, manager: GameManager) -> None:
        self.gets = 0
        self.infos = 0
        store = manager._store
        get = store.get
        build = GameInfo.__init__

        async def counted_get(game_id: str) -> Any:
            self.gets += 1
            return await get(game_id)

        def counted_build(info: GameInfo, *args: Any, **kwargs: Any) -> None:
            self.infos += 1
            build(info, *args, **kwargs)

        store.get = counted_get  # type: ignore[method-assign]
        GameInfo.__init__ = counted_build  # type: ignore[method-assign]
        self._restore = lambda: setattr(GameInfo, "__init__", build)

    def stop(self) -> None:
        self._restore()


async def _move_rereading(
    manager: GameManager, gid: str, rng: random.Random, last: Outcome
) -> Outcome | None:
    """One move as a caller played it before act() returned the game info and state: read whose turn it is
    and its token, choose, act, then read what the reply shows (the new game info and state)."""
    info = await manager.game_info(gid)
    if info.status != GameStatus.ACTIVE:
        return None
    state = await manager.state_of(gid)
    assert state is not None
    seat = rng.choice(info.to_act)
    uid = info.seats[seat].user_id
    assert uid is not None
    outcome = await manager.act(
        gid, uid, rng.choice(legal_actions(state, seat)), expected_turn=info.tokens[seat]
    )
    await manager.game_info(gid)
    await manager.state_of(gid)
    return outcome


async def _move_from_outcome(
    manager: GameManager, gid: str, rng: random.Random, last: Outcome
) -> Outcome | None:
    """One move by a caller that keeps what the last change returned (Outcome.info, Outcome.state)."""
    info, state = last.info, last.state
    if info.status != GameStatus.ACTIVE or state is None:
        return None
    seat = rng.choice(info.to_act)
    uid = info.seats[seat].user_id
    assert uid is not None
    return await manager.act(
        gid, uid, rng.choice(legal_actions(state, seat)), expected_turn=info.tokens[seat]
    )


MoveFn = Callable[[GameManager, str, random.Random, Outcome], Awaitable[Outcome | None]]


async def bench_reads(url: str, moves: int, *, cold: bool, move: MoveFn) -> dict[str, Any]:
    """Storage reads, cache reads and GameInfo builds per move (means over `moves` moves of random games).
    `cold`: two games played in turn with a cache of one game, so every cache miss reads storage."""
    async with open_repository(url) as raw:
        repo = CountingRepository(raw)
        size = 1 if cold else 256
        manager = GameManager(repo, clock=ManualClock(), ai=_random_ai, cache_size=size)  # type: ignore[arg-type]
        await manager.start(dispatcher=False)
        rng = random.Random(3)
        channel = 0
        games: dict[str, Outcome] = {}
        played = 0
        counts: Counts | None = None
        reads_before = 0
        while played < moves:
            while len(games) < (2 if cold else 1):
                channel += 1
                info = await manager.create_game(guild_id=1, channel_id=channel, host_id=1, host_name="Ann")
                await manager.join(info.game_id, 2, "Bob")
                games[info.game_id] = await manager.start_game(info.game_id, 1, seed=channel)
            if counts is None:
                counts = Counts(manager)
                reads_before = sum(repo.reads.values())
            gid = list(games)[played % len(games)]
            outcome = await move(manager, gid, rng, games[gid])
            if outcome is None:
                del games[gid]
            else:
                games[gid] = outcome
                played += 1
        assert counts is not None
        counts.stop()
        await manager.close()
    return {
        "moves": played,
        "storage_reads_per_move": round((sum(repo.reads.values()) - reads_before) / played, 2),
        "cache_reads_per_move": round(counts.gets / played, 2),
        "game_info_builds_per_move": round(counts.infos / played, 2),
    }


async def _fill(url: str, games: int) -> float:
    """Store `games` active games (mid-game snapshots) with one turn timer each; returns seconds taken."""
    state = new_game("europe", 3, seed=9)
    rng = random.Random(9)
    for _ in range(120):
        seat = to_act(state)[0] if len(to_act(state)) == 1 else rng.choice(to_act(state))
        apply(state, seat, rng.choice(legal_actions(state, seat)))
    snapshot = state.to_dict()
    snapshot["history"] = []  # the stored log of these synthetic games is empty
    seats = [Seat("Ann", 1), Seat("Bob", 2), Seat("Cleo", 3)]
    t0 = time.perf_counter()
    async with open_repository(url) as repo:
        from datetime import UTC, datetime, timedelta

        due = datetime.now(UTC) + timedelta(days=1)
        for i in range(games):
            rec = await repo.create_game(
                guild_id=1 + i % 50,
                channel_id=10_000 + i,
                host_id=1,
                board="europe",
                seats=seats,
                snapshot=snapshot,
                status=GameStatus.ACTIVE,
            )
            await repo.add_timer(
                rec.id, "turn", due, {"seat": state.current, "key": f"main:{state.turn}", "stage": 0}
            )
    return time.perf_counter() - t0


def _rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def serve(url: str, touch: int, cache: int = 256) -> dict[str, Any]:
    """In a fresh process: time to first served request, and memory."""
    logging.getLogger("bot.manager").setLevel(logging.CRITICAL)
    rss0 = _rss_mib()
    t0 = time.perf_counter()
    repo: GameRepository = open_repository(url)
    await repo.connect()
    manager = GameManager(repo, clock=ManualClock(), ai=_random_ai, owns_repo=True, cache_size=cache)
    await manager.start()
    ids = sorted(manager.open_game_ids)
    info = await manager.status(random.Random(0).choice(ids))
    first = time.perf_counter() - t0
    print("READY", flush=True)
    assert info.status == GameStatus.ACTIVE
    rss_started = _rss_mib()
    rng = random.Random(1)
    t1 = time.perf_counter()
    for gid in rng.sample(ids, min(touch, len(ids))):
        await manager.status(gid)
    per_load = (time.perf_counter() - t1) / max(1, min(touch, len(ids)))
    rss_touched = _rss_mib()
    await manager.close()
    return {
        "open_games": len(ids),
        "time_to_first_request_s": round(first, 3),
        "rss_before_mib": round(rss0, 1),
        "rss_after_start_mib": round(rss_started, 1),
        "rss_after_touching_mib": round(rss_touched, 1),
        "games_touched": min(touch, len(ids)),
        "cache_size": cache,
        "load_on_demand_ms": round(per_load * 1000, 3),
    }


async def _pg_schema_url(base: str) -> tuple[str, str]:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    return f"{base}?schema={schema}", schema


async def _drop_schema(base: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(base, timeout=5)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


def _serve_in_subprocess(url: str, touch: int, cache: int = 256) -> dict[str, Any]:
    """Run `serve` in a fresh interpreter; also time the whole process start (interpreter, imports, storage,
    start(), first request) until it prints READY."""
    t0 = time.perf_counter()
    command = [sys.executable, __file__, "--serve", url, "--touch", str(touch), "--cache", str(cache)]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    ready = None
    last = ""
    for line in proc.stdout:
        if line.startswith("READY") and ready is None:
            ready = time.perf_counter() - t0
        last = line
    if proc.wait() != 0:
        raise RuntimeError("serve subprocess failed")
    return {"process_start_to_first_request_s": round(ready or float("nan"), 3), **json.loads(last)}


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pg-games", type=int, default=0, help="also store this many games on PostgreSQL")
    parser.add_argument("--touch", type=int, default=2000)
    parser.add_argument("--pg", default=PG_URL)
    parser.add_argument("--no-pg", action="store_true")
    parser.add_argument("--reads-only", action="store_true", help="only count the reads per move")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=int, default=256, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        print(json.dumps(await serve(args.serve, args.touch, args.cache)))
        return
    logging.basicConfig(level=logging.ERROR)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pattern, move in (("rereading", _move_rereading), ("from_outcome", _move_from_outcome)):
            for cold in (False, True):
                name = f"reads_per_move_{pattern}" + ("_cold_cache" if cold else "")
                url = f"sqlite:///{Path(tmp) / (name + '.db')}"
                results[name] = await bench_reads(url, min(args.moves, 400), cold=cold, move=move)
                print(name + ":", json.dumps(results[name]), flush=True)
        if args.reads_only:
            return
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        results["sqlite_move"] = await bench_moves(url, args.moves)
        print("sqlite move:", json.dumps(results["sqlite_move"]), flush=True)
        url = f"sqlite:///{Path(tmp) / 'many.db'}"
        fill = await _fill(url, args.games)
        results["sqlite_many"] = {
            "stored": args.games,
            "fill_s": round(fill, 1),
            "db_mib": round(os.path.getsize(Path(tmp) / "many.db") / 2**20, 1),
            **_serve_in_subprocess(url, args.touch),
        }
        print("sqlite 10k:", json.dumps(results["sqlite_many"]), flush=True)
        results["sqlite_many_all_cached"] = _serve_in_subprocess(url, args.games, cache=args.games)
        print(
            "sqlite, every game loaded and cached:", json.dumps(results["sqlite_many_all_cached"]), flush=True
        )
    if not args.no_pg:
        url, schema = await _pg_schema_url(args.pg)
        try:
            results["postgres_move"] = await bench_moves(url, args.moves)
            print("postgres move:", json.dumps(results["postgres_move"]), flush=True)
        finally:
            await _drop_schema(args.pg, schema)
        if args.pg_games:
            url, schema = await _pg_schema_url(args.pg)
            try:
                fill = await _fill(url, args.pg_games)
                results["postgres_many"] = {
                    "stored": args.pg_games,
                    "fill_s": round(fill, 1),
                    **_serve_in_subprocess(url, args.touch),
                }
                print("postgres many:", json.dumps(results["postgres_many"]), flush=True)
            finally:
                await _drop_schema(args.pg, schema)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())

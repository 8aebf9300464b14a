"""Several real OS processes over one PostgreSQL database (issue 17): moves raced on the same games, due work
spread over two processes, and a process killed with ``kill -9`` while it holds leases and acknowledges moves.

The processes are ``tests/cluster/worker.py``; this test sets the games up through a manager of its own and
checks the database and the workers' notification log afterwards. Leases are short (2 s) to keep it quick."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from helpers.manager_games import play_random, random_ai, started_game, state_of
from helpers.pg_schema import PG_URL, fresh_pg_schema
from helpers.stored_games import assert_stored_is_log_replayed

from bot.i18n import default_catalog
from bot.manager import GameManager, random_action
from bot.manager.timer_rows import TimerKind
from bot.storage import GameRepository, GameStatus, NewTimer, TimerChange, open_repository
from engine.rules import apply, to_act

# real OS processes on real PostgreSQL, waiting out real leases: one at a time, apart from the fast loop
pytestmark = [pytest.mark.cluster, pytest.mark.xdist_group("timing")]

WORKER = Path(__file__).with_name("worker.py")
LEASE = 2.0


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_pg_schema() as (url, _schema):
        async with open_repository(url):  # migrated once here, not raced by the workers
            pass
        yield url


def spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "TTR_PURE_PYTHON": os.environ.get("TTR_PURE_PYTHON", "")}
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


async def read_until(proc: subprocess.Popen[str], key: str, timeout: float = 30.0) -> dict[str, Any]:
    """The first line of the worker's report that has `key` (lines before it are dropped)."""
    assert proc.stdout is not None
    loop = asyncio.get_running_loop()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = await asyncio.wait_for(
            loop.run_in_executor(None, proc.stdout.readline), deadline - time.monotonic()
        )
        if not line:
            raise AssertionError(f"worker ended: {proc.stderr.read() if proc.stderr else ''}")
        report = json.loads(line)
        if key in report:
            return report
    raise AssertionError(f"no {key!r} from the worker in {timeout} s")


def reports(proc: subprocess.Popen[str], timeout: float = 120.0) -> list[dict[str, Any]]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def notes(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def assert_consistent(manager: GameManager, repo: GameRepository, gid: str, acked: list[int]) -> None:
    """Every acknowledged action is stored once, and the stored game is the replay of its action log."""
    seqs = [a.seq for a in await repo.load_actions(gid)]
    assert len(acked) == len(set(acked)), f"an action acknowledged twice in {gid}"
    assert set(acked) <= set(seqs), f"an acknowledged action of {gid} is not stored"
    assert seqs == list(range(1, len(seqs) + 1))
    await assert_stored_is_log_replayed(repo, gid, await manager.export_record(gid))


async def test_two_processes_racing_on_the_same_games_apply_each_move_once(pg_url: str) -> None:
    async with open_repository(pg_url) as repo:
        setup = GameManager(repo, ai=random_ai)
        gids = [(await started_game(setup, humans=3, seed=s))[0] for s in (1, 2)]
        games = ",".join(gids)
        procs = [spawn("moves", pg_url, games, str(seed), "40") for seed in (11, 12)]
        done = [reports(p) for p in procs]
        acked: dict[str, list[int]] = {g: [] for g in gids}
        refused: Counter[str] = Counter()
        for report in (r for rs in done for r in rs):
            assert "error" not in report, report
            if "ack" in report:
                acked[report["ack"]].extend(report["seqs"])
            if "refused" in report:
                refused[report["refused"]] += 1
        assert sum(map(len, acked.values())) >= 20  # both processes got moves through
        catalog = default_catalog()
        for code in refused:  # a lost race is a polite refusal, in English and in French
            for locale in ("en", "fr"):
                assert catalog.exact(f"refused.{code}", locale), (code, locale)
        for gid in gids:
            await assert_consistent(setup, repo, gid, acked[gid])


async def _due_now(manager: GameManager, repo: GameRepository, gid: str, stage: int, later: bool) -> None:
    """The game's turn row made due a second ago (or in an hour: `later`) at `stage` (0: first reminder next;
    2: absent-player policy)."""
    game = await manager._store.get(gid)  # tests may look behind the API
    past = datetime.now(UTC) + (timedelta(hours=1) if later else timedelta(seconds=-1))
    payload = {"key": game.wait_key(), "stage": stage}
    await repo.change_timers(
        gid, TimerChange(clear=(TimerKind.TURN,), add=(NewTimer(TimerKind.TURN, past, payload),))
    )


async def _campaign(repo: GameRepository, n: int, *, later: bool = False) -> tuple[list[str], list[str]]:
    """n games whose first reminder is due and n whose absent player's turn goes to the AI now."""
    setup = GameManager(repo, ai=random_ai)
    reminded, absent = [], []
    for i in range(n):
        gid, _ = await started_game(setup, humans=2, seed=i, settings={"absent_policy": "ai"})
        await _due_now(setup, repo, gid, 0, later)
        reminded.append(gid)
        gid, _ = await started_game(setup, humans=2, seed=1000 + i, settings={"absent_policy": "ai"})
        await _due_now(setup, repo, gid, 2, later)
        absent.append(gid)
    return reminded, absent


async def _wait_for(condition: Any, timeout: float) -> float:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not done in {timeout} s")
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def _execute(url: str, sql: str, *args: object) -> None:
    """Run `sql` in the test's schema, as a host would by hand."""
    conn = await asyncpg.connect(PG_URL, server_settings={"search_path": url.rsplit("schema=", 1)[1]})
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()


async def _make_everything_due(url: str) -> None:
    await _execute(url, "UPDATE timers SET due_at = now() - interval '1 second'")


async def _killed_as_it_posts(doomed: subprocess.Popen[str], log_path: Path) -> tuple[dict[str, Any], float]:
    """Kill -9 the muted process once it starts posting: what it was posting, and when it died."""
    await _wait_for(lambda: any(n["kind"] == "posting" for n in notes(log_path)), 30)
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(10)
    killed_at = time.monotonic()
    (posting,) = [n for n in notes(log_path) if n["kind"] == "posting"]
    return posting, killed_at


def _served(log: list[dict[str, Any]]) -> int:
    """How many games had their due work done (a reminder sent, or an absent turn's message)."""
    return len({n["game"] for n in log if n["kind"] in ("reminder", "turn")})


def _check_exactly_once(log: list[dict[str, Any]], reminded: list[str], absent: list[str]) -> None:
    """Each waiting seat reminded once, each absent seat's turn played once, one turn message per absent game
    (at the start every seat chooses its tickets at once: several seats of a game wait)."""
    reminders = Counter((n["game"], n["seat"]) for n in log if n["kind"] == "reminder")
    absents = Counter((n["game"], n["seat"]) for n in log if n["kind"] == "absent")
    turns = Counter(n["game"] for n in log if n["kind"] == "turn")
    assert set(reminders.values()) == {1} and {g for g, _ in reminders} == set(reminded), "reminders"
    assert set(absents.values()) == {1} and {g for g, _ in absents} == set(absent), "absent-player turns"
    assert turns == Counter(absent), "a turn message missing or posted twice"


async def test_due_work_over_two_processes_is_done_exactly_once(pg_url: str, tmp_path: Path) -> None:
    log_path = tmp_path / "notes.jsonl"
    async with open_repository(pg_url) as repo:
        reminded, absent = await _campaign(repo, 100, later=True)  # 200 games
        counts = {g: (await repo.load_game(g)).action_count for g in absent}
        procs = [spawn("timers", pg_url, str(log_path), str(LEASE)) for _ in range(2)]
        try:
            for p in procs:
                await read_until(p, "ready")
            await _make_everything_due(pg_url)  # at once, with both processes waiting for it
            await _wait_for(lambda: _served(notes(log_path)) >= 200, 90)
            await asyncio.sleep(LEASE + 0.5)  # anything done twice would show by now
        finally:
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                reports(p)
        log = notes(log_path)
        _check_exactly_once(log, reminded, absent)
        for gid in absent:  # each turn message owed by an absent-player move was posted, and is owed no more
            assert "tell" not in [t.kind for t in await repo.timers_for_game(gid)], gid
        manager = GameManager(repo, ai=random_ai)
        for note in (n for n in log if n["kind"] == "turn"):
            assert (await repo.load_game(note["game"])).action_count == counts[note["game"]] + len(
                note["seqs"]
            )
            await assert_consistent(manager, repo, note["game"], note["seqs"])
        assert await repo.processes_seen(datetime.now(UTC) - timedelta(minutes=1)) == []  # left cleanly


async def test_kill_9_leaves_its_work_to_the_other_process_within_the_lease(
    pg_url: str, tmp_path: Path
) -> None:
    log_path = tmp_path / "notes.jsonl"
    async with open_repository(pg_url) as repo:
        setup = GameManager(repo, ai=random_ai)
        playing = [(await started_game(setup, humans=3, seed=s))[0] for s in (5, 6)]
        reminded, absent = await _campaign(repo, 20)
        # a process that acknowledges moves and holds leases on all the due work, killed in the middle
        mover = spawn("moves", pg_url, ",".join(playing), "3", "100000")
        doomed = spawn("hold", pg_url, str(LEASE))
        claimed = await read_until(doomed, "claimed")
        assert claimed["claimed"] == 40
        acked: dict[str, list[int]] = {g: [] for g in playing}
        for _ in range(8):
            report = await read_until(mover, "ack")
            acked[report["ack"]].extend(report["seqs"])
        survivor = spawn("timers", pg_url, str(log_path), str(LEASE))
        await read_until(survivor, "ready")
        for proc in (mover, doomed):
            os.kill(proc.pid, signal.SIGKILL)
        for proc in (mover, doomed):
            proc.wait(10)
            assert proc.stdout is not None
            for line in proc.stdout.read().splitlines():  # acknowledged before the kill landed
                report = json.loads(line)
                if "ack" in report:
                    acked[report["ack"]].extend(report["seqs"])
        try:
            taken_over = await _wait_for(lambda: _served(notes(log_path)) >= 40, LEASE + 15)
            await asyncio.sleep(LEASE + 0.5)
        finally:
            survivor.send_signal(signal.SIGTERM)
            reports(survivor)
        assert taken_over <= LEASE + 10, f"took {taken_over:.1f} s to take the work over"
        _check_exactly_once(notes(log_path), reminded, absent)
        for gid in playing:
            await assert_consistent(setup, repo, gid, acked[gid])


async def test_idle_lobbies_expire_exactly_once_over_two_processes(pg_url: str, tmp_path: Path) -> None:
    log_path = tmp_path / "notes.jsonl"
    async with open_repository(pg_url) as repo:
        setup = GameManager(repo, ai=random_ai)  # lobbies expire 24 h after their last change (the default)
        lobbies = [
            (await setup.create_game(guild_id=1, channel_id=5000 + i, host_id=101, host_name="Ann")).game_id
            for i in range(100)
        ]
        assert {t.kind for g in lobbies for t in await repo.timers_for_game(g)} == {"lobby"}
        procs = [spawn("timers", pg_url, str(log_path), str(LEASE)) for _ in range(2)]
        try:
            for p in procs:
                await read_until(p, "ready")
            # every lobby idle for 25 h, its row due, at once with both processes waiting for it (a new
            # version: the processes' cached lobbies, loaded by their start-up sweep, are out of date)
            await _execute(
                pg_url,
                "UPDATE games SET updated_at = now() - interval '25 hours', version = version + 1;"
                " UPDATE timers SET due_at = now() - interval '1 second'",
            )
            expired = lambda: [n for n in notes(log_path) if n["kind"] == "lobby_expired"]  # noqa: E731
            await _wait_for(lambda: len(expired()) >= 100, 60)
            await asyncio.sleep(LEASE + 0.5)  # anything done twice would show by now
        finally:
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                reports(p)
        done = Counter(n["game"] for n in expired())
        assert done == Counter(lobbies), "a lobby expired twice, or not at all"
        for gid in lobbies:
            assert (await repo.load_game(gid)).status == GameStatus.ABANDONED
            assert await repo.timers_for_game(gid) == []


async def _one_turn_from_the_end(manager: GameManager, seed: int) -> str:
    """A two-person game (absent players' turns go to the AI) played at random up to its very last turn."""
    gid, _ = await started_game(manager, humans=2, seed=seed, settings={"absent_policy": "ai"})
    rng = random.Random(seed)
    while True:
        state = await state_of(manager, gid)
        seats = to_act(state)
        if len(seats) != 1 or seats[0] in state.pending:  # not the start of one seat's turn
            await play_random(manager, gid, rng, 1)
            continue
        (seat,) = seats
        trial, key = state.copy(), (state.phase, state.turn)
        while not trial.finished and (trial.phase, trial.turn) == key and seat in to_act(trial):
            apply(trial, seat, random_action(trial, seat, rng))
        if trial.finished:  # this seat's turn, whatever it does, ends the game
            return gid
        await play_random(manager, gid, rng, 1)


@pytest.mark.parametrize("ending", [False, True], ids=["turn", "final"])
async def test_kill_9_before_the_post_leaves_the_owed_turn_message_to_the_other_process(
    pg_url: str, tmp_path: Path, ending: bool
) -> None:
    """Process A plays an absent player's turn (the AI's move passes the turn, or ends the game) and is killed
    while posting the turn message (the final scores); process B posts it, once, when A's lease ends."""
    log_path = tmp_path / "notes.jsonl"
    async with open_repository(pg_url) as repo:
        setup = GameManager(repo, ai=random_ai)
        if ending:
            first = await _one_turn_from_the_end(setup, 3)
        else:
            first, _ = await started_game(setup, humans=2, seed=3, settings={"absent_policy": "ai"})
        _, others = await _campaign(repo, 3, later=True)  # work A claims and never reaches
        await _due_now(setup, repo, first, 2, True)
        doomed = spawn("timers", pg_url, str(log_path), str(LEASE), "mute")
        await read_until(doomed, "ready")
        await _execute(  # everything due at once, this game's row first (A serves it first)
            pg_url,
            "UPDATE timers SET due_at = now() - CASE WHEN game_id = $1 THEN interval '1 minute'"
            " ELSE interval '1 second' END",
            first,
        )
        posting, killed_at = await _killed_as_it_posts(doomed, log_path)
        assert posting["game"] == first and posting["seqs"]
        survivor = spawn("timers", pg_url, str(log_path), str(LEASE))
        try:
            await read_until(survivor, "ready")
            games = {first, *others}
            await _wait_for(lambda: {n["game"] for n in notes(log_path) if n["kind"] == "turn"} >= games, 30)
            taken_over = time.monotonic() - killed_at
            await asyncio.sleep(2 * LEASE)  # anything posted twice would show by now
        finally:
            survivor.send_signal(signal.SIGTERM)
            reports(survivor)
        assert taken_over <= LEASE + 10, f"took {taken_over:.1f} s to post the owed messages"
        log = notes(log_path)
        turns = [n for n in log if n["kind"] == "turn"]
        assert Counter(n["game"] for n in turns) == Counter(games), "a turn message missing or posted twice"
        assert {n["pid"] for n in turns} == {survivor.pid}
        absents = Counter((n["game"], n["seat"]) for n in log if n["kind"] == "absent")
        assert set(absents.values()) == {1} and {g for g, _ in absents} == games, (
            "an absent turn played twice"
        )
        stored = await repo.load_game(first)
        assert stored.action_count == posting["seqs"][-1]  # B made no move for it: it only told A's
        assert (stored.status == GameStatus.FINISHED) is ending
        for gid in games:
            assert "tell" not in [t.kind for t in await repo.timers_for_game(gid)], gid
        await assert_consistent(setup, repo, first, posting["seqs"])


@pytest.mark.parametrize("kind", ["reminder", "lobby"])
async def test_kill_9_while_posting_a_reminder_or_a_lobby_notice_leaves_it_to_the_other_process(
    pg_url: str, tmp_path: Path, kind: str
) -> None:
    """Process A sends a reminder (posts an expired lobby's notice) and is killed before Discord answers; process
    B sends it, once, when A's lease ends, from the state A left (the lobby already abandoned, once)."""
    log_path = tmp_path / "notes.jsonl"
    sent = {"reminder": "reminder", "lobby": "lobby_expired"}[kind]
    async with open_repository(pg_url) as repo:
        setup = GameManager(repo, ai=random_ai)
        if kind == "reminder":  # both seats choose their first tickets: two reminders due
            gid, _ = await started_game(setup, humans=2, seed=7, settings={"absent_policy": "ai"})
            await _due_now(setup, repo, gid, 0, later=True)
        else:
            info = await setup.create_game(guild_id=1, channel_id=9100, host_id=101, host_name="Ann")
            gid = info.game_id
        actions_before = (await repo.load_game(gid)).action_count
        doomed = spawn("timers", pg_url, str(log_path), str(LEASE), f"mute-{kind}")
        await read_until(doomed, "ready")
        if kind == "lobby":  # idle for 25 h (a new version: A's cached copy is out of date)
            await _execute(
                pg_url, "UPDATE games SET updated_at = now() - interval '25 hours', version = version + 1"
            )
        await _make_everything_due(pg_url)
        posting, killed_at = await _killed_as_it_posts(doomed, log_path)
        assert posting["of"] == kind and posting["game"] == gid
        survivor = spawn("timers", pg_url, str(log_path), str(LEASE))
        try:
            await read_until(survivor, "ready")
            wanted = 2 if kind == "reminder" else 1
            await _wait_for(lambda: sum(n["kind"] == sent for n in notes(log_path)) >= wanted, 30)
            taken_over = time.monotonic() - killed_at
            await asyncio.sleep(2 * LEASE)  # anything sent twice would show by now
        finally:
            survivor.send_signal(signal.SIGTERM)
            reports(survivor)
        assert taken_over <= LEASE + 10, f"took {taken_over:.1f} s to send what A owed"
        done = [n for n in notes(log_path) if n["kind"] == sent]
        assert {n["pid"] for n in done} == {survivor.pid} and {n["game"] for n in done} == {gid}
        stored = await repo.load_game(gid)
        if kind == "reminder":
            seats = Counter((n["seat"], n["n"]) for n in done)
            assert seats == Counter({(0, 1): 1, (1, 1): 1}), "a reminder missing or sent twice"
            assert posting["seat"] in (0, 1) and posting["n"] == 1
            assert stored.action_count == actions_before  # a reminder makes no move
            kinds = [t.kind for t in await repo.timers_for_game(gid)]
            assert kinds == [TimerKind.TURN]  # re-armed: reminder 2
        else:
            assert len(done) == 1 and done[0]["status"] == GameStatus.ABANDONED
            assert stored.status == GameStatus.ABANDONED
            assert await repo.timers_for_game(gid) == []

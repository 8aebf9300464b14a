"""Benchmarks of the bot's game service (engine + storage + reply, pictures in the render pool), no Discord.

1. A non-rendering command answered: `status`, the "Claim a route" menu (`press open`), route autocomplete and a
   first card draw (`press do`: manager.act, SQLite write, private reply), each timed from call to built Reply;
   p50/p99 over all of them.
2. The turn message with its board image ready after the move: the second card of a draw (the turn passes) timed
   from the press to the Reply carrying the PNG (rendered in the pool), p50/p95.
3. The event loop's lag while 20 games render at once: a 5 ms ticker measures how late it wakes while 20 turn
   messages are built concurrently (max and p99 of the lateness).
4. A normal move's answer without its picture (pictures answered at once): each press of a whole turn (a claim
   of the most useful route the seat can pay, else two cards), from the press to the built Reply, p50/p95.
5. "My tickets on the map": the press to the private Reply carrying the ticket map PNG (render pool), p50/p95.
6. The move that ends a game: from the press to the Reply carrying the final scores, board and chart
   (p50/p95), then from that message being posted to the GIF posted after it.

    python bench/bench_bot.py [--games 20] [--moves 200] [--finals 12] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.config import Settings  # noqa: E402
from bot.play import codec  # noqa: E402
from bot.play.contract import Caller  # noqa: E402
from bot.play.pictures import PoolPictures  # noqa: E402
from bot.play.press import Press, PressCode  # noqa: E402
from bot.play.reply import Reply  # noqa: E402
from bot.play.service import ManagerGameService  # noqa: E402
from bot.wiring import Wiring  # noqa: E402
from engine.actions import Action, ClaimRoute, DrawBlind, KeepTickets  # noqa: E402
from engine.progress import routes_by_use  # noqa: E402
from engine.rules import apply, legal_actions  # noqa: E402
from engine.state import SETUP  # noqa: E402

GUILD = 1
A, B = 101, 102


class NullMessenger:
    async def post(self, channel_id: int, reply: Reply, *, locale: str | None = None) -> int | None:
        return 1

    async def direct(self, user_id: int, reply: Reply, *, locale: str | None = None) -> bool:
        return True

    async def edit_rows(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        return True

    async def edit(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        return True

    async def close_thread(self, channel_id: int) -> bool:
        return False

    def public_locale(self, channel_id: int) -> str:
        return "en"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def open_game(svc: ManagerGameService, channel: int, board: str) -> str:
    await svc.new_game(Caller(GUILD, channel, A, "Ann"), board_id=board)
    info = await svc.games_manager.find_open_game(channel_id=channel)
    assert info is not None
    gid = info.game_id
    await svc.press(Caller(GUILD, channel, B, "Bob"), Press(gid, PressCode.JOIN))
    await svc.press(Caller(GUILD, channel, A, "Ann"), Press(gid, PressCode.START))
    state = await svc._state(gid)
    assert state is not None
    for user in (A, B):
        seat = 0 if user == A else 1
        while True:
            state = await svc._state(gid)
            assert state is not None
            if state.phase != SETUP or seat not in state.pending:
                break
            first = legal_actions(state, seat)[0]
            if isinstance(first, KeepTickets):
                first = max(
                    (a for a in legal_actions(state, seat) if isinstance(a, KeepTickets)),
                    key=lambda a: -len(a.tickets),
                )
            await svc.games_manager.act(gid, user, first)
    svc._lines.pop(gid, None)
    return gid


async def current_user(svc: ManagerGameService, gid: str) -> tuple[int, int]:
    state = await svc._state(gid)
    assert state is not None
    seat = state.current
    return (A if seat == 0 else B), seat


async def bench_commands(svc: ManagerGameService, games: list[str], moves: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"status": [], "claim_menu": [], "autocomplete": [], "first_draw": []}
    rng = random.Random(1)
    for i in range(moves):
        gid = games[i % len(games)]
        channel = 1000 + games.index(gid)
        user, seat = await current_user(svc, gid)
        state = await svc._state(gid)
        assert state is not None
        token = f"t{len(state.history)}"
        t = time.perf_counter()
        await svc.status(Caller(GUILD, channel, user), game_id=gid)
        out["status"].append(time.perf_counter() - t)
        if any(a.kind == "claim_route" for a in legal_actions(state, seat)):
            t = time.perf_counter()
            await svc.press(Caller(GUILD, channel, user), Press(gid, PressCode.OPEN, token, ("claim",)))
            out["claim_menu"].append(time.perf_counter() - t)
        t = time.perf_counter()
        await svc.complete(
            Caller(GUILD, channel, user),
            field="route",
            current=rng.choice(["", "a", "ber", "o"]),
            game_id=gid,
        )
        out["autocomplete"].append(time.perf_counter() - t)
        if DrawBlind() in legal_actions(state, seat):
            t = time.perf_counter()
            await svc.press(
                Caller(GUILD, channel, user), Press(gid, PressCode.DO, token, (codec.encode(DrawBlind()),))
            )
            out["first_draw"].append(time.perf_counter() - t)
            await finish_turn(svc, gid, channel)
        else:
            await finish_turn(svc, gid, channel)
    return out


async def finish_turn(
    svc: ManagerGameService, gid: str, channel: int, timings: list[float] | None = None
) -> None:
    """Play the rest of the current turn with the first legal action (timing the one that passes the turn)."""
    for _ in range(5):
        state = await svc._state(gid)
        assert state is not None
        if state.finished:
            return
        user, seat = await current_user(svc, gid)
        before = state.turn
        legal = legal_actions(state, seat)
        choice = next((a for a in legal if a.kind == "draw_blind"), legal[0])
        token = f"t{len(state.history)}"
        t = time.perf_counter()
        reply = await svc.press(
            Caller(GUILD, channel, user), Press(gid, PressCode.DO, token, (codec.encode(choice),))
        )
        elapsed = time.perf_counter() - t
        state = await svc._state(gid)
        assert state is not None
        if state.turn != before or state.finished:
            if timings is not None and reply.also and reply.also[0].files:
                timings.append(elapsed)
            return


async def bench_turn_messages(svc: ManagerGameService, games: list[str], moves: int) -> list[float]:
    timings: list[float] = []
    for i in range(moves):
        gid = games[i % len(games)]
        await finish_turn(svc, gid, 1000 + games.index(gid), timings)
    return timings


async def bench_loop_lag(svc: ManagerGameService, games: list[str]) -> tuple[list[float], float]:
    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - t - 0.005)

    task = asyncio.create_task(ticker())
    t = time.perf_counter()
    await asyncio.gather(*(svc.turn_message(gid) for gid in games))
    wall = time.perf_counter() - t
    stop.set()
    await task
    return lags, wall


class NoPictures:
    """Pictures answered at once: what a move costs without drawing its picture."""

    async def board(self, *args: Any, **kwargs: Any) -> bytes:
        return b""

    hand = ticket_map = summary = gif = board

    def close(self) -> None:
        return None


async def bench_moves(svc: ManagerGameService, games: list[str], moves: int) -> list[float]:
    """Each press of `moves` whole turns: the seat claims the first route of its Claim menu (ranked by use) when
    it can pay one, else draws two cards from the deck; the pictures are not drawn."""
    pool, svc.pictures = svc.pictures, NoPictures()
    timings: list[float] = []
    try:
        for i in range(moves):
            gid = games[i % len(games)]
            channel = 1000 + games.index(gid)
            for _ in range(3):
                state = await svc._state(gid)
                assert state is not None
                if state.finished:
                    break
                user, seat = await current_user(svc, gid)
                legal = legal_actions(state, seat)
                claims = [a for a in legal if isinstance(a, ClaimRoute)]
                if claims and state.pending.get(seat) is None:
                    best = routes_by_use(state, seat, {a.route for a in claims})[0]
                    choice: Action = next(a for a in claims if a.route == best)
                else:
                    choice = next((a for a in legal if a.kind == "draw_blind"), legal[0])
                before = state.turn
                token = f"t{len(state.history)}"
                t = time.perf_counter()
                await svc.press(
                    Caller(GUILD, channel, user), Press(gid, PressCode.DO, token, (codec.encode(choice),))
                )
                timings.append(time.perf_counter() - t)
                state = await svc._state(gid)
                assert state is not None
                if state.turn != before:
                    break
    finally:
        svc.pictures = pool
    return timings


async def bench_ticket_maps(svc: ManagerGameService, games: list[str], n: int) -> list[float]:
    timings: list[float] = []
    for i in range(n):
        gid = games[i % len(games)]
        user = A if i % 2 == 0 else B
        seat = 0 if user == A else 1
        t = time.perf_counter()
        reply = await svc.press(
            Caller(GUILD, 1000 + games.index(gid), user), Press(gid, PressCode.TICKET_MAP, None, (str(seat),))
        )
        timings.append(time.perf_counter() - t)
        assert reply.files and reply.ephemeral
    return timings


async def bench_final_move(svc: ManagerGameService, n: int) -> tuple[list[float], list[float]]:
    """Play `n` fresh games to their end (longest claim first, else a blind draw) through the manager, then
    time the press that ends each one, and its GIF."""
    boards = ["usa", "europe", "germany", "italy", "japan", "marklin"]
    finals: list[float] = []
    gifs: list[float] = []
    for i in range(n):
        channel = 5000 + i
        gid = await open_game(svc, channel, boards[i % len(boards)])
        for _ in range(2000):
            state = await svc._state(gid)
            assert state is not None
            user, seat = await current_user(svc, gid)
            legal = legal_actions(state, seat)
            claims = [a for a in legal if a.kind == "claim_route"]
            choice = (
                max(claims, key=lambda a: state.board.routes[a.route].length)  # type: ignore[attr-defined]
                if claims
                else next((a for a in legal if a.kind == "draw_blind"), legal[0])
            )
            after = state.copy()
            apply(after, seat, choice)
            if not after.finished:
                await svc.games_manager.act(gid, user, choice)
                continue
            token = f"t{len(state.history)}"
            t = time.perf_counter()
            reply = await svc.press(
                Caller(GUILD, channel, user), Press(gid, PressCode.DO, token, (codec.encode(choice),))
            )
            finals.append(time.perf_counter() - t)
            final = reply.also[0]
            assert any(f.filename == "summary.png" for f in final.files), final
            assert final.posted is not None
            t = time.perf_counter()
            await final.posted(channel, 1)
            task = svc.thread.task(gid)
            assert task is not None
            await task
            gifs.append(time.perf_counter() - t)
            break
        svc._lines.pop(gid, None)
    return finals, gifs


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--finals", type=int, default=12)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db")
        wiring = Wiring(
            settings, pictures=PoolPictures(args.workers)
        )  # the bot's parts, as start-up builds them
        svc = await wiring.__aenter__()
        await svc.start(NullMessenger())
        boards = ["europe", "usa", "germany", "italy", "japan", "marklin"]
        games = [await open_game(svc, 1000 + i, boards[i % len(boards)]) for i in range(args.games)]
        # warm the render workers (each board's printed map is rasterised once per worker)
        await asyncio.gather(*(svc.turn_message(g) for g in games))
        await svc.pictures.pool.warmed()  # type: ignore[attr-defined] # every worker: every lobby's board
        cmds = await bench_commands(svc, games, args.moves)
        every = [v for vs in cmds.values() for v in vs]
        print(f"CPUs {os.cpu_count()}, render workers {svc.pictures.pool.workers}")  # type: ignore[attr-defined]
        print("1. non-rendering commands (engine + storage + reply built):")
        for name, vs in cmds.items():
            if vs:
                print(
                    f"   {name:13s} n={len(vs):4d} p50 {statistics.median(vs) * 1e3:6.1f} ms"
                    f"  p99 {pct(vs, 0.99) * 1e3:6.1f} ms"
                )
        print(f"   all           n={len(every):4d} p99 {pct(every, 0.99) * 1e3:6.1f} ms (target < 50 ms)")
        turns = await bench_turn_messages(svc, games, args.moves // 2)
        print(
            f"2. turn message with its board PNG ready after the move: n={len(turns)} "
            f"p50 {statistics.median(turns) * 1e3:.0f} ms  p95 {pct(turns, 0.95) * 1e3:.0f} ms (target < 500 ms)"
        )
        lags, wall = await bench_loop_lag(svc, games)
        print(
            f"3. event-loop lag while {len(games)} games render at once ({wall:.2f} s wall): "
            f"max {max(lags) * 1e3:.1f} ms  p99 {pct(lags, 0.99) * 1e3:.1f} ms (target < 50 ms)"
        )
        moves = await bench_moves(svc, games, args.moves // 2)
        print(
            f"4. a normal move's answer without its picture: n={len(moves)} "
            f"p50 {statistics.median(moves) * 1e3:.0f} ms  p95 {pct(moves, 0.95) * 1e3:.0f} ms (target < 150 ms)"
        )
        maps = await bench_ticket_maps(svc, games, max(2 * len(games), args.moves // 4))
        print(
            f"5. My tickets on the map (PNG in the render pool): n={len(maps)} "
            f"p50 {statistics.median(maps) * 1e3:.0f} ms  p95 {pct(maps, 0.95) * 1e3:.0f} ms (target < 400 ms)"
        )
        finals, gifs = await bench_final_move(svc, args.finals)
        print(
            f"6. the move that ends a game, final scores + board + chart ready: n={len(finals)} "
            f"p50 {statistics.median(finals) * 1e3:.0f} ms  p95 {pct(finals, 0.95) * 1e3:.0f} ms (target < 1500 ms); "
            f"its GIF posted after: p50 {statistics.median(gifs) * 1e3:.0f} ms  p95 {pct(gifs, 0.95) * 1e3:.0f} ms"
        )
        await wiring.__aexit__(None, None, None)


if __name__ == "__main__":
    asyncio.run(main())

"""Render board pictures in worker processes so the bot's event loop never waits on cairo.

>>> async def post(pool: RenderPool, board_id: str, view: BoardView) -> bytes:  # doctest: +SKIP
...     return await pool.render_board(board_id, view)

Workers load boards by id (``maps.board.load_board`` is cached per process) and keep the rasterised printed map
of each board (see :mod:`render.png`), so after the first picture of a board a worker only draws the game layer.
Only small things cross the process boundary: a board id, a :class:`~render.model.BoardView` and PNG bytes.

Warming. The first picture of a board in a worker costs ~1 s more than the next ones (layout, the printed map
rasterised, its palette). A warm job draws what the game will ask of the worker: the whole board, the turn
picture (its zoomed printed map, its locator's), and what the game's end draws at a width no turn picture has:
the final panel's frames and icons for every number of seats (the GIF's own worker warms its printed map).
:meth:`RenderPool.warm` lists boards (with the width, colour-blind flag and words they are drawn with) that every worker draws once
ahead, in the background: each worker is its own one-process executor, so the pool knows which worker has
drawn what, gives a worker a warm job only while it has nothing else to do (a picture asked meanwhile waits at
most for the one board being warmed) and, with two workers or more, while another worker stays free for
pictures (the workers take turns: warming takes longer, a picture asked during it does not wait); it sends a
picture to an idle worker, one that has its board warm when it has the choice, and warms a worker that replaces
a crashed one again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .model import BoardView
from .words import ENGLISH, PictureWords

log = logging.getLogger(__name__)

#: What a worker draws ahead: (board id, width, colour-blind, words), as the board picture will be drawn.
WarmKey = tuple[str, int, bool, PictureWords]

#: At most this many warm keys: each keeps two entries of the printed-map cache of every worker (render.png
#: keeps 24), and the game's own pictures need room there too.
MAX_WARM_KEYS = 8


def warm_key(
    board_id: str, *, width: int = 1600, colorblind: bool = True, words: PictureWords = ENGLISH
) -> WarmKey:
    return (board_id, width, colorblind, words)


def _init_worker(nice: int) -> None:
    """Worker start: lower priority (the bot's event loop wins the CPU), then the drawing modules imported."""
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    import maps.board  # noqa: F401 - imported once here rather than in the first picture
    import render.png  # noqa: F401


def stop_executor(executor: ProcessPoolExecutor, *, wait: bool, timeout: float = 10.0) -> None:
    """Shut `executor` down without hanging on a worker that died while it sent a result. The executor keeps its
    own copy of the result pipe's writing end, so a message cut short by the worker's death (OOM, kill -9 while
    sending a picture) left its reading thread waiting for the rest for ever, and a shutdown that waits for that
    thread never returned (a test that kills workers hung in its teardown, now and then). Closing that copy ends
    the read: the executor sees a broken pool and stops. `wait`: its processes are waited for (`timeout`), then
    killed."""
    processes = list((executor._processes or {}).values())  # noqa: SLF001
    queue = getattr(executor, "_result_queue", None)  # (shutdown forgets it)
    executor.shutdown(wait=False, cancel_futures=True)
    with contextlib.suppress(Exception):
        queue._writer.close()  # type: ignore[union-attr]  # noqa: SLF001
    if not wait:
        return
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def _ready() -> int:
    return os.getpid()


def _warm(board_id: str, width: int, colorblind: bool, words: PictureWords) -> tuple[int, float]:
    """Draw board `board_id` once as its pictures will be drawn (the printed map and its palette cached)."""
    from engine.rules import MAX_PLAYERS, MIN_PLAYERS
    from maps.board import load_board

    from .model import LastMove
    from .png import render_board_png, static_surface
    from .turn_picture import render_turn_png, warm_levels

    started = time.perf_counter()
    board = load_board(board_id)
    render_board_png(board, None, width=width, colorblind=colorblind, words=words)
    # the turn picture's printed map at each level it is composed at, and its locator's
    warm_levels(board, colorblind, words)
    render_turn_png(board, BoardView(last_move=LastMove(routes=(0,))), colorblind=colorblind, words=words)
    # the game's end: its whole board, drawn at a width no turn picture has: the panel's frames, icons and
    # titles of the final scores, for every number of players (the same in every game; the GIF has a worker
    # of its own, see run_background)
    lo, hi = board.rules.get("players", [MIN_PLAYERS, MAX_PLAYERS])
    for n in range(lo, hi + 1):
        render_board_png(board, _final_view(board.id, n), width=width, colorblind=colorblind, words=words)
    static_surface(
        board, width, colorblind, labels_only=True, words=words
    )  # names the claims hide, painted again
    return os.getpid(), time.perf_counter() - started


def _final_view(board_id: str, players: int) -> BoardView:
    """A final board of `players` seats with nothing on the map: what every game's final panel on this board
    shares (its rows' frames, the board's counters and icons, the titles)."""
    import dataclasses

    from engine.rules import new_game

    from .from_engine import board_view

    start = board_view(new_game(board_id, players, seed=0))
    panels = tuple(dataclasses.replace(p, name="", completed_tickets=0) for p in start.players)
    return BoardView(players=panels, final=True)


def _warm_gif(board_id: str, colorblind: bool, words: PictureWords) -> int:
    """The GIF worker's warm job: the GIF's printed map and names at its width."""
    from maps.board import load_board

    from .gif import GIF_WIDTH
    from .png import render_board_image

    render_board_image(load_board(board_id), None, width=GIF_WIDTH, colorblind=colorblind, words=words)
    return os.getpid()


def _render_board(board_id: str, view: BoardView | None, opts: dict[str, Any]) -> bytes:
    from maps.board import load_board

    from .png import render_board_png

    return render_board_png(load_board(board_id), view, **opts)


def _render_turn(board_id: str, view: BoardView, opts: dict[str, Any]) -> bytes:
    from maps.board import load_board

    from .turn_picture import render_turn_png

    return render_turn_png(load_board(board_id), view, **opts)


def _call(fn_path: str, args: tuple, kwargs: dict[str, Any]) -> bytes:
    import importlib

    module, _, name = fn_path.rpartition(".")
    if not module.startswith("render."):
        raise ValueError(f"RenderPool.run only runs render functions, not {fn_path!r}")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


@dataclass(eq=False)
class _Worker:
    """One worker process (a one-process executor) and what the pool knows of it."""

    executor: ProcessPoolExecutor
    busy: int = 0  # jobs submitted and not finished (pictures and warm jobs)
    generation: int = 0  # +1 each time a crashed process is replaced
    pid: int | None = None
    warmed: dict[WarmKey, float] = field(default_factory=dict)  # key -> seconds the warm job took
    failed: set[WarmKey] = field(default_factory=set)  # warm jobs that raised here: not tried again
    warming: WarmKey | None = None


@dataclass(frozen=True)
class WorkerState:
    """What :meth:`RenderPool.warm_state` tells of one worker."""

    pid: int | None
    replaced: int  # crashed processes replaced in this slot
    busy: int
    warmed: tuple[str, ...]  # board ids warmed (in the order they were)
    pending: tuple[str, ...]  # board ids still to warm
    seconds: tuple[float, ...]  # how long each warm job of `warmed` took


class RenderPool:
    """A process pool for pictures; use as ``async with RenderPool() as pool`` or call :meth:`close`.

    `workers` defaults to the number of CPUs (at least 1, at most 4); one picture takes ~0.1 s of CPU. Workers
    run at a lower priority (`nice`, Unix) so that the bot's own process keeps the CPU it needs. `warm` lists
    board ids (or :func:`warm_key`s) every worker draws once ahead (~1 s each), from the first call that finds a
    running event loop (:meth:`start`, :meth:`warm`, a picture); :meth:`warmed` waits for it.

    A worker that dies (killed, out of memory) breaks only its own executor: the pool starts a new process in
    its place, which warms again, and the pictures that were in it are asked once more of the pool.
    """

    def __init__(
        self, workers: int | None = None, *, warm: Iterable[str | WarmKey] = (), nice: int = 10
    ) -> None:
        self._ctx = multiprocessing.get_context("spawn")  # no inherited event loop or sockets from the bot
        self._nice = nice
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._slots = [_Worker(self._new_executor()) for _ in range(self.workers)]
        self._warm_at_once = max(1, self.workers - 1)  # one worker stays free for pictures while others warm
        self._keys: dict[WarmKey, None] = {}  # ordered set of what every worker warms
        self._poison: set[WarmKey] = set()  # warm jobs that killed a worker: never warmed again
        self._loop: asyncio.AbstractEventLoop | None = None
        self._settled: asyncio.Event | None = None
        self._closed = False
        self._background: ProcessPoolExecutor | None = None  # long jobs' own worker (run_background)
        self._background_warm: set[tuple[str, bool, PictureWords]] = set()
        self._add_keys(warm)

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1, mp_context=self._ctx, initializer=_init_worker, initargs=(self._nice,)
        )

    # ------------------------------------------------------------------ pictures

    async def render_board(self, board_id: str, view: BoardView | None = None, **opts: Any) -> bytes:
        """PNG of board `board_id` with `view`; `opts` as for :func:`render.png.render_board_png`."""
        key = warm_key(
            board_id,
            width=opts.get("width", 1600),
            colorblind=opts.get("colorblind", True),
            words=opts.get("words", ENGLISH),
        )
        data: bytes = await self._submit(key, _render_board, board_id, view, opts)
        return data

    async def render_turn(self, board_id: str, view: BoardView, **opts: Any) -> bytes:
        """The turn picture of board `board_id` (:func:`render.turn_picture.render_turn_png`; `opts`:
        `colorblind`, `words`), by a worker that has the board warm when one is free."""
        key = warm_key(board_id, colorblind=opts.get("colorblind", True), words=opts.get("words", ENGLISH))
        data: bytes = await self._submit(key, _render_turn, board_id, view, opts)
        return data

    async def run(self, fn_path: str, *args: Any, **kwargs: Any) -> bytes:
        """Run any picture function by dotted path in a worker, e.g. ``run("render.hand.render_hand_png", ...)``."""
        data: bytes = await self._submit(None, _call, fn_path, args, kwargs)
        return data

    async def run_background(self, fn_path: str, *args: Any, **kwargs: Any) -> bytes:
        """Like :meth:`run`, in a worker of its own at the lowest priority, for long jobs (the game's GIF: a
        second or more of drawing): in a picture worker such a job held up every turn picture and final board
        queued behind it; here the system gives them the CPU first. Started by the first call or
        :meth:`start`; a crashed one is replaced once."""
        loop = self._bind()
        for attempt in range(2):
            executor = self._background_executor()  # (started by start(), from a thread, in the bot)
            self._warm_background()
            try:
                data: bytes = await loop.run_in_executor(executor, _call, fn_path, args, kwargs)
                return data
            except BrokenProcessPool:
                if self._background is executor:
                    stop_executor(executor, wait=False)
                    self._background = None
                    self._background_warm.clear()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _background_executor(self) -> ProcessPoolExecutor:
        if self._background is None:
            nice = min(19, self._nice + 9) if self._nice else 0
            self._background = ProcessPoolExecutor(
                max_workers=1, mp_context=self._ctx, initializer=_init_worker, initargs=(nice,)
            )
        return self._background

    def _warm_background(self) -> None:
        """The GIF worker draws the GIF's printed map of every warm key once (queued before its next job;
        submitted from a thread, as the process may start with it)."""
        if self._background is None or self._closed or self._loop is None:
            return
        todo = [(b, c, w) for b, _width, c, w in self._keys if (b, c, w) not in self._background_warm]
        if not todo:
            return
        self._background_warm.update(todo)
        executor = self._background

        def submit() -> None:
            with contextlib.suppress(RuntimeError, BrokenProcessPool):  # closed or dead: the next job says
                for key in todo:
                    executor.submit(_warm_gif, *key)

        self._loop.run_in_executor(None, submit)

    def _pick(self, key: WarmKey | None) -> _Worker:
        """The least busy worker; among those, one that has `key` warm, or is warming it."""
        return min(self._slots, key=lambda w: (w.busy, key not in w.warmed, key != w.warming))

    async def _submit(self, key: WarmKey | None, fn: Callable[..., Any], *args: Any) -> Any:
        first = self._loop is not asyncio.get_running_loop()
        loop = self._bind()
        for dead in [w for w in self._slots if w.executor._broken]:  # noqa: SLF001 - died idle since the last job
            self._replace(dead, dead.executor)
        for attempt in range(2):  # a crashed worker's pictures are asked again once, of the replacement
            worker = self._pick(key)
            executor = worker.executor
            worker.busy += 1
            generation, started = worker.generation, time.perf_counter()
            try:
                future = loop.run_in_executor(executor, fn, *args)
                if first:  # the constructor's warm list starts in the other workers, after this picture
                    first = False
                    for other in self._slots:
                        self._kick(other)
                result = await future
                if key is not None and worker.generation == generation:  # drawn there: no need to warm it
                    worker.warmed.setdefault(key, time.perf_counter() - started)
                return result
            except BrokenProcessPool:
                self._replace(worker, executor)
                if attempt:
                    raise
            finally:
                worker.busy -= 1
                self._kick_all(worker)
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ warming

    def start(self) -> None:
        """Start every worker process now (a picture need not wait for one to start) and the warm jobs known
        so far. Needs a running event loop; returns at once."""
        self._bind()
        for worker in self._slots:
            if worker.busy == 0 and worker.pid is None:
                self._spawn(worker)
            else:
                self._kick(worker)
        if self._background is None and not self._closed:  # the GIF worker starts too, and warms
            assert self._loop is not None
            executor = self._background_executor()

            def spawn() -> None:  # from a thread: starting a process holds its caller
                with contextlib.suppress(RuntimeError, BrokenProcessPool):  # closed meanwhile
                    executor.submit(_ready)

            self._loop.run_in_executor(None, spawn)
        self._warm_background()

    def _spawn(self, worker: _Worker) -> None:
        """Start `worker`'s process from a thread (starting a process holds its caller ~10-100 ms: not the event
        loop), then its warm jobs."""
        assert self._loop is not None
        worker.busy += 1
        executor = worker.executor

        async def ready() -> int:
            submitted = await asyncio.to_thread(executor.submit, _ready)
            pid: int = await asyncio.wrap_future(submitted)
            return pid

        self._track(worker, None, self._loop.create_task(ready()))

    def warm(self, keys: Iterable[str | WarmKey]) -> None:
        """Have every worker (and every replacement of one) draw these boards once, when it has nothing else to
        do. A board id alone is drawn 1600 px wide, colour-blind, in English. Needs a running event loop;
        returns at once."""
        self._bind()
        self._add_keys(keys)
        for worker in self._slots:
            self._kick(worker)
        self._warm_background()

    async def warmed(self) -> None:
        """Wait until every worker has drawn every board of :meth:`warm` (or failed to)."""
        self._bind()
        assert self._settled is not None
        self._update_settled()
        await self._settled.wait()

    def warm_state(self) -> list[WorkerState]:
        """Each worker: its process id, how often it was replaced, what it has warmed and what it has still to."""
        return [
            WorkerState(
                pid=w.pid,
                replaced=w.generation,
                busy=w.busy,
                warmed=tuple(k[0] for k in w.warmed),
                pending=tuple(k[0] for k in self._pending(w)),
                seconds=tuple(w.warmed.values()),
            )
            for w in self._slots
        ]

    def worker_pids(self) -> list[int]:
        """The live worker processes' ids (for benchmarks: their CPU time, their memory)."""
        pids = [pid for w in self._slots for pid in list(w.executor._processes or {})]  # noqa: SLF001
        if self._background is not None:
            pids += list(self._background._processes or {})  # noqa: SLF001
        return pids

    def _add_keys(self, keys: Iterable[str | WarmKey]) -> None:
        for k in keys:
            key = warm_key(k) if isinstance(k, str) else k
            if key in self._keys or key in self._poison:
                continue
            if len(self._keys) >= MAX_WARM_KEYS:
                log.warning(
                    "render pool: not warming %s: %d boards are warmed already", key[0], MAX_WARM_KEYS
                )
                continue
            self._keys[key] = None

    def _pending(self, worker: _Worker) -> list[WarmKey]:
        """What `worker` has still to warm, in its order: worker i starts at the i-th key, so that the first
        boards are each warm somewhere soon (a picture goes to a worker that has its board, when it can)."""
        keys = list(self._keys)
        if keys:
            turn = self._slots.index(worker) % len(keys)
            keys = keys[turn:] + keys[:turn]
        return [k for k in keys if k not in worker.warmed and k not in worker.failed and k != worker.warming]

    def _bind(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._settled = loop, asyncio.Event()
        return loop

    def _loop_run(self, worker: _Worker, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        assert self._loop is not None
        worker.busy += 1
        return self._loop.run_in_executor(worker.executor, fn, *args)

    def _kick_all(self, last: _Worker) -> None:
        """Give warm jobs to the idle workers, `last` last (the workers take turns)."""
        at = self._slots.index(last) + 1
        for worker in self._slots[at:] + self._slots[:at]:
            self._kick(worker)

    def _kick(self, worker: _Worker) -> None:
        """Give `worker` its next warm job if it is idle and another worker is left free for pictures."""
        warming = sum(w.warming is not None for w in self._slots)
        if self._closed or self._loop is None or worker.busy or warming >= self._warm_at_once:
            self._update_settled()
            return
        pending = self._pending(worker)
        if not pending:
            self._update_settled()
            return
        key = pending[0]
        worker.warming = key
        try:
            future = self._loop_run(worker, _warm, *key)
        except BrokenProcessPool:  # broken between two jobs: replaced, the new process warms
            worker.busy -= 1
            worker.warming = None
            self._replace(worker, worker.executor)
            return
        except RuntimeError:  # shut down meanwhile
            worker.busy -= 1
            worker.warming = None
            return
        self._track(worker, key, future)
        self._update_settled()

    def _track(self, worker: _Worker, key: WarmKey | None, future: asyncio.Future[Any]) -> None:
        generation, executor = worker.generation, worker.executor

        def done(fut: asyncio.Future[Any]) -> None:
            worker.busy -= 1
            if self._closed:
                return
            if worker.generation != generation:  # a job of a process already replaced
                self._kick_all(worker)
                return
            if key is not None:
                worker.warming = None
            if fut.cancelled():
                pass
            elif isinstance(exc := fut.exception(), BrokenProcessPool):
                if key is not None:
                    log.error("render pool: warming board %s killed a worker; not warming it again", key[0])
                    self._poison.add(key)
                    self._keys.pop(key, None)
                # a process that died before it was ready is started again by the next job, not at once: a
                # worker that cannot start does not spin
                self._replace(worker, executor, start=key is not None)
            elif exc is not None:
                if key is not None:
                    worker.failed.add(key)
                log.error("render pool: warm-up job failed", exc_info=exc)
            else:
                pid, seconds = fut.result() if key is not None else (fut.result(), 0.0)
                worker.pid = pid
                if key is not None:
                    worker.warmed[key] = seconds
                    log.debug("render worker %s warmed %s in %.2f s", pid, key[0], seconds)
            self._kick_all(worker)

        future.add_done_callback(done)

    def _replace(self, worker: _Worker, broken: ProcessPoolExecutor, *, start: bool = True) -> None:
        """A new process for `worker`, whose process died (once per death: the jobs that see it all call);
        `start`: started now (then it warms), else by its next job."""
        if worker.executor is not broken or self._closed:
            return
        log.warning(
            "render worker %s died; starting another (it warms %d boards)", worker.pid, len(self._keys)
        )
        stop_executor(broken, wait=False)
        worker.executor = self._new_executor()
        worker.generation += 1
        worker.pid = None
        worker.warmed.clear()
        worker.failed.clear()
        worker.warming = None
        if start and self._loop is not None:
            self._spawn(worker)

    def _update_settled(self) -> None:
        if self._settled is None:
            return
        if self._closed or all(w.warming is None and not self._pending(w) for w in self._slots):
            self._settled.set()
        else:
            self._settled.clear()

    # ------------------------------------------------------------------ closing

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers (`wait`: until they have exited); what is still queued is cancelled."""
        self._closed = True
        for worker in self._slots:
            stop_executor(worker.executor, wait=wait)
        if self._background is not None:
            stop_executor(self._background, wait=wait)
        loop = self._loop
        if loop is not None and not loop.is_closed():  # wake whoever waits in warmed(), on its own loop
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._update_settled)

    async def __aenter__(self) -> RenderPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closed = True  # no new warm job from here
        await asyncio.get_running_loop().run_in_executor(None, self.close)

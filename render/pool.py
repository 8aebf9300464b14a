"""Render board pictures in worker processes so the bot's event loop never waits on cairo.

>>> async def post(pool: RenderPool, board_id: str, view: BoardView) -> bytes:  # doctest: +SKIP
...     return await pool.render_board(board_id, view)

Workers load boards by id (``maps.board.load_board`` is cached per process) and keep the rasterised printed map
of each board (see :mod:`render.png`), so after the first picture of a board a worker only draws the game layer.
Only small things cross the process boundary: a board id, a :class:`~render.model.BoardView` and PNG bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .model import BoardView


def _init_worker(board_ids: Sequence[str], nice: int) -> None:
    """Worker start: lower priority (the bot's event loop wins the CPU), then pre-render the warm boards."""
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    from maps.board import load_board

    from .png import render_board_png

    for bid in board_ids:
        render_board_png(load_board(bid), None)


def _render_board(board_id: str, view: BoardView | None, opts: dict[str, Any]) -> bytes:
    from maps.board import load_board

    from .png import render_board_png

    return render_board_png(load_board(board_id), view, **opts)


def _call(fn_path: str, args: tuple, kwargs: dict[str, Any]) -> bytes:
    import importlib

    module, _, name = fn_path.rpartition(".")
    if not module.startswith("render."):
        raise ValueError(f"RenderPool.run only runs render functions, not {fn_path!r}")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


class RenderPool:
    """A process pool for pictures; use as ``async with RenderPool() as pool`` or call :meth:`close`.

    `workers` defaults to the number of CPUs (at least 1, at most 4); one picture takes ~0.1 s of CPU. Workers
    run at a lower priority (`nice`, Unix) so that the bot's own process keeps the CPU it needs. `warm` lists
    board ids every worker renders once at start (~1 s each) so the first real picture is fast.
    """

    def __init__(self, workers: int | None = None, *, warm: Iterable[str] = (), nice: int = 10) -> None:
        ctx = multiprocessing.get_context("spawn")  # no inherited event loop or sockets from the bot
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=ctx, initializer=_init_worker, initargs=(tuple(warm), nice)
        )

    async def render_board(self, board_id: str, view: BoardView | None = None, **opts: Any) -> bytes:
        """PNG of board `board_id` with `view`; `opts` as for :func:`render.png.render_board_png`."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _render_board, board_id, view, opts)

    async def run(self, fn_path: str, *args: Any, **kwargs: Any) -> bytes:
        """Run any picture function by dotted path in a worker, e.g. ``run("render.hand.render_hand_png", ...)``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _call, fn_path, args, kwargs)

    def close(self, *, wait: bool = True) -> None:
        self._executor.shutdown(wait=wait, cancel_futures=True)

    async def __aenter__(self) -> RenderPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

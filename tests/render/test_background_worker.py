"""Issue 32: the game's GIF is drawn by a worker of its own at the lowest priority, so that the turn pictures and
the final board never queue behind it (seconds of drawing in a picture worker held them up)."""

from __future__ import annotations

import asyncio
import os

from render.model import BoardView
from render.pool import RenderPool


async def test_a_long_job_runs_in_its_own_worker_at_a_lower_priority() -> None:
    async with RenderPool(1, nice=5) as pool:
        pool.start()
        picture_pid = await asyncio.wait_for(pool.run("render.pool._ready"), 60)
        background_pid = await asyncio.wait_for(pool.run_background("render.pool._ready"), 60)
        gif = await asyncio.wait_for(
            pool.run_background("render.gif.render_game_gif", "usa", [BoardView()], width=120), 60
        )
        assert background_pid != picture_pid
        assert set(pool.worker_pids()) == {picture_pid, background_pid}  # the benches count its CPU too
        assert os.getpriority(os.PRIO_PROCESS, background_pid) > os.getpriority(os.PRIO_PROCESS, picture_pid)
    assert gif[:6] == b"GIF89a"

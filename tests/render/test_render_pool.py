"""The render pool keeps the event loop responsive while pictures are made."""

from __future__ import annotations

import asyncio
import io
import time

from PIL import Image
from render_helpers import midgame

from maps.board import load_board
from render.pool import RenderPool


async def _max_lag(stop: asyncio.Event, tick: float = 0.01) -> tuple[float, int]:
    worst, ticks = 0.0, 0
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(tick)
        worst = max(worst, time.perf_counter() - t - tick)
        ticks += 1
    return worst, ticks


async def test_pool_renders_without_blocking_the_loop():
    view = midgame(load_board("europe"))
    async with RenderPool(workers=2, warm=("europe",)) as pool:
        await pool.render_board("europe", None, width=200)  # workers up
        stop = asyncio.Event()
        watcher = asyncio.create_task(_max_lag(stop))
        t = time.perf_counter()
        pngs = await asyncio.gather(*(pool.render_board("europe", view) for _ in range(5)))
        wall = time.perf_counter() - t
        stop.set()
        lag, ticks = await watcher
    assert len(pngs) == 5
    for data in pngs:
        assert Image.open(io.BytesIO(data)).size[0] == 1600
    # Rendering inline would freeze the loop for the whole `wall`; through the pool it keeps ticking. The bounds
    # are loose because CI machines are shared: the loop only has to stay far from blocked.
    assert ticks >= wall / 0.01 * 0.3, (ticks, wall)
    assert lag < 0.25, f"event loop stalled {lag * 1000:.0f} ms"


async def test_pool_runs_other_render_functions_only():
    async with RenderPool(workers=1) as pool:
        png = await pool.run("render.hand.render_hand_png", {"red": 2}, [])
        assert png[:4] == b"\x89PNG"
        try:
            await pool.run("os.getcwd")
        except ValueError:
            pass
        else:
            raise AssertionError("non-render function ran")

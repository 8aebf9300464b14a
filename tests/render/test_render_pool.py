"""The render pool keeps the event loop responsive while pictures are made."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import time

import pytest
from helpers.render_states import midgame
from PIL import Image

from maps.board import load_board
from render.pool import RenderPool, warm_key


async def _max_lag(stop: asyncio.Event, tick: float = 0.01) -> tuple[float, int]:
    worst, ticks = 0.0, 0
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(tick)
        worst = max(worst, time.perf_counter() - t - tick)
        ticks += 1
    return worst, ticks


@pytest.mark.cluster  # two real worker processes drawing Europe at full size, timed against the loop
@pytest.mark.xdist_group("timing")  # measures the loop's lag: not beside another timing-bound test
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
    # Rendering inline would freeze the loop for the whole `wall`, a picture (about 2/5 of it here) at a time;
    # through the pool it keeps ticking. The bounds are loose because the machine is shared (other work, the
    # other test worker): the loop only has to stay far from blocked, and a stall a quarter of an inline
    # picture's is still far (0.26 s was seen once on a loaded 2-core machine, where `wall` was 8 s).
    assert ticks >= wall / 0.01 * 0.3, (ticks, wall)
    assert lag < max(0.25, wall / 10), f"event loop stalled {lag * 1000:.0f} ms in {wall:.1f} s"


async def test_pool_draws_the_turn_picture_on_a_worker_that_warmed_the_board():
    view = midgame(load_board("usa"))
    async with RenderPool(workers=1, warm=("usa",)) as pool:
        pool.start()
        await asyncio.wait_for(pool.warmed(), 120)
        png = await asyncio.wait_for(pool.render_turn("usa", view), 60)
        state = pool.warm_state()
    assert Image.open(io.BytesIO(png)).size == (800, 600)
    assert state[0].warmed == ("usa",)


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


@pytest.mark.cluster  # real worker processes killed with SIGKILL, and three rounds of cold warm-ups (7 s)
async def test_every_worker_warms_and_a_worker_that_dies_is_replaced_and_warms_again():
    keys = [warm_key("italy", width=300), warm_key("japan", width=300)]
    async with RenderPool(workers=2) as pool:
        pool.start()
        pool.warm(keys)
        await asyncio.wait_for(pool.warmed(), 120)
        before = pool.warm_state()
        assert [w.warmed for w in before] == [("italy", "japan"), ("japan", "italy")]  # each its own first
        assert all(w.pid is not None and w.replaced == 0 and w.pending == () for w in before)

        dead = before[0].pid
        assert dead is not None
        os.kill(dead, signal.SIGKILL)
        await asyncio.sleep(0.2)
        # The next picture finds the dead worker (replaced then, or when the picture sent to it fails: then it
        # is asked again of the pool) and is drawn.
        png = await asyncio.wait_for(pool.render_board("italy", None, width=300), 120)
        assert png[:4] == b"\x89PNG"
        await asyncio.wait_for(pool.warmed(), 120)
        after = pool.warm_state()
        assert after[0].replaced == 1 and after[0].pid not in (None, dead)
        assert after[0].warmed == ("italy", "japan")  # the new process warmed the same boards
        assert after[1].pid == before[1].pid and after[1].replaced == 0

        # A worker killed while it draws a picture: the picture is asked again of the pool, and drawn.
        # (a picture at a width not warmed: drawn cold, long enough for the kill to land while it draws)
        picture = asyncio.create_task(pool.render_board("japan", None, width=2400))
        for _ in range(2000):  # sent to a worker (at once on a quiet machine; a loaded one may take a moment)
            working = [i for i, w in enumerate(pool.warm_state()) if w.busy]
            if working:
                break
            await asyncio.sleep(0.001)
        (busy,) = working
        victim = pool.warm_state()[busy].pid
        assert victim is not None
        os.kill(victim, signal.SIGKILL)
        assert (await asyncio.wait_for(picture, 120))[:4] == b"\x89PNG"
        assert pool.warm_state()[busy].replaced == after[busy].replaced + 1


@pytest.mark.cluster  # a real worker process warming three boards cold
async def test_a_picture_waits_for_at_most_the_board_being_warmed():
    async with RenderPool(workers=1) as pool:
        pool.warm([warm_key(b, width=300) for b in ("italy", "japan", "usa")])  # the first job starts now
        png = await asyncio.wait_for(pool.render_board("italy", None, width=300), 120)
        assert png[:4] == b"\x89PNG"
        (state,) = pool.warm_state()
        # The picture went in right after the warm job already running, before the two others.
        assert len(state.warmed) <= 1 and len(state.warmed) + len(state.pending) >= 2
        await asyncio.wait_for(pool.warmed(), 120)
        assert pool.warm_state()[0].warmed == ("italy", "japan", "usa")


def test_a_worker_that_dies_while_it_sends_a_picture_does_not_hang_the_shutdown():
    """A worker killed halfway through sending its result (its message cut short on the pipe) left the executor's
    reading thread waiting for the rest for ever, and the pool's close with it (a test hung in its teardown)."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from helpers.pool_faults import die_while_sending

    from render.pool import stop_executor

    executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    future = executor.submit(die_while_sending)
    deadline = time.monotonic() + 30
    while not (executor._processes and not any(p.is_alive() for p in executor._processes.values())):  # noqa: SLF001
        assert time.monotonic() < deadline, "the worker never exited"
        time.sleep(0.01)  # until the worker has written its half message and exited
    assert not future.done()  # the executor's thread is stuck in the read
    stopping = threading.Thread(target=stop_executor, args=(executor,), kwargs={"wait": True}, daemon=True)
    stopping.start()
    stopping.join(15)
    assert not stopping.is_alive(), "the shutdown hangs"
    with pytest.raises(BrokenProcessPool):
        future.result(timeout=15)

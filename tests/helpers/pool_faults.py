"""A render worker that dies halfway through sending its result (for tests/render/test_render_pool.py): run in a
worker process of a ProcessPoolExecutor, it writes the length of a 1 MB message on the executor's result pipe,
10 bytes of it, and exits at once, as a worker killed (OOM, kill -9) while it sends a picture."""

from __future__ import annotations

import gc
import multiprocessing.queues
import os
import struct


def die_while_sending() -> None:
    (queue,) = [o for o in gc.get_objects() if isinstance(o, multiprocessing.queues.SimpleQueue)]
    writer = queue._writer  # noqa: SLF001 - the pipe the executor reads its results from
    os.write(writer.fileno(), struct.pack("!i", 1_000_000) + b"x" * 10)
    os._exit(1)

"""Shutting a SimCord environment down closes the production bot, its game service and its SQLite connections,
after the reads still in flight: no aiosqlite worker thread is left to report to an event loop that pytest then
closes ("Event loop is closed", PytestUnhandledThreadExceptionWarning). SimCord's own shutdown cancels the bot's
tasks (the timer dispatcher, maybe mid-read) but never calls ``bot.close()``."""

from __future__ import annotations

import asyncio
import threading
import time

from helpers.simcord_env import ClosingEnv


async def test_shutdown_waits_for_the_read_in_flight_and_closes_the_storage(make_bot) -> None:  # type: ignore[no-untyped-def]
    bot = make_bot()
    # as the simcord_env fixture builds it; a plain simcord.Env leaves the read pending and the threads running
    env = ClosingEnv(bot, shard_count=1)
    await env.start()
    repo = bot.service.manager._store.repo  # the SQLite repository the service opened
    reader, writer = repo._reader, repo._writer
    threads: list[threading.Thread] = [reader._thread, writer._thread]
    assert all(t.is_alive() for t in threads)
    await reader.create_function("slow", 0, lambda: time.sleep(0.3))
    read = asyncio.ensure_future(reader.execute_fetchall("SELECT slow()"))  # a read on its way
    await asyncio.sleep(0.05)
    await env.shutdown()
    assert read.done() and not read.cancelled()  # it finished while the loop ran
    assert repo._reader is None and repo._writer is None  # the service closed its storage
    for thread in threads:  # each has reported its last result (its stop) and only returns now
        thread.join(2)
    assert not any(t.is_alive() for t in threads)  # nothing left to outlive the event loop

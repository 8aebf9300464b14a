"""The end-of-game pictures in the render pool: the GIF replays the stored record round by round."""

from __future__ import annotations

import asyncio

from bot.play.pictures import PoolPictures, replay_views
from engine.record import make_record
from engine.simulate import play_game


def test_gif_and_summary_of_a_finished_game() -> None:
    state = play_game("usa", 2, seed=3).state
    assert state.finished
    record = make_record(state)
    views = replay_views(record)
    assert views[-1].final and 2 <= len(views) <= 60
    assert [v.round for v in views[:-1]] == sorted(v.round for v in views[:-1])

    async def draw() -> tuple[bytes, bytes]:
        pictures = PoolPictures(1)
        try:
            short = {**record, "actions": record["actions"][:12]}  # a few frames keep the test quick
            return await pictures.gif(short), await pictures.summary(state)
        finally:
            pictures.close()

    gif, summary = asyncio.run(draw())
    assert gif[:6] == b"GIF89a" and summary[:4] == b"\x89PNG"

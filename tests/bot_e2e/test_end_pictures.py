"""The end-of-game pictures in the render pool: the GIF replays the stored record round by round, in a render
worker (never in the bot's process)."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

import engine.record
import engine.rules
import render.replay
from bot.play.pictures import PoolPictures
from engine.playout import random_legal_action
from engine.record import make_record
from engine.rules import apply, new_game, to_act
from engine.simulate import play_game
from render.from_engine import board_view
from render.replay import replay_views


def test_replay_views_are_one_per_round_and_the_final_one() -> None:
    state = play_game("usa", 2, seed=3).state
    assert state.finished
    views = replay_views(make_record(state))
    assert views[-1].final and 2 <= len(views) <= 60
    assert [v.round for v in views[:-1]] == sorted(v.round for v in views[:-1])
    assert len(replay_views(make_record(state), max_frames=5)) == 5


def test_the_gif_replays_a_game_whose_first_player_is_not_the_seeds_draw() -> None:
    """A game saved before the seed drew the first player (seat 0 started): its record names its first player,
    and the GIF's frames are that game's, not a replay refused at the first move out of turn."""
    drawn = new_game("usa", 2, seed=3).first_player
    state = new_game("usa", 2, seed=3, first_player=1 - drawn)
    rng = random.Random(3)
    while not state.finished:
        seat = to_act(state)[0]
        apply(state, seat, random_legal_action(state, seat, rng))
    record = make_record(state)
    assert record["first_player"] != drawn
    views = replay_views(record)
    assert views[-1] == board_view(state)
    assert views[-1].final


def test_the_gif_is_replayed_and_drawn_in_a_render_worker_not_in_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = play_game("usa", 2, seed=3).state
    record = make_record(state)
    short = {**record, "actions": record["actions"][:12]}  # a few frames keep the test quick
    frames = len(replay_views(short))

    def no_replay_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("the bot's process replayed the game")

    # the worker processes are spawned: these patches hold in this (the bot's) process only
    monkeypatch.setattr(render.replay, "replay_views", no_replay_here)
    monkeypatch.setattr(render.replay, "iter_replay", no_replay_here)
    monkeypatch.setattr(engine.record, "iter_replay", no_replay_here)
    monkeypatch.setattr(engine.rules, "new_game", no_replay_here)
    monkeypatch.setattr(engine.rules, "apply", no_replay_here)
    threads: list[object] = []
    real_to_thread = asyncio.to_thread

    async def to_thread(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        threads.append(fn)
        return await real_to_thread(fn, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", to_thread)

    async def draw() -> tuple[bytes, bytes]:
        pictures = PoolPictures(1, gif_width=240)
        try:
            return await pictures.gif(short), await pictures.summary(state)
        finally:
            pictures.close()

    gif, summary = asyncio.run(draw())
    assert gif[:6] == b"GIF89a" and summary[:4] == b"\x89PNG"
    with Image.open(io.BytesIO(gif)) as animation:
        # (Pillow merges two identical frames in a row)
        assert 2 <= animation.n_frames <= frames and animation.width == 240
    assert threads == []  # nor in a thread of the bot's process

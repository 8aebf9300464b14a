"""A finished game's GIF from its stored record, replayed where it is drawn: in a `RenderPool` worker, so the
bot's process and event loop do no replay work at the end of a game (issue 16, "the end of a game, fast").

Only public views become frames (`render.from_engine.board_view` reads `engine.views.public_view`). The frames'
last-move caption names what the move touched (its route or cities) without the bot's worded line: the worded
line comes from the bot's catalogue, which render does not import.
"""

from __future__ import annotations

from typing import Any

from engine.record import iter_replay, start_of

from .from_engine import board_view
from .gif import GIF_WIDTH, render_game_gif
from .model import BoardView
from .words import ENGLISH, PictureWords

MAX_GIF_FRAMES = 60


def replay_views(record: dict[str, Any], max_frames: int = MAX_GIF_FRAMES) -> list[BoardView]:
    """Public board views of a game, one per round (and the final one), replayed from its record; at most
    `max_frames`, evenly picked, the final one always last."""
    views: list[BoardView] = []
    last_round = -1
    state = start_of(record)
    for _i, _seat, _action, state in iter_replay(record):  # noqa: B007 - the last state is the final frame
        rnd = state.turn // max(1, state.num_players)
        if rnd != last_round and not state.finished:
            last_round = rnd
            views.append(board_view(state))
    views.append(board_view(state))
    if len(views) > max_frames:
        step = len(views) / max_frames
        views = [views[int(i * step)] for i in range(max_frames - 1)] + [views[-1]]
    return views


def render_record_gif(
    record: dict[str, Any],
    *,
    width: int = GIF_WIDTH,
    words: PictureWords = ENGLISH,
    max_frames: int = MAX_GIF_FRAMES,
    colorblind: bool = True,
) -> bytes:
    """The GIF of the game in `record` (`engine.record.make_record`): replayed, then drawn frame by frame."""
    views = replay_views(record, max_frames)
    return render_game_gif(record["map"], views, width=width, words=words, colorblind=colorblind)

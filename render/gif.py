"""An animated GIF of a game: one frame per round, from a list of public views.

>>> from maps.board import load_board
>>> data = render_game_gif(load_board("usa"), [BoardView(), BoardView()], width=400)
>>> data[:6] == b"GIF89a"
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial

from PIL import Image

from maps.board import Board, load_board

from .model import BoardView
from .png import board_surface
from .words import ENGLISH, PictureWords

#: The GIF's width in pixels (the bot's; the render workers warm its printed map: render.pool)
GIF_WIDTH = 640


def render_game_gif(
    board: Board | str,
    views: Sequence[BoardView],
    *,
    width: int = GIF_WIDTH,
    frame_ms: int = 600,
    last_frame_ms: int = 4000,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
) -> bytes:
    """GIF bytes: each view becomes a frame (``frame_ms`` each, the last held ``last_frame_ms``), looping."""
    if not views:
        raise ValueError("render_game_gif needs at least one view")
    if isinstance(
        board, str
    ):  # by id, so a RenderPool worker can load it: pool.run("render.gif.render_game_gif", id, views)
        board = load_board(board)
    # One palette for the whole animation, so that colours do not flicker between frames: the last frame's (the
    # busiest), drawn first for it; that frame is then mapped to the palette like every other (its pieces cached).
    frame = partial(_frame, board, width=width, colorblind=colorblind, words=words)
    palette: Image.Image = frame(views[-1], None)
    frames = [frame(view, palette) for view in views[:-1]]
    frames.append(frame(views[-1], palette))
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    buf = io.BytesIO()
    frames[0].save(
        buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False,
        disposal=1,
    )  # fmt: skip
    return buf.getvalue()


def _frame(
    board: Board,
    view: BoardView,
    palette: Image.Image | None,
    *,
    width: int,
    colorblind: bool,
    words: PictureWords,
) -> Image.Image:
    """The frame of `view` mapped to `palette`, or without one, the palette made from it (255 colours). Read
    straight from the drawn surface, not copied: the image does not outlive `surface`."""
    surface = board_surface(board, view, width=width, colorblind=colorblind, words=words)
    surface.flush()
    w, h = surface.get_width(), surface.get_height()
    rgb = Image.frombuffer("RGB", (w, h), surface.get_data(), "raw", "BGRX", surface.get_stride(), 1)
    if palette is None:
        return rgb.quantize(colors=255, method=Image.Quantize.FASTOCTREE)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)

"""The pictures' frames (render.sprites: the canvas-to-pixel mapping and cairosvg's text matrix and clip, keyed by a
picture's ``<svg>`` tag) are kept up to FRAME_CACHE_SIZE per process: a worker drawing pictures at ever new widths
keeps at most that many, and a picture whose frames were dropped is drawn again the same."""

from __future__ import annotations

from maps.board import load_board
from render import sprites
from render.png import render_board_png
from render.sprites import FRAME_CACHE_SIZE, PlainText, frame_of, rasterise_text
from tests.render.test_sprites import played

WIDTH = 700


def _flood(n: int) -> None:
    """Frames for `n` pictures at widths no other picture has (as many windows at new scales would open)."""
    for i in range(n):
        head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{2000 + i}" height="{1500 + i}" viewBox="0 0 1000 750" font-family="DejaVu Sans">'
        frame_of(head)
        rasterise_text(head, PlainText(None, {"x": "10", "y": "20", "font-size": "12"}, str(i)))


def test_many_new_widths_keep_the_frames_at_their_cap_and_the_pictures_unchanged():
    board = load_board("europe")
    view = played("europe", 30)
    sprites.SPRITES.clear()
    before = render_board_png(board, view, width=WIDTH)
    _flood(FRAME_CACHE_SIZE + 40)
    assert sprites.frame_of.cache_info().currsize == FRAME_CACHE_SIZE
    assert sprites._text_frame.cache_info().currsize == FRAME_CACHE_SIZE
    sprites.SPRITES.clear()  # its sprites drawn again, from frames read again
    misses = sprites.frame_of.cache_info().misses
    assert render_board_png(board, view, width=WIDTH) == before
    assert sprites.frame_of.cache_info().misses > misses  # the picture's frame had been dropped


def test_the_tracks_path_cache_starts_over_at_its_cap_and_gives_the_same_paths(monkeypatch):
    from render import board_routes
    from render.layout import layout_for

    tracks = layout_for("italy").routes
    first = [board_routes.geom_d(g, "piece") for g in tracks]
    monkeypatch.setattr(board_routes, "GEOM_CACHE_SIZE", 10)
    monkeypatch.setattr(board_routes, "_GEOM_D", {})  # a process new to these tracks
    again = []
    for g in tracks:
        again.append(board_routes.geom_d(g, "shadow") and board_routes.geom_d(g, "piece"))
        assert len(board_routes._GEOM_D) <= 10
    assert again == first

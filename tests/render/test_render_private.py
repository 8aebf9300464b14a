"""Hand, score summary and game GIF pictures."""

from __future__ import annotations

import io

from helpers.render_states import midgame
from PIL import Image

from maps.board import load_board
from render.gif import render_game_gif
from render.hand import HandTicket, render_hand_png, render_hand_svg
from render.model import BoardView
from render.summary import ScoreRow, render_summary_png, render_summary_svg


def test_hand_shows_counts_and_ticket_status():
    svg = render_hand_svg(
        {"red": 3, "locomotive": 2, "blue": 0},
        [HandTicket("Paris", "Wien", 8, done=True), HandTicket("Roma", "Smyrna", 8, trains_needed=3)],
    )
    assert "×3" in svg and "×2" in svg and "card-blue" not in svg
    assert "✔ done" in svg and "needs 3 trains" in svg
    png = render_hand_png({"green": 1}, [])
    assert Image.open(io.BytesIO(png)).size[0] == 800


def test_summary_sorts_by_total_and_shows_losses():
    rows = [ScoreRow("Low", "blue", {"routes": 10}), ScoreRow("High", "red", {"routes": 50, "tickets": -8})]
    svg = render_summary_svg(rows)
    assert svg.index("High") < svg.index("Low")
    assert ">42<" in svg and ">-8<" in svg
    assert render_summary_png(rows)[:4] == b"\x89PNG"


def test_game_gif_has_one_frame_per_view():
    board = load_board("usa")
    views = [BoardView(), midgame(board), midgame(board, final=True)]
    data = render_game_gif(board, views, width=400)
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF" and img.n_frames == 3 and img.size[0] == 400

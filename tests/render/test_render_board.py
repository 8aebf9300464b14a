"""Board SVG/PNG: everything drawn, owners shown, nothing hidden leaks, sizes bounded, labels never collide."""

from __future__ import annotations

import dataclasses
import io
import math
import re

import pytest
from helpers.render_states import midgame
from PIL import Image, ImageChops

from maps.board import board_ids, load_board
from render.board_svg import render_board_svg
from render.layout import layout_for
from render.layout.geometry import DOT_R, SPACE_H
from render.model import BoardView, LastMove, PlayerPanel
from render.png import render_board_png
from render.svg import PLAYER_FILL

BOARDS = ["europe", "usa"]
ALL_BOARDS = board_ids()


@pytest.mark.parametrize("board_id", ALL_BOARDS)
def test_every_route_space_and_city_is_drawn(board_id):
    board = load_board(board_id)
    svg = render_board_svg(board)
    for r in board.routes:
        assert f'id="route-{r.id}"' in svg, board.route_label(r.id)
    drawn_spaces = len(re.findall(r'<rect class="space"', svg))
    assert drawn_spaces == sum(r.length for r in board.routes)
    lay = layout_for(board_id)
    for c in board.cities:
        if c.dead_end:
            assert f'class="flag" id="flag-{c.id}-' in svg, c.name
        else:
            assert f'id="city-{c.id}"' in svg, c.name
            assert any(lab.city == c.id for lab in lay.labels), c.name


@pytest.mark.parametrize("board_id", ALL_BOARDS)
def test_labels_never_overlap_each_other_or_dots(board_id):
    lay = layout_for(board_id)
    boxes = [lab.box for lab in lay.labels] + [lab.box for lab in lay.country_labels]

    def overlap(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), (a, b)
        for (_c, _f), (x, y) in lay.cities.items():
            assert not overlap(a, (x - 7, y - 7, x + 7, y + 7))
        for fl in lay.flags:
            assert not overlap(a, (fl.x - 12, fl.y - 8, fl.x + 12, fl.y + 8))
        assert a[0] >= 0 and a[2] <= lay.map_w and a[1] >= 0 and a[3] <= lay.map_h


@pytest.mark.parametrize("board_id", ALL_BOARDS)
def test_train_spaces_keep_clear_of_other_cities(board_id):
    board = load_board(board_id)
    lay = layout_for(board_id)
    for g in lay.routes:
        r = board.routes[g.route]
        for (c, frame), (x, y) in lay.cities.items():
            if c in (r.a, r.b) or frame != g.frame:
                continue
            for s in g.spaces:
                assert math.hypot(s.x - x, s.y - y) >= DOT_R + SPACE_H / 2 - 1, (board.route_label(r.id), c)


@pytest.mark.parametrize("board_id", BOARDS)
def test_owned_routes_show_the_owner_colour_and_shape(board_id):
    board = load_board(board_id)
    view = midgame(board)
    svg = render_board_svg(board, view)
    for rid, seat in view.routes.items():
        m = re.search(rf'<g id="owned-{rid}" class="owned owner-{seat} [^"]*">(.*?)</g>', svg)
        assert m, rid
        assert PLAYER_FILL[view.players[seat].color] in m.group(1)
        assert 'class="mark"' in m.group(1)  # colour-blind shape on by default
    for rid in view.closed:
        assert f'id="closed-{rid}"' in svg
    assert svg.count('class="station"') == 2
    assert 'class="highlight"' in svg
    plain = render_board_svg(board, view, colorblind=False)
    assert 'class="mark"' not in plain and 'class="rletter"' not in plain


def test_view_has_no_field_for_hidden_information():
    names = {f.name for f in dataclasses.fields(BoardView)} | {
        f.name for f in dataclasses.fields(PlayerPanel)
    }
    for forbidden in ("hand", "hands", "ticket_ids", "deck_order", "hidden"):
        assert forbidden not in names
    # counts only
    assert {"cards", "tickets"} <= {f.name for f in dataclasses.fields(PlayerPanel)}


@pytest.mark.parametrize("board_id", BOARDS)
def test_no_ticket_or_hand_data_in_a_running_game(board_id):
    board = load_board(board_id)
    view = midgame(board, final=True)
    running = dataclasses.replace(view, final=False)  # tickets given by mistake must still not be drawn
    svg = render_board_svg(board, running)
    assert 'class="ticket-line"' not in svg
    # the only cards drawn are the face-up row
    assert len(re.findall(r'<g class="card card-', svg)) == len(view.face_up)
    # at the end, the ticket lines are public and drawn
    final_svg = render_board_svg(board, view)
    assert final_svg.count('class="ticket-line"') == sum(len(v) for v in view.ticket_routes.values())


@pytest.mark.parametrize("board_id", BOARDS)
def test_png_dimensions_and_size(board_id):
    board = load_board(board_id)
    for view in (None, midgame(board), midgame(board, final=True)):
        data = render_board_png(board, view, width=1600)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 1_500_000
        img = Image.open(io.BytesIO(data))
        lay = layout_for(board_id)
        assert img.size == (1600, round(1600 * lay.height / 1600))
    small = Image.open(io.BytesIO(render_board_png(board, midgame(board), width=800)))
    assert small.size[0] == 800


def test_cached_and_uncached_pngs_agree():
    board = load_board("usa")
    view = midgame(board)
    a = Image.open(io.BytesIO(render_board_png(board, view, width=400))).convert("RGB")
    b = Image.open(io.BytesIO(render_board_png(board, view, width=400, cache=False))).convert("RGB")
    assert a.size == b.size
    delta = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 60 else 0)
    diff = delta.histogram()[255]
    assert diff / (a.size[0] * a.size[1]) < 0.03


def test_highlight_option_overrides_last_move():
    board = load_board("europe")
    view = midgame(board)
    assert 'class="highlight"' not in render_board_svg(board, view, highlight=LastMove())
    svg = render_board_svg(board, BoardView(), highlight=LastMove(routes=(5,), cities=(1,)))
    assert 'class="highlight"' in svg and 'id="hl-5"' in svg


def test_player_text_is_escaped_and_cleaned():
    board = load_board("usa")
    view = BoardView(
        players=(PlayerPanel("Eve\x01 <script>&", "purple"),), last_move=LastMove(text="a\x00b </svg>")
    )
    svg = render_board_svg(board, view)
    assert "<script>" not in svg and "\x01" not in svg and "\x00" not in svg
    assert "&lt;script&gt;&amp;" in svg
    assert render_board_png(board, view, width=400)[:4] == b"\x89PNG"


def test_last_move_without_text_names_the_player_and_route():
    board = load_board("usa")
    view = BoardView(
        players=(PlayerPanel("Ann", "red"), PlayerPanel("Ben", "blue")),
        last_move=LastMove(seat=1, routes=(0,)),
    )
    svg = render_board_svg(board, view)
    assert f"Ben: {board.route_label(0)}" in svg


def test_layout_override_from_the_board_file_and_cache_by_geometry():
    import json

    from maps.board import MAPS_DIR, board_from_dict
    from render.layout import layout_of

    data = json.loads((MAPS_DIR / "usa.json").read_text(encoding="utf-8"))
    same = board_from_dict(data)
    assert layout_of(same) is layout_for("usa")  # another Board object with the same geometry: cached layout
    data["extra"] = {"layout": {"nudge": {"Denver": [0, -30]}, "label": {"Denver": "s"}}}
    moved = layout_of(board_from_dict(data))
    denver = same.city("Denver").id
    before = layout_for("usa").cities[(denver, "main")]
    after = moved.cities[(denver, "main")]
    assert after[1] < before[1] - 10
    lab = next(lab for lab in moved.labels if lab.city == denver)
    assert lab.y > after[1]  # label below the dot

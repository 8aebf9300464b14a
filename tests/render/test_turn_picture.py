"""The turn picture is readable at the size Discord shows it: on every board, the names of the cities of the moves
since the reader's last turn are at least 9 px tall once the picture is scaled to the embed's width (read from
the layout and the picture's plan, not from pixels); claimed trains wear a rim no printed route or card has; a
French picture prints only French words."""

from __future__ import annotations

import dataclasses
import io
import random
import re

import pytest
from PIL import Image
from test_words import ENGLISH_ONLY_LETTERS, catalogue_words

from engine.actions import ClaimRoute
from engine.rules import apply, legal_actions, new_game
from engine.state import GameState
from maps.board import Board, load_board
from render.board_routes import HALO_INK, PIECE_LINE
from render.board_svg import render_board_svg
from render.from_engine import board_view
from render.layout import layout_of
from render.layout.geometry import FONT_SIZE
from render.model import BoardView, LastMove
from render.svg import ROUTE_FILL
from render.turn_picture import OUT_H, OUT_W, TurnPlan, render_turn_png, render_turn_svg, turn_plan

#: Discord shows an embed's image at most 400 px wide (desktop: the 432 px embed less its padding), and about
#: 340 px on a phone (a 390 px screen less the message's margins)
DESKTOP_W = 400
PHONE_W = 340
MIN_PX = 9.0

# (board, variant, options): every board, Europe with each of its variants (1912 with its warehouses)
BOARDS = [
    ("usa", None, ()),
    ("europe", None, ()),
    ("europe", "1912", ("warehouses",)),
    ("europe", "big-cities", ()),
    ("europe", "mega", ()),
    ("germany", None, ()),
    ("marklin", None, ()),
    ("japan", None, ()),
    ("italy", None, ()),
]


def _played(board_id: str, variant: str | None, options: tuple[str, ...], seed: int) -> tuple[GameState, int]:
    """A game played a while (claims preferred), up to a round of four seats that claimed two routes or more,
    and the log position where that round began (the reader's last turn)."""
    state = new_game(board_id, 4, variant=variant, options=options, seed=seed)
    rng = random.Random(seed)
    while state.phase == "setup":
        seat = next(iter(state.pending))
        apply(state, seat, legal_actions(state, seat)[0])
    starts: dict[int, int] = {}  # turn -> log position of its first action
    claimed: dict[int, int] = {}  # turn -> routes claimed in it
    for _ in range(600):
        if state.finished:
            break
        turn = state.turn
        starts.setdefault(turn, len(state.history) + 1)
        if turn >= 12 and sum(claimed.get(t, 0) for t in range(turn - 4, turn)) >= 2:
            return state, starts[turn - 4]
        seat = state.current
        legal = legal_actions(state, seat)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        blind = [a for a in legal if a.kind == "draw_blind"]
        action = rng.choice(claims) if claims and rng.random() < 0.7 else (blind or legal)[0]
        apply(state, seat, action)
        if isinstance(action, ClaimRoute) and state.route_owner[action.route] == seat:
            claimed[turn] = claimed.get(turn, 0) + 1
    raise AssertionError("no round with two claims")


def _move_cities(board: Board, move: LastMove) -> set[int]:
    """The places the moves touch that have a name on the map (a dead end's country has a flag)."""
    ends = {c for r in move.routes for c in (board.routes[r].a, board.routes[r].b)} | set(move.cities)
    return {c for c in ends if not board.cities[c].dead_end}


def _shown_px(board: Board, plan: TurnPlan, city: int, picture_w: int, display_w: int) -> float:
    """The height of `city`'s name as displayed `display_w` px wide: its tag's font size when it has one,
    else the board's own label's (from the layout), in canvas units, times the picture's scale."""
    lay = layout_of(board)
    sizes = [t.size for t in plan.tags if t.city == city and _within(t.box, plan.window)]
    sizes += [
        FONT_SIZE - (0 if lab.frame == "main" else 1)
        for lab in lay.labels
        if lab.city == city and _within(lab.box, plan.window)
    ]
    return max(sizes, default=0.0) * plan.scale * display_w / picture_w


def _within(box: tuple[float, float, float, float], window: tuple[float, float, float, float]) -> bool:
    x, y, w, h = window
    return box[0] >= x - 0.5 and box[1] >= y - 0.5 and box[2] <= x + w + 0.5 and box[3] <= y + h + 0.5


def _check_readable(board: Board, view: BoardView) -> TurnPlan:
    png = render_turn_png(board, view)
    picture = Image.open(io.BytesIO(png))
    assert picture.size == (OUT_W, OUT_H)
    assert picture.width * 3 == picture.height * 4  # 4:3: 400 x 300 px, the most a desktop embed shows
    plan = turn_plan(board, view)
    assert view.last_move is not None
    cities = _move_cities(board, view.last_move)
    for city in cities:
        name = board.cities[city].name
        for display_w in (DESKTOP_W, PHONE_W):
            px = _shown_px(board, plan, city, picture.width, display_w)
            assert px >= MIN_PX, (name, display_w, round(px, 2))
    canvas = (0.0, 0.0, 1600.0, layout_of(board).height)  # the SVG's canvas: whatever lies beyond is cut
    for t in plan.tags:
        assert _within(t.box, plan.window) and _within(t.box, canvas), board.cities[t.city].name
    if plan.locator is not None:  # the locator hides none of those names
        lx, ly, lw, lh = plan.locator
        x, y, w, h = plan.window
        k = OUT_W / w
        for city, box in [(t.city, t.box) for t in plan.tags] + [(lab.city, lab.box) for lab in plan.labels]:
            bx0, by0, bx1, by1 = ((box[0] - x) * k, (box[1] - y) * k, (box[2] - x) * k, (box[3] - y) * k)
            assert bx1 <= lx or bx0 >= lx + lw or by1 <= ly or by0 >= ly + lh, board.cities[city].name
    return plan


@pytest.mark.parametrize(("board_id", "variant", "options"), BOARDS)
def test_the_names_of_the_last_moves_cities_are_9_px_tall_at_the_embeds_width(board_id, variant, options):
    for seed in (3, 11):
        state, since = _played(board_id, variant, options, seed)
        view = board_view(state, since=since)
        assert view.last_move is not None and view.last_move.routes, "the round claimed something"
        _check_readable(state.board, view)


@pytest.mark.parametrize("board_id", ["usa", "germany", "japan"])
def test_moves_at_opposite_ends_of_the_map_still_show_their_names_on_tags(board_id):
    board = load_board(board_id)
    lay = layout_of(board)
    # the two routes farthest apart
    centre = {
        g.route: (sum(s.x for s in g.spaces) / len(g.spaces), sum(s.y for s in g.spaces) / len(g.spaces))
        for g in lay.routes
    }
    first = min(centre, key=lambda r: centre[r][0] + centre[r][1])
    last = max(centre, key=lambda r: centre[r][0] + centre[r][1])
    view = BoardView(routes={first: 0, last: 1}, last_move=LastMove(seat=1, routes=(first, last)))
    plan = _check_readable(board, view)
    assert plan.tags  # too far apart for the board's own names to do
    assert plan.scale * FONT_SIZE * DESKTOP_W / OUT_W < MIN_PX


def test_one_move_is_seen_close_and_a_locator_shows_where():
    board = load_board("usa")
    denver_omaha = next(
        r.id for r in board.routes if {board.cities[r.a].name, board.cities[r.b].name} == {"Denver", "Omaha"}
    )
    view = BoardView(routes={denver_omaha: 0}, last_move=LastMove(seat=0, routes=(denver_omaha,)))
    plan = _check_readable(board, view)
    assert not plan.tags and plan.locator is not None
    # as close as the board's own names allow: they show 10.6 px, and the window a fraction of the map
    assert plan.scale * FONT_SIZE * DESKTOP_W / OUT_W == pytest.approx(10.6)
    assert plan.window[2] < layout_of(board).map_w * 0.6


def test_nothing_taken_shows_the_whole_map():
    board = load_board("europe")
    lay = layout_of(board)
    plan = turn_plan(board, BoardView(last_move=LastMove(seat=0, what="card_drawn")))
    x, y, w, h = plan.window
    assert x <= 0 and y <= 0 and x + w >= lay.map_w and y + h >= lay.map_h
    assert plan.locator is None and not plan.tags


def test_claimed_trains_wear_a_rim_that_no_route_or_card_colour_has():
    board = load_board("usa")
    state, since = _played("usa", None, (), 3)
    view = board_view(state, since=since)
    assert HALO_INK.lower() not in {c.lower() for c in ROUTE_FILL.values()}
    for svg in (render_turn_svg(board, view), render_board_svg(board, view)):
        rim = re.search(
            r'<path class="halo" d="([^"]+)" fill="([^"]+)" stroke="([^"]+)" stroke-width="([\d.]+)"', svg
        )
        assert rim is not None
        assert rim.group(2) == rim.group(3) == HALO_INK and float(rim.group(4)) >= 5
        assert rim.group(1).count("M") == sum(
            board.routes[r].length for r in view.routes
        )  # every claimed train
        lines = re.findall(r'<path class="piece" d="[^"]+" fill="[^"]+" stroke="([^"]+)"', svg)
        assert lines and set(lines) == {PIECE_LINE}  # the white line inside the rim


def test_a_french_turn_picture_prints_only_french_words():
    fr = catalogue_words("fr")
    board = load_board("usa")
    state, since = _played("usa", None, (), 11)
    view = dataclasses.replace(board_view(state, since=since))
    svg = render_turn_svg(board, view, words=fr)
    letters = re.findall(r'<text class="rletter"[^>]*>([^<]*)</text>', svg)
    french = {
        getattr(fr, f"letter_{c}")
        for c in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink")
    }
    assert letters and set(letters) <= french and not set(letters) & ENGLISH_ONLY_LETTERS
    names = {c.name for c in board.cities}
    drawn = re.findall(r">([^<>]+)</text>", svg)
    assert set(drawn) <= names | french, set(drawn) - names - french  # city names and French letters only
    assert "panel" not in svg  # no side panel: the embed's text says it

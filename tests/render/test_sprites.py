"""The board picture drawn from cached sprites is the picture cairosvg draws from the SVG, pixel for pixel but for
rounding and overlaps of a player's own routes, on every board, in play and at the end, with and without the
colour-blind marks."""

from __future__ import annotations

import dataclasses
import random

import cairocffi as cairo
import pytest
from PIL import Image, ImageChops

from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from maps.board import board_ids, load_board
from render import png
from render.board_svg import canvas_height, game_layer, render_board_svg, svg_open
from render.from_engine import board_view
from render.layout import layout_of
from render.model import BoardView, LastMove
from render.sprites import Leaves, SpriteCache, rasterise_sprite

WIDTH = 800


def played(board_id: str, turns: int | None, *, players: int = 3, options: tuple[str, ...] = ()) -> BoardView:
    state = new_game(board_id, players, options=options, seed=7)
    rng = random.Random(7)
    while not state.finished and (turns is None or state.turn < turns):
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    return board_view(state)


def reference(board_id: str, view: BoardView, colorblind: bool) -> Image.Image:
    """The game layer's SVG rasterised by cairosvg over the printed map (the picture before sprites)."""
    board = load_board(board_id)
    height = canvas_height(layout_of(board), view)
    svg = svg_open(WIDTH, height)
    svg += game_layer(board, view, colorblind=colorblind, height=height, labels_on_top=False, compact=True)
    base = png.static_surface(board, WIDTH, colorblind)
    return png._to_image(png.rasterise(svg + "</svg>", WIDTH, base))


def sprites_picture(board_id: str, view: BoardView, colorblind: bool) -> Image.Image:
    board = load_board(board_id)
    return png._to_image(png.board_game_surface(board, view, width=WIDTH, colorblind=colorblind))


def differing(a: Image.Image, b: Image.Image, above: int) -> float:
    """Share of the pixels where a channel differs by more than `above` (0-255)."""
    assert a.size == b.size
    hist = ImageChops.difference(a, b).convert("L").histogram()
    return sum(hist[above + 1 :]) / (a.size[0] * a.size[1])


#: Every board after 40 turns in the fast loop; every board at the end of a game (most routes claimed) in the whole
#: suite (about 1 s each).
CASES = [(b, 40) for b in board_ids()] + [("europe-warehouses", 60)]
CASES += [pytest.param(b, None, marks=pytest.mark.slow) for b in board_ids()]


@pytest.mark.parametrize(("case", "turns"), CASES)
def test_sprites_draw_what_cairosvg_draws(case, turns):
    board_id, _, option = case.partition("-")
    view = played(board_id, turns, options=(option,) if option else ())
    assert view.routes  # something claimed
    for colorblind in (True, False):
        want = reference(board_id, view, colorblind)
        got = sprites_picture(board_id, view, colorblind)
        # rounding, and where a player's routes overlap (one path's outlines and even-odd marks in cairosvg's
        # picture, a route's over the other's in the sprites'): a few pixels in a thousand, a handful visibly
        # (the white line inside the trains' dark rim is a sharp edge: its rounding shows a little more)
        assert differing(want, got, 2) < 0.005
        assert differing(want, got, 24) < 0.0001


def test_sprites_and_full_svg_agree_on_the_whole_picture():
    """The PNG drawn from sprites against render_board_svg rasterised whole by cairosvg (names hidden by trains
    come back from the printed names instead of SVG text on top: a few pixels of antialiasing differ)."""
    board = load_board("usa")
    view = played("usa", 80, players=4)
    fast = png._to_image(png.board_surface(board, view, width=WIDTH))
    svg = render_board_svg(board, view, width=WIDTH)
    slow = png._to_image(png.rasterise(svg, WIDTH))
    assert differing(fast, slow, 60) < 0.002
    assert differing(fast, slow, 8) < 0.01


def test_a_highlighted_free_route_and_its_glow_come_from_sprites_too():
    board = load_board("europe")
    view = played("europe", 30)
    free = next(r.id for r in board.routes if r.id not in view.routes and r.id not in view.closed)
    lit = dataclasses.replace(view, last_move=LastMove(routes=(free,), cities=(0,), text="x"))
    want = reference("europe", lit, True)
    got = sprites_picture("europe", lit, True)
    assert differing(want, got, 24) < 0.0001
    assert differing(want, reference("europe", view, True), 24) > 0.001  # the glow is drawn


def test_plain_groups_split_into_leaves_that_keep_what_they_inherit():
    leaves = Leaves()
    svg = (
        '<g class="panel" font-family="F"><g id="p0" class="player"><rect x="1"/><text x="2">A &amp; B</text></g>'
        '<g opacity="0.5"><rect x="3"/><rect x="4"/></g><g transform="rotate(3)" fill="red"><path d="M0,0"/></g>'
    )
    assert leaves.feed(svg) == [
        '<g font-family="F"><rect x="1"/></g>',
        '<g font-family="F"><text x="2">A &amp; B</text></g>',
        '<g font-family="F"><g opacity="0.5"><rect x="3"/><rect x="4"/></g></g>',
        '<g font-family="F"><g transform="rotate(3)" fill="red"><path d="M0,0"/></g></g>',
    ]
    assert leaves.feed('<circle r="1"/></g><circle r="2"/>') == [
        '<g font-family="F"><circle r="1"/></g>',
        '<circle r="2"/>',
    ]


def test_a_sprite_is_cropped_to_its_ink_and_placed_where_it_draws():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 400 200">'
    sprite = rasterise_sprite(svg + '<rect x="100" y="50" width="40" height="20" fill="#ff0000"/></svg>', 200)
    assert sprite is not None
    assert (sprite.x, sprite.y) == (50, 25)
    assert (sprite.surface.get_width(), sprite.surface.get_height()) == (20, 10)
    assert rasterise_sprite(svg + '<rect x="1" y="1" width="0" height="5"/></svg>', 200) is None


def test_the_sprite_cache_keeps_to_its_budget_dropping_the_least_recently_used():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
    cache = SpriteCache(budget=3 * 40 * 10 * 4)  # three 40x10 sprites
    rects = [f'<rect x="{k}" y="0" width="40" height="10"/>' for k in range(4)]
    for r in rects[:3]:
        cache.get(svg, r, 100)
    cache.get(svg, rects[0], 100)  # used again: the oldest is now rects[1]
    assert cache.misses == 3
    cache.get(svg, rects[3], 100)
    assert len(cache) == 3 and cache.nbytes <= cache.budget
    cache.get(svg, rects[0], 100)
    assert cache.misses == 4
    cache.get(svg, rects[1], 100)
    assert cache.misses == 5


def test_sprites_draw_onto_any_surface_size_the_picture_has():
    board = load_board("japan")
    view = played("japan", 50)
    surface = png.board_surface(board, view, width=400)
    assert isinstance(surface, cairo.ImageSurface)
    assert surface.get_width() == 400

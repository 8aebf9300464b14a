"""Issue 32: the turn picture and the end's pictures made cheaper are today's pictures, and the end's are warm.

Today's pictures are drawn here the way the code drew them before: every sprite rasterised by cairosvg, the
window scaled down with cairo's "good" filter, a palette built for each picture. The cheaper ones draw the claims'
sprites from their path data, scale down bilinearly and map to the board's palette: the looked-at differences are
antialiasing and palette rounding (a few levels on a fifth of the pixels, more on a handful: the sprite test's
bounds, `differing`). Warm means: what the render worker drew ahead (:func:`render.pool._warm`) is what the
final board and the GIF read, asserted on the caches' misses, not on time.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re

import pytest
from PIL import Image, ImageChops, ImageFilter

from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from engine.state import GameState
from maps.board import board_ids, load_board
from render import png, sprites, turn_picture
from render.board_routes import highlight_svg, mark_path, piece_path
from render.from_engine import board_view
from render.gif import GIF_WIDTH
from render.pool import _warm, _warm_gif
from render.words import ENGLISH
from tests.render.test_sprites import differing, reference, sprites_picture


def played(board_id: str, turns: int | None, *, options: tuple[str, ...] = (), seed: int = 7) -> GameState:
    state = new_game(board_id, 3, options=options, seed=seed)
    rng = random.Random(seed)
    while not state.finished and (turns is None or state.turn < turns):
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    return state


def todays_turn_picture(state: GameState, since: int, monkeypatch: pytest.MonkeyPatch) -> Image.Image:
    """The turn picture as the code drew it before issue 32."""
    cairosvg_only = sprites.SpriteCache()

    def get(head: str, element: str, width: int, shape: object = None) -> sprites.Sprite | None:
        if isinstance(shape, sprites.Body):  # a route's outline and marks: their SVG
            player = element.split(" ", 2)[1]
            element = piece_path(shape.pieces, player, fill=False)
            element += mark_path(shape.marks, player) if shape.marks else ""
        return cairosvg_only.get(head, element, width)

    with monkeypatch.context() as m:
        m.setattr(sprites.SPRITES, "get", get)
        m.setattr(turn_picture, "_filter", lambda k: turn_picture.cairo.FILTER_GOOD)
        # drawn at the closest zoom whatever the window's scale, then scaled down
        m.setattr(turn_picture, "compose_width", lambda board, scale: turn_picture.ZOOM_WIDTH)
        # the glow and the tags as SVG drawn by cairosvg
        m.setattr(turn_picture, "_draw_glow", _glow_as_svg)
        m.setattr(turn_picture, "_draw_tags", _tags_as_svg)
        view = board_view(state, since=since)
        surface = turn_picture.turn_surface(state.board, view)
        data = png.encode_png(surface)  # a palette built for the picture
    return Image.open(io.BytesIO(data)).convert("RGB")


def _width(svg_open: str) -> int:
    m = re.search(r'width="(\d+)"', svg_open)
    assert m is not None
    return int(m.group(1))


def _glow_as_svg(surface, svg_open, lay, move, pad, origin):  # type: ignore[no-untyped-def]
    if move is not None and (move.routes or move.cities):
        glow = highlight_svg(lay, tuple(move.routes), tuple(move.cities), pad)
        sprites.draw_parts(surface, svg_open, ["", glow], width=_width(svg_open), origin=origin)


def _tags_as_svg(surface, svg_open, board, tags, words, origin):  # type: ignore[no-untyped-def]
    tags = turn_picture.tags_svg(board, tags, words)
    sprites.draw_parts(surface, svg_open, ["", tags], width=_width(svg_open), origin=origin)


def turn_png(state: GameState, since: int) -> Image.Image:
    data = turn_picture.render_turn_png(state.board, board_view(state, since=since))
    return Image.open(io.BytesIO(data)).convert("RGB")


#: Two boards in the fast loop (a wide one, a tall one with insets), every board and a variant in the whole suite
TURN_CASES = [("europe", 60), ("japan", 60)]
TURN_CASES += [pytest.param(b, t, marks=pytest.mark.slow) for b in board_ids() for t in (30, 120)]
TURN_CASES += [pytest.param("europe-warehouses", 80, marks=pytest.mark.slow)]


def beyond_shift(a: Image.Image, b: Image.Image, above: int) -> float:
    """Share of the pixels of one picture outside the range of the other's 3x3 pixels around them by more than
    `above` (0-255), the worse of both ways round: what differs beyond a shift of up to a pixel (a window
    composed at another scale lands up to half a pixel off today's, which every edge shows in `differing`)."""
    worst = 0.0
    for x, y in ((a, b), (b, a)):
        lo, hi = x.filter(ImageFilter.MinFilter(3)), x.filter(ImageFilter.MaxFilter(3))
        out = ImageChops.lighter(ImageChops.subtract(lo, y), ImageChops.subtract(y, hi)).convert("L")
        worst = max(worst, sum(out.histogram()[above + 1 :]) / (x.size[0] * x.size[1]))
    return worst


@pytest.mark.parametrize(("case", "turns"), TURN_CASES)
def test_the_turn_picture_is_todays(case: str, turns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the closest zoom, today's picture; further out (composed at a smaller level, see
    turn_picture.levels), today's but for sub-pixel shifts and resampling (looked at: as sharp)."""
    board_id, _, option = case.partition("-")
    state = played(board_id, turns, options=(option,) if option else ())
    for since in (len(state.history) - 3, len(state.history) - 12, 0):  # near, further apart, the whole map
        want = todays_turn_picture(state, max(0, since), monkeypatch)
        got = turn_png(state, max(0, since))
        plan = turn_picture.turn_plan(state.board, board_view(state, since=max(0, since)))
        if turn_picture.compose_width(state.board, plan.scale) == turn_picture.ZOOM_WIDTH:
            assert differing(want, got, 32) < 0.02
            assert differing(want, got, 80) < 0.003
        assert beyond_shift(want, got, 32) < 0.003
        assert beyond_shift(want, got, 80) < 0.0015  # (text drawn at another size: a few strokes)


def test_beyond_shift_sees_the_claims_missing_and_a_moved_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above fails on a wrong composition: the claims missing but the last moves', the window
    2 px off."""
    state = played("europe", 60)
    since = len(state.history) - 12
    want = todays_turn_picture(state, since, monkeypatch)
    view = board_view(state, since=since)
    moved = view.last_move.routes if view.last_move else ()
    missing = dataclasses.replace(view, routes={r: s for r, s in view.routes.items() if r in moved})
    assert turn_picture.turn_plan(state.board, missing) == turn_picture.turn_plan(state.board, view)
    without = Image.open(io.BytesIO(turn_picture.render_turn_png(state.board, missing))).convert("RGB")
    assert beyond_shift(want, without, 32) > 0.01
    assert beyond_shift(want, ImageChops.offset(want, 2, 0), 32) > 0.01


@pytest.mark.parametrize(
    "board_id", ["europe", *(pytest.param(b, marks=pytest.mark.slow) for b in board_ids() if b != "europe")]
)
def test_the_final_board_is_todays(board_id: str) -> None:
    """The final board (claims from their path data, ticket arcs stroked straight) against cairosvg drawing its
    whole game layer, the picture before sprites."""
    view = board_view(played(board_id, None))
    assert view.final and view.ticket_routes
    for colorblind in (True, False):
        want = reference(board_id, view, colorblind)
        got = sprites_picture(board_id, view, colorblind)
        assert differing(want, got, 2) < 0.005
        assert differing(want, got, 24) < 0.0001


class Misses:
    """What the caches had to draw: printed maps rasterised, sprites rasterised by cairosvg."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.maps: list[int] = []
        self.sprites: list[str] = []
        rasterise, sprite = png.rasterise, sprites.rasterise_sprite

        def counted_map(svg: str, width: int, base=None):  # type: ignore[no-untyped-def]
            self.maps.append(width)
            return rasterise(svg, width, base)

        def counted_sprite(svg: str, width: int):  # type: ignore[no-untyped-def]
            self.sprites.append(svg)
            return sprite(svg, width)

        monkeypatch.setattr(png, "rasterise", counted_map)
        monkeypatch.setattr(sprites, "rasterise_sprite", counted_sprite)


def test_the_final_board_after_warming_reads_what_the_warm_up_drew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's end, drawn by a worker that warmed the board and drew only turn pictures of the game: the
    printed map is not rasterised again, and cairosvg draws none of the claims nor the final panel's frames
    and icons (only what this game alone has: its names, numbers and tickets)."""
    sprites.SPRITES.clear()
    png._STATIC_CACHE.clear()
    png._PALETTES.clear()  # (a fresh worker's caches)
    _warm("europe", 1600, True, ENGLISH)
    state = played("europe", None, seed=11)
    for k in range(40, len(state.history), 25):  # the game's turn pictures, as the worker drew them
        turn_picture.render_turn_png(state.board, board_view(state, since=k))
    misses = Misses(monkeypatch)
    png.render_board_png(state.board, board_view(state), width=1600)
    assert misses.maps == []
    drawn = "".join(misses.sprites)
    assert drawn  # the names, numbers and ticket lines of this game
    for warm in (
        'class="piece"',
        'class="halo"',
        'class="shadow"',
        'class="mark"',
        'class="icon',
        "ticket-arc",
    ):
        assert warm not in drawn, warm
    assert 'rx="7" fill="#ffffff"' not in drawn  # a player's row frame


def test_the_gif_printed_map_is_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    png._STATIC_CACHE.clear()
    _warm_gif("usa", True, ENGLISH)  # the GIF worker's warm job
    misses = Misses(monkeypatch)
    png.render_board_image(load_board("usa"), None, width=GIF_WIDTH)
    assert misses.maps == []

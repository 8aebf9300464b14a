"""The panel's and captions' text sprites drawn straight with cairo (render.sprites.rasterise_text) are the sprites
cairosvg draws from their SVG, pixel for pixel once painted, on every board, in play and at the end, in languages
with other fonts and letters; any text it does not read as cairosvg would is left to cairosvg."""

from __future__ import annotations

import cairocffi as cairo
import pytest

from bot.play.pictures import picture_words
from maps.board import board_ids, load_board
from render import sprites
from render.board_svg import canvas_height, game_layer_parts, svg_open
from render.gif import GIF_WIDTH
from render.layout import layout_of
from render.model import BoardView
from render.sprites import Leaves, Sprite, plain_text, rasterise_sprite, rasterise_text
from tests.render.test_sprites import played


def text_leaves(board_id: str, view: BoardView, width: int, language: str) -> tuple[str, list[str]]:
    """The picture's head and the leaves of its game layer that are plain text."""
    board = load_board(board_id)
    words = picture_words(language)
    height = canvas_height(layout_of(board), view)
    parts = game_layer_parts(
        board, view, colorblind=True, height=height, labels_on_top=False, compact=True, words=words
    )
    leaves = Leaves()
    found = [
        leaf
        for part in parts[1:]
        if isinstance(part, str)
        for leaf in leaves.feed(part)
        if plain_text(leaf) is not None
    ]
    return svg_open(width, height, words.font), found


def painted(sprite: Sprite | None, width: int) -> bytes:
    """`sprite` painted at its place on an opaque picture (what a frame gets from it)."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, width)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(0.93, 0.87, 0.74)
    ctx.paint()
    if sprite is not None:
        ctx.set_source_surface(sprite.surface, sprite.x, sprite.y)
        ctx.paint()
    surface.flush()
    return bytes(surface.get_data())


@pytest.mark.parametrize("board_id", board_ids())
@pytest.mark.parametrize("turns", [30, None])
def test_text_sprites_are_cairosvg_s(board_id: str, turns: int | None) -> None:
    view = played(board_id, turns, players=5)
    checked = 0
    for language, width in (("en", GIF_WIDTH), ("fr", 800), ("ja", GIF_WIDTH)):
        head, leaves = text_leaves(board_id, view, width, language)
        assert leaves, "the panel has plain text"
        for leaf in leaves:
            text = plain_text(leaf)
            assert text is not None
            assert painted(rasterise_text(head, text), width) == painted(
                rasterise_sprite(head + leaf + "</svg>", width), width
            ), leaf
            checked += 1
    assert checked > 40


@pytest.mark.parametrize(
    "leaf",
    [
        '<text x="1" y="2" font-size="10" stroke="#000">a</text>',  # a stroked text
        '<text x="1" y="2" font-size="10" opacity="0.5">a</text>',  # an attribute it does not read
        '<text x="1" y="2" font-size="10">a &amp; b</text>',  # an entity
        '<text x="1" y="2" font-size="10"> a  b</text>',  # spaces cairosvg normalises
        '<text x="1 5" y="2" font-size="10">ab</text>',  # a position per letter
        '<text x="1em" y="2" font-size="10">ab</text>',  # a unit
        '<g font-family="Serif"><text x="1" y="2" font-size="10">ab</text>',  # an unclosed group
        '<text x="1" y="2" font-size="10"><tspan>ab</tspan></text>',  # markup inside
    ],
)
def test_other_text_is_left_to_cairosvg(leaf: str) -> None:
    assert plain_text(leaf) is None


def test_the_sprite_cache_draws_plain_text_without_cairosvg(monkeypatch: pytest.MonkeyPatch) -> None:
    head, leaves = text_leaves("usa", played("usa", None), GIF_WIDTH, "en")

    def no_cairosvg(svg: str, width: int) -> Sprite | None:
        raise AssertionError(f"cairosvg drew {svg[-200:]}")

    monkeypatch.setattr(sprites, "rasterise_sprite", no_cairosvg)
    cache = sprites.SpriteCache()
    for leaf in leaves:
        cache.get(head, leaf, GIF_WIDTH)
    assert cache.misses == len(set(leaves))

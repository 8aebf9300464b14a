"""The live map's board as a base and pieces (render/board_live.py): composed as the page composes them, the
same picture as the whole drawing, which is the chat's board picture's map; the base the same all game; a move
changes a few pieces."""

from __future__ import annotations

import io
import re

import cairosvg
import pytest
from helpers.render_states import midgame
from PIL import Image, ImageChops

from bot.play.pictures import picture_words
from maps.board import load_board
from render.board_live import LAYERS, compose, live_base_svg, live_board_svg, live_pieces
from render.board_routes import halo_path
from render.board_svg import render_board_svg
from render.layout import layout_of
from render.model import BoardView, LastMove


def _png(svg: str) -> Image.Image:
    return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGB")


def _differing(a: Image.Image, b: Image.Image) -> list[int]:
    """Each differing pixel's largest channel difference."""
    return [d for d in ImageChops.difference(a, b).convert("L").tobytes() if d]


@pytest.mark.parametrize(
    ("board_id", "locale", "final"),
    [("usa", "en", False), ("europe", "fr", True), ("japan", "ja", False), ("italy", "en", True)],
)
def test_base_and_pieces_compose_the_chats_map(board_id: str, locale: str, final: bool) -> None:
    board, words = load_board(board_id), picture_words(locale)
    lay = layout_of(board)
    view = midgame(board, final=final)
    pieces = live_pieces(board, view, words=words)
    composed = _png(compose(live_base_svg(board, words=words), pieces))
    whole = _png(live_board_svg(board, view, words=words))
    chat = _png(render_board_svg(board, view, words=words))
    # the whole drawing is the chat's picture's map (but the panel's border line, on the map's last column)
    w = int(lay.map_w) - 1
    assert whole.size == (int(lay.map_w), int(lay.height))
    assert _differing(whole.crop((0, 0, w, whole.height)), chat.crop((0, 0, w, whole.height))) == []
    # composed: the same pixels, but where two routes' dark rims meet (each route's rim is its own path, the
    # chat's one path for all: their antialiased edges differ by a few levels there)
    differing = _differing(composed, whole)
    assert len(differing) < 0.003 * whole.width * whole.height, len(differing)
    assert sum(d > 16 for d in differing) < 0.0005 * whole.width * whole.height
    assert max(differing, default=0) < 64
    # with each rim merged into one path, exactly the same pixels
    halos = [k for k in pieces if k.startswith("halo.")]
    merged = {k: v for k, v in pieces.items() if k not in halos}
    merged["halo.0"] = halo_path("".join(re.search(r' d="([^"]*)"', pieces[k])[1] for k in halos))  # type: ignore[index]
    assert _differing(_png(compose(live_base_svg(board, words=words), merged)), whole) == []


def test_the_base_is_the_same_all_game_and_a_move_changes_a_few_pieces() -> None:
    board = load_board("usa")
    base = live_base_svg(board)
    assert all(f'data-layer="{name}"' in base for name in LAYERS)
    assert base.count("<svg") == 1 and 'class="hits"' in base and "panel" not in base
    before = midgame(board)
    claimed = next(r.id for r in board.routes if r.id not in before.routes and r.id not in before.closed)
    after = BoardView(
        routes={**before.routes, claimed: 1},
        closed=before.closed,
        stations=before.stations,
        players=before.players,
        last_move=LastMove(seat=1, routes=(claimed,)),
    )
    a, b = live_pieces(board, before), live_pieces(board, after)
    changed = {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
    assert {f"shadow.{claimed:05d}", f"halo.{claimed:05d}", f"train.{claimed:05d}", "glow.0"} <= changed
    assert len(changed) <= 8, changed  # (the names the new trains cover, drawn again, besides)
    assert sum(len(b[k]) for k in changed if k in b) < 4096

"""render.png writes the palette PNG itself: the pixels and palette Pillow's quantize and PNG writer give, read back
by Pillow, with ISA-L's deflate or zlib's, and through Pillow's public quantize when its internals differ."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from maps.board import load_board
from render import png
from render.model import BoardView, LastMove
from render.turn_picture import PALETTE_WIDTH, turn_surface


def _picture() -> tuple[object, Image.Image, Image.Image]:
    board = load_board("usa")
    surface = turn_surface(board, BoardView(routes={0: 0, 5: 1}, last_move=LastMove(routes=(5,))))
    palette = png.board_palette(board, PALETTE_WIDTH, True)
    surface.flush()
    rgb = Image.frombuffer("RGB", (800, 600), surface.get_data(), "raw", "BGRX", surface.get_stride(), 1)
    return surface, palette, rgb.quantize(palette=palette, dither=Image.Dither.NONE)


@pytest.mark.parametrize("deflate", ["module", "zlib"])
def test_the_png_holds_the_quantized_picture(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if deflate == "zlib":
        monkeypatch.setattr(png, "deflate", png._zlib_rle)
    surface, palette, want = _picture()
    data = png.encode_png(surface, palette=palette)  # type: ignore[arg-type]
    got = Image.open(io.BytesIO(data))
    got.load()
    assert got.mode == "P" and got.size == (800, 600)
    assert got.tobytes() == want.tobytes()
    assert got.convert("RGB").tobytes() == want.convert("RGB").tobytes()
    pillow = io.BytesIO()
    want.save(pillow, format="PNG", compress_level=3, compress_type=3)
    assert len(data) < 1.2 * len(pillow.getvalue())


def test_the_mapping_falls_back_to_quantize(monkeypatch: pytest.MonkeyPatch) -> None:
    surface, palette, want = _picture()

    def gone(img: Image.Image, palette: Image.Image) -> Image.Image:
        raise AttributeError("im")

    monkeypatch.setattr(png, "_convert", gone)
    assert png._mapped(surface, palette).tobytes() == want.tobytes()  # type: ignore[arg-type]

"""SVG to PNG with cairosvg, and the board PNG with its static part rendered once per board.

The board picture is two layers (see :mod:`render.board_svg`): the printed map, which never changes during a
game, and what the game adds. :func:`render_board_png` keeps the printed map as a rasterised cairo surface per
(board, width, colour-blind flag) and paints the game layer on a copy of it from sprites, each element of the
layer rasterised by cairosvg once per process (:mod:`render.sprites`; ~20 ms a picture instead of ~65 ms); the
result is mapped to the board's palette by Pillow and written with zlib's run-length strategy, which keeps a
1600 px board well under 1.5 MB (typically 180-250 KB). A palette picture's PNG is written here (:func:`png_bytes`),
deflated by ISA-L when the ``isal`` package is there (~3x faster than zlib's run-length strategy, files as
small), else by zlib.
"""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image

from maps.board import Board

from .board_places import labels_svg, labels_under
from .board_svg import canvas_height, game_layer_parts, render_board_svg, static_layer, svg_open
from .layout import layout_of
from .layout.geometry import CANVAS_W
from .model import BoardView, LastMove
from .sprites import draw_parts
from .words import ENGLISH, PictureWords

PALETTE_COLORS = 192
PNG_COMPRESS_LEVEL = 3
PNG_COMPRESS_TYPE = 3  # zlib Z_RLE: ~1.5x faster than the default strategy on palette pictures, ~10% bigger


def _zlib_rle(data: bytes) -> bytes:
    z = zlib.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, 15, 9, PNG_COMPRESS_TYPE)
    return z.compress(data) + z.flush()


def _deflater() -> Callable[[bytes], bytes]:
    """ISA-L's deflate at its level 1 when installed (an 800x600 turn picture: ~0.6 ms and ~100 KB, against
    zlib's run-length strategy ~1.9 ms and ~104 KB), else zlib's run-length strategy."""
    try:
        from isal import isal_zlib
    except ImportError:
        return _zlib_rle

    def isal_deflate(data: bytes) -> bytes:
        return isal_zlib.compress(data, 1)

    return isal_deflate


deflate = _deflater()
_STATIC_CACHE: OrderedDict[tuple, cairo.ImageSurface] = OrderedDict()
#: The printed maps kept per process, in bytes of pixels (least recently used dropped first): a board takes
#: ~32-38 MB for the turn picture's three levels (render.turn_picture.levels: the map and its names) and ~12 MB
#: for the whole board at 1600 px, so every board of one language stays (~300 MB), not thrashing
STATIC_CACHE_BYTES = 384 * 1024 * 1024


def rasterise(svg: str, width: int, base: cairo.ImageSurface | None = None) -> cairo.ImageSurface:
    """Draw `svg` (scaled to `width` px) onto a new surface, over a copy of `base` when given."""

    class _Surface(PNGSurface):
        def _create_surface(self, w, h):
            w, h = int(round(w)), int(round(h))
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
            if base is not None:
                ctx = cairo.Context(surface)
                ctx.set_source_surface(base, 0, 0)
                ctx.paint()
            return surface, w, h

    tree = Tree(bytestring=svg.encode("utf-8"))
    return _Surface(tree, None, 96, output_width=width).cairo


def _to_image(surface: cairo.ImageSurface) -> Image.Image:
    """RGB view of an opaque cairo surface (transparent pixels come out black)."""
    surface.flush()
    w, h = surface.get_width(), surface.get_height()
    return Image.frombuffer("RGB", (w, h), bytes(surface.get_data()), "raw", "BGRX", surface.get_stride(), 1)


def encode_png(
    surface: cairo.ImageSurface, *, quantize: bool = True, palette: Image.Image | None = None
) -> bytes:
    surface.flush()  # read in place (no copy): `img` does not outlive `surface`
    w, h, data = surface.get_width(), surface.get_height(), surface.get_data()
    if palette is not None:  # a board's fixed palette: mapping is ~10x faster than building a palette
        return png_bytes(_mapped(surface, palette))
    img = Image.frombuffer("RGB", (w, h), data, "raw", "BGRX", surface.get_stride(), 1)
    if quantize:
        img = img.quantize(colors=PALETTE_COLORS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return png_bytes(img)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL, compress_type=PNG_COMPRESS_TYPE)
    return buf.getvalue()


#: Each palette with its red and blue swapped, by the palette image's id (see _mapped)
_SWAPPED: dict[int, tuple[Image.Image, Image.Image]] = {}
#: Palettes kept (_PALETTES, and _SWAPPED: theirs swapped) before they start over: a worker maps to one per board,
#: width and colour-blind setting it draws (six boards, the turn picture's and the board picture's widths, both
#: settings: 24), each a 1 px image; a caller drawing at ever new widths cannot grow them past this
PALETTE_CACHE_SIZE = 64


def _mapped(surface: cairo.ImageSurface, palette: Image.Image) -> Image.Image:
    """An opaque surface mapped to `palette` (no dithering): the quantize of its RGB image, read in place.

    Cairo's pixels are B, G, R, A bytes: read as "RGBA" (no unpacking, ~0.4 ms less on an 800x600 picture) they map
    to the palette with red and blue swapped, giving the same indices; Pillow's public quantize takes only RGB,
    so its own conversion is called (the one quantize makes), else the RGB image is quantized."""
    w, h = surface.get_width(), surface.get_height()
    found = _SWAPPED.get(id(palette))
    if found is None or found[0] is not palette:
        rgb = palette.getpalette() or []
        swapped = Image.new("P", (1, 1))
        swapped.putpalette([rgb[i + (2, 1, 0)[j]] for i in range(0, len(rgb) - 2, 3) for j in range(3)])
        swapped.load()
        if len(_SWAPPED) >= PALETTE_CACHE_SIZE:
            _SWAPPED.clear()
        found = _SWAPPED[id(palette)] = (palette, swapped)
    try:
        bgra = Image.frombuffer("RGBA", (w, h), surface.get_data(), "raw", "RGBA", surface.get_stride(), 1)
        out = _convert(bgra, found[1])
        out.putpalette(palette.getpalette() or [])
        return out
    except (AttributeError, TypeError, ValueError):  # another Pillow's internals
        rgb_img = Image.frombuffer("RGB", (w, h), surface.get_data(), "raw", "BGRX", surface.get_stride(), 1)
        return rgb_img.quantize(palette=palette, dither=Image.Dither.NONE)


def _convert(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Pillow's own mapping of `img` to `palette`'s colours, without dithering (what Image.quantize calls)."""
    return img._new(img.im.convert("P", 0, palette.im))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(img: Image.Image) -> bytes:
    """A palette ("P", 8 bits) image as PNG: no row filter (palette indices: filters only cost), deflated by
    :data:`deflate`."""
    assert img.mode == "P", img.mode
    w, h = img.size
    data = img.tobytes()
    rows = b"".join([b"\0" + data[i : i + w] for i in range(0, w * h, w)])  # each row's filter: none
    palette = bytes(img.getpalette() or [0, 0, 0])[: 3 * 256]
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", deflate(rows)),
            _chunk(b"IEND", b""),
        ]
    )


def svg_to_png(svg: str, *, width: int, quantize: bool = True) -> bytes:
    """Rasterise SVG text to PNG bytes `width` pixels wide (palette-quantised unless `quantize` is False)."""
    return encode_png(rasterise(svg, width), quantize=quantize)


def static_surface(
    board: Board,
    width: int,
    colorblind: bool,
    labels_only: bool = False,
    words: PictureWords = ENGLISH,
    bare: bool = False,
    crop: bool = False,
) -> cairo.ImageSurface:
    """The printed map (or only its names, on a transparent surface; or, `bare`, the map without its names nor
    the panel's frame) rasterised once and cached (per language: route letters and the panel's legend); `crop`:
    only its map's width (the panel's side is a quarter of the canvas), the same pixels from the left."""
    key = (
        board.id,
        id(layout_of(board)),
        width,
        colorblind,
        labels_only,
        bare,
        crop,
        (words.font, words.city_names) if labels_only else words,  # the names: in the readers' font and names
    )
    surface = _STATIC_CACHE.get(key)
    if surface is None:
        lay = layout_of(board)
        body = (
            labels_svg(board, lay, words=words)
            if labels_only
            else static_layer(board, colorblind=colorblind, words=words, panel=not bare, names=not bare)
        )
        svg = svg_open(width, lay.height, words.font) + body + "</svg>"
        surface = rasterise(svg, width)
        if crop:
            cropped = cairo.ImageSurface(
                cairo.FORMAT_ARGB32, min(surface.get_width(), math.ceil(lay.map_w * width / CANVAS_W) + 2),
                surface.get_height(),
            )  # fmt: skip
            ctx = cairo.Context(cropped)
            ctx.set_operator(cairo.OPERATOR_SOURCE)
            ctx.set_source_surface(surface, 0, 0)
            ctx.paint()
            surface.finish()
            surface = cropped
        _STATIC_CACHE[key] = surface
        while len(_STATIC_CACHE) > 1 and sum(map(_nbytes, _STATIC_CACHE.values())) > STATIC_CACHE_BYTES:
            _STATIC_CACHE.popitem(last=False)
    else:
        _STATIC_CACHE.move_to_end(key)
    return surface


def _nbytes(surface: cairo.ImageSurface) -> int:
    return surface.get_stride() * surface.get_height()


def svg_to_image(svg: str, *, width: int) -> Image.Image:
    """Rasterise SVG text to an RGB Pillow image `width` pixels wide."""
    return _to_image(rasterise(svg, width))


def render_board_png(
    board: Board,
    view: BoardView | None = None,
    *,
    width: int = 1600,
    colorblind: bool = True,
    highlight: LastMove | None = None,
    cache: bool = True,
    words: PictureWords = ENGLISH,
) -> bytes:
    """The board picture as PNG bytes; same options as :func:`render.board_svg.render_board_svg`.

    With `cache` (the default) the printed map is rasterised once per board/width and reused, which gives the same
    picture several times faster; `cache=False` rasterises the whole SVG of :func:`render_board_svg`.
    """
    palette = board_palette(board, width, colorblind) if cache else None
    return encode_png(
        palette=palette,
        surface=board_surface(
            board, view, width=width, colorblind=colorblind, highlight=highlight, cache=cache, words=words
        ),
    )


def _palette_view(board: Board) -> BoardView:
    """A made-up view using every player colour, card and mark, to build a board's palette from."""
    from .model import PLAYER_COLORS, LastMove, PlayerPanel

    players = tuple(
        PlayerPanel(c, c, score=100, trains=45, cards=9, tickets=9, stations=3) for c in PLAYER_COLORS
    )
    n = len(players)
    return BoardView(
        routes={r.id: r.id % n for r in board.routes if r.id % 2 == 0},
        stations={c.id: c.id % n for c in board.cities[:n]},
        players=players[:6],
        turn=0,
        face_up=tuple(range(9)),
        deck=99,
        discard=99,
        last_move=LastMove(routes=(1,), cities=(0,), text="palette"),
    )


#: Each board's palette (a 1 px image holding it), apart from the printed maps' cache: a few bytes each, and the
#: turn picture maps to it, so that evicting a printed map never costs the palette's making (a whole picture)
_PALETTES: dict[tuple, Image.Image] = {}


def board_palette(board: Board, width: int, colorblind: bool) -> Image.Image:
    key = (board.id, id(layout_of(board)), width, colorblind)
    pal = _PALETTES.get(key)
    if pal is None:
        img = _to_image(board_surface(board, _palette_view(board), width=width, colorblind=colorblind))
        static = _to_image(static_surface(board, width, colorblind))
        both = Image.new("RGB", (img.width, img.height + static.height))
        both.paste(img, (0, 0))
        both.paste(static, (0, img.height))
        quantized = both.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        pal = Image.new("P", (1, 1))
        pal.putpalette(quantized.getpalette() or [])
        if len(_PALETTES) >= PALETTE_CACHE_SIZE:
            _PALETTES.clear()
        _PALETTES[key] = pal
    return pal


def render_board_image(board: Board, view: BoardView | None = None, **opts) -> Image.Image:
    """The board picture as an RGB Pillow image (for GIF frames and compositions)."""
    return _to_image(board_surface(board, view, **opts))


def board_surface(
    board: Board,
    view: BoardView | None = None,
    *,
    width: int = 1600,
    colorblind: bool = True,
    highlight: LastMove | None = None,
    cache: bool = True,
    words: PictureWords = ENGLISH,
) -> cairo.ImageSurface:
    view = view or BoardView()
    if not cache:
        svg = render_board_svg(
            board, view, width=width, colorblind=colorblind, highlight=highlight, words=words
        )
        return rasterise(svg, width)
    surface = board_game_surface(
        board, view, width=width, colorblind=colorblind, highlight=highlight, words=words
    )
    repaint_covered(surface, board, view, highlight, width, colorblind, words=words)
    return surface


def repaint_covered(
    surface: cairo.ImageSurface,
    board: Board,
    view: BoardView,
    highlight: LastMove | None,
    width: int,
    colorblind: bool,
    origin: tuple[int, int] = (0, 0),
    skip: frozenset[int] = frozenset(),
    words: PictureWords = ENGLISH,
    crop: bool = False,
) -> None:
    """Names hidden by claimed routes painted again from the cached names layer (`surface`: the picture from
    pixel `origin` on; the names of the cities in `skip` are not)."""
    lay = layout_of(board)
    hl = highlight if highlight is not None else view.last_move
    covered = labels_under(lay, set(view.routes) | set(hl.routes if hl is not None else ())) - skip
    if not covered:
        return
    names = static_surface(board, width, colorblind, labels_only=True, words=words, crop=crop)
    k = width / CANVAS_W
    ctx = cairo.Context(surface)
    ctx.translate(-origin[0], -origin[1])
    for lab in (*lay.labels, *lay.country_labels):
        if lab.city in covered:
            x0, y0, x1, y1 = lab.box
            ctx.rectangle(x0 * k - 3, y0 * k - 3, (x1 - x0) * k + 6, (y1 - y0) * k + 6)
    ctx.clip()
    ctx.set_source_surface(names, 0, 0)
    ctx.paint()


def board_game_surface(
    board: Board,
    view: BoardView,
    *,
    width: int,
    colorblind: bool,
    highlight: LastMove | None = None,
    words: PictureWords = ENGLISH,
    panel: bool = True,
) -> cairo.ImageSurface:
    """The cached printed map with the game layer over it, drawn from sprites (:mod:`render.sprites`); without
    `panel`, the panel's frame is left empty."""
    height = canvas_height(layout_of(board), view)
    base = static_surface(board, width, colorblind, words=words)
    parts = game_layer_parts(
        board,
        view,
        colorblind=colorblind,
        highlight=highlight,
        height=height,
        labels_on_top=False,
        compact=True,
        panel=panel,
        words=words,
    )
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, base.get_width(), base.get_height())
    ctx = cairo.Context(surface)
    ctx.set_source_surface(base, 0, 0)
    ctx.paint()
    draw_parts(surface, svg_open(width, height, words.font), parts, width=width)
    return surface

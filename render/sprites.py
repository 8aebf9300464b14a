"""The game layer of a board picture drawn from cached sprites: the same picture as cairosvg's, several times faster.

cairosvg spends most of a board picture parsing and drawing the game layer's few hundred elements in Python, and
nearly all of them were drawn before, in an earlier picture: the same route in the same colour, a player's name,
a score, a face-up card. Every part of the game layer (:func:`render.board_svg.game_layer_parts`) draws
independently of the others, so :func:`draw_parts` splits it into leaf elements, rasterises each once with cairosvg
into a small transparent sprite at its place in the picture, keeps it under its SVG text, and paints it over the
printed map: compositing a sprite OVER the picture gives the pixels drawing the element there would.

Leaf elements keep the presentation attributes of the plain groups around them (those without opacity, transform
or clipping: drawing their children one by one draws the same). Claimed routes are sprites per route (a player's
fills, then outlines, then marks: the order of their one path), their shadows one mask at the shadows' opacity.
Sprites of one process are kept up to :data:`SPRITE_CACHE_BYTES` (least recently used dropped first).
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import cairocffi as cairo
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface

from .board_routes import (
    HALO_INK,
    SHADOW_OPACITY,
    CompactClaims,
    Shadows,
    halo_path,
    mark_path,
    piece_path,
    shadow_path,
)
from .board_svg import GamePart

SPRITE_CACHE_BYTES = 96 * 1024 * 1024

_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)([^>]*?)(/?)>")
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
#: Attributes of a group that only name it, or that its children inherit: such a group may be split.
_NAMING = frozenset({"id", "class"})
_INHERITED = frozenset(
    {
        "fill", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-dasharray",
        "font-family", "font-size", "font-weight", "text-anchor",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Sprite:
    """A rasterised element: its pixels and where its top-left corner goes in the picture."""

    surface: cairo.ImageSurface
    x: int
    y: int
    nbytes: int


class Leaves:
    """Splits SVG text, fed part by part in drawing order, into leaf elements wrapped in the plain groups around
    them (only the groups whose attributes their children inherit; naming attributes are dropped)."""

    def __init__(self) -> None:
        # per open plain group: its wrapper tag, or None when it adds nothing
        self._open: list[str | None] = []

    def wrap(self, leaf: str) -> str:
        tags = [t for t in self._open if t is not None]
        return "".join(tags) + leaf + "</g>" * len(tags) if tags else leaf

    def feed(self, svg: str) -> list[str]:
        out: list[str] = []
        depth, start = 0, 0
        for m in _TAG.finditer(svg):
            closing, tag, attrs, self_closing = m.groups()
            if depth:  # inside a leaf
                if closing:
                    depth -= 1
                elif not self_closing:
                    depth += 1
                if not depth:
                    out.append(self.wrap(svg[start : m.end()]))
                continue
            if closing:  # a plain group ends
                self._open.pop()
                continue
            if tag == "g" and not self_closing:
                pairs = _ATTR.findall(attrs)
                if all(k in _NAMING or k in _INHERITED for k, _v in pairs):
                    kept = " ".join(f'{k}="{v}"' for k, v in pairs if k not in _NAMING)
                    self._open.append(f"<g {kept}>" if kept else None)
                    continue
            if self_closing:
                out.append(self.wrap(m.group(0)))
            else:
                depth, start = 1, m.start()
        return out


class _Recording(PNGSurface):
    """cairosvg drawing onto an unbounded recording surface (its ink extents give the sprite's box)."""

    def _create_surface(self, width: float, height: float) -> tuple[cairo.Surface, float, float]:
        return cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None), width, height


class SpriteCache:
    """Sprites by (SVG head, element) in least-recently-used order, up to `budget` bytes of pixels."""

    def __init__(self, budget: int = SPRITE_CACHE_BYTES) -> None:
        self.budget = budget
        self.nbytes = 0
        self.misses = 0
        self._sprites: OrderedDict[tuple[str, str], Sprite | None] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sprites)

    def get(self, head: str, element: str, width: int) -> Sprite | None:
        key = (head, element)
        try:
            sprite = self._sprites[key]
        except KeyError:
            pass
        else:
            self._sprites.move_to_end(key)
            return sprite
        self.misses += 1
        sprite = rasterise_sprite(head + element + "</svg>", width)
        self._sprites[key] = sprite
        self.nbytes += sprite.nbytes if sprite is not None else 0
        while self.nbytes > self.budget and len(self._sprites) > 1:
            _key, old = self._sprites.popitem(last=False)
            self.nbytes -= old.nbytes if old is not None else 0
        return sprite

    def clear(self) -> None:
        self._sprites.clear()
        self.nbytes = 0


SPRITES = SpriteCache()


def rasterise_sprite(svg: str, width: int) -> Sprite | None:
    """`svg` (a whole picture's SVG holding one element) rasterised `width` px wide, cropped to what it draws
    (None when it draws nothing)."""
    tree = Tree(bytestring=svg.encode("utf-8"))
    recording = _Recording(tree, None, 96, output_width=width).cairo
    x, y, w, h = recording.ink_extents()
    if w <= 0 or h <= 0:
        return None
    x0, y0 = math.floor(x), math.floor(y)
    x1, y1 = math.ceil(x + w), math.ceil(y + h)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, x1 - x0, y1 - y0)
    ctx = cairo.Context(surface)
    ctx.set_source_surface(recording, -x0, -y0)
    ctx.paint()
    surface.flush()
    recording.finish()
    return Sprite(surface, x0, y0, surface.get_stride() * (y1 - y0))


def _paint(ctx: cairo.Context, sprite: Sprite | None) -> None:
    if sprite is not None:
        ctx.set_source_surface(sprite.surface, sprite.x, sprite.y)
        ctx.paint()


def _paint_shadows(
    ctx: cairo.Context,
    sprites: Sequence[Sprite],
    rgba: tuple[float, float, float, float] = (0, 0, 0, SHADOW_OPACITY),
) -> None:
    """The union of `sprites` as one mask, painted in `rgba` (black at the shadows' opacity by default): the look
    of one path (the claimed trains' rims too)."""
    if not sprites:
        return
    x0 = min(s.x for s in sprites)
    y0 = min(s.y for s in sprites)
    x1 = max(s.x + s.surface.get_width() for s in sprites)
    y1 = max(s.y + s.surface.get_height() for s in sprites)
    mask = cairo.ImageSurface(cairo.FORMAT_A8, x1 - x0, y1 - y0)
    mctx = cairo.Context(mask)
    mctx.set_operator(cairo.OPERATOR_ADD)
    for s in sprites:
        mctx.set_source_surface(s.surface, s.x - x0, s.y - y0)
        mctx.paint()
    mask.flush()
    ctx.set_source_rgba(*rgba)
    ctx.mask_surface(mask, x0, y0)


_HALO_RGBA = (int(HALO_INK[1:3], 16) / 255, int(HALO_INK[3:5], 16) / 255, int(HALO_INK[5:7], 16) / 255, 1.0)


def draw_parts(
    surface: cairo.ImageSurface,
    svg_open: str,
    parts: Sequence[GamePart],
    *,
    width: int,
    cache: SpriteCache = SPRITES,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """Draw game-layer `parts` (:func:`render.board_svg.game_layer_parts`) onto `surface` from sprites.

    Every sprite's SVG opens with `svg_open` (the picture's ``<svg>`` tag; then the layer's defs, its first part,
    when the element refers to them), so a sprite is drawn at the size and place it has in the picture; `width`
    is the picture's width in pixels; `surface` holds the part of the picture from pixel `origin` on.
    """
    ctx = cairo.Context(surface)
    ctx.translate(-origin[0], -origin[1])
    head = svg_open + str(parts[0]) if parts else svg_open  # for the elements that use the defs
    leaves = Leaves()

    def sprite(element: str) -> Sprite | None:
        return cache.get(svg_open, leaves.wrap(element), width)

    for part in parts[1:]:
        if isinstance(part, str):
            for leaf in leaves.feed(part):
                _paint(ctx, cache.get(head if "url(#" in leaf else svg_open, leaf, width))
        elif isinstance(part, Shadows):
            _paint_shadows(
                ctx, [s for s in (sprite(shadow_path(d, 1)) for d in part.routes) if s is not None]
            )
        elif isinstance(part, CompactClaims):
            rims = [sprite(halo_path(p)) for _player, routes in part.seats for p, _m in routes]
            _paint_shadows(ctx, [s for s in rims if s is not None], _HALO_RGBA)  # every rim under every train
            for player, routes in part.seats:
                for pieces, _marks in routes:
                    _paint(ctx, sprite(piece_path(pieces, player, stroke=False)))
                for pieces, _marks in routes:
                    _paint(ctx, sprite(piece_path(pieces, player, fill=False)))
                for _pieces, marks in routes:
                    if marks:
                        _paint(ctx, sprite(mark_path(marks, player)))
        else:  # pragma: no cover - GamePart is closed
            raise TypeError(f"unknown game-layer part {part!r}")
    surface.mark_dirty()

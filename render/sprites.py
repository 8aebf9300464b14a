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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cairocffi as cairo
from cairosvg.colors import color as svg_color
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface

from .board_routes import (
    HALO_INK,
    HALO_W,
    PIECE_LINE,
    PIECE_LINE_W,
    SHADOW_OPACITY,
    TICKET_ARC_OPACITY,
    TICKET_ARC_W,
    TICKET_DASH,
    TICKET_HALO_OPACITY,
    TICKET_HALO_W,
    CompactClaims,
    Shadows,
    TicketArcs,
    halo_path,
    piece_path,
    shadow_path,
)
from .board_svg import GamePart
from .svg import mark_ink, player_fill

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
    """A rasterised element: its pixels, where its top-left corner goes in the picture and where its bottom-right
    one (kept: asking the surface costs a foreign call, and a frame checks a few hundred sprites)."""

    surface: cairo.ImageSurface
    x: int
    y: int
    nbytes: int
    x1: int
    y1: int


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


def _rgba(color: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255, alpha


_HALO_RGBA = _rgba(HALO_INK)
_PIECE_LINE_RGBA = _rgba(PIECE_LINE)
_SVG_SIZE = re.compile(r'width="([\d.]+)" height="([\d.]+)" viewBox="([-\d. ]+)"')
_PATH_OP = re.compile(r"([MLaZ])([^MLaZ]*)")
_NUMBER = re.compile(r"-?[\d.]+")

#: A path as calls on a cairo context: (method, its arguments)
Steps = tuple[tuple[Any, tuple[float, ...]], ...]


class _Path:
    """Path data of the claims (``M``, ``L``, ``Z`` and the half-circle ``a`` of the round marks, see
    render.svg._shape_d) parsed once into cairo calls, and its bounding box."""

    __slots__ = ("bbox", "steps")

    def __init__(self, d: str) -> None:
        steps: list[tuple[Any, tuple[float, ...]]] = []
        xs: list[float] = []
        ys: list[float] = []
        x = y = 0.0
        for op, args in _PATH_OP.findall(d):
            n = [float(v) for v in _NUMBER.findall(args)]
            if op == "M":
                x, y = n[0], n[1]
                steps.append((cairo.Context.move_to, (x, y)))
            elif op == "L":
                x, y = n[0], n[1]
                steps.append((cairo.Context.line_to, (x, y)))
            elif op == "Z":
                steps.append((cairo.Context.close_path, ()))
            else:  # a half circle (rx = ry) from the current point to (x + dx, y), counter-clockwise
                r, dx = n[0], n[5]
                a0, a1 = (math.pi, 0.0) if dx > 0 else (0.0, -math.pi)
                steps.append((cairo.Context.arc_negative, (x + dx / 2, y, r, a0, a1)))
                xs += [x, x + dx]
                ys += [y - r, y + r]
                x += dx
            xs.append(x)
            ys.append(y)
        self.steps: Steps = tuple(steps)
        self.bbox = (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def _run(ctx: cairo.Context, steps: Steps) -> None:
    for fn, args in steps:
        fn(ctx, *args)


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

    def get(self, head: str, element: str, width: int, shape: Shape | Body | None = None) -> Sprite | None:
        """The sprite of `element` in the picture that `head` opens; drawn on a miss by cairosvg, or, for the
        claims (`shape`), straight from their path data (~50x faster: the end's whole board, at a width none of
        the game's turn pictures had, draws every claimed route anew)."""
        key = (head, element)
        try:
            sprite = self._sprites[key]
        except KeyError:
            pass
        else:
            self._sprites.move_to_end(key)
            return sprite
        self.misses += 1
        text = plain_text(element) if shape is None else None
        if text is not None:
            sprite = rasterise_text(head, text)
        elif shape is None:
            sprite = rasterise_sprite(head + element + "</svg>", width)
        elif isinstance(shape, Body):
            sprite = rasterise_body(head, shape)
        else:
            sprite = rasterise_shape(head, shape)
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
    return _crop(_Recording(tree, None, 96, output_width=width).cairo)


#: A plain text leaf of the game layer (the panel's names, numbers and captions): an optional font group around
#: one ``<text>`` with only these attributes, its content without markup, entities nor spaces to normalise
_TEXT_LEAF = re.compile(r'(?:<g font-family="([^"]*)">)?<text ([^>]*)>([^<&]+)</text>((?:</g>)?)')
_TEXT_ATTRS = frozenset(
    {"class", "x", "y", "font-size", "font-weight", "text-anchor", "fill", "stroke", "stroke-width"}
)
_ROOT_FONT = re.compile(r'font-family="([^"]*)"')


@dataclass(frozen=True, slots=True)
class PlainText:
    """What cairosvg reads of a plain text leaf: font, size, place, anchor, fill."""

    family: str | None
    attrs: dict[str, str]
    text: str


def plain_text(element: str) -> PlainText | None:
    """The element as a :class:`PlainText` when it is one :func:`rasterise_text` draws as cairosvg does."""
    m = _TEXT_LEAF.fullmatch(element)
    if m is None or (m.group(1) is None) != (m.group(4) == ""):
        return None
    attrs = dict(_ATTR.findall(m.group(2)))
    text = m.group(3)
    if (
        not attrs.keys() <= _TEXT_ATTRS
        or attrs.get("stroke", "none") != "none"
        or text != " ".join(text.split())
        or not all(_is_float(attrs.get(k, "0")) for k in ("x", "y", "font-size"))
    ):
        return None
    return PlainText(m.group(1), attrs, text)


def _is_float(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


#: How many pictures' frames (:func:`_text_frame`, :func:`frame_of`) a process keeps, least recently used dropped
#: first. A frame is keyed by the picture's ``<svg>`` tag (its pixel size, the canvas height, the font): a render
#: worker opens a handful, the turn picture's levels and the board picture's widths per canvas height, in a Latin
#: and a CJK font. One random 4-player game on each of the six boards (bench_render.bench_turns, 1870 turn
#: pictures after the worker's warm-up) opened 12 distinct tags in all (the boards share two canvas heights), 11 of
#: them for text. 256 keeps that set in both fonts many times over, and bounds what a caller drawing at ever new
#: widths leaves behind to a few hundred small entries (a matrix, a clip, five floats).
FRAME_CACHE_SIZE = 256


@lru_cache(maxsize=FRAME_CACHE_SIZE)
def _text_frame(
    svg_open: str,
) -> tuple[cairo.Matrix, tuple[tuple[float, float, float, float], ...], str | None]:
    """The user-to-pixel matrix and the clip cairosvg sets up for the picture `svg_open` opens (read from cairosvg
    itself, once), and the picture's font family."""
    size = _SVG_SIZE.search(svg_open)
    assert size is not None, svg_open
    tree = Tree(bytestring=(svg_open + "</svg>").encode("utf-8"))
    root = _Recording(tree, None, 96, output_width=int(float(size.group(1))))
    family = _ROOT_FONT.search(svg_open)
    frame = (
        root.context.get_matrix(),
        tuple(root.context.copy_clip_rectangle_list()),
        family.group(1) if family else None,
    )
    root.cairo.finish()
    return frame


def rasterise_text(svg_open: str, leaf: PlainText) -> Sprite | None:
    """A plain text leaf drawn with the very cairo calls cairosvg makes for it (cairosvg.text.text: each letter
    shown at the previous one's advance, the whole text's extents placing the anchor), without parsing an SVG
    document: the same sprite several times faster (a GIF's panel draws a few hundred numbers and captions new
    to the process)."""
    matrix, clip, root_family = _text_frame(svg_open)
    recording = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None)
    ctx = cairo.Context(recording)
    ctx.set_matrix(matrix)
    for (
        rect
    ) in clip:  # (in user space, as cairo gives them: a picture wider than its canvas clipped at its width)
        ctx.rectangle(*rect)
    ctx.clip()
    a = leaf.attrs
    family = (leaf.family or root_family or "sans-serif").split(",")[0].strip("\"' ")
    weight = a.get("font-weight")
    if weight and weight.isdigit() and int(weight) >= 550:
        weight = "bold"
    ctx.select_font_face(
        family,
        cairo.FONT_SLANT_NORMAL,
        cairo.FONT_WEIGHT_BOLD if weight == "bold" else cairo.FONT_WEIGHT_NORMAL,
    )
    ctx.set_font_size(float(a.get("font-size", "0")))
    ctx.set_source_rgba(*svg_color(a.get("fill", "black"), 1))
    x_bearing, _y_bearing, text_width, _h = ctx.text_extents(leaf.text)[:4]
    anchor = a.get("text-anchor")
    x_align = (
        -(text_width / 2 + x_bearing)
        if anchor == "middle"
        else -(text_width + x_bearing)
        if anchor == "end"
        else 0
    )
    x, y = float(a.get("x", "0")), float(a.get("y", "0"))
    for letter in leaf.text:
        advance = ctx.text_extents(letter)[4]
        ctx.save()
        ctx.move_to(x, y)
        ctx.rel_move_to(0, 0)
        ctx.rel_move_to(x_align, 0)
        ctx.rotate(0)
        if not letter.isspace():
            ctx.show_text(letter)
        ctx.restore()
        x += advance
    return _crop(recording)


def _crop(recording: cairo.RecordingSurface) -> Sprite | None:
    """What `recording` draws, on an image surface cropped to its ink (None when it draws nothing)."""
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
    return Sprite(surface, x0, y0, surface.get_stride() * (y1 - y0), x1, y1)


@dataclass(frozen=True, slots=True)
class Shape:
    """A claim element as a path: its path data `d`, what is drawn of it (``fill``: the path; ``halo``: the
    trains' dark rim, a HALO_W stroke with the fill; ``line``: their white outline, a PIECE_LINE_W stroke), in
    colour `rgba`, even-odd or non-zero."""

    d: str
    how: str
    rgba: tuple[float, float, float, float]
    even_odd: bool = False


@lru_cache(maxsize=FRAME_CACHE_SIZE)
def frame_of(svg_open: str) -> tuple[float, float, float, float, float]:
    """The canvas-to-pixel mapping of a picture's ``<svg>`` tag: scale, x and y offsets, viewBox origin."""
    m = _SVG_SIZE.search(svg_open)
    assert m is not None, svg_open
    px_w, px_h = float(m.group(1)), float(m.group(2))
    vx, vy, vw, vh = (float(v) for v in m.group(3).split())
    k = min(px_w / vw, px_h / vh)  # preserveAspectRatio's default: "xMidYMid meet"
    return (k, (px_w - vw * k) / 2, (px_h - vh * k) / 2, vx, vy)


def _canvas(svg_open: str, path: _Path, reach: float) -> tuple[cairo.ImageSurface, cairo.Context, Box] | None:
    """A surface cropped to `path`'s box grown by `reach` where `svg_open`'s picture puts it, and a context in the
    drawing's units on it (None: the path draws nothing)."""
    k, dx, dy, vx, vy = frame_of(svg_open)
    bx0, by0, bx1, by1 = path.bbox
    x0, y0 = math.floor((bx0 - reach - vx) * k + dx), math.floor((by0 - reach - vy) * k + dy)
    x1, y1 = math.ceil((bx1 + reach - vx) * k + dx), math.ceil((by1 + reach - vy) * k + dy)
    if x1 <= x0 or y1 <= y0 or not path.steps:
        return None
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, x1 - x0, y1 - y0)
    ctx = cairo.Context(surface)
    ctx.translate(dx - x0, dy - y0)
    ctx.scale(k, k)
    ctx.translate(-vx, -vy)
    return surface, ctx, (x0, y0, x1, y1)


def _sprite(surface: cairo.ImageSurface, box: Box) -> Sprite:
    x0, y0, x1, y1 = box
    surface.flush()
    return Sprite(surface, x0, y0, surface.get_stride() * (y1 - y0), x1, y1)


def rasterise_shape(svg_open: str, shape: Shape) -> Sprite | None:
    """`shape` drawn as it is in the picture that `svg_open` opens, cropped to its box (None: it draws nothing)."""
    path = _Path(shape.d)
    reach = {"halo": HALO_W / 2, "line": PIECE_LINE_W / 2}.get(shape.how, 0.0) + 1.0
    canvas = _canvas(svg_open, path, reach)
    if canvas is None:
        return None
    surface, ctx, box = canvas
    _run(ctx, path.steps)
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if shape.even_odd else cairo.FILL_RULE_WINDING)
    ctx.set_source_rgba(*shape.rgba)
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    if shape.how == "line":
        ctx.set_line_width(PIECE_LINE_W)
        ctx.stroke()
    elif shape.how == "halo":
        ctx.fill_preserve()
        ctx.set_line_width(HALO_W)
        ctx.stroke()
    else:
        ctx.fill()
    return _sprite(surface, box)


@dataclass(frozen=True, slots=True)
class Body:
    """A claimed route's trains' white outline and, over it, their colour-blind marks (`marks` may be empty)
    as one sprite: what the route's two sprites painted in that order draw."""

    pieces: str
    marks: str
    ink: tuple[float, float, float, float]


def rasterise_body(svg_open: str, body: Body) -> Sprite | None:
    """`body` drawn as it is in the picture that `svg_open` opens, cropped to its box (None: it draws nothing)."""
    path = _Path(body.pieces)
    canvas = _canvas(svg_open, path, PIECE_LINE_W / 2 + 1.0)
    if canvas is None:
        return None
    surface, ctx, box = canvas
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    _run(ctx, path.steps)
    ctx.set_line_width(PIECE_LINE_W)
    ctx.set_source_rgba(*_PIECE_LINE_RGBA)
    ctx.stroke()
    if body.marks:
        _run(ctx, _Path(body.marks).steps)
        ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
        ctx.set_source_rgba(*body.ink)
        ctx.fill()
    return _sprite(surface, box)


#: A part of a picture, x0, y0, x1, y1 in its pixels
Box = tuple[int, int, int, int]


def _meets(sprite: Sprite, box: Box) -> bool:
    """Whether `sprite` draws anything inside `box`."""
    x0, y0, x1, y1 = box
    return sprite.x < x1 and sprite.y < y1 and sprite.x1 > x0 and sprite.y1 > y0


def _paint(ctx: cairo.Context, sprite: Sprite | None, box: Box | None = None) -> None:
    """Paint `sprite` at its place, unless it lies wholly outside `box` (the part of the picture the surface
    holds: a turn picture's window holds a small part of the board, and cairo clipping a sprite away costs as
    much as painting it)."""
    if sprite is not None and (box is None or _meets(sprite, box)):
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
    x1 = max(s.x1 for s in sprites)
    y1 = max(s.y1 for s in sprites)
    mask = cairo.ImageSurface(cairo.FORMAT_A8, x1 - x0, y1 - y0)
    mctx = cairo.Context(mask)
    mctx.set_operator(cairo.OPERATOR_ADD)
    for s in sprites:
        mctx.set_source_surface(s.surface, s.x - x0, s.y - y0)
        mctx.paint()
    mask.flush()
    ctx.set_source_rgba(*rgba)
    ctx.mask_surface(mask, x0, y0)


def _stroke_arcs(ctx: cairo.Context, svg_open: str, part: TicketArcs) -> None:
    """The final board's ticket arcs stroked straight onto the picture, as cairosvg would (a stroke at an
    opacity: one path's stroke in a translucent colour)."""
    k, dx, dy, vx, vy = frame_of(svg_open)
    ctx.save()
    ctx.translate(dx, dy)
    ctx.scale(k, k)
    ctx.translate(-vx, -vy)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    for arc in part.arcs:
        # the quadratic curve as cairo's cubic one
        c1 = (arc.x1 + 2 / 3 * (arc.cx - arc.x1), arc.y1 + 2 / 3 * (arc.cy - arc.y1))
        c2 = (arc.x2 + 2 / 3 * (arc.cx - arc.x2), arc.y2 + 2 / 3 * (arc.cy - arc.y2))
        for width, rgba, dash in (
            (TICKET_HALO_W, (1.0, 1.0, 1.0, TICKET_HALO_OPACITY), ()),
            (TICKET_ARC_W, _rgba(arc.ink, TICKET_ARC_OPACITY), () if arc.done else TICKET_DASH),
        ):
            ctx.new_path()
            ctx.move_to(arc.x1, arc.y1)
            ctx.curve_to(*c1, *c2, arc.x2, arc.y2)
            ctx.set_line_width(width)
            ctx.set_dash(list(dash))
            ctx.set_source_rgba(*rgba)
            ctx.stroke()
    ctx.restore()


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
    box = (origin[0], origin[1], origin[0] + surface.get_width(), origin[1] + surface.get_height())

    def claim(element: str, shape: Shape) -> Sprite | None:
        return cache.get(svg_open, leaves.wrap(element), width, shape)

    def seen(sprites: Iterable[Sprite | None]) -> list[Sprite]:
        return [s for s in sprites if s is not None and _meets(s, box)]

    for part in parts[1:]:
        if isinstance(part, str):
            for leaf in leaves.feed(part):
                _paint(ctx, cache.get(head if "url(#" in leaf else svg_open, leaf, width), box)
        elif isinstance(part, Shadows):
            black = (0.0, 0.0, 0.0, 1.0)
            _paint_shadows(ctx, seen(claim(shadow_path(d, 1), Shape(d, "fill", black)) for d in part.routes))
        elif isinstance(part, CompactClaims):
            rims = (
                claim(halo_path(p), Shape(p, "halo", _HALO_RGBA)) for _pl, rs in part.seats for p, _m in rs
            )
            _paint_shadows(ctx, seen(rims), _HALO_RGBA)  # every rim under every train
            for player, routes in part.seats:
                fill = _rgba(player_fill(player))
                for pieces, _marks in routes:
                    _paint(
                        ctx, claim(piece_path(pieces, player, stroke=False), Shape(pieces, "fill", fill)), box
                    )
                # then each route's outline and marks as one sprite: a player's marks over their outlines but
                # where two of their routes meet at a city (~1.5x cheaper than outlines, then marks)
                ink = _rgba(mark_ink(player))
                for pieces, marks in routes:
                    top = Body(pieces, marks, ink)
                    _paint(ctx, cache.get(svg_open, f"top {player} {pieces} {marks}", width, top), box)
        elif isinstance(part, TicketArcs):
            _stroke_arcs(ctx, svg_open, part)
        else:  # pragma: no cover - GamePart is closed
            raise TypeError(f"unknown game-layer part {part!r}")
    surface.mark_dirty()

"""The turn picture's shapes whose size follows the window's scale, drawn straight with cairo.

The last moves' glow (:func:`render.board_routes.highlight_svg`) and the city tags
(:func:`render.turn_picture.tags_svg`) are as wide as the window's scale needs, and the scale varies from one
picture to the next: as sprites (:mod:`render.sprites`) cairosvg drew them anew in nearly every picture further out
than the closest (~0.5 ms the glow, ~0.3 ms a tag). Here they are drawn with the very cairo calls cairosvg makes for
their SVG (its rounded rectangles, circles, the opacity of a shape without children as its fill's and stroke's
alpha; the names by :func:`render.sprites.rasterise_text`), each shape on its own as each was a sprite: the same
pixels (tests/render/test_pictures_as_today.py draws them both ways).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cairocffi as cairo

from .layout.geometry import DOT_R, SPACE_H, Layout
from .sprites import PlainText, frame_of, rasterise_text
from .svg import HILITE, INK, num

_ARC = 4 * (2**0.5 - 1) / 3  # a quarter circle's Bezier handles (cairosvg's)

#: A tag to draw: its box (x0, y0, x1, y1), font size, the name's anchor point and side, the name
NamedTag = tuple[tuple[float, float, float, float], float, float, float, str, str]


def _rgb(color: str) -> tuple[float, float, float]:
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def rounded(ctx: cairo.Context, x: float, y: float, w: float, h: float, r: float) -> None:
    """A rounded rectangle's path, as cairosvg draws an SVG ``rect`` with ``rx`` (cairosvg.shapes.rect)."""
    rx, ry = min(r, w / 2), min(r, h / 2)
    c1, c2 = _ARC * rx, _ARC * ry
    ctx.new_path()
    ctx.move_to(x + rx, y)
    ctx.rel_line_to(w - 2 * rx, 0)
    ctx.rel_curve_to(c1, 0, rx, c2, rx, ry)
    ctx.rel_line_to(0, h - 2 * ry)
    ctx.rel_curve_to(0, c2, c1 - rx, ry, -rx, ry)
    ctx.rel_line_to(-w + 2 * rx, 0)
    ctx.rel_curve_to(-c1, 0, -rx, -c2, -rx, -ry)
    ctx.rel_line_to(0, -h + 2 * ry)
    ctx.rel_curve_to(0, -c2, rx - c1, -ry, rx, -ry)
    ctx.close_path()


def canvas_context(surface: cairo.ImageSurface, svg_open: str, origin: tuple[int, int]) -> cairo.Context:
    """A context drawing in canvas units on `surface`, the part of the picture `svg_open` opens from pixel
    `origin` on."""
    k, dx, dy, vx, vy = frame_of(svg_open)
    ctx = cairo.Context(surface)
    ctx.translate(dx - origin[0], dy - origin[1])
    ctx.scale(k, k)
    ctx.translate(-vx, -vy)
    return ctx


def draw_glow(
    surface: cairo.ImageSurface,
    svg_open: str,
    lay: Layout,
    routes: Sequence[int],
    cities: Sequence[int],
    pad: float,
    origin: tuple[int, int],
) -> None:
    """The glow `pad` canvas units wide around `routes`' train spaces and `cities`' dots (every frame a city is
    drawn in), in highlight_svg's order."""
    ctx = canvas_context(surface, svg_open, origin)
    r, g, b = _rgb(HILITE)
    ctx.set_source_rgba(r, g, b, 0.8)
    by_id = {geom.route: geom for geom in lay.routes}
    for rid in routes:
        geom = by_id.get(rid)
        for sp in geom.spaces if geom is not None else ():
            ctx.save()
            ctx.translate(sp.x, sp.y)
            ctx.rotate(math.radians(sp.angle))
            rounded(
                ctx, -sp.length / 2 - pad, -SPACE_H / 2 - pad, sp.length + 2 * pad, SPACE_H + 2 * pad, pad
            )
            ctx.restore()
            ctx.fill()
    for c in cities:
        for (cid, _frame), (x, y) in lay.cities.items():
            if cid == c:
                ctx.new_path()
                ctx.new_sub_path()
                ctx.arc(x, y, DOT_R + pad, 0, 2 * math.pi)
                ctx.close_path()
                ctx.fill()


def draw_tags(
    surface: cairo.ImageSurface, svg_open: str, tags: Sequence[NamedTag], font: str, origin: tuple[int, int]
) -> None:
    """Each tag: a white frame edged in the highlight's colour, then its name in bold ink, under the next tags."""
    if not tags:
        return
    ctx = canvas_context(surface, svg_open, origin)
    r, g, b = _rgb(HILITE)
    ctx.set_line_cap(cairo.LINE_CAP_BUTT)
    ctx.set_line_join(cairo.LINE_JOIN_MITER)
    ctx.set_miter_limit(4)
    pixels = cairo.Context(surface)
    pixels.translate(-origin[0], -origin[1])
    for (x0, y0, x1, y1), size, x, y, anchor, name in tags:
        rounded(ctx, x0, y0, x1 - x0, y1 - y0, size * 0.3)
        ctx.set_source_rgba(1, 1, 1, 0.95)
        ctx.fill_preserve()
        ctx.set_source_rgba(r, g, b, 0.95)
        ctx.set_line_width(max(2.0, size * 0.09))
        ctx.stroke()
        attrs = {"x": num(x), "y": num(y), "text-anchor": anchor, "font-size": num(size)}
        attrs |= {"font-weight": "bold", "fill": INK}
        sprite = rasterise_text(svg_open, PlainText(font, attrs, " ".join(name.split())))
        if sprite is not None:
            pixels.set_source_surface(sprite.surface, sprite.x, sprite.y)
            pixels.paint()

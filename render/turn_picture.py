"""The turn message's picture: the part of the board where the last moves were, sized for the chat.

Discord shows an embed's image at most 400 px wide and 300 px high on a desktop (the embed is 432 px wide with
its padding), and about the screen's width less the margins on a phone (~340 px on a 390 px screen). The whole
board at that size prints its city names ~5 px tall: nobody can read them without opening the picture. So the
turn picture is a 4:3 window (:data:`OUT_W` x :data:`OUT_H` px, shown at :data:`DISPLAY_W` px) on the routes and
cities taken since the reader's last turn (the view's ``last_move``), as close as they allow:

- at most :data:`MAX_SCALE` px per canvas unit, where the board's own names are :data:`MIN_LABEL_PX` px or more
  as displayed (and ~9 px on a phone);
- further out when the moves lie far apart, down to the whole map; then the names of the cities they touch are
  printed again, bigger, on tags (their size keeps them :data:`MIN_LABEL_PX` px tall as displayed);
- a small locator of the whole board, the window outlined on it, in the corner farthest from the moves, unless
  the window shows most of the map.

There is no side panel: the embed's text says the scores, counts and face-up cards. The whole board (the full
picture of :mod:`render.png`, with its panel) stays one tap away: the turn message's "Board" button.

The drawing reuses the full picture's: the printed map and its names rasterised once per board at a few
levels (:func:`levels`: the whole map's scale, the closest, two between; :func:`render.png.static_surface`),
the game layer painted over the level at or above the window's scale from cached sprites (:mod:`render.sprites`)
in the window only, the glow and tags drawn straight (:mod:`render.turn_shapes`), then scaled down to the
window's scale (by 0.74 at most, bilinear). About 3-4 ms of CPU composed + 1.3 ms encoded at the median, 8-11 ms
at p95 (bench_render --turns; 20-32 ms p95 before the levels). :func:`turn_plan` says what the picture shows
(the window, its scale, the tags), from the layout alone: tests read label sizes from it, not from pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cairocffi as cairo

from maps.board import Board

from .board_places import labels_svg
from .board_routes import highlight_svg
from .board_svg import GamePart, game_layer_parts, static_layer, svg_open
from .layout import layout_of
from .layout.geometry import CANVAS_W, DOT_R, FONT_SIZE, Label, Layout, text_width
from .model import BoardView, LastMove
from .png import board_palette, encode_png, repaint_covered, static_surface
from .sprites import draw_parts
from .svg import HILITE, INK, SEA, escape, num
from .turn_shapes import draw_glow, draw_tags
from .words import ENGLISH, PictureWords

#: The picture's size in pixels (4:3: a desktop embed shows it 400 x 300 px; 2x for sharp phones and a tap)
OUT_W, OUT_H = 800, 600
#: The width Discord shows it at (desktop embed; a phone shows ~340 px: :data:`PHONE_W`)
DISPLAY_W = 400
PHONE_W = 340
#: The smallest city name, in pixels as displayed at DISPLAY_W, for the cities of the moves
MIN_LABEL_PX = 10.6
#: Closest zoom, px of the picture per canvas unit: the board's names then show MIN_LABEL_PX tall
MAX_SCALE = MIN_LABEL_PX * OUT_W / DISPLAY_W / FONT_SIZE
#: The full picture's width at MAX_SCALE: the printed map is rasterised once at this width per board
ZOOM_WIDTH = math.ceil(CANVAS_W * MAX_SCALE)
#: The whole board's picture width whose palette the turn picture is mapped to (the bot's, warmed with it)
PALETTE_WIDTH = 1600
MARGIN = 46.0  # canvas units kept around the moves
LOCATOR_W = 210  # px of the picture
TAG_PAD = 0.3  # a tag's padding, in font sizes


@dataclass(frozen=True, slots=True)
class Tag:
    """A city name printed again, bigger, over the map: `size` in canvas units, `box` its tag's extent."""

    city: int
    x: float
    y: float
    anchor: str
    size: float
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """What the turn picture shows: the window (canvas units) and its scale (px per unit), the board's own
    labels of the moves' cities that fall in it, the tags printed for them when those are too small, and where
    the locator goes (None: no locator)."""

    window: tuple[float, float, float, float]  # x0, y0, width, height
    scale: float
    labels: tuple[Label, ...]
    tags: tuple[Tag, ...]
    locator: tuple[float, float, float, float] | None  # x, y, width, height in px of the picture


def label_size(lab: Label) -> float:
    """The font size the board prints a label at (see board_places.labels_svg)."""
    return FONT_SIZE if lab.frame == "main" else FONT_SIZE - 1


def _focus(board: Board, lay: Layout, move: LastMove | None) -> tuple[list[tuple[float, float]], list[Label]]:
    """The points the window must hold (the moves' train spaces, flags, city dots and names) and the labels of
    the moves' cities: a route's ends in the frame it is drawn in (Japan's insets repeat some cities), a
    station's city wherever it is."""
    if move is None:
        return [], []
    routes = {r for r in move.routes if 0 <= r < len(board.routes)}
    places = {(c, fr) for c in move.cities for (city, fr) in lay.cities if city == c}
    points: list[tuple[float, float]] = []
    for g in lay.routes:
        if g.route in routes:
            places |= {(board.routes[g.route].a, g.frame), (board.routes[g.route].b, g.frame)}
            points += [(s.x, s.y) for s in g.spaces]
    points += [(fl.x, fl.y) for fl in lay.flags if fl.route in routes]  # a dead end's flag: its country
    labels = [lab for lab in lay.labels if (lab.city, lab.frame) in places]
    for lab in labels:
        x0, y0, x1, y1 = lab.box
        points += [(x0, y0), (x1, y1), lay.cities[(lab.city, lab.frame)]]
    return points, labels


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.5 and abs(a[1] - b[1]) < 0.5


def turn_plan(board: Board, view: BoardView, words: PictureWords = ENGLISH) -> TurnPlan:
    """Where the turn picture looks and how close (see the module's text), from the board's layout; the tags
    sized for the cities' names as the readers of `words` know them."""
    lay = layout_of(board)
    points, labels = _focus(board, lay, view.last_move)
    whole = min(OUT_W / lay.map_w, OUT_H / lay.map_h)  # the whole map in the picture
    if points:
        x0 = min(p[0] for p in points) - MARGIN
        x1 = max(p[0] for p in points) + MARGIN
        y0 = min(p[1] for p in points) - MARGIN
        y1 = max(p[1] for p in points) + MARGIN
        scale = max(whole, min(MAX_SCALE, OUT_W / (x1 - x0), OUT_H / (y1 - y0)))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    else:  # nothing taken on the map: the whole of it
        scale, cx, cy = whole, lay.map_w / 2, lay.map_h / 2
    w, h = OUT_W / scale, OUT_H / scale
    wx = _clamp(cx - w / 2, lay.map_w, w)
    wy = _clamp(cy - h / 2, lay.map_h, h)
    window = (wx, wy, w, h)
    shown = tuple(lab for lab in labels if _inside(lab.box, window))
    # tags stay inside the picture's canvas too (the sprites are drawn in it: a window wider than the map
    # reaches beyond it)
    rx, ry = max(wx, 0.0), max(wy, 0.0)
    room = (rx, ry, min(wx + w, CANVAS_W) - rx, min(wy + h, lay.height) - ry)
    routes = set(view.last_move.routes) if view.last_move is not None else set()
    trains = [  # the moves' trains: a tag had better not hide them
        (sp.x - 9, sp.y - 9, sp.x + 9, sp.y + 9) for g in lay.routes if g.route in routes for sp in g.spaces
    ]
    tags = _tags(board, lay, shown, scale, room, trains, words)
    locator = _locator(lay, window, points, tags)
    return TurnPlan(window, scale, shown, tags, locator)


def _clamp(start: float, extent: float, size: float) -> float:
    """A window's start along one axis: inside [0, extent] when it fits, else centred on it."""
    if size >= extent:
        return (extent - size) / 2
    return min(max(0.0, start), extent - size)


def _inside(box: tuple[float, float, float, float], window: tuple[float, float, float, float]) -> bool:
    x, y, w, h = window
    return box[0] >= x - 0.5 and box[1] >= y - 0.5 and box[2] <= x + w + 0.5 and box[3] <= y + h + 0.5


def _tags(
    board: Board,
    lay: Layout,
    labels: tuple[Label, ...],
    scale: float,
    window: tuple[float, float, float, float],
    trains: list[tuple[float, float, float, float]],
    words: PictureWords = ENGLISH,
) -> tuple[Tag, ...]:
    """The names too small at `scale`, again on tags just big enough, where the board prints them (their
    tag grows away from the city's dot, covering the small name), else beside it, inside the window, where no
    other tag, city dot, name or train of the moves is."""
    need = MIN_LABEL_PX * OUT_W / DISPLAY_W / scale  # canvas units
    dots = [xy for xy in lay.cities.values()]
    tags: list[Tag] = []
    tagged = {lab.city for lab in labels}
    names = [b.box for b in lay.labels if b.city not in tagged]  # other names, a tag may hide them
    for lab in labels:
        if label_size(lab) >= need - 1e-6:
            continue
        name = words.city(board.id, board.cities[lab.city].name)
        dot = next((xy for (c, fr), xy in lay.cities.items() if c == lab.city and fr == lab.frame), None)
        if dot is None:
            continue
        width = text_width(name, need)
        pad = TAG_PAD * need
        options = [_tag_where(lab, dot, need, width, pad)]
        options += [_tag_at(dot, d, need, width, pad) for d in ("e", "w", "n", "s", "ne", "nw", "se", "sw")]
        options += [_slid(t, window) for t in options]  # at the window's edge: moved along it to fit
        hidden = [t.box for t in tags]
        hidden += [(x - DOT_R, y - DOT_R, x + DOT_R, y + DOT_R) for x, y in dots if not _near((x, y), dot)]
        hidden += names
        hidden += trains
        reach = (  # what the options could cover: only that can cost (the board's other names are many)
            min(t[3][0] for t in options),
            min(t[3][1] for t in options),
            max(t[3][2] for t in options),
            max(t[3][3] for t in options),
        )
        hidden = [b for b in hidden if _overlap(b, reach)]
        # the first of the best: the board's own side when it is free
        best = min(options, key=lambda t: _cost(t, window, hidden))
        x, y, anchor, box = best
        tags.append(Tag(lab.city, x, y, anchor, need, box))
    return tuple(tags)


Placed = tuple[float, float, str, tuple[float, float, float, float]]


def _tag_where(lab: Label, dot: tuple[float, float], size: float, width: float, pad: float) -> Placed:
    """The tag on the side of the dot the board prints the name on."""
    x0, y0, x1, y1 = lab.box
    my = (y0 + y1) / 2
    dy = my - dot[1]
    side = ("e" if lab.anchor == "start" else "w") if lab.anchor != "middle" else ("s" if dy > 0 else "n")
    if lab.anchor != "middle" and abs(dy) > (y1 - y0) * 0.6:
        side = ("s" if dy > 0 else "n") + side
    return _tag_at(dot, side, size, width, pad)


def _tag_at(dot: tuple[float, float], side: str, size: float, width: float, pad: float) -> Placed:
    """A tag of a name `width` wide at font `size`, on `side` of `dot` (compass letters), and its box."""
    cx, cy = dot
    gap = DOT_R + 3 + pad
    asc, desc = size * 0.76, size * 0.24  # the bold font's cap height and descent, about
    if "e" in side:
        x, anchor, left = cx + gap, "start", cx + gap
    elif "w" in side:
        x, anchor, left = cx - gap, "end", cx - gap - width
    else:
        x, anchor, left = cx, "middle", cx - width / 2
    if "n" in side:
        base = cy - gap - desc if side == "n" else cy - DOT_R - desc
    elif "s" in side:
        base = cy + gap + asc if side == "s" else cy + DOT_R + asc
    else:
        base = cy + (asc - desc) / 2
    box = (left - pad, base - asc - pad, left + width + pad, base + desc + pad)
    return x, base, anchor, box


def _cost(
    t: Placed, window: tuple[float, float, float, float], hidden: list[tuple[float, float, float, float]]
) -> float:
    """How much of `hidden` (other tags, city dots) tag `t` would hide, and whether the window's edge cuts it."""
    return (0 if _inside(t[3], window) else 1e9) + sum(_area(t[3], b) for b in hidden)


def _slid(t: Placed, window: tuple[float, float, float, float]) -> Placed:
    """Tag `t` moved left or right into the window when it sticks out of its side."""
    x, y, anchor, (x0, y0, x1, y1) = t
    wx, _wy, ww, _wh = window
    dx = max(0.0, wx + 2 - x0) - max(0.0, x1 - (wx + ww - 2))
    return x + dx, y, anchor, (x0 + dx, y0, x1 + dx, y1)


def _area(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _locator(
    lay: Layout,
    window: tuple[float, float, float, float],
    points: list[tuple[float, float]],
    tags: tuple[Tag, ...],
) -> tuple[float, float, float, float] | None:
    """Where the locator goes in the picture (px): the first corner that hides none of the moves' trains,
    cities and names; None when there is none, or when the window shows most of the map."""
    x, y, w, h = window
    if w >= lay.map_w * 0.75 and h >= lay.map_h * 0.75:
        return None
    lw = float(LOCATOR_W)
    lh = lw * lay.map_h / lay.map_w
    k = OUT_W / w
    pts = [((px - x) * k, (py - y) * k) for px, py in points]
    for t in tags:
        pts += [((t.box[0] - x) * k, (t.box[1] - y) * k), ((t.box[2] - x) * k, (t.box[3] - y) * k)]
    pad = 8.0
    corners = [
        (pad, OUT_H - lh - pad),  # bottom left first: the legend-free corner most boards leave to the sea
        (OUT_W - lw - pad, OUT_H - lh - pad),
        (pad, pad),
        (OUT_W - lw - pad, pad),
    ]

    def hits(c: tuple[float, float]) -> int:
        cx, cy = c
        return sum(1 for px, py in pts if cx - 12 <= px <= cx + lw + 12 and cy - 12 <= py <= cy + lh + 12)

    free = [c for c in corners if not hits(c)]
    return (*free[0], lw, lh) if free else None


# ------------------------------------------------------------------------------------------ drawing


def tags_svg(board: Board, tags: tuple[Tag, ...], words: PictureWords = ENGLISH) -> str:
    """The tags: the name in ink on a white tag edged with the highlight's colour."""
    out = [f'<g class="tags" font-family="{words.font}" font-weight="bold">']
    for t in tags:
        x0, y0, x1, y1 = t.box
        out.append(
            f'<g class="tag city-tag-{t.city}"><rect x="{num(x0)}" y="{num(y0)}" width="{num(x1 - x0)}" '
            f'height="{num(y1 - y0)}" rx="{num(t.size * 0.3)}" fill="#ffffff" stroke="{HILITE}" '
            f'stroke-width="{num(max(2.0, t.size * 0.09))}" opacity="0.95"/>'
            f'<text class="label tag-label" x="{num(t.x)}" y="{num(t.y)}" text-anchor="{t.anchor}" '
            f'font-size="{num(t.size)}" fill="{INK}">{escape(words.city(board.id, board.cities[t.city].name))}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def render_turn_svg(
    board: Board, view: BoardView, *, colorblind: bool = True, words: PictureWords = ENGLISH
) -> str:
    """The turn picture as SVG (the same drawing as :func:`render_turn_png`, less its locator): the board
    without its panel, seen through the plan's window, with the tags."""
    plan = turn_plan(board, view, words)
    x, y, w, h = plan.window
    lay = layout_of(board)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{OUT_W}" height="{OUT_H}" '
        f'viewBox="{num(x)} {num(y)} {num(w)} {num(h)}" font-family="{words.font}">'
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{SEA}"/>'
        + static_layer(board, colorblind=colorblind, words=words, panel=False, names=False)
        + labels_svg(board, lay, {lab.city for lab in lay.labels} - {t.city for t in plan.tags}, words)
        + "".join(
            p if isinstance(p, str) else p.svg() for p in _game_parts(board, view, plan, colorblind, words)
        )
        + tags_svg(board, plan.tags, words)
        + "</svg>"
    )


#: The last moves' glow, px as displayed at least: a window far out widens it
GLOW_PX = 4.0


def _glow_pad(plan: TurnPlan) -> float:
    """The last moves' glow's width in canvas units: GLOW_PX as displayed, at least 8."""
    return max(8.0, GLOW_PX * OUT_W / DISPLAY_W / plan.scale)


def _game_parts(
    board: Board, view: BoardView, plan: TurnPlan, colorblind: bool, words: PictureWords, glow: bool = True
) -> list[GamePart]:
    """The game layer without the panel, the last moves' glow (with `glow`) as wide as the window's scale
    needs."""
    lay = layout_of(board)
    parts = game_layer_parts(
        board,
        view,
        colorblind=colorblind,
        highlight=LastMove(),
        height=lay.height,
        labels_on_top=False,
        compact=True,
        panel=False,
        words=words,
    )
    move = view.last_move
    if glow and move is not None and (move.routes or move.cities):
        parts.insert(1, highlight_svg(lay, tuple(move.routes), tuple(move.cities), _glow_pad(plan)))
    return parts


def render_turn_png(
    board: Board, view: BoardView, *, colorblind: bool = True, words: PictureWords = ENGLISH
) -> bytes:
    """The turn picture as PNG bytes (:data:`OUT_W` x :data:`OUT_H` px)."""
    # mapped to the board's palette (the whole board's, cached per worker): ~10x cheaper than building one
    palette = board_palette(board, PALETTE_WIDTH, colorblind)
    return encode_png(turn_surface(board, view, colorblind=colorblind, words=words), palette=palette)


def turn_surface(
    board: Board, view: BoardView, *, colorblind: bool = True, words: PictureWords = ENGLISH
) -> cairo.ImageSurface:
    """The turn picture: the window drawn at the nearest cached level at or above the plan's scale
    (:func:`compose_width`), then scaled to the plan's."""
    plan = turn_plan(board, view, words)
    lay = layout_of(board)
    x, y, w, h = plan.window
    width = compose_width(board, plan.scale)
    z = width / CANVAS_W
    # the window at the level's zoom
    ox, oy = round(x * z), round(y * z)
    big = cairo.ImageSurface(cairo.FORMAT_ARGB32, math.ceil(w * z), math.ceil(h * z))
    ctx = cairo.Context(big)
    ctx.set_source_surface(
        static_surface(board, width, colorblind, words=words, bare=True, crop=True), -ox, -oy
    )
    right, bottom = ox + big.get_width(), oy + big.get_height()
    if ox >= 1 and oy >= 1 and right <= lay.map_w * z - 1 and bottom <= lay.map_h * z - 1:
        ctx.set_operator(cairo.OPERATOR_SOURCE)  # the window within the map: its opaque pixels copied
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
    else:  # the sea around the map
        sea = ctx.get_source()
        ctx.set_source_rgb(*_rgb(SEA))
        ctx.paint()
        ctx.set_source(sea)
        ctx.rectangle(-ox, -oy, lay.map_w * z, lay.map_h * z)  # the map, not the panel's frame beside it
        ctx.fill()
    # the names, but those the tags print again
    tagged = frozenset(t.city for t in plan.tags)
    names = static_surface(board, width, colorblind, labels_only=True, words=words, crop=True)
    ctx.rectangle(0, 0, big.get_width(), big.get_height())
    for lab in (*lay.labels, *lay.country_labels):
        if lab.city in tagged:
            x0, y0, x1, y1 = lab.box
            ctx.rectangle(x0 * z - ox - 3, y0 * z - oy - 3, (x1 - x0) * z + 6, (y1 - y0) * z + 6)
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
    ctx.clip()
    ctx.set_source_surface(names, -ox, -oy)
    ctx.paint()
    head = svg_open(width, lay.height, words.font)
    _draw_glow(big, head, lay, view.last_move, _glow_pad(plan), (ox, oy))
    parts = _game_parts(board, view, plan, colorblind, words, glow=False)
    draw_parts(big, head, parts, width=width, origin=(ox, oy))
    repaint_covered(
        big, board, view, None, width, colorblind, origin=(ox, oy), skip=tagged, words=words, crop=True
    )
    _draw_tags(big, head, board, plan.tags, words, (ox, oy))  # over the names painted again
    out = cairo.ImageSurface(cairo.FORMAT_ARGB32, OUT_W, OUT_H)
    ctx = cairo.Context(out)
    k = plan.scale / z
    ctx.scale(k, k)
    pattern = cairo.SurfacePattern(big)
    pattern.set_filter(_filter(k))
    ctx.set_source(pattern)
    ctx.paint()
    _draw_locator(out, board, plan, parts, colorblind, words)
    out.flush()
    return out


def _draw_glow(
    surface: cairo.ImageSurface,
    svg_open: str,
    lay: Layout,
    move: LastMove | None,
    pad: float,
    origin: tuple[int, int],
) -> None:
    """The last moves' glow drawn straight (:func:`render.turn_shapes.draw_glow`)."""
    if move is not None and (move.routes or move.cities):
        draw_glow(surface, svg_open, lay, tuple(move.routes), tuple(move.cities), pad, origin)


def _draw_tags(
    surface: cairo.ImageSurface,
    svg_open: str,
    board: Board,
    tags: tuple[Tag, ...],
    words: PictureWords,
    origin: tuple[int, int],
) -> None:
    """The tags (:func:`tags_svg`) drawn straight (:func:`render.turn_shapes.draw_tags`)."""
    named = [
        (t.box, t.size, t.x, t.y, t.anchor, words.city(board.id, board.cities[t.city].name)) for t in tags
    ]
    draw_tags(surface, svg_open, named, words.font, origin)


def levels(board: Board) -> tuple[int, ...]:
    """The widths (px of the whole canvas) a turn picture's window is composed at, smallest first: the whole
    map's scale, the closest (:data:`ZOOM_WIDTH`) and :data:`LEVEL_STEPS` - 1 between them in even ratios. A
    window is drawn at the first level at or above its scale, then scaled down by at most that ratio (>= 0.74 on
    every board: bilinear sampling stays sharp, and a window holds at most 1.8x the picture's pixels); drawn at
    the closest level, a window on the whole map (about half the pictures) was 2-5x the picture's pixels and
    cost a convolution filter (10 ms) to scale down. The printed map and its names are kept at each level (the
    map's width only: 28-38 MB a board)."""
    lay = layout_of(board)
    hit = _LEVELS.get(id(lay))
    found = hit[1] if hit is not None and hit[0] is lay else None
    if found is None:
        whole = math.ceil(CANVAS_W * min(OUT_W / lay.map_w, OUT_H / lay.map_h) - 1e-6)
        whole = min(whole, ZOOM_WIDTH)
        ratio = (whole / ZOOM_WIDTH) ** (1 / LEVEL_STEPS)
        steps = {math.ceil(ZOOM_WIDTH * ratio**i) for i in range(1, LEVEL_STEPS)}
        found = tuple(sorted({whole, *steps, ZOOM_WIDTH}))
        if len(_LEVELS) > 64:  # as many layouts as render.layout keeps by board object
            _LEVELS.clear()
        _LEVELS[id(lay)] = (lay, found)  # holds the layout, so its id cannot be reused while cached
    return found


#: The steps from the closest level to the whole map's (see levels)
LEVEL_STEPS = 3
_LEVELS: dict[int, tuple[Layout, tuple[int, ...]]] = {}


def warm_levels(board: Board, colorblind: bool, words: PictureWords = ENGLISH) -> None:
    """The printed map and its names at every level, rasterised ahead (a render worker's warm-up)."""
    for width in levels(board):
        static_surface(board, width, colorblind, words=words, bare=True, crop=True)
        static_surface(board, width, colorblind, labels_only=True, words=words, crop=True)


def compose_width(board: Board, scale: float) -> int:
    """The level (:func:`levels`) a window shown at `scale` px per canvas unit is composed at."""
    return next((w for w in levels(board) if w >= scale * CANVAS_W - 1e-6), ZOOM_WIDTH)


#: Scaled down by at most this much, bilinear sampling is as sharp as cairo's "good" filter to the eye, for a
#: fraction of its cost (~1 ms against 11-17 ms: pixman's "good" downscaling is a convolution); further out,
#: bilinear sampling would skip source pixels (thin lines would flicker), so the "good" filter stays.
BILINEAR_DOWN_TO = 0.5


def _filter(k: float) -> int:
    """The filter that scales the window drawn at the printed map's zoom by `k` (<= 1) to the picture."""
    return cairo.FILTER_BILINEAR if k >= BILINEAR_DOWN_TO else cairo.FILTER_GOOD


def _rgb(color: str) -> tuple[float, float, float]:
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def _draw_locator(
    out: cairo.ImageSurface,
    board: Board,
    plan: TurnPlan,
    parts: list[GamePart],
    colorblind: bool,
    words: PictureWords,
) -> None:
    """The whole map, small, the window outlined on it, in the plan's corner: the printed map at its width and
    the picture's game layer `parts` over it (the whole board without its panel nor the glow)."""
    if plan.locator is None:
        return
    lay = layout_of(board)
    lx, ly, lw, lh = plan.locator
    full = round(CANVAS_W * lw / lay.map_w)
    base = static_surface(board, full, colorblind, words=words)
    small = cairo.ImageSurface(cairo.FORMAT_ARGB32, base.get_width(), base.get_height())
    copy = cairo.Context(small)
    copy.set_source_surface(base, 0, 0)
    copy.paint()
    draw_parts(small, svg_open(full, lay.height, words.font), parts, width=full)
    k = full / CANVAS_W
    ctx = cairo.Context(out)
    ctx.rectangle(lx - 3, ly - 3, lw + 6, lh + 6)
    ctx.set_source_rgb(1, 1, 1)
    ctx.fill()
    ctx.save()
    ctx.rectangle(lx, ly, lw, lh)
    ctx.clip()
    ctx.set_source_surface(small, lx, ly)
    ctx.paint()
    x, y, w, h = plan.window
    ctx.rectangle(lx + x * k, ly + y * k, w * k, h * k)
    ctx.set_line_width(3.0)
    ctx.set_source_rgb(*_rgb(HILITE))
    ctx.stroke()
    ctx.restore()
    ctx.rectangle(lx - 1, ly - 1, lw + 2, lh + 2)
    ctx.set_line_width(2.0)
    ctx.set_source_rgb(*_rgb("#41525c"))
    ctx.stroke()

"""The layout's vocabulary: the canvas sizes every drawing of a board uses, the types a :class:`Layout` is made of,
and the measures its steps share (distance between points, width of a label's text).

The picture is laid out in a fixed coordinate system :data:`CANVAS_W` units wide; the SVG's ``width`` attribute
scales it, so every size here is in those units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from ..fonts import JAPANESE_FONT, LATIN_FONT, font_file

CANVAS_W = 1600
PANEL_W = 370
MAP_W = CANVAS_W - PANEL_W
MAP_PAD = 46
DOT_R = 8.0
END_GAP = DOT_R + 4.0  # centreline distance kept free at each city
SPACE_H = 12.0  # train space thickness
SPACE_GAP = 3.0  # gap between spaces along a route
TRACK_SEP = SPACE_H + 3.0  # distance between the tracks of a double route
MIN_SPACE = 26.0  # shortest acceptable train space
MIN_CITY_DIST = 44.0
FONT_SIZE = 16.5
#: The first character DejaVu Sans does not write: CJK punctuation, kana and kanji (U+2E80 on)
CJK_START = 0x2E80
FLAG_W, FLAG_H = 26.0, 18.0


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Space:
    """One train space: centre, angle (degrees) and length along the route."""

    x: float
    y: float
    angle: float
    length: float


@dataclass(frozen=True, slots=True)
class RouteGeom:
    route: int
    frame: str
    spaces: tuple[Space, ...]
    path: tuple[Point, ...]  # centreline of this track, from a to b
    a: Point  # where the track starts and ends (city centres or flags)
    b: Point


@dataclass(frozen=True, slots=True)
class Label:
    city: int
    frame: str
    x: float  # text anchor point (start of the text, baseline)
    y: float
    anchor: str  # "start" | "middle" | "end"
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Flag:
    """A dead-end endpoint: one per route into a country/area."""

    city: int
    route: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Frame:
    """A drawing area: the main map or a zoom inset (Japan)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    land: str  # SVG path data
    borders: str


@dataclass(frozen=True)
class Layout:
    board_id: str
    width: float
    height: float
    map_w: float
    map_h: float
    frames: tuple[Frame, ...]
    cities: dict[tuple[int, str], Point]  # (city, frame) -> position
    routes: tuple[RouteGeom, ...]
    flags: tuple[Flag, ...]
    labels: tuple[Label, ...]
    country_labels: tuple[Label, ...]
    # Where each zoom inset's places lie on the main map: (zoom name, (x0, y0, x1, y1)), for the frame and the
    # leader line that join an inset to its place
    zoom_areas: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()

    def city_positions(self, city: int) -> list[tuple[str, Point]]:
        return [(f, p) for (c, f), p in self.cities.items() if c == city]


@cache
def _font(size: float, family: str = LATIN_FONT):
    """The bold label font (the packaged file of `family`, see render.fonts) at `size`, 4x for precision."""
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(family, bold=True)), int(round(size * 4)))


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """Width of `text` in the bold label font: DejaVu Sans Bold, or the Japanese font for text with CJK
    characters (the font a picture in that language draws it in)."""
    family = JAPANESE_FONT if any(ord(c) >= CJK_START for c in text) else LATIN_FONT
    return float(_font(size, family).getlength(text)) / 4


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])

"""The drawing vocabulary every picture shares (the board, a hand, the score chart, the ticket and turn pictures):
numbers and text as SVG writes them, the fonts and colours, the players' marks and the little person.

Colour-blind players read colours from marks: a letter on each route colour (:data:`ROUTE_LETTER`; a picture
prints its words' own) and a shape on each player colour (:data:`PLAYER_SHAPE`).
"""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape as _xml_escape

from maps.board import COLORS

from .fonts import LATIN_FONT
from .words import ENGLISH

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """XML-escape `text` and drop characters XML cannot hold (player names come from Discord)."""
    return _xml_escape(_NOT_XML.sub("", str(text)))


FONT = LATIN_FONT  # a picture draws in its words' font (`PictureWords.font`); this is the Latin one
SEA = "#cfe2ec"
LAND = "#f4eedd"
COAST = "#a9c3cf"
BORDER = "#c4b59a"
INK = "#2b2b2b"
HILITE = "#ff2d95"


# Route colours on the board, and the letter printed on them for colour-blind players.
ROUTE_FILL = {
    "red": "#d9342b", "blue": "#2f6fc0", "green": "#2e9e48", "yellow": "#f5cd1e", "black": "#30343a",
    "white": "#fbfbf8", "orange": "#f2871c", "pink": "#e35ea6", "gray": "#b0aba3",
}  # fmt: skip
# The English letters; a picture prints its words' own (PictureWords.letter: "Ve" for vert in French).
ROUTE_LETTER = {name: ENGLISH.letter(name) for name in (*COLORS, "gray")}
LIGHT = {"yellow", "white", "gray", "orange"}


# Player piece colours, and the shape marked on every piece for colour-blind players.
PLAYER_FILL = {
    "red": "#b3261e", "blue": "#1c4f9c", "green": "#1f7a35", "yellow": "#e8b400", "black": "#1b1d21",
    "purple": "#6b3fc9", "orange": "#d9570f", "white": "#f3f3f0",
}  # fmt: skip
PLAYER_SHAPE = {
    "red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond", "black": "cross",
    "purple": "star", "orange": "ring", "white": "bar",
}  # fmt: skip
CARD_FILL = {**ROUTE_FILL, "locomotive": "url(#rainbow)"}


def num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def player_fill(color: str) -> str:
    return PLAYER_FILL.get(color, color)


def mark_ink(color: str) -> str:
    return "#1b1d21" if color in ("yellow", "white") else "#ffffff"


def player_mark(kind: str, x: float, y: float, r: float, fill: str) -> str:
    """A small player mark centred on (x, y)."""
    if kind == "circle":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{fill}"/>'
    if kind == "square":
        return f'<rect x="{num(x - r)}" y="{num(y - r)}" width="{num(2 * r)}" height="{num(2 * r)}" fill="{fill}"/>'
    if kind == "triangle":
        pts = f"{num(x)},{num(y - r * 1.15)} {num(x + r * 1.1)},{num(y + r * 0.85)} {num(x - r * 1.1)},{num(y + r * 0.85)}"
        return f'<polygon points="{pts}" fill="{fill}"/>'
    if kind == "diamond":
        pts = f"{num(x)},{num(y - r * 1.25)} {num(x + r * 1.1)},{num(y)} {num(x)},{num(y + r * 1.25)} {num(x - r * 1.1)},{num(y)}"
        return f'<polygon points="{pts}" fill="{fill}"/>'
    if kind == "cross":
        w = r * 0.55
        return (
            f'<path d="M{num(x - r)},{num(y - w)}h{num(2 * r)}v{num(2 * w)}h{num(-2 * r)}Z'
            f'M{num(x - w)},{num(y - r)}h{num(2 * w)}v{num(2 * r)}h{num(-2 * w)}Z" fill="{fill}"/>'
        )
    if kind == "star":
        corners = []
        for i in range(10):
            rr = r * 1.25 if i % 2 == 0 else r * 0.5
            a = math.pi / 2 + i * math.pi / 5
            corners.append(f"{num(x + rr * math.cos(a))},{num(y - rr * math.sin(a))}")
        return f'<polygon points="{" ".join(corners)}" fill="{fill}"/>'
    if kind == "ring":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r * 0.8)}" fill="none" stroke="{fill}" stroke-width="{num(r * 0.55)}"/>'
    # bar
    return f'<rect x="{num(x - r * 1.2)}" y="{num(y - r * 0.45)}" width="{num(r * 2.4)}" height="{num(r * 0.9)}" fill="{fill}"/>'


def player_mark_d(kind: str, x: float, y: float, r: float) -> str:
    """Path data of a player mark (see PLAYER_SHAPE) centred on (x, y)."""

    def poly(pts):
        return "M" + "L".join(f"{num(x + px)},{num(y + py)}" for px, py in pts) + "Z"

    def circle(rr):
        return f"M{num(x - rr)},{num(y)}a{num(rr)},{num(rr)} 0 1,0 {num(2 * rr)},0a{num(rr)},{num(rr)} 0 1,0 {num(-2 * rr)},0Z"

    if kind == "circle":
        return circle(r)
    if kind == "square":
        return poly(((-r, -r), (r, -r), (r, r), (-r, r)))
    if kind == "triangle":
        return poly(((0, -r * 1.15), (r * 1.1, r * 0.85), (-r * 1.1, r * 0.85)))
    if kind == "diamond":
        return poly(((0, -r * 1.25), (r * 1.1, 0), (0, r * 1.25), (-r * 1.1, 0)))
    if kind == "cross":
        w = r * 0.5
        return poly(
            (
                (-w, -r),
                (w, -r),
                (w, -w),
                (r, -w),
                (r, w),
                (w, w),
                (w, r),
                (-w, r),
                (-w, w),
                (-r, w),
                (-r, -w),
                (-w, -w),
            )
        )
    if kind == "star":
        pts = []
        for i in range(10):
            rr = r * 1.3 if i % 2 == 0 else r * 0.55
            a = math.pi / 2 + i * math.pi / 5
            pts.append((rr * math.cos(a), -rr * math.sin(a)))
        return poly(pts)
    if kind == "ring":
        return circle(r) + circle(r * 0.5)
    return poly(((-r * 1.2, -r * 0.45), (r * 1.2, -r * 0.45), (r * 1.2, r * 0.45), (-r * 1.2, r * 0.45)))


def person(x: float, y: float, fill: str, cls: str) -> str:
    """A little person (passenger / meeple) standing at (x, y)."""
    return (
        f'<path class="{cls}" d="M{num(x - 2.8)},{num(y - 4.5)}a2.8,2.8 0 1,0 5.6,0a2.8,2.8 0 1,0 -5.6,0Z'
        f'M{num(x - 4.5)},{num(y + 6)}v-3.5a4.5,4 0 0,1 9,0v3.5Z" fill="{fill}" stroke="#111" stroke-width="1"/>'
    )

"""`/ttr stats`'s chart: a player's rating game after game (a curve) beside the routes of their last game by
length (bars). Plain data in (numbers and the reader's words), SVG out; PNG in the render pool's workers.

>>> svg = render_stats_svg((1000, 1140, 1090), ((1, 2), (4, 1)))
>>> "1140" in svg and "Rating" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .png import svg_to_png
from .svg import INK, escape, num
from .words import ENGLISH, PictureWords

WIDTH, HEIGHT = 900, 300
PANEL = 420  # each chart's width
CURVE = "#4e79a7"
BAR = "#f28e2b"
GRID = "#d9d9d9"


def _rating_panel(ratings: Sequence[int], x0: float, title: str) -> list[str]:
    out = [f'<text x="{num(x0)}" y="28" font-size="20" fill="{INK}">{escape(title)}</text>']
    top, bottom, left, right = 60.0, HEIGHT - 30.0, x0 + 50, x0 + PANEL - 10
    if not ratings:
        return out
    span = float(max(max(ratings) - min(ratings), 20))
    low = min(ratings) - span * 0.1
    high = low + span * 1.2

    def y(v: float) -> float:
        return bottom - (v - low) / (high - low) * (bottom - top)

    for v in (min(ratings), max(ratings)):
        out.append(
            f'<line x1="{num(left)}" y1="{num(y(v))}" x2="{num(right)}" y2="{num(y(v))}" stroke="{GRID}"/>'
        )
        out.append(
            f'<text x="{num(left - 6)}" y="{num(y(v) + 5)}" font-size="14" text-anchor="end" fill="{INK}">{v}</text>'
        )
    step = (right - left) / max(len(ratings) - 1, 1)
    points = [
        (left + i * step if len(ratings) > 1 else (left + right) / 2, y(v)) for i, v in enumerate(ratings)
    ]
    path = " ".join(f"{num(px)},{num(py)}" for px, py in points)
    out.append(f'<polyline points="{path}" fill="none" stroke="{CURVE}" stroke-width="3"/>')
    out += [f'<circle cx="{num(px)}" cy="{num(py)}" r="4" fill="{CURVE}"/>' for px, py in points]
    last_x, last_y = points[-1]
    out.append(
        f'<text x="{num(last_x)}" y="{num(last_y - 10)}" font-size="16" text-anchor="end" fill="{INK}">'
        f"{ratings[-1]}</text>"
    )
    return out


def _length_panel(lengths: Sequence[tuple[int, int]], x0: float, title: str) -> list[str]:
    out = [f'<text x="{num(x0)}" y="28" font-size="20" fill="{INK}">{escape(title)}</text>']
    if not lengths:
        return out
    top, bottom, left, right = 60.0, HEIGHT - 40.0, x0 + 10, x0 + PANEL - 10
    most = max(n for _, n in lengths)
    width = (right - left) / len(lengths)
    for i, (length, n) in enumerate(lengths):
        h = n / most * (bottom - top)
        x = left + i * width
        out.append(
            f'<rect x="{num(x + width * 0.15)}" y="{num(bottom - h)}" width="{num(width * 0.7)}" height="{num(h)}"'
            f' fill="{BAR}"/>'
        )
        mid = x + width / 2
        out.append(
            f'<text x="{num(mid)}" y="{num(bottom - h - 6)}" font-size="15" text-anchor="middle" fill="{INK}">{n}</text>'
        )
        out.append(
            f'<text x="{num(mid)}" y="{num(bottom + 22)}" font-size="15" text-anchor="middle" fill="{INK}">'
            f"{length}</text>"
        )
    return out


def render_stats_svg(
    ratings: Sequence[int], lengths: Sequence[tuple[int, int]], *, words: PictureWords = ENGLISH
) -> str:
    """`ratings`: the ratings as shown, oldest first; `lengths`: (route length, how many) of the last game."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{words.font}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        *_rating_panel(ratings, 20, words.stats_rating),
        *_length_panel(lengths, 40 + PANEL, words.stats_lengths),
        "</svg>",
    ]
    return "\n".join(parts)


def render_stats_png(
    ratings: Sequence[int], lengths: Sequence[tuple[int, int]], *, words: PictureWords = ENGLISH
) -> bytes:
    """The chart as PNG bytes (see :func:`render_stats_svg`)."""
    return svg_to_png(render_stats_svg(ratings, lengths, words=words), width=WIDTH)

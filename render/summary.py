"""End-of-game score breakdown: one stacked bar per player, gains to the right, losses to the left.

Takes plain data: a :class:`ScoreRow` per player with its parts keyed by what scored them (e.g. ``{"routes": 54,
"tickets": 19, "stations": 8, "longest_path": 10}``); :class:`render.words.PictureWords` names them. Parts keep
their order across players.

>>> svg = render_summary_svg([ScoreRow("Ann", "red", {"routes": 40, "tickets": -5})])
>>> "Ann" in svg and "35" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .png import svg_to_png
from .svg import INK, PLAYER_SHAPE, escape, mark_ink, num, player_fill, player_mark
from .words import ENGLISH, PictureWords

PART_COLORS = [
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#b07aa1",
    "#edc948",
    "#76b7b2",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
]
LOSS_COLOR = "#d95f5f"
PART_PATTERN_OPACITY = 0.35


@dataclass(frozen=True)
class ScoreRow:
    name: str
    color: str  # seat colour (render.model.PLAYER_COLORS)
    parts: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.parts.values())


def render_summary_svg(rows: Sequence[ScoreRow], *, width: int = 1000, words: PictureWords = ENGLISH) -> str:
    """A horizontal stacked bar chart of every player's score parts, sorted by total (winner on top).

    Parts are keyed by what scored them (``routes``, ``tickets``, or a bonus id such as ``longest_path``); `words`
    names them in the reader's language."""
    W = 1000.0
    rows = sorted(rows, key=lambda r: -r.total)
    names: list[str] = []
    for r in rows:
        for k in r.parts:
            if k not in names:
                names.append(k)
    color_of = {k: PART_COLORS[i % len(PART_COLORS)] for i, k in enumerate(names)}
    max_pos = max([sum(v for v in r.parts.values() if v > 0) for r in rows] + [1])
    max_neg = max([-sum(v for v in r.parts.values() if v < 0) for r in rows] + [0])
    x_label, x_end = 200.0, W - 80
    scale = (x_end - x_label - 10) / (max_pos + max_neg)
    zero = x_label + 10 + max_neg * scale
    bar_h, step = 34.0, 60.0
    H = 70 + len(rows) * step + 30 + ((len(names) + 3) // 4) * 26 + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{round(width * H / W)}" '
        f'viewBox="0 0 {num(W)} {num(H)}" font-family="{words.font}">',
        f'<rect width="{num(W)}" height="{num(H)}" fill="#f7f5f0"/>',
        f'<text x="20" y="40" font-size="26" font-weight="bold" fill="{INK}">{escape(words.final_scores)}</text>',
        f'<line x1="{num(zero)}" y1="56" x2="{num(zero)}" y2="{num(70 + len(rows) * step)}" stroke="#888"/>',
    ]
    for i, r in enumerate(rows):
        y = 70 + i * step
        out.append(f'<g class="score-row" id="score-{i}">')
        out.append(
            f'<rect x="20" y="{num(y + 4)}" width="26" height="26" rx="5" fill="{player_fill(r.color)}" '
            'stroke="#222"/>'
        )
        out.append(player_mark(PLAYER_SHAPE.get(r.color, "circle"), 33, y + 17, 6, mark_ink(r.color)))
        name = r.name if len(r.name) <= 14 else r.name[:13] + "…"
        out.append(
            f'<text x="54" y="{num(y + 24)}" font-size="18" font-weight="bold" fill="{INK}">{escape(name)}</text>'
        )
        xp, xn = zero, zero
        for k in names:
            v = r.parts.get(k, 0)
            if v == 0:
                continue
            w = abs(v) * scale
            if v > 0:
                x, xp = xp, xp + w
                fill = color_of[k]
            else:
                xn -= w
                x = xn
                fill = LOSS_COLOR
            out.append(
                f'<rect class="part" x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(bar_h)}" '
                f'fill="{fill}" stroke="#ffffff" stroke-width="1.5"/>'
            )
            if w >= 30:
                out.append(
                    f'<text x="{num(x + w / 2)}" y="{num(y + 23)}" font-size="14" font-weight="bold" '
                    f'text-anchor="middle" fill="#ffffff">{v}</text>'
                )
        out.append(
            f'<text class="total" x="{num(xp + 10)}" y="{num(y + 25)}" font-size="22" font-weight="bold" '
            f'fill="{INK}">{r.total}</text></g>'
        )
    y = 70 + len(rows) * step + 20
    legend = [*((words.part(k), color_of[k]) for k in names if any(r.parts.get(k, 0) > 0 for r in rows))]
    if any(v < 0 for r in rows for v in r.parts.values()):
        legend.append((words.lost, LOSS_COLOR))
    for j, (k, c) in enumerate(legend):
        x = 20 + (j % 4) * 240
        yy = y + (j // 4) * 26
        out.append(
            f'<rect x="{num(x)}" y="{num(yy)}" width="16" height="16" fill="{c}"/>'
            f'<text x="{num(x + 22)}" y="{num(yy + 13)}" font-size="14" fill="#333">{escape(k)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def render_summary_png(
    rows: Sequence[ScoreRow], *, width: int = 1000, words: PictureWords = ENGLISH
) -> bytes:
    """The score chart as PNG bytes (see :func:`render_summary_svg`)."""
    return svg_to_png(render_summary_svg(rows, width=width, words=words), width=width)

"""A player's private picture: their cards by colour with counts, and their tickets (sent ephemerally).

Takes plain data, never engine objects: card counts by card name (``maps.board.CARD_NAMES``: ``"red"`` …
``"pink"``, ``"locomotive"``, ``"locomotive+4"``, ``"passenger"``) and a list of :class:`HandTicket`.

>>> svg = render_hand_svg({"red": 3, "locomotive": 1}, [HandTicket("Paris", "Wien", 8, done=False, trains_needed=5)])
>>> "Paris" in svg and "×3" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from maps.board import CARD_NAMES

from .png import svg_to_png
from .svg import CARD_FILL, INK, LIGHT, escape, num
from .words import ENGLISH, PictureWords


@dataclass(frozen=True, slots=True)
class HandTicket:
    """One of the player's tickets: its ends, value, whether it is done, and trains still needed if not."""

    a: str
    b: str
    points: int
    done: bool = False
    trains_needed: int | None = (
        None  # shortest number of train spaces still to claim; None if impossible/unknown
    )


def render_hand_svg(
    cards: Mapping[str, int],
    tickets: Sequence[HandTicket] = (),
    *,
    width: int = 800,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
    board_id: str = "",
) -> str:
    """The hand as SVG: one card per colour held (with ×count), then the tickets, done ones ticked."""
    W = 800.0
    cw, ch, gap = 74.0, 104.0, 12.0
    held = [(name, cards.get(name, 0)) for name in CARD_NAMES if cards.get(name, 0) > 0]
    per_row = int((W - 32 + gap) // (cw + gap))
    card_rows = max(1, -(-len(held) // per_row))
    y_tickets = 60 + card_rows * (ch + 28) + 16
    H = y_tickets + 40 + max(1, len(tickets)) * 46 + 16
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{round(width * H / W)}" '
        f'viewBox="0 0 {num(W)} {num(H)}" font-family="{words.font}">',
        '<defs><linearGradient id="rainbow" x1="0" y1="0" x2="1" y2="1">'
        + "".join(
            f'<stop offset="{i / 6:.2f}" stop-color="{c}"/>'
            for i, c in enumerate(
                ["#d9342b", "#f2871c", "#f5cd1e", "#2e9e48", "#2f6fc0", "#6b3fc9", "#e35ea6"]
            )
        )
        + "</linearGradient></defs>",
        f'<rect width="{num(W)}" height="{num(H)}" fill="#f7f5f0"/>',
        f'<text x="16" y="36" font-size="24" font-weight="bold" fill="{INK}">{escape(words.hand_title)}</text>',
        f'<text x="{num(W - 16)}" y="36" font-size="18" text-anchor="end" fill="#555">'
        f"{escape(words.count('hand_cards', sum(cards.values())))}</text>",
    ]
    if not held:
        out.append(f'<text x="16" y="100" font-size="18" fill="#777">{escape(words.no_cards)}</text>')
    for k, (name, n) in enumerate(held):
        row, col = divmod(k, per_row)
        x = 16 + col * (cw + gap)
        y = 56 + row * (ch + 28)
        fill = CARD_FILL.get(name.split("+")[0], "#d8d2c4")
        if name == "passenger":
            fill = "#d8d2c4"
        ink = "#1b1d21" if name in LIGHT or name == "passenger" else "#ffffff"
        out.append(
            f'<g class="hand-card card-{escape(name)}"><rect x="{num(x)}" y="{num(y)}" width="{num(cw)}" height="{num(ch)}" '
            f'rx="7" fill="{fill}" stroke="#333" stroke-width="1.5"/>'
        )
        if colorblind:
            out.append(
                f'<text x="{num(x + cw / 2)}" y="{num(y + ch / 2 + 9)}" font-size="26" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}" stroke="{"#000" if name.startswith("loco") else "none"}" '
                f'stroke-width="0.8">{escape(words.letter(name) or "?")}</text>'
            )
        out.append(
            f'<text class="count" x="{num(x + cw / 2)}" y="{num(y + ch + 22)}" font-size="19" font-weight="bold" '
            f'text-anchor="middle" fill="{INK}">×{n}</text></g>'
        )
    out.append(
        f'<text x="16" y="{num(y_tickets + 22)}" font-size="20" font-weight="bold" fill="{INK}">{escape(words.tickets)}</text>'
    )
    done_pts = sum(t.points for t in tickets if t.done)
    open_pts = sum(t.points for t in tickets if not t.done)
    out.append(
        f'<text x="{num(W - 16)}" y="{num(y_tickets + 22)}" font-size="16" text-anchor="end" fill="#555">'
        f"{escape(words.text('tickets_summary', done=done_pts, open=open_pts))}</text>"
    )
    if not tickets:
        out.append(
            f'<text x="16" y="{num(y_tickets + 66)}" font-size="17" fill="#777">{escape(words.no_tickets)}</text>'
        )
    for k, t in enumerate(tickets):
        y = y_tickets + 36 + k * 46
        bg, edge = ("#e6f4ea", "#1f7a35") if t.done else ("#ffffff", "#b8b1a3")
        out.append(
            f'<g class="ticket {"done" if t.done else "open"}"><rect x="16" y="{num(y)}" width="{num(W - 32)}" '
            f'height="38" rx="6" fill="{bg}" stroke="{edge}" stroke-width="1.5"/>'
            f'<text x="30" y="{num(y + 26)}" font-size="18" font-weight="bold" fill="{INK}">'
            f"{escape(words.city(board_id, t.a))} – {escape(words.city(board_id, t.b))}</text>"
            f'<text x="{num(W - 200)}" y="{num(y + 26)}" font-size="18" font-weight="bold" text-anchor="end" '
            f'fill="{INK}">{t.points}</text>'
        )
        if t.done:
            status, tint = words.ticket_done, "#1f7a35"
        elif t.trains_needed is None:
            status, tint = words.ticket_blocked, "#b3261e"
        else:
            status, tint = words.count("needs_trains", t.trains_needed), "#8a5a00"
        out.append(
            f'<text x="{num(W - 30)}" y="{num(y + 26)}" font-size="16" text-anchor="end" fill="{tint}">{escape(status)}</text></g>'
        )
    out.append("</svg>")
    return "".join(out)


def render_hand_png(
    cards: Mapping[str, int],
    tickets: Sequence[HandTicket] = (),
    *,
    width: int = 800,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
    board_id: str = "",
) -> bytes:
    """The hand as PNG bytes (see :func:`render_hand_svg`)."""
    return svg_to_png(
        render_hand_svg(cards, tickets, width=width, colorblind=colorblind, words=words, board_id=board_id),
        width=width,
    )

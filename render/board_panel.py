"""The board picture's side panel: the title, a row per player (colour, name, score, counts), the face-up cards
and piles, the last move, the final board's tickets, and the legends (route letters, the row pictograms in use).
Every word comes from the caller (:class:`render.words.PictureWords`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from maps.board import COLORS, LOCOMOTIVE, Board

from .fonts import font_file
from .layout.geometry import MAP_W, PANEL_W, text_width
from .model import BoardView, PlayerPanel
from .svg import (
    CARD_FILL,
    HILITE,
    INK,
    LIGHT,
    PLAYER_FILL,
    PLAYER_SHAPE,
    ROUTE_FILL,
    escape,
    mark_ink,
    num,
    person,
    player_fill,
    player_mark,
)
from .words import ENGLISH, PictureWords


def panel_chrome(height: float, colorblind: bool, words: PictureWords) -> str:
    """The panel's fixed parts (background, route-letter legend): drawn with the static map."""
    x0, w = MAP_W, PANEL_W
    out = [
        f'<g class="panel-chrome" font-family="{words.font}"><rect x="{x0}" y="0" width="{w}" height="{num(height)}" '
        'fill="#f7f5f0"/>',
        f'<line x1="{x0}" y1="0" x2="{x0}" y2="{num(height)}" stroke="#b8b1a3" stroke-width="2"/>',
    ]
    if colorblind:
        colour_legend(out, x0, height, w, words)
    out.append("</g>")
    return "".join(out)


@cache
def _regular_font(size: float, family: str) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(family, bold=False)), int(round(size * 4)))


def regular_width(text: str, size: float, family: str) -> float:
    """Width of `text` in the picture's regular (not bold) font of its language, at `size`."""
    return float(_regular_font(size, family).getlength(text)) / 4


def _wide(text: str) -> bool:
    return any(ord(c) >= 0x3000 for c in text)


def _legend_grid(words: PictureWords) -> tuple[int, float, int]:
    """The colour legend's columns, column width and rows: five columns of 68 px unless a language's colour words
    need more room (Japanese, German), then fewer, wider ones."""
    names = COLORS + ("gray",)
    # a CJK glyph fills its whole em box: it needs a wider gap before the next swatch than a Latin word
    col = max(
        68.0,
        max(
            24 + regular_width(w, 11.0, words.font) + (8 if _wide(w) else 4) for w in map(words.color, names)
        ),
    )
    per_row = 5
    while per_row > 2 and 16 + per_row * col > PANEL_W - 6:
        per_row -= 1
    col = max(col, 68.0) if per_row == 5 else min(col, (PANEL_W - 22) / per_row)
    return per_row, col, -(-len(names) // per_row)


def colour_legend(out: list[str], x0: float, height: float, w: float, words: PictureWords) -> None:
    per_row, col, rows = _legend_grid(words)
    y = height - 70 - 24 * (rows - 2)
    out.append(
        f'<text x="{x0 + 16}" y="{num(y)}" font-size="12" fill="#555">{escape(words.route_letters)}</text>'
    )
    y += 8
    for k, name in enumerate(COLORS + ("gray",)):
        cx = x0 + 16 + (k % per_row) * col
        cy = y + (k // per_row) * 24
        fill = ROUTE_FILL[name]
        ink = "#1b1d21" if name in LIGHT else "#ffffff"
        out.append(
            f'<rect x="{num(cx)}" y="{num(cy)}" width="20" height="14" rx="2" fill="{fill}" stroke="#333" stroke-width="0.8"/>'
            f'<text x="{num(cx + 10)}" y="{num(cy + 11)}" font-size="10" font-weight="bold" text-anchor="middle" '
            f'fill="{ink}">{escape(words.letter(name))}</text>'
            f'<text x="{num(cx + 24)}" y="{num(cy + 11)}" font-size="11" fill="#444">{escape(words.color(name))}</text>'
        )


def panel_svg(board: Board, view: BoardView, height: float, colorblind: bool, words: PictureWords) -> str:
    """The panel's game parts: title, players, face-up row, piles, last move, final tickets."""
    x0 = MAP_W
    w = PANEL_W
    out = [f'<g class="panel" font-family="{words.font}">']
    y = 34.0
    title = view.title or words.text("title", board=words.board_name(board.id, board.name))
    size = min(
        20.0, 20.0 * (w - 32) / max(1.0, text_width(title, 20.0))
    )  # longer titles (other languages) shrink
    out.append(
        f'<text x="{x0 + 16}" y="{num(y)}" font-size="{num(size)}" font-weight="bold" fill="{INK}">{escape(title)}</text>'
    )
    if view.round is not None or view.final:
        y += 22
        sub = words.final_scores if view.final else words.text("round", n=view.round)
        out.append(f'<text x="{x0 + 16}" y="{num(y)}" font-size="14" fill="#555">{sub}</text>')
    y += 14
    show_cards = not view.final and bool(view.face_up or view.deck or view.discard)
    reserved = (165 if show_cards else 0) + (80 if view.last_move else 0) + 90
    n = max(1, len(view.players))
    extra_lines = max((len(_stat_lines(s, p, view)) - 1 for s, p in enumerate(view.players)), default=0)
    row_h = max(48.0, min(62.0, (height - y - reserved) / n - 7)) + extra_lines * _STAT_LINE_H
    for seat, p in enumerate(view.players):
        y = _player_row(out, seat, p, view, x0, y, w, colorblind, row_h)
    if show_cards:
        y += 12
        out.append(
            f'<text x="{x0 + 16}" y="{num(y + 14)}" font-size="14" font-weight="bold" fill="{INK}">{escape(words.face_up)}</text>'
        )
        y += 24
        cw, ch = 52.0, 72.0
        for k, ct in enumerate(view.face_up):
            out.append(_card(x0 + 16 + k * (cw + 10), y, cw, ch, ct, words))
        y += ch + 24
        piles = [("cards", words.text("deck", n=view.deck)), ("cards", words.text("discard", n=view.discard))]
        if view.tickets_left is not None:
            piles.append(("tickets", words.text("tickets_left", n=view.tickets_left)))
        cx: float = x0 + 26
        for kind, text in piles:  # 112 px apart, more where a language's words (and big piles) need it
            out.append(_icon(kind, cx, y - 5))
            out.append(
                f'<text class="piles" x="{num(cx + 13)}" y="{num(y)}" font-size="14" fill="{INK}">{escape(text)}</text>'
            )
            cx += max(112.0, 13 + regular_width(text, 14.0, words.font) + 16)
        y += 6
    move_text = last_move_text(board, view, words)
    if move_text:
        y += 26
        out.append(
            f'<text x="{x0 + 16}" y="{num(y)}" font-size="13" font-weight="bold" fill="{HILITE}">{escape(words.last_move)}</text>'
        )
        for line in wrap_words(move_text, 42)[:3]:
            y += 18
            out.append(f'<text x="{x0 + 16}" y="{num(y)}" font-size="14" fill="{INK}">{escape(line)}</text>')
    legend = _icon_legend_lines(view, words)
    legend_y = height - 120 - 20 * max(0, len(legend) - 1) - 24 * (_legend_grid(words)[2] - 2)
    if view.final and view.ticket_routes:
        y = _tickets_block(out, board, view, x0, y + 14, w, legend_y - 20, words)
    _icon_legend(out, legend, x0, legend_y)
    out.append("</g>")
    return "".join(out)


def _player_row(
    out: list[str],
    seat: int,
    p: PlayerPanel,
    view: BoardView,
    x0: float,
    y: float,
    w: float,
    colorblind: bool,
    h: float = 62.0,
) -> float:
    turn = view.turn == seat and not view.final
    bg = "#fff3c4" if turn else "#ffffff"
    out.append(
        f'<g id="player-{seat}" class="player"><rect x="{num(x0 + 10)}" y="{num(y)}" width="{num(w - 20)}" height="{num(h)}" '
        f'rx="7" fill="{bg}" stroke="{"#e0a800" if turn else "#d6d0c4"}" stroke-width="{2.2 if turn else 1}"/>'
    )
    fill = player_fill(p.color)
    out.append(
        f'<rect x="{num(x0 + 20)}" y="{num(y + 9)}" width="26" height="26" rx="5" fill="{fill}" stroke="#222"/>'
    )
    if colorblind:
        out.append(player_mark(PLAYER_SHAPE.get(p.color, "circle"), x0 + 33, y + 22, 6, mark_ink(p.color)))
    name = p.name if len(p.name) <= 18 else p.name[:17] + "…"
    marker = "▶ " if turn else ""
    out.append(
        f'<text x="{num(x0 + 56)}" y="{num(y + 28)}" font-size="17" font-weight="bold" fill="{INK}">'
        f"{escape(marker + name)}</text>"
    )
    out.append(
        f'<text class="score" x="{num(x0 + w - 22)}" y="{num(y + 30)}" font-size="24" font-weight="bold" '
        f'text-anchor="end" fill="{INK}">{p.score}</text>'
    )
    lines = _stat_lines(seat, p, view)
    base = y + h - 13 - (len(lines) - 1) * _STAT_LINE_H
    for row, stats in enumerate(lines):
        cy = base + row * _STAT_LINE_H
        step = min(62.0, (w - 40) / max(1, len(stats)))
        for k, (kind, value) in enumerate(stats):
            cx = x0 + 30 + k * step
            if kind.startswith("meeple-"):  # one little person per meeple colour, in that colour
                colname = kind.removeprefix("meeple-")
                fill = PLAYER_FILL.get(colname, ROUTE_FILL.get(colname, colname))
                out.append(person(cx, cy - 1, fill, f"stat-meeple meeple-{escape(colname)}"))
            else:
                out.append(_icon(kind, cx, cy))
            ink = "#9a968e" if value == 0 and kind.startswith("meeple-") else "#333"
            out.append(
                f'<text class="stat stat-{escape(kind)}" x="{num(cx + 12)}" y="{num(cy + 5.5)}" font-size="15" '
                f'font-weight="bold" fill="{ink}">{value}</text>'
            )
    out.append("</g>")
    return y + h + 7


_STAT_LINE_H = 22.0
_STATS_PER_LINE = 6


def _stat_lines(seat: int, p: PlayerPanel, view: BoardView) -> list[list[tuple[str, int]]]:
    """A player row's counts as lines of (pictogram, value): the counts first, then meeples by colour."""
    stats = [("trains", p.trains), ("cards", p.cards), ("tickets", p.tickets)]
    for kind, attr in _ROW_STATS:
        value = getattr(p, attr)
        if value is not None:
            stats.append((kind, value))
        if kind == "bullets" and view.bullet_track.get(seat) is not None:
            stats.append(("track", view.bullet_track[seat]))
    lines = [stats[k : k + _STATS_PER_LINE] for k in range(0, len(stats), _STATS_PER_LINE)]
    if p.meeples is not None:
        lines.append([(f"meeple-{name}", n) for name, n in p.meeples])
    return lines


_ICONS = {  # 16x16 pictograms for the panel, drawn around (0, 0)
    "trains": "M-8,4V-3H-3V-7H2V-3H6L8,1V4ZM-5,7a2,2 0 1,0 .1,0ZM4,7a2,2 0 1,0 .1,0Z",
    "cards": "M-7,-6h8v12h-8ZM-2,-7.5h8v12h-8Z",
    "tickets": "M-8,-5h16v10h-16ZM-4,-5v10",
    "stations": "M-7,7v-7l7,-6 7,6v7Z",
    "passengers": "M0,-7.5a3,3 0 1,0 .1,0ZM-5,7v-4a5,4 0 0,1 10,0v4Z",
    "bullets": "M-8,4V-3H1C5,-3 8,0 8,4Z",
    "depots": "M-7,7v-9h14v9ZM-8,-2l8,-5 8,5",
    "track": "M-7,7V-7M-7,-7h11l-3,3 3,3h-11",
    "done": "M-7,0l5,5 9,-10",
    "ferry_cards": "M-8,1h16l-3,6h-10ZM-4,1v-5h7v5M-1,-4v-4",
    "merchandise": "M-7,-6h14v13h-14ZM-7,-1h14M0,-6v5",
    "meeples": "M0,-7.5a3,3 0 1,0 .1,0ZM-5,7v-4a5,4 0 0,1 10,0v4Z",
}  # fmt: skip


_ICON_LINE = {"cards", "tickets", "depots", "track", "done", "ferry_cards", "merchandise"}
# The player rows' counts after trains, cards and tickets: (pictogram, PlayerPanel field), in drawing order.
_ROW_STATS = (
    ("stations", "stations"), ("passengers", "passengers"), ("merchandise", "merchandise"),
    ("ferry_cards", "ferry_cards"), ("bullets", "bullet_trains"), ("depots", "depots"),
    ("done", "completed_tickets"),
)  # fmt: skip


def _icon(kind: str, x: float, y: float) -> str:
    d = _ICONS[kind]
    if kind in _ICON_LINE:
        return (
            f'<path class="icon icon-{kind}" transform="translate({num(x)},{num(y)})" d="{d}" fill="#ffffff" '
            'stroke="#555" stroke-width="1.5" stroke-linejoin="round"/>'
        )
    return f'<path class="icon icon-{kind}" transform="translate({num(x)},{num(y)})" d="{d}" fill="#555"/>'


def _icon_legend_lines(view: BoardView, words: PictureWords) -> list[list[tuple[str, str, float]]]:
    """The legend of the pictograms in use, as lines of (pictogram, word, width)."""
    if not view.players:
        return []
    used = ["trains", "cards", "tickets"]
    for kind, attr in _ROW_STATS:
        if any(getattr(p, attr) is not None for p in view.players):
            used.append(kind)
        if kind == "bullets" and view.bullet_track:  # in the rows' order
            used.append("track")
    if any(p.meeples is not None for p in view.players):
        used.append("meeples")
    lines: list[list[tuple[str, str, float]]] = [[]]
    x = 24.0
    for kind in used:
        word = words.text(f"icon_{kind}")
        width = 22 + max(len(word) * 6.6, regular_width(word, 11.5, words.font))
        if x + width > PANEL_W - 10 and lines[-1]:
            lines.append([])
            x = 24.0
        lines[-1].append((kind, word, width))
        x += width + 8
    return lines


def _icon_legend(out: list[str], lines: list[list[tuple[str, str, float]]], x0: float, y: float) -> None:
    """What the pictograms of the player rows mean (only those in use)."""
    for row in lines:
        x = x0 + 24
        for kind, word, width in row:
            out.append(_icon(kind, x, y - 4))
            out.append(
                f'<text x="{num(x + 11)}" y="{num(y)}" font-size="11.5" fill="#555">{escape(word)}</text>'
            )
            x += width + 8
        y += 20


def _card(x: float, y: float, w: float, h: float, ctype: int, words: PictureWords = ENGLISH) -> str:
    name = "locomotive" if ctype == LOCOMOTIVE else (COLORS[ctype] if 0 <= ctype < len(COLORS) else "gray")
    fill = CARD_FILL.get(name, "#cccccc")
    letter = escape(words.letter(name) or "?")
    ink = "#1b1d21" if name in LIGHT else "#ffffff"
    return (
        f'<g class="card card-{name}"><rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="5" '
        f'fill="{fill}" stroke="#333" stroke-width="1.2"/>'
        f'<text x="{num(x + w / 2)}" y="{num(y + h / 2 + 6)}" font-size="17" font-weight="bold" text-anchor="middle" '
        f'fill="{ink}" stroke="{"none" if name != "locomotive" else "#000"}" stroke-width="0.6">{letter}</text></g>'
    )


def _tickets_block(out, board, view, x0, y, w, bottom, words: PictureWords) -> float:
    """Every player's tickets, done or failed (final board only), in one or two columns above `bottom`."""
    out.append(
        f'<text x="{x0 + 16}" y="{num(y + 8)}" font-size="14" font-weight="bold" fill="{INK}">{escape(words.tickets)}</text>'
    )
    y += 14
    items = [
        (seat, t)
        for seat, lines in sorted(view.ticket_routes.items())
        if 0 <= seat < len(view.players)
        for t in lines
    ]
    step = 15.0
    room = max(1, int((bottom - y) // step) - 1)
    cols = 1 if len(items) <= room else 2
    shown = items[: room * cols]
    colw = (w - 32) / cols
    for k, (seat, t) in enumerate(shown):
        col, row = divmod(k, room)
        if cols == 1:
            col, row = 0, k
        cx = x0 + 16 + col * colw
        cy = y + (row + 1) * step
        p = view.players[seat]
        mark = "✔" if t.done else "✘"
        ink = "#1f7a35" if t.done else "#b3261e"
        a, b = words.city(board.id, board.cities[t.a].name), words.city(board.id, board.cities[t.b].name)
        txt = fit_pair(a, b, colw - 62, 11.5)
        out.append(
            f'<g class="ticket-line"><rect x="{num(cx)}" y="{num(cy - 9)}" width="9" height="9" '
            f'fill="{player_fill(p.color)}" stroke="#222" stroke-width="0.6"/>'
            f'<text x="{num(cx + 13)}" y="{num(cy)}" font-size="11.5" fill="{INK}">{escape(txt)}</text>'
            f'<text x="{num(cx + colw - 8)}" y="{num(cy)}" font-size="11.5" text-anchor="end" fill="{ink}">'
            f"{mark}{'+' if t.done else '−'}{t.points}</text></g>"
        )
    if len(shown) < len(items):
        out.append(
            f'<text x="{x0 + 16}" y="{num(y + (room + 1) * step)}" font-size="11" fill="#555">'
            f"{escape(words.text('more_tickets', n=len(items) - len(shown)))}</text>"
        )
    return y + min(len(items), room) * step


def fit_pair(a: str, b: str, room: float, size: float) -> str:
    """'A–B', shortening the longer name with a dot until it fits `room` units."""

    while text_width(f"{a}–{b}", size) * 0.93 > room and max(len(a), len(b)) > 3:
        if len(a.rstrip(".")) >= len(b.rstrip(".")):
            a = a.rstrip(".")[:-1] + "."
        else:
            b = b.rstrip(".")[:-1] + "."
    return f"{a}–{b}"


def last_move_text(board: Board, view: BoardView, words: PictureWords) -> str:
    """The view's own text, else who claimed/built what (from the highlighted routes and cities)."""
    lm = view.last_move
    if lm is None:
        return ""
    if lm.text:
        return lm.text
    who = view.players[lm.seat].name if lm.seat is not None and 0 <= lm.seat < len(view.players) else ""
    what = [
        "–".join(words.city(board.id, board.cities[c].name) for c in (board.routes[r].a, board.routes[r].b))
        for r in lm.routes
        if 0 <= r < len(board.routes)
    ]
    what += [words.city(board.id, board.cities[c].name) for c in lm.cities if 0 <= c < len(board.cities)]
    if not what:
        return words.text("drew_cards_or_tickets", player=who) if who else ""
    return f"{who}: {', '.join(what)}" if who else ", ".join(what)


def wrap_words(text: str, n: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for wd in words:
        if cur and len(cur) + 1 + len(wd) > n:
            lines.append(cur)
            cur = wd
        else:
            cur = f"{cur} {wd}".strip()
    if cur:
        lines.append(cur)
    return lines

"""The private ticket map: the board as everyone sees it, plus one player's own tickets on it.

Only its owner ever receives this picture. The owner's private data comes in a separate value,
:class:`TicketMap`, never through :class:`render.model.BoardView`, so the public picture cannot show it; the
public layers are drawn exactly as for the board picture and the private marks go on top:

- the owner's network (their claimed routes) outlined bold;
- for each open ticket, the cheapest remaining path (the routes the caller passes, e.g. from
  ``engine.progress.cheapest_paths``) glowing, with a dashed centre line;
- each ticket city ringed: green when the ticket is done, pink while open, grey when it cannot be completed;
- in the side panel, the tickets listed with a tick, the trains still needed, or a cross, and a legend.

>>> from maps.board import load_board
>>> svg = render_ticket_map_svg(load_board("usa"), None, TicketMap(seat=0, tickets=()))
>>> svg.startswith("<svg") and 'class="ticket-map"' in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass

from maps.board import Board, load_board

from .board_panel import fit_pair, panel_chrome, wrap_words
from .board_places import labels_svg
from .board_routes import rect_d
from .board_svg import canvas_height, game_layer, static_layer, svg_open
from .layout import layout_of
from .layout.geometry import DOT_R, MAP_W, PANEL_W, SPACE_H, Layout
from .model import BoardView, CityId, LastMove, RouteId, Seat
from .svg import HILITE, INK, escape, num, player_fill
from .words import ENGLISH, PictureWords

DONE_INK = "#1f8a3b"
OPEN_INK = HILITE
BLOCKED_INK = "#8a8580"


@dataclass(frozen=True, slots=True)
class MapTicket:
    """One of the owner's tickets: its places, value, state, and the routes still to claim on its cheapest path."""

    a: CityId
    b: CityId
    points: int
    done: bool = False
    trains_needed: int | None = None  # None on an open ticket: it cannot be completed any more
    path: tuple[RouteId, ...] = ()  # unclaimed routes of the cheapest completion (open tickets)


@dataclass(frozen=True, slots=True)
class TicketMap:
    """The owner's private data for the map: their seat (whose routes are their network) and their tickets."""

    seat: Seat
    tickets: tuple[MapTicket, ...]


def render_ticket_map_svg(
    board: Board,
    view: BoardView | None,
    mine: TicketMap,
    *,
    width: int = 1600,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
) -> str:
    """The private ticket map as SVG text (`view` is the public board, `mine` the owner's tickets)."""
    view = view or BoardView()
    lay = layout_of(board)
    height = canvas_height(lay, view)
    return (
        svg_open(width, height, words.font)
        + static_layer(board, colorblind=colorblind, words=words)
        + _private_layers(board, lay, view, mine, height, colorblind, words)
        + "</svg>"
    )


def render_ticket_map_png(
    board: Board | str,
    view: BoardView | None,
    mine: TicketMap,
    *,
    width: int = 1600,
    colorblind: bool = True,
    words: PictureWords = ENGLISH,
) -> bytes:
    """The private ticket map as PNG bytes: the public board picture as :func:`render.png.render_board_png` draws
    it (no last-move glow), a new panel over its panel, and the owner's marks on top. `board` may be a board id,
    so that a render pool worker loads it: ``await pool.run("render.tickets_map.render_ticket_map_png", board_id,
    view, mine, words=words)``."""
    from .png import board_surface, encode_png, rasterise

    if isinstance(board, str):
        board = load_board(board)
    view = view or BoardView()
    lay = layout_of(board)
    height = canvas_height(lay, view)
    public = board_surface(board, view, width=width, colorblind=colorblind, highlight=LastMove(), words=words)
    svg = (
        svg_open(width, height, words.font)
        + _owner_marks(board, lay, view, mine, words)
        + panel_chrome(height, colorblind, words)
        + _panel(board, view, mine, height, words)
        + "</svg>"
    )
    return encode_png(rasterise(svg, width, public))


def _private_layers(
    board: Board,
    lay: Layout,
    view: BoardView,
    mine: TicketMap,
    height: float,
    colorblind: bool,
    words: PictureWords,
) -> str:
    """The public game layer without its panel or last-move glow, then the owner's marks and panel."""
    public = game_layer(
        board, view, colorblind=colorblind, highlight=LastMove(), height=height, panel=False, words=words
    )
    return public + _owner_marks(board, lay, view, mine, words) + _panel(board, view, mine, height, words)


def _owner_marks(board: Board, lay: Layout, view: BoardView, mine: TicketMap, words: PictureWords) -> str:
    """Over the public map: a veil, the owner's network, their paths, their ticket cities and those cities' names."""
    return (
        '<g class="ticket-map">'
        + _wash(lay)
        + _network(lay, view, mine)
        + _paths(lay, mine)
        + _ticket_cities(lay, mine)
        + labels_svg(board, lay, {c for t in mine.tickets for c in (t.a, t.b)}, words)
        + "</g>"
    )


def _wash(lay: Layout) -> str:
    """A light veil over the map, so the owner's marks stand out from everyone else's trains."""
    return f'<rect class="wash" x="0" y="0" width="{num(lay.map_w)}" height="{num(lay.map_h)}" fill="#ffffff" opacity="0.3"/>'


def _space_path(lay: Layout, routes: set[RouteId], grow: float) -> str:
    return "".join(
        rect_d(s, s.length + grow, SPACE_H + grow) for g in lay.routes if g.route in routes for s in g.spaces
    )


def _network(lay: Layout, view: BoardView, mine: TicketMap) -> str:
    """The owner's claimed routes redrawn bold: a dark outline and their colour over the veil."""
    routes = {r for r, seat in view.routes.items() if seat == mine.seat}
    if not routes:
        return ""
    color = view.players[mine.seat].color if 0 <= mine.seat < len(view.players) else "black"
    outline = "#ffffff" if color == "black" else "#111111"
    return (
        f'<g class="network"><path d="{_space_path(lay, routes, 9.0)}" fill="{outline}" stroke="{outline}" '
        f'stroke-width="2" stroke-linejoin="round"/><path d="{_space_path(lay, routes, 3.0)}" '
        f'fill="{player_fill(color)}"/></g>'
    )


def _paths(lay: Layout, mine: TicketMap) -> str:
    """Each open ticket's cheapest remaining path: a glow on its spaces and a dashed line along its track."""
    routes = {r for t in mine.tickets if not t.done for r in t.path}
    if not routes:
        return ""
    lines = []
    for g in lay.routes:
        if g.route in routes and g.path:
            d = "M" + "L".join(f"{num(x)},{num(y)}" for x, y in g.path)
            lines.append(d)
    return (
        f'<g class="path"><path class="path-glow" d="{_space_path(lay, routes, 12.0)}" fill="{OPEN_INK}" '
        f'opacity="0.55"/><path class="path-line" d="{"".join(lines)}" fill="none" stroke="{OPEN_INK}" '
        'stroke-width="3" stroke-dasharray="9,6" stroke-linecap="round"/></g>'
    )


def _ink(t: MapTicket) -> str:
    if t.done:
        return DONE_INK
    return OPEN_INK if t.trains_needed is not None else BLOCKED_INK


def _ticket_cities(lay: Layout, mine: TicketMap) -> str:
    """A ring around each ticket city (the ticket's state colour; a city on an open ticket shows it open)."""
    rank = {DONE_INK: 0, BLOCKED_INK: 1, OPEN_INK: 2}
    ink: dict[CityId, str] = {}
    for t in mine.tickets:
        for c in (t.a, t.b):
            if rank[_ink(t)] >= rank.get(ink.get(c, DONE_INK), 0):
                ink[c] = _ink(t)
    out = []
    for c, color in sorted(ink.items()):
        places = lay.city_positions(c) + [("main", (fl.x, fl.y)) for fl in lay.flags if fl.city == c]
        for _fr, (x, y) in places:
            out.append(
                f'<circle class="ticket-city city-{c}" cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R + 7)}" fill="none" '
                f'stroke="#ffffff" stroke-width="7"/><circle cx="{num(x)}" cy="{num(y)}" r="{num(DOT_R + 7)}" '
                f'fill="none" stroke="{color}" stroke-width="4"/>'
            )
            if color == DONE_INK:
                out.append(
                    f'<path class="tick" d="M{num(x + 9)},{num(y - 14)}l4,4 8,-9" fill="none" stroke="#ffffff" '
                    f'stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/><path d="M{num(x + 9)},'
                    f'{num(y - 14)}l4,4 8,-9" fill="none" stroke="{DONE_INK}" stroke-width="3.2" '
                    'stroke-linecap="round" stroke-linejoin="round"/>'
                )
    return "".join(out)


def _panel(board: Board, view: BoardView, mine: TicketMap, height: float, words: PictureWords) -> str:
    """The side panel: the owner's name and score, their tickets with their state, and the legend."""
    x0, w = MAP_W, PANEL_W
    out = [f'<g class="panel ticket-panel" font-family="{words.font}">']
    y = 34.0
    out.append(
        f'<text x="{x0 + 16}" y="{num(y)}" font-size="20" font-weight="bold" fill="{INK}">{escape(words.map_title)}</text>'
    )
    if 0 <= mine.seat < len(view.players):
        p = view.players[mine.seat]
        y += 30
        out.append(
            f'<rect x="{x0 + 16}" y="{num(y - 16)}" width="20" height="20" rx="4" fill="{player_fill(p.color)}" '
            f'stroke="#222"/><text x="{x0 + 44}" y="{num(y)}" font-size="17" font-weight="bold" fill="{INK}">'
            f"{escape(p.name if len(p.name) <= 22 else p.name[:21] + '…')}</text>"
            f'<text x="{num(x0 + w - 22)}" y="{num(y + 1)}" font-size="22" font-weight="bold" text-anchor="end" '
            f'fill="{INK}">{p.score}</text>'
        )
    y += 14
    legend_top = height - 240
    shown = 0
    for t in mine.tickets:
        need = not t.done and t.trains_needed is not None
        if y + 26 + (17 if need else 0) > legend_top - 18:
            break
        y += 26
        a, b = words.city(board.id, board.cities[t.a].name), words.city(board.id, board.cities[t.b].name)
        mark = "✔" if t.done else ("●" if need else "✘")
        points = f"+{t.points}" if t.done else (str(t.points) if need else f"−{t.points}")
        out.append(
            f'<g class="ticket-row{" done" if t.done else ""}"><text x="{x0 + 18}" y="{num(y)}" font-size="17" '
            f'font-weight="bold" fill="{_ink(t)}">{mark}</text>'
            f'<text x="{x0 + 38}" y="{num(y)}" font-size="17" font-weight="bold" fill="{INK}">'
            f"{escape(fit_pair(a, b, w - 100, 17))}</text>"
            f'<text x="{num(x0 + w - 18)}" y="{num(y)}" font-size="17" font-weight="bold" text-anchor="end" '
            f'fill="{_ink(t)}">{escape(points)}</text>'
        )
        if need:
            y += 17
            out.append(
                f'<text x="{x0 + 38}" y="{num(y)}" font-size="14" fill="#555">'
                f"{escape(words.count('needs_trains', t.trains_needed or 0))}</text>"
            )
        out.append("</g>")
        shown += 1
    if shown < len(mine.tickets):
        out.append(
            f'<text x="{x0 + 18}" y="{num(y + 18)}" font-size="12" fill="#555">'
            f"{escape(words.text('more_tickets', n=len(mine.tickets) - shown))}</text>"
        )
    out.append(_legend(x0, legend_top + 30, view, mine, words))
    out.append("</g>")
    return "".join(out)


def _legend(x0: float, y: float, view: BoardView, mine: TicketMap, words: PictureWords) -> str:
    color = view.players[mine.seat].color if 0 <= mine.seat < len(view.players) else "black"
    rows = [
        (
            f'<circle cx="{num(x0 + 28)}" cy="{{y}}" r="9" fill="none" stroke="{DONE_INK}" stroke-width="3.5"/>',
            words.map_done,
        ),
        (
            f'<rect x="{num(x0 + 16)}" y="{{y6}}" width="26" height="12" rx="3" fill="{OPEN_INK}" opacity="0.55"/>'
            f'<path d="M{num(x0 + 17)},{{y}}h24" stroke="{OPEN_INK}" stroke-width="3" stroke-dasharray="6,4"/>',
            words.map_path,
        ),
        (
            f'<rect x="{num(x0 + 16)}" y="{{y6}}" width="26" height="12" rx="2" fill="{player_fill(color)}" '
            'stroke="#111" stroke-width="2.5"/>',
            words.map_network,
        ),
        (
            f'<circle cx="{num(x0 + 28)}" cy="{{y}}" r="9" fill="none" stroke="{BLOCKED_INK}" stroke-width="3.5"/>',
            words.map_blocked,
        ),
    ]
    out = []
    for mark, text in rows:
        out.append(mark.replace("{y}", num(y)).replace("{y6}", num(y - 6)))
        for k, line in enumerate(wrap_words(text, 36)[:2]):
            out.append(
                f'<text x="{num(x0 + 52)}" y="{num(y + 5 + k * 15)}" font-size="15" fill="#444">{escape(line)}</text>'
            )
        y += 30
    return "".join(out)


__all__ = ["MapTicket", "TicketMap", "render_ticket_map_png", "render_ticket_map_svg"]

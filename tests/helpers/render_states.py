"""Small fixed views for the renderer tests (public data only)."""

from __future__ import annotations

from maps.board import Board
from render.model import BoardView, LastMove, PlayerPanel, TicketLine

SEATS = ("red", "blue", "green", "yellow")


def players(n: int = 4) -> tuple[PlayerPanel, ...]:
    return tuple(
        PlayerPanel(
            f"Player{i}",
            SEATS[i],
            score=10 * i,
            trains=40 - i,
            cards=4 + i,
            tickets=2 + i,
            stations=3 - i % 3,
        )
        for i in range(n)
    )


def midgame(board: Board, *, final: bool = False) -> BoardView:
    """Every 4th route owned by seat (id % 4), one closed twin, two stations, a last move."""
    owned = {r.id: (r.id // 4) % 4 for r in board.routes if r.id % 4 == 0}
    closed = frozenset(
        m for g in board.groups if len(g) > 1 and g[0] in owned for m in g[1:2] if m not in owned
    )
    first = min(owned)
    tickets = {}
    if final:
        tickets = {
            s: (TicketLine(board.tickets[s].a, board.tickets[s].b, board.tickets[s].points, s % 2 == 0),)
            for s in range(4)
        }
    return BoardView(
        routes=owned,
        closed=closed,
        stations={0: 1, 3: 2},
        players=players(),
        turn=1,
        face_up=(0, 1, 8, 5, 5),
        deck=60,
        discard=7,
        tickets_left=30,
        last_move=LastMove(seat=owned[first], routes=(first,), text="Player0 claimed a route"),
        round=12,
        final=final,
        ticket_routes=tickets,
    )

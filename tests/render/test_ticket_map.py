"""The private ticket map: shows its owner's tickets, paths and network; never leaks into the public picture."""

from __future__ import annotations

import dataclasses
import random
import re

from helpers.render_states import midgame

from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from maps.board import load_board
from render.from_engine import board_view, ticket_map_data
from render.model import BoardView, PlayerPanel
from render.png import render_board_png
from render.tickets_map import MapTicket, TicketMap, render_ticket_map_png, render_ticket_map_svg


def _route_with_spaces(board, n: int = 3) -> list[int]:
    return [r.id for r in board.routes if r.length >= 2][:n]


def test_the_public_board_picture_is_byte_identical_whatever_the_private_map_shows():
    board = load_board("europe")
    view = midgame(board)
    before = render_board_png(board, view)
    svg_before = render_ticket_map_svg(board, view, TicketMap(1, ()))  # warms every cache the map uses
    for mine in (
        TicketMap(1, (MapTicket(0, 5, 8, done=True),)),
        TicketMap(
            2,
            tuple(
                MapTicket(t.a, t.b, t.points, False, 4, tuple(_route_with_spaces(board)))
                for t in board.tickets[:6]
            ),
        ),
    ):
        assert render_ticket_map_png(board, view, mine) != before
        assert render_board_png(board, view) == before
    assert render_ticket_map_svg(board, view, TicketMap(1, ())) == svg_before
    # the public view has no place for a player's tickets before the end of the game
    assert not {f.name for f in dataclasses.fields(BoardView)} & {"tickets_map", "paths", "mine"}


def test_the_public_view_of_a_game_does_not_change_when_a_players_ticket_map_is_made():
    state = new_game("italy", 4, seed=2)
    rng = random.Random(2)
    while state.turn < 40:
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    public = board_view(state)
    maps = [ticket_map_data(state, s) for s in range(4)]
    assert board_view(state) == public
    assert len({m.tickets for m in maps}) == 4  # each seat's own tickets
    for s, m in enumerate(maps):
        assert m.seat == s and len(m.tickets) == len(state.players[s].tickets)
        for t in m.tickets:
            assert (
                t.done or t.trains_needed is None or t.path
            )  # every open ticket that can be done has a path


def test_the_map_marks_ticket_cities_paths_and_the_owners_network():
    board = load_board("usa")
    own = [r.id for r in board.routes[:40:8]]
    path = _route_with_spaces(board, 2)
    view = BoardView(
        routes={**{r: 1 for r in own}, board.routes[41].id: 0},
        players=(PlayerPanel("Ann", "red"), PlayerPanel("Bob", "blue", score=31)),
    )
    apart: list = []  # three tickets with no city in common, so each ring shows its own ticket's state
    for t in board.tickets:
        if all({t.a, t.b}.isdisjoint({u.a, u.b}) for u in apart):
            apart.append(t)
    t_done, t_open, t_blocked = apart[:3]
    mine = TicketMap(
        1,
        (
            MapTicket(t_done.a, t_done.b, t_done.points, done=True),
            MapTicket(t_open.a, t_open.b, t_open.points, trains_needed=3, path=tuple(path)),
            MapTicket(t_blocked.a, t_blocked.b, t_blocked.points, trains_needed=None),
        ),
    )
    svg = render_ticket_map_svg(board, view, mine)
    private = svg[svg.index('class="ticket-map"') :]
    # the owner's network: one rectangle per space of their routes (and none of the other seat's)
    network = re.search(r'<g class="network"><path d="([^"]+)"', private).group(1)
    spaces = sum(board.routes[r].length for r in own)
    assert network.count("M") == spaces
    # the cheapest path: a glow per space of its routes
    glow = re.search(r'class="path-glow" d="([^"]+)"', private).group(1)
    assert glow.count("M") == sum(board.routes[r].length for r in path)
    # the ticket cities, ringed in their ticket's colour, a tick on the done ones
    rings = dict(
        re.findall(r'class="ticket-city city-(\d+)".*?stroke="(#[0-9a-f]+)" stroke-width="4"', private)
    )
    assert rings[str(t_done.a)] == rings[str(t_done.b)] == "#1f8a3b"
    assert rings[str(t_open.a)] == rings[str(t_open.b)] == "#ff2d95"
    assert rings[str(t_blocked.a)] == rings[str(t_blocked.b)] == "#8a8580"
    assert private.count('class="tick"') == 2
    # the panel: the owner, their tickets with their state
    assert "Bob" in private and ">31<" in private and "Ann" not in private
    assert "✔" in private and "✘" in private and "needs 3 trains" in private
    for t in (t_done, t_open, t_blocked):
        assert board.cities[t.a].name in private


def test_the_ticket_map_png_takes_a_board_id_for_the_render_pool():
    view = midgame(load_board("japan"))
    png = render_ticket_map_png("japan", view, TicketMap(0, ()), width=800)
    assert png[:4] == b"\x89PNG"

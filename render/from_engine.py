"""Engine state -> the renderer's public views. Reads only `engine.views.public_view` and the public engine events
(and, for a player's own hand picture, `player_view` of that player), so no hidden information can reach a public
image."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.events import (
    CardDrawn,
    DepotPlaced,
    FerryCardTaken,
    GameEnded,
    LastRoundStarted,
    Passed,
    PlayStarted,
    RouteClaimed,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelDeclined,
    TunnelRevealed,
    TurnStarted,
    public_events,
)
from engine.progress import cheapest_paths
from engine.scoring import FinalSheet, ScoreSheet, final_scores
from engine.state import GameState
from engine.views import player_view, public_view
from render.hand import HandTicket
from render.model import PLAYER_COLORS, BoardView, LastMove, PlayerPanel, TicketLine
from render.summary import ScoreRow
from render.tickets_map import MapTicket, TicketMap


def seat_color(seat: int) -> str:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def _closed_routes(state: GameState, owner: list[int]) -> frozenset[int]:
    need = state.board.rules.get("min_players_for_multi_routes", 4)
    if state.num_players >= need:
        return frozenset()
    closed: set[int] = set()
    for group in state.board.groups:
        if len(group) > 1 and any(owner[r] >= 0 for r in group):
            closed.update(r for r in group if owner[r] < 0)
    return frozenset(closed)


#: Engine events that name a move drawing nothing on the map, in the order they decide what it was.
_PLAIN_MOVES = (
    TunnelDeclined,
    CardDrawn,
    TicketsKept,
    TicketsDrawn,
    FerryCardTaken,
    Passed,
)


def last_move(state: GameState) -> LastMove | None:
    """The last move as a neutral description: who, the routes and cities to outline, and for a move that
    touches neither, what it was (`what`: the engine event kind, `card`: a face-up card taken). The words are
    the caller's (`board_view`'s `last_move_text`). Reads only the PUBLIC events of the last action."""
    events = public_events(state.events)
    actor: int | None = None
    routes: list[int] = []
    cities: list[int] = []
    for e in events:
        if isinstance(e, TurnStarted | PlayStarted | LastRoundStarted | GameEnded):
            continue
        if actor is None:
            actor = e.seat
        if isinstance(e, RouteClaimed | TunnelRevealed) and e.route not in routes:
            routes.append(e.route)
        elif isinstance(e, StationBuilt | DepotPlaced):
            cities.append(e.city)
    if actor is None:
        return None
    if any(isinstance(e, TunnelDeclined) for e in events):
        routes = []
    what, card = "", None
    if not routes and not cities:
        for kind in _PLAIN_MOVES:
            found = next((e for e in events if isinstance(e, kind)), None)
            if found is not None:
                what = found.kind
                if isinstance(found, CardDrawn):
                    card = found.card
                break
    return LastMove(seat=actor, routes=tuple(routes), cities=tuple(cities), what=what, card=card)


def moves_since(state: GameState, first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The routes claimed and the cities built on by the actions from log position `first` (1-based) on, as
    the board shows them now (a tunnel given up is not there): what a player coming back should see outlined."""
    routes: list[int] = []
    cities: list[int] = []
    for seat, action in state.history[max(0, first - 1) :]:
        route: int | None = getattr(action, "route", None)
        owned = route is not None and 0 <= route < len(state.route_owner) and state.route_owner[route] == seat
        if route is not None and owned and route not in routes:
            routes.append(route)
        city: int | None = getattr(action, "city", None)
        if (
            city is not None
            and city not in cities
            and seat in (state.station_owner.get(city), state.depot_owner.get(city))
        ):
            cities.append(city)
    return tuple(routes), tuple(cities)


def board_view(
    state: GameState,
    *,
    sheets: list[ScoreSheet] | None = None,
    title: str = "",
    last_move_text: Callable[[LastMove], str] | None = None,
    since: int | None = None,
    names: Sequence[str] = (),
) -> BoardView:
    """The public picture of a game. At the end (state finished) the ticket routes and final scores show.
    `last_move_text` words the last move (in the reader's language); without it the picture names only what
    the move touched. `since`: also outline every route and city taken from that log position on. `names`: each
    seat's name as the picture writes it (the state's player names when not given)."""
    view = public_view(state)
    owner = list(view.route_owner)
    modules = view.modules
    final = state.finished
    if final and sheets is None:
        sheets = final_scores(state)
    bullet = modules.get("bullet_trains")
    players = []
    for p in view.players:
        seat = p.seat
        extra = p.extra
        players.append(
            PlayerPanel(
                name=names[seat] if seat < len(names) else p.name,
                color=seat_color(seat),
                score=sheets[seat].total if final and sheets else p.score,
                trains=p.trains,
                cards=p.cards,
                tickets=p.tickets,
                stations=p.stations if state.board.rules.get("stations_per_player") else None,
                passengers=extra.get("passengers") if "passengers" in extra else None,
                bullet_trains=None,
                depots=p.depots if "warehouses" in state.options else None,
                ferry_cards=p.ferry_cards if "ferry_cards" in modules else None,
                merchandise=extra.get("points_in_play", 0) if "merchandise" in modules else None,
                meeples=tuple(zip(modules["meeples"]["colors"], extra.get("meeples", ()), strict=False))
                if "meeples" in modules
                else None,
                completed_tickets=sheets[seat].completed_tickets if final and sheets else None,
            )
        )
    depots = dict(view.depots)
    warehouse_cards = {c: view.warehouses[s] for c, s in depots.items()} if view.warehouses else {}
    passengers: dict[int, tuple[int, ...]] = {}
    for city, seat in modules.get("passengers", []):
        passengers[city] = (*passengers.get(city, ()), seat)
    merchandise = {c: tuple(p) for c, p in enumerate(modules.get("merchandise", [])) if p}
    meeples: dict[int, dict[str, int]] = {}
    if "meeples" in modules:
        colors = modules["meeples"]["colors"]
        for c, counts in enumerate(modules["meeples"]["places"]):
            if any(counts):
                meeples[c] = {colors[i]: n for i, n in enumerate(counts) if n}
    ticket_routes: dict[int, tuple[TicketLine, ...]] = {}
    if final and sheets:
        for s in sheets:
            ticket_routes[s.seat] = tuple(
                TicketLine(
                    state.board.tickets[t.ticket].a, state.board.tickets[t.ticket].b, t.points, t.completed
                )
                for t in s.tickets
            )
    move = last_move(state)
    if move is not None and since is not None:
        routes, cities = moves_since(state, since)
        move = replace(
            move,
            routes=tuple(dict.fromkeys((*routes, *move.routes))),
            cities=tuple(dict.fromkeys((*cities, *move.cities))),
        )
    if move is not None and last_move_text is not None:
        move = replace(move, text=last_move_text(move))
    return BoardView(
        routes={r: o for r, o in enumerate(owner) if o >= 0},
        closed=_closed_routes(state, owner),
        stations=dict(view.stations),
        players=tuple(players),
        turn=None if final else view.current,
        face_up=tuple(c for c in view.face_up if c is not None),
        deck=view.deck,
        discard=view.discard,
        tickets_left=sum(view.ticket_decks.values()),
        last_move=move,
        round=state.turn // max(1, state.num_players) + 1,
        final=final,
        ticket_routes=ticket_routes,
        depots=depots,
        warehouse_cards=warehouse_cards,
        passengers=passengers,
        merchandise=merchandise,
        meeples=meeples,
        bullet_track={s: t for s, t in enumerate(bullet["track"])} if bullet else {},
        title=title,
    )


def hand_picture_data(state: GameState, seat: int) -> tuple[dict[str, int], list[HandTicket]]:
    """A player's own cards and tickets for the private hand picture (only ever sent to that player)."""
    mine = player_view(state, seat)
    tickets = [HandTicket(t.a, t.b, t.points, bool(t.done), t.trains_needed) for t in mine.tickets]
    return dict(mine.hand), tickets


def ticket_map_data(state: GameState, seat: int) -> TicketMap:
    """A player's own tickets and the cheapest remaining path of each open one, for the private ticket map (only
    ever sent to that player)."""
    mine = player_view(state, seat)
    paths = cheapest_paths(state, seat)
    tickets = []
    for t in mine.tickets:
        tk = state.board.tickets[t.id]
        tickets.append(MapTicket(tk.a, tk.b, t.points, bool(t.done), t.trains_needed, paths.get(t.id, ())))
    return TicketMap(seat=seat, tickets=tuple(tickets))


def summary_rows(
    state: GameState, sheets: Sequence[FinalSheet] = (), names: Sequence[str] = ()
) -> list[ScoreRow]:
    """The score chart's rows: every seat's score parts under their raw keys (``routes``, ``tickets``, bonus ids),
    which the chart's :class:`~render.words.PictureWords` names in the reader's language."""
    sheets = sheets or [s.final() for s in final_scores(state)]
    return [
        ScoreRow(names[s.seat] if s.seat < len(names) else s.name, seat_color(s.seat), s.parts)
        for s in sheets
    ]

"""Stations (Europe): built on a free city for 1, 2, then 3 cards of one colour; at the end each lets its owner
use one route of another player touching its city. The engine picks the best routes (engine.scoring)."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from engine.actions import Action, BuildStation
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import StationBuilt
from engine.features import Feature, register_feature
from engine.scoring import joined
from engine.state import MAIN, NOBODY, GameState
from engine.turn import end_turn, pay_cards
from engine.union_find import UnionFind
from maps import COLORS, LOCOMOTIVE

if TYPE_CHECKING:
    from engine.sheets import ScoreSheet


def station_cost(state: GameState, seat: int) -> int:
    costs = state.board.rules.get("station_costs", [1, 2, 3])
    built = state.board.rules.get("stations_per_player", 0) - state.players[seat].stations
    return int(costs[min(built, len(costs) - 1)])


def city_is_free(state: GameState, city: int) -> bool:
    return (
        city not in state.station_owner
        and city not in state.depot_owner
        and not state.board.cities[city].dead_end
    )


def station_payments(state: GameState, seat: int) -> list[tuple[int, int]]:
    """(colour, locomotives) pairs that pay for the seat's next station."""
    cost = station_cost(state, seat)
    hand = state.players[seat].hand
    out: list[tuple[int, int]] = []
    if hand[LOCOMOTIVE] >= cost:
        out.append((LOCOMOTIVE, cost))
    for c in range(len(COLORS)):
        if hand[c]:
            for k in range(max(0, cost - hand[c]), min(cost - 1, hand[LOCOMOTIVE]) + 1):
                out.append((c, k))
    return out


def station_payment_count(state: GameState, seat: int) -> int:
    """len(station_payments(state, seat)), counted."""
    cost = station_cost(state, seat)
    hand = state.players[seat].hand
    locos = hand[LOCOMOTIVE]
    n = 1 if locos >= cost else 0
    top = min(cost - 1, locos)
    for have in hand[: len(COLORS)]:
        if have:
            lo = cost - have
            if lo < 0:
                lo = 0
            if top >= lo:
                n += top - lo + 1
    return n


def borrow_options(state: GameState, seat: int, city: int) -> list[int]:
    """Routes of other players touching a station's city: what the station may use at the end."""
    owner = state.route_owner
    return [r for r in state.board.routes_at[city] if owner[r] not in (NOBODY, seat)]


def _real_cities(state: GameState) -> tuple[int, ...]:
    real: tuple[int, ...] | None = state.derived.get("real_cities")
    if real is None:
        real = state.derived["real_cities"] = tuple(c.id for c in state.board.cities if not c.dead_end)
    return real


def free_city_count(state: GameState) -> int:
    """How many cities `city_is_free` (one building per city, none on dead ends), counted from the buildings."""
    # the rules never put a building on a dead end, and one building per city: count the keys
    return len(_real_cities(state)) - len(state.station_owner.keys() | state.depot_owner.keys())


def free_cities(state: GameState) -> list[int]:
    """The cities where `city_is_free`, in id order."""
    taken = state.station_owner.keys() | state.depot_owner.keys()
    return [c for c in _real_cities(state) if c not in taken]


def best_station_routes(state: GameState, seat: int, base: UnionFind) -> tuple[UnionFind, list[int]]:
    """Choose, for each of the seat's stations, the borrowed route that scores its tickets best.

    Borrowing only adds links, so only the tickets not yet completed can change; each candidate route is kept
    only if it joins two different components of the player's network (one per pair of components). Each choice
    is tried on the graph of those components, where a few links are cheap to follow."""
    board = state.board
    cities = [c for c, o in state.station_owner.items() if o == seat]
    open_tickets = [
        t
        for t in state.players[seat].tickets
        if not joined(state, base, board.tickets[t].a, board.tickets[t].b)
    ]
    if not cities or not open_tickets:
        return base, []
    nodes = board.route_nodes
    place_nodes = board.place_nodes
    find = base.find
    # open tickets by the pair of components their ends are in (points summed); tickets with a dead end (several
    # nodes per end) are checked one by one
    pair_points: dict[tuple[int, int], int] = {}
    dead_end_tickets = []
    for t in open_tickets:
        tk = board.tickets[t]
        ends_a = tuple({find(x) for x in place_nodes[tk.a]})
        ends_b = tuple({find(y) for y in place_nodes[tk.b]})
        if len(ends_a) == 1 and len(ends_b) == 1:
            pair = (min(ends_a[0], ends_b[0]), max(ends_a[0], ends_b[0]))
            pair_points[pair] = pair_points.get(pair, 0) + tk.points
        else:
            dead_end_tickets.append((tk.points, ends_a, ends_b))
    choices: list[list[tuple[int, int, int] | None]] = []
    for city in cities:
        seen: set[frozenset[int]] = set()
        opts: list[tuple[int, int, int] | None] = [None]
        for r in borrow_options(state, seat, city):
            a, b = nodes[r]
            ra, rb = find(a), find(b)
            key = frozenset((ra, rb))
            if ra != rb and key not in seen:
                seen.add(key)
                opts.append((r, ra, rb))
        choices.append(opts)
    # a ticket can only be completed if links touch both its components
    touchable = {c for opts in choices for o in opts if o is not None for c in o[1:]}
    pair_points = {p: v for p, v in pair_points.items() if p[0] in touchable and p[1] in touchable}
    if not pair_points and not dead_end_tickets:
        return base, []
    best_gain, best_links = 0, []
    for combo in product(*choices):
        links = [c for c in combo if c is not None]
        if not links:
            continue
        if len(links) == 1 and not dead_end_tickets:
            _, ra, rb = links[0]
            gain = 2 * pair_points.get((ra, rb) if ra < rb else (rb, ra), 0)
            if gain > best_gain:
                best_gain, best_links = gain, links
            continue
        # components merged by these few links: component -> a label shared by the merged ones
        label: dict[int, int] = {}
        for _, ra, rb in links:
            la, lb = label.get(ra, ra), label.get(rb, rb)
            if la != lb:
                for comp, lab in list(label.items()):
                    if lab == la:
                        label[comp] = lb
                label[ra] = label[rb] = lb
        # a ticket is completed now when its two components got the same label: only touched ones can
        gain = 0
        touched = sorted(label)
        for i, ca in enumerate(touched):
            for cb in touched[i + 1 :]:
                if label[ca] == label[cb]:
                    gain += 2 * pair_points.get((ca, cb), 0)  # -points turn into +points
        for points, ends_a, ends_b in dead_end_tickets:
            labels_a = {label.get(x, x) for x in ends_a}
            if any(label.get(y, y) in labels_a for y in ends_b):
                gain += 2 * points
        if gain > best_gain:
            best_gain, best_links = gain, links
    if not best_links:
        return base, []
    uf = base.copy()
    for _, ra, rb in best_links:
        uf.union(ra, rb)
    return uf, [r for r, _, _ in best_links]


class Stations(Feature):
    name = "stations"
    action_types = (BuildStation,)

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return []
        pays = station_payments(state, seat)
        if not pays:
            return []
        return [
            BuildStation(city, c, k)
            for city in range(len(state.board.cities))
            if city_is_free(state, city)
            for c, k in pays
        ]

    def _open(self, state: GameState, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return [], []
        pays = station_payments(state, seat)
        if not pays:
            return [], []
        return free_cities(state), pays

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        if state.phase not in (MAIN, "last_round") or state.players[seat].stations <= 0:
            return 0
        pays = station_payment_count(state, seat)
        return free_city_count(state) * pays if pays else 0

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        cities, pays = self._open(state, seat)
        city, p = divmod(k, len(pays))
        return BuildStation(cities[city], *pays[p])

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        assert isinstance(action, BuildStation)
        if state.pending.get(seat) is not None:
            raise IllegalAction(
                "finish_decision_first",
                "Finish your current decision before building a station.",
                action=action.kind,
            )
        player = state.players[seat]
        board = state.board
        if player.stations <= 0:
            raise IllegalAction("no_station_left", "You have no station left to build.")
        if not 0 <= action.city < len(board.cities) or board.cities[action.city].dead_end:
            raise IllegalAction("station_not_on_city", "Stations are built on cities.")
        name = board.cities[action.city].name
        if not city_is_free(state, action.city):
            raise IllegalAction("city_taken", f"{name} already has a building; one per city.", city=name)
        cost = station_cost(state, seat)
        k = action.locomotives
        colored = cost - k
        if k < 0 or colored < 0:
            raise IllegalAction("station_cost", f"Your next station costs {cost} cards.", n=cost)
        color = action.color
        if colored == 0 and color != LOCOMOTIVE:  # one spelling per payment, as station_payments lists it
            raise IllegalAction(
                "station_locomotive_color",
                "A station paid with Locomotives only has the Locomotive as its colour.",
            )
        if colored and not 0 <= color < len(COLORS):
            raise IllegalAction("choose_station_color", "Choose the colour of the cards for your station.")
        hand = player.hand
        if (colored and hand[color] < colored) or hand[LOCOMOTIVE] < k:
            what = f"{colored} {COLORS[color]}" if colored else ""
            raise IllegalAction(
                "station_needs_cards",
                f"A station in {name} costs {cost} cards of one colour: "
                f"{what}{' and ' if colored and k else ''}{f'{k} Locomotives' if k else ''}"
                " is more than you have.",
                city=name,
                n=cost,
            )
        pay_cards(state, seat, Payment(color, colored, k, 0, 0))
        player.stations -= 1
        state.station_owner[action.city] = seat
        state.events.append(StationBuilt(seat, action.city))
        end_turn(state)

    def ticket_links(self, state: GameState, seat: int, base: UnionFind) -> tuple[UnionFind, list[int]]:
        return best_station_routes(state, seat, base)

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        points = state.board.rules.get("station_points", 4)
        for sheet in sheets:
            sheet.bonuses["stations"] = points * state.players[sheet.seat].stations


register_feature(Stations())

"""Warehouses & Depots (Europe anniversary option): a blind card stored in a warehouse on each card-drawing
turn, depots that let a claiming player empty warehouses, free depot placement, 10 for most reserve depots.

Our readings where the rulebook is silent: when nobody has a depot left in reserve, nobody scores the depot bonus
(as the longest-path and most-tickets bonuses give nothing when the best is 0). The initial depots are placed
from the player before the first player, backwards, the first player last; nothing else is allowed meanwhile.
With a single card left in the deck and discard, a card-drawing turn's warehouse card takes it: the player then
draws face up only (no blind draw is listed)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.actions import Action, DrawBlind, DrawFaceUp, PlaceDepot, TakeWarehouses
from engine.cards import can_draw_blind, draw_card
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import CardsReceived, DepotPlaced, TurnStarted, WarehousesTaken, WarehouseStocked
from engine.features import Feature, register_feature
from engine.features.stations import city_is_free, free_cities, free_city_count
from engine.pending import Pending, WarehouseChoice
from engine.state import DEPOTS, MAIN, GameState
from engine.turn import end_turn, share_event, shared_event
from maps import CARD_TYPES

if TYPE_CHECKING:
    from engine.sheets import ScoreSheet


def _opt(state: GameState) -> dict:
    return state.board.options["warehouses"]


def _blind_card_left(state: GameState) -> bool:
    """Whether a blind card is left for the player once the top card went to a warehouse
    (the turn's first draw). The warehouse card leaves the deck and discard for good unless the warehouses
    refill the deck (some player has no reserve depot left), where it can come back."""
    left = len(state.deck) + len(state.discard)
    if left >= 2:
        return True
    if any(p.depots == 0 for p in state.players):
        return left + sum(map(sum, state.warehouses)) >= 1
    return False


_NO_CHOICE: list[int | None] = [None]
_SEATS: dict[int, list[int | None]] = {}  # the seats of an n-player game, shared (callers only read it)


class Warehouses(Feature):
    name = "warehouses"
    free_turn_actions = True
    action_types = (PlaceDepot, TakeWarehouses)
    pending_types = (WarehouseChoice,)

    def setup(self, state: GameState) -> None:
        state.warehouses = [[0] * CARD_TYPES for _ in state.players]
        for p in state.players:
            p.depots = _opt(state).get("depots_per_player", 5)

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        if state.phase not in (DEPOTS, MAIN, "last_round") or state.players[seat].depots <= 0:
            return []
        return [PlaceDepot(c) for c in range(len(state.board.cities)) if city_is_free(state, c)]

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        if state.phase not in (DEPOTS, MAIN, "last_round") or state.players[seat].depots <= 0:
            return 0
        return free_city_count(state)

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        return PlaceDepot(free_cities(state)[k])

    def start_play(self, state: GameState) -> None:
        state.phase = DEPOTS  # initial depots: the player before the first player first, backwards
        state.current = (state.first_player - 1) % state.num_players

    def draw_choices(self, state: GameState, seat: int) -> list[int | None]:
        # which warehouse gets the top card of the deck (none to choose when there is no card to put there)
        if not can_draw_blind(state):
            return _NO_CHOICE
        n = state.num_players
        choices = _SEATS.get(n)
        if choices is None:
            choices = _SEATS[n] = list(range(n))
        return choices

    def blind_after_choice(self, state: GameState) -> bool:
        return _blind_card_left(state)

    def before_draw(self, state: GameState, seat: int, action: Action) -> None:
        assert isinstance(action, DrawBlind | DrawFaceUp)
        w = action.warehouse
        if not can_draw_blind(state):  # no card left to store: the draw goes on without one
            if w is not None:
                raise IllegalAction(
                    "no_warehouse_card",
                    "The deck and the discard pile are empty: no card goes to a warehouse.",
                )
            return
        if isinstance(action, DrawBlind) and not _blind_card_left(state):
            raise IllegalAction(
                "last_card_to_warehouse",
                "The last card of the deck goes to a warehouse: none is left to draw blind.",
            )
        if w is None:
            raise IllegalAction(
                "choose_warehouse", "First choose the warehouse that gets the top card of the deck."
            )
        if not 0 <= w < state.num_players:
            raise IllegalAction("no_such_warehouse", "There is no such warehouse.")
        card = draw_card(state)
        if card is not None:
            state.warehouses[w][card] += 1
            key = ("stocked", seat, w)
            state.events.append(shared_event(key) or share_event(key, WarehouseStocked(seat, w)))

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        r = state.board.routes[route]
        owners = sorted({state.depot_owner[c] for c in (r.a, r.b) if c in state.depot_owner})
        owners = [o for o in owners if sum(state.warehouses[o])]
        if owners and state.players[seat].depots > 0:
            state.pending[seat] = WarehouseChoice(tuple(owners))

    def pending_actions(self, state: GameState, seat: int, pending: Pending) -> list[Action]:
        assert isinstance(pending, WarehouseChoice)
        most = min(len(pending.owners), state.players[seat].depots)
        return [TakeWarehouses(combo) for k in range(most + 1) for combo in combinations(pending.owners, k)]

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        player = state.players[seat]
        if isinstance(action, PlaceDepot):
            if state.pending.get(seat) is not None:
                raise IllegalAction(
                    "finish_decision_first",
                    "Finish your current decision before placing a depot.",
                    action=action.kind,
                )
            if player.depots <= 0:
                raise IllegalAction("no_depot_left", "You have no depot left in reserve.")
            if not 0 <= action.city < len(state.board.cities) or not city_is_free(state, action.city):
                raise IllegalAction("depot_city_taken", "Depots go on a city without a station or depot.")
            state.depot_owner[action.city] = seat
            player.depots -= 1
            state.events.append(DepotPlaced(seat, action.city))
            if state.phase == DEPOTS:  # backwards from the last player; the first player places last
                if seat == state.first_player:
                    state.phase = MAIN
                else:
                    state.current = (seat - 1) % state.num_players
                state.events.append(TurnStarted(state.current))
            return
        assert isinstance(action, TakeWarehouses)
        pending = state.pending.get(seat)
        if not isinstance(pending, WarehouseChoice):
            raise IllegalAction("no_warehouse_in_reach", "No warehouse is within reach now.")
        owners = tuple(action.owners)
        if len(set(owners)) != len(owners) or not set(owners) <= set(pending.owners):
            raise IllegalAction(
                "warehouse_not_reached", "You can only empty the warehouses your route reached."
            )
        if list(owners) != sorted(owners):  # one spelling per choice, as pending_actions lists it
            raise IllegalAction("warehouses_in_order", "List the warehouses in increasing seat order.")
        if len(owners) > player.depots:
            raise IllegalAction(
                "warehouse_needs_depot", "Each warehouse emptied costs one depot from your reserve."
            )
        received = [0] * CARD_TYPES
        for o in owners:
            wh = state.warehouses[o]
            for card in range(CARD_TYPES):
                player.hand[card] += wh[card]
                received[card] += wh[card]
                wh[card] = 0
            player.depots -= 1
        del state.pending[seat]
        state.events.append(WarehousesTaken(seat, owners, sum(received)))
        if any(received):
            state.events.append(CardsReceived(seat, tuple((c, n) for c, n in enumerate(received) if n)))
        end_turn(state)

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        best = max(p.depots for p in state.players)
        points = _opt(state).get("most_depots_bonus", 10)
        for sheet in sheets:  # nobody scores "most depots" with none left
            sheet.bonuses["depots"] = points if best > 0 and state.players[sheet.seat].depots == best else 0

    def invariants(self, state: GameState) -> list[str]:
        errors = []
        for seat, p in enumerate(state.players):
            placed = sum(1 for o in state.depot_owner.values() if o == seat)
            if placed + p.depots > _opt(state).get("depots_per_player", 5):
                errors.append(f"seat {seat} has more depots than it started with")
        return errors


register_feature(Warehouses())

"""Ferry cards (Italy): a separate pile of Ferry cards next to the train-card deck.

"Prendre 1 carte Ferry" is a whole turn; a player never holds more than `max_in_hand` (2) of them, and cannot take
one from an empty pile. Ferry cards only pay wave spaces of ferry lines: one covers up to `waves_per_card` (2)
wave spaces where a Locomotive covers one (engine.claims checks the payments; engine.turn.pay_cards returns the
spent Ferry cards to the pile).

State: `state.module["ferry_pile"]` (cards in the pile), `player.ferry_cards` (public: cards in hand).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, TakeFerryCard
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import FerryCardTaken
from engine.features import Feature, register_feature
from engine.state import LAST_ROUND, MAIN, GameState
from engine.turn import end_turn

NAME = "ferry_cards"
PILE = "ferry_pile"


def _rules(state: GameState) -> dict[str, Any]:
    rules: dict[str, Any] = state.board.rules.get(NAME, {})
    return rules


def pile_size(state: GameState) -> int:
    """Ferry cards in the game."""
    return int(_rules(state).get("pile", 10))


def max_in_hand(state: GameState) -> int:
    return int(_rules(state).get("max_in_hand", 2))


def pile(state: GameState) -> int:
    """Ferry cards left in the pile."""
    return int(state.module.get(PILE, 0))


def take_error(state: GameState, seat: int) -> IllegalAction | None:
    """Why `seat` may not take a Ferry card now, or None."""
    if state.pending.get(seat) is not None:
        return IllegalAction(
            "finish_decision_first",
            "Finish your current decision before taking a Ferry card.",
            action=TakeFerryCard.kind,
        )
    if state.phase not in (MAIN, LAST_ROUND) or seat != state.current:
        return IllegalAction(
            "not_now", "You cannot take a Ferry card now.", action=TakeFerryCard.kind, phase=state.phase
        )
    most = max_in_hand(state)
    if state.players[seat].ferry_cards >= most:
        return IllegalAction(
            "ferry_cards_full", f"You already hold {most} Ferry cards, the most you may have.", n=most
        )
    if pile(state) <= 0:
        return IllegalAction("ferry_pile_empty", "The Ferry card pile is empty.")
    return None


_TAKE = TakeFerryCard()


class FerryCards(Feature):
    name = NAME
    action_types = (TakeFerryCard,)

    def setup(self, state: GameState) -> None:
        state.module[PILE] = pile_size(state)
        for p in state.players:
            p.ferry_cards = 0

    def turn_actions(self, state: GameState, seat: int) -> list[Action]:
        return [_TAKE] if take_error(state, seat) is None else []

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        # take_error without its messages: asked at every turn start
        if state.players[seat].ferry_cards >= max_in_hand(state) or state.module.get(PILE, 0) <= 0:
            return 0
        return 1 if take_error(state, seat) is None else 0

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        return _TAKE

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        assert isinstance(action, TakeFerryCard)
        why = take_error(state, seat)
        if why is not None:
            raise why
        state.module[PILE] = pile(state) - 1
        state.players[seat].ferry_cards += 1
        state.events.append(FerryCardTaken(seat))
        end_turn(state)

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        if pay.ferry_cards:  # the ferry cards paid go back to their pile
            state.module[PILE] = pile(state) + pay.ferry_cards

    def invariants(self, state: GameState) -> list[str]:
        errors: list[str] = []
        held = [p.ferry_cards for p in state.players]
        if pile(state) < 0 or pile(state) + sum(held) != pile_size(state):
            errors.append(
                f"ferry cards: {pile(state)} in the pile + {sum(held)} in hands != {pile_size(state)}"
            )
        most = max_in_hand(state)
        for seat, n in enumerate(held):
            if not 0 <= n <= most:
                errors.append(f"seat {seat} holds {n} Ferry cards (0 to {most} allowed)")
        return errors

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {NAME: {"pile": pile(state), "hands": [p.ferry_cards for p in state.players]}}


register_feature(FerryCards())

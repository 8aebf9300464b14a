"""Helpers to build engine positions for tests."""

from __future__ import annotations

from engine.actions import ChooseTicketMix, KeepTickets
from engine.pending import TicketChoice, TicketMix
from engine.rules import apply, legal_actions, new_game
from engine.state import MAIN
from maps import CARD_NAMES, CARD_TYPES


def card(name: str) -> int:
    return CARD_NAMES.index(name)


def started(board: str = "europe", players: int = 4, seed: int = 1, **kwargs):  # type: ignore[no-untyped-def]
    """A game past the start-of-game ticket choice (every seat keeps the minimum, lowest ids first); seat 0
    plays first unless `first_player` says otherwise."""
    kwargs.setdefault("first_player", 0)
    state = new_game(board, players, seed=seed, **kwargs)
    while state.pending:
        seat = min(state.pending)
        pending = state.pending[seat]
        if isinstance(pending, TicketMix):
            apply(state, seat, legal_actions(state, seat)[0])
        elif isinstance(pending, TicketChoice):
            keep = tuple(sorted(pending.offered)[: pending.keep_min])
            apply(state, seat, KeepTickets(keep))
        else:  # pragma: no cover
            raise AssertionError(pending)
    if state.phase != MAIN:
        # Warehouses & Depots: initial depots, last seat first
        while state.phase != MAIN:
            seat = state.current
            apply(state, seat, legal_actions(state, seat)[0])
    return state


def give(state, seat: int, **cards: int) -> None:  # type: ignore[no-untyped-def]
    """Set a seat's hand exactly, moving cards between the hand and the deck so every card stays counted."""
    hand = state.players[seat].hand
    for c in range(CARD_TYPES):
        state.deck.extend([c] * hand[c])
        hand[c] = 0
    for name, n in cards.items():
        c = card(name.replace("_", "+") if name == "locomotive_4" else name)
        for _ in range(n):
            idx = state.deck.index(c) if c in state.deck else None
            if idx is None:
                idx_d = state.discard.index(c)
                state.discard.pop(idx_d)
            else:
                state.deck.pop(idx)
            hand[c] += 1


def stack_deck(state, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Put these cards on top of the deck, first name drawn first (taken from the deck or the discard)."""
    for name in reversed(names):
        c = card(name)
        if c in state.deck:
            state.deck.remove(c)
        else:
            state.discard.remove(c)
        state.deck.append(c)


def route_id(state, a: str, b: str, color: str | None = None) -> int:  # type: ignore[no-untyped-def]
    board = state.board
    ca, cb = board.city(a).id, board.city(b).id
    for r in board.routes_between(ca, cb):
        if color is None or r.color_name == color:
            return r.id
    raise KeyError((a, b, color))


def first_choices(board, players: int, seed: int):  # type: ignore[no-untyped-def]
    """A game past the ticket choice where every seat keeps its first allowed choice (seat 0 to play)."""
    from engine.state import MAIN as _MAIN

    state = new_game(board, players, seed=seed, first_player=0)
    while state.pending:
        seat = min(state.pending)
        keep = next(a for a in legal_actions(state, seat) if isinstance(a, KeepTickets))
        apply(state, seat, keep)
    assert state.phase == _MAIN and state.current == 0
    return state


def give_n(state, seat: int, card: int, n: int) -> None:  # type: ignore[no-untyped-def]
    """Move n cards of one type from the deck (then the discard pile) to a hand: every card stays counted."""
    for _ in range(n):
        pile = state.deck if card in state.deck else state.discard
        pile.remove(card)
        state.players[seat].hand[card] += 1


__all__ = ["ChooseTicketMix", "card", "first_choices", "give", "give_n", "route_id", "stack_deck", "started"]

"""The train-card deck, discard pile and face-up row: dealing, drawing, reshuffling, the 3-Locomotive reset."""

from __future__ import annotations

from engine.state import GameState
from maps import COLORS, LOCOMOTIVE, LOCOMOTIVE_PLUS4, PASSENGER_CARD

ROW_SIZE = 5
EMPTY = -1


def build_deck(state: GameState) -> None:
    spec = state.board.rules["deck"]
    deck: list[int] = []
    for color in range(len(COLORS)):
        deck += [color] * spec["per_color"]
    deck += [LOCOMOTIVE] * spec["locomotives"]
    deck += [LOCOMOTIVE_PLUS4] * spec.get("locomotives_plus4", 0)
    deck += [PASSENGER_CARD] * spec.get("passengers", 0)
    state.rng.shuffle(deck)
    state.deck = deck


def reset_types(state: GameState) -> tuple[int, ...]:
    types: tuple[int, ...] | None = state.derived.get("reset_types")
    if types is None:
        types = state.derived["reset_types"] = tuple(
            state.board.rules.get("face_up_reset_types", (LOCOMOTIVE,))
        )
    return types


def refill_deck(state: GameState) -> bool:
    """Deck empty: shuffle the discard pile into a new deck. Returns whether the deck has cards now."""
    if state.deck:
        return True
    if state.discard:
        state.deck = state.discard
        state.discard = []
        state.rng.shuffle(state.deck)
        return True
    # Warehouses & Depots: with deck and discard empty, once some player has no reserve depot left, the
    # warehouses are emptied to form the new deck.
    if state.warehouses and any(p.depots == 0 for p in state.players) and any(map(sum, state.warehouses)):
        deck: list[int] = []
        for wh in state.warehouses:
            for card, n in enumerate(wh):
                deck += [card] * n
                wh[card] = 0
        state.rng.shuffle(deck)
        state.deck = deck
        return True
    return False


def draw_card(state: GameState) -> int | None:
    """Top card of the deck (reshuffling the discard when needed), or None when no card is left."""
    if not state.deck and not refill_deck(state):
        return None
    return state.deck.pop()


def can_draw_blind(state: GameState) -> bool:
    return (
        bool(state.deck)
        or bool(state.discard)
        or (
            bool(state.warehouses)
            and any(p.depots == 0 for p in state.players)
            and any(map(sum, state.warehouses))
        )
    )


def deal_face_up(state: GameState) -> None:
    state.face_up = [EMPTY] * ROW_SIZE
    for slot in range(ROW_SIZE):
        card = draw_card(state)
        state.face_up[slot] = EMPTY if card is None else card
    check_row(state)


def refill_slot(state: GameState, slot: int) -> None:
    deck = state.deck
    card = deck.pop() if deck else draw_card(state)
    row = state.face_up
    row[slot] = EMPTY if card is None else card
    for t in reset_types(state):
        if row.count(t) >= 3:
            check_row(state)
            return


def fill_empty_slots(state: GameState) -> None:
    """Refill slots left empty while the deck was short (after a reshuffle made cards available)."""
    changed = False
    for slot in range(ROW_SIZE):
        if state.face_up[slot] == EMPTY:
            card = draw_card(state)
            if card is None:
                break
            state.face_up[slot] = card
            changed = True
    if changed:
        check_row(state)


def _row_is_bad(state: GameState, types: tuple[int, ...]) -> bool:
    row = state.face_up
    for t in types:  # noqa: SIM110 - a generator costs more on this hot path
        if row.count(t) >= 3:
            return True
    return False


def good_row_possible(state: GameState, types: tuple[int, ...]) -> bool:
    """Whether a row with fewer than 3 cards of each reset type can come out of the deck, the discard pile and
    the row itself (the row goes to the discard before a new one is dealt)."""
    pool = [c for c in state.face_up if c != EMPTY]
    pool += state.deck
    pool += state.discard
    row = min(ROW_SIZE, len(pool))
    usable = sum(1 for c in pool if c not in types)  # any number of other cards
    for t in types:
        usable += min(pool.count(t), 2)  # at most 2 of each reset type
    return usable >= row


def check_row(state: GameState) -> None:
    """3 Locomotives (or 3 of another reset type) face up: discard the row and deal a new one, again while it
    happens, as long as a row without 3 of them can come out of the deck, discard and row; when none can, the
    row stays as dealt (redealing would only deal another row as bad, forever).

    The loop ends: a good row exists among the cards, each redeal deals new cards of the deck, and once the
    deck is spent the discard (the old rows with it) is shuffled again, so every few redeals a row is dealt at
    random from all those cards, which is good with a positive probability. The seeded generator makes the
    number of redeals, like everything else, part of the game."""
    types = reset_types(state)
    if not _row_is_bad(state, types) or not good_row_possible(state, types):
        return
    while _row_is_bad(state, types):
        for c in state.face_up:
            if c != EMPTY:
                state.discard.append(c)
        state.face_up = [EMPTY] * ROW_SIZE
        for slot in range(ROW_SIZE):
            card = draw_card(state)
            state.face_up[slot] = EMPTY if card is None else card


def total_cards(state: GameState) -> int:
    """Every train card in the game, wherever it is (the invariant checker compares this with the deck size)."""
    n = len(state.deck) + len(state.discard) + sum(1 for c in state.face_up if c != EMPTY)
    n += sum(sum(p.hand) for p in state.players)
    n += sum(sum(w) for w in state.warehouses)
    for pending in state.pending.values():
        revealed = getattr(pending, "revealed", None)
        if revealed:
            n += len(revealed)
    return n


def deck_size(state: GameState) -> int:
    spec = state.board.rules["deck"]
    return (
        spec["per_color"] * len(COLORS)
        + spec["locomotives"]
        + spec.get("locomotives_plus4", 0)
        + spec.get("passengers", 0)
    )

"""What one seat may know, and determinization: a copy of the game where everything the seat cannot see is
dealt again at random, consistently with what it can see.

The AI players receive the real `GameState` but read only its public fields and their own seat's secrets
(hand, kept tickets, own pending choice). Search (the hard level) plays on determinized copies, so it never
peeks at the deck order or at another player's hand or tickets.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.pending import TicketChoice
from engine.state import GameState
from engine.views import PlayerView, player_view
from maps import CARD_TYPES


def seat_view(state: GameState, seat: int) -> tuple[PlayerView, list[tuple[int, Action]]]:
    """Everything `seat` may see: the engine's player view, and the public history."""
    return player_view(state, seat), [(s, a) for s, a in state.history]


def determinize(state: GameState, seat: int, rng: random.Random, *, infer: float = 0.0) -> GameState:
    """A copy of `state` in which the hidden parts are re-dealt at random from what `seat` cannot see.

    - Train cards: the deck, the other players' hands and the warehouses' contents (only their totals are
      public) are pooled, shuffled and dealt back with the same counts. The discard pile, the face-up row and
      revealed tunnel cards were all seen by everyone and stay.
    - Tickets: per ticket deck (short/long/regular), the other players' kept and offered tickets, the ticket
      decks and the box are pooled, shuffled and dealt back with the same counts per deck.
    - The copy's random generator is reseeded from `rng`, so future draws are not the real ones either.

    `infer` > 0 deals the other players' kept tickets with a bias towards tickets whose ends their claimed
    routes already touch (weight 1 + infer per end touched): what their public play suggests they hold.

    The hidden parts are sorted before they are shuffled, so the result depends only on what the seat can see
    and on `rng`: two states that look the same to the seat give the same determinizations.
    """
    s = state.copy()
    others = [o for o in range(s.num_players) if o != seat]
    # -- train cards
    pool: list[int] = list(s.deck)
    for o in others:
        for card, n in enumerate(s.players[o].hand):
            pool.extend([card] * n)
    for wh in s.warehouses:
        for card, n in enumerate(wh):
            pool.extend([card] * n)
    pool.sort()  # the seat knows the multiset, not the order: start from a canonical order
    rng.shuffle(pool)
    pos = 0
    for o in others:
        hand = s.players[o].hand
        count = sum(hand)
        new = [0] * CARD_TYPES
        for card in pool[pos : pos + count]:
            new[card] += 1
        pos += count
        s.players[o].hand = new
    for w, wh in enumerate(s.warehouses):
        count = sum(wh)
        new = [0] * CARD_TYPES
        for card in pool[pos : pos + count]:
            new[card] += 1
        pos += count
        s.warehouses[w] = new
    s.deck = pool[pos:]
    # -- tickets
    tickets = s.board.tickets
    slots: list[tuple[str, Any, int]] = []  # (deck type, container key, index) to refill, in a fixed order
    hidden: dict[str, list[int]] = {}

    def take(t: int, key: Any, i: int) -> None:
        d = tickets[t].deck
        hidden.setdefault(d, []).append(t)
        slots.append((d, key, i))

    for o in others:
        for i, t in enumerate(s.players[o].tickets):
            take(t, ("player", o), i)
        pending = s.pending.get(o)
        if isinstance(pending, TicketChoice):
            for i, t in enumerate(pending.offered):
                take(t, ("offer", o), i)
    for name, deck in s.ticket_decks.items():
        for i, t in enumerate(deck):
            take(t, ("deck", name), i)
    for i, t in enumerate(s.box):
        take(t, ("box", None), i)
    for i, t in enumerate(s.setup_rejected):
        take(t, ("rejected", None), i)
    for d in sorted(hidden):
        hidden[d].sort()
        rng.shuffle(hidden[d])
    offers: dict[int, list[int]] = {}
    cursor = {d: 0 for d in hidden}
    touched: dict[int, set[int]] = {}
    if infer > 0:
        routes = s.board.routes
        for o in others:
            touched[o] = {c for r in s.players[o].routes for c in (routes[r].a, routes[r].b)}
    for d, key, i in slots:
        kind, where = key
        pile = hidden[d]
        k = cursor[d]
        if kind == "player" and infer > 0 and touched.get(where):
            near = touched[where]
            weights = [1.0 + infer * ((tickets[t].a in near) + (tickets[t].b in near)) for t in pile[k:]]
            x = rng.random() * sum(weights)
            j = 0
            while j < len(weights) - 1 and x >= weights[j]:
                x -= weights[j]
                j += 1
            pile[k], pile[k + j] = pile[k + j], pile[k]
        t = pile[k]
        cursor[d] += 1
        if kind == "player":
            s.players[where].tickets[i] = t
        elif kind == "offer":
            offers.setdefault(where, list(s.pending[where].offered))[i] = t  # type: ignore[attr-defined]
        elif kind == "deck":
            s.ticket_decks[where][i] = t
        elif kind == "box":
            s.box[i] = t
        else:
            s.setup_rejected[i] = t
    for o, offered in offers.items():
        pending = s.pending[o]
        assert isinstance(pending, TicketChoice)
        s.pending[o] = replace(pending, offered=tuple(offered))
    s.rng = random.Random(rng.getrandbits(64))
    return s

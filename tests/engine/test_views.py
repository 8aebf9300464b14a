"""The typed views: `public_view` holds only what everyone may see, `player_view` adds one seat's own secrets."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers.engine_states import stack_deck, started

from engine.actions import DrawBlind, DrawTickets
from engine.events import BlindCardSeen, CardDrawn, TicketsDrawn
from engine.pending import TicketChoice
from engine.rules import apply
from engine.views import PendingInfo, player_view, public_view
from maps import CARD_NAMES


def test_the_public_view_does_not_change_with_the_secrets():
    s = started("europe", 3, seed=6)
    stack_deck(s, ["red"])
    apply(s, 0, DrawBlind())
    other = s.copy()
    pool = [c for p in other.players for c, n in enumerate(p.hand) for _ in range(n)] + other.deck
    random.Random(1).shuffle(pool)
    for p in other.players:
        n = sum(p.hand)
        p.hand = [0] * len(p.hand)
        for c in pool[:n]:
            p.hand[c] += 1
        pool = pool[n:]
    other.deck = pool
    other.events = [
        BlindCardSeen(0, (e.card + 1) % 9) if isinstance(e, BlindCardSeen) else e for e in s.events
    ]
    assert public_view(other) == public_view(s)
    assert public_view(s).events == (CardDrawn(0),)


def test_the_player_view_adds_only_the_seats_own_secrets():
    s = started("usa", 2, seed=2)
    apply(s, 0, DrawTickets())
    pending = s.pending[0]
    assert isinstance(pending, TicketChoice)
    mine, theirs = player_view(s, 0), player_view(s, 1)
    assert mine.hand == {CARD_NAMES[c]: n for c, n in enumerate(s.players[0].hand) if n}
    assert [t.id for t in mine.tickets] == s.players[0].tickets
    assert [t.id for t in mine.offered] == list(pending.offered) and theirs.offered == ()
    assert mine.pending == pending and mine.pending is not pending
    assert mine.events and theirs.events == ()
    assert mine.public == theirs.public == public_view(s)
    assert mine.public.pending == {0: PendingInfo("ticket_choice", offered=3)}
    assert mine.public.events == (TicketsDrawn(0, 3),)


def test_views_are_frozen():
    view = public_view(started("europe", 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.current = 1  # type: ignore[misc]

"""Typed engine events: what `apply` says an action did, public or private by type, saved with the state."""

from __future__ import annotations

import pytest
from helpers.engine_states import card, give, route_id, stack_deck, started

from engine.actions import BuildStation, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from engine.errors import IllegalAction
from engine.events import (
    EVENT_TYPES,
    BlindCardSeen,
    CardDrawn,
    CardsReceived,
    GameEnded,
    LastRoundStarted,
    RouteClaimed,
    StationBuilt,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TicketsOffered,
    TurnStarted,
    event_from_json,
    private_events,
    public_events,
)
from engine.pending import TicketChoice
from engine.rules import apply, new_game
from engine.scoring import ENDED_LAST_ROUND, ENDED_STUCK, final_scores, outcome
from engine.simulate import play_game
from engine.state import GameState
from engine.turn import finish
from maps import LOCOMOTIVE

PRIVATE = {BlindCardSeen, CardsReceived, TicketsOffered, TicketsChosen}


def test_exactly_the_secret_facts_are_private_event_types():
    assert {cls for cls in EVENT_TYPES.values() if not cls.public} == PRIVATE


def test_every_event_type_survives_json():
    state = play_game("europe", 4, seed=5, options=("warehouses",), variant="mega").state
    seen = {type(e) for e in state.events}
    for cls in EVENT_TYPES.values():
        fields = {f: 1 for f in cls.__dataclass_fields__ if f != "seat"}
        example = cls(2, **{k: v for k, v in _examples(cls).items() if k in fields})
        assert event_from_json(example.to_json()) == example
    assert GameEnded in seen


def _examples(cls: type) -> dict[str, object]:
    return {
        "card": 3,
        "slot": 1,
        "cards": ((1, 2), (8, 1)) if cls is CardsReceived else (0, 8, 8),
        "paid": (2, 3, 1, 0, 0),
        "route": 7,
        "points": 4,
        "tickets": (3, 9),
        "owners": (0, 2),
        "routes": (4, 5),
        "tokens": (7, 4),
        "color": "red" if cls.kind == "meeple_taken" else 2,
    }


def test_the_deal_is_private_to_each_seat():
    s = new_game("europe", 3, seed=4)
    for seat, p in enumerate(s.players):
        mine = private_events(s.events, seat)
        dealt = next(e for e in mine if isinstance(e, CardsReceived))
        assert dict(dealt.cards) == {c: n for c, n in enumerate(p.hand) if n}
        offer = next(e for e in mine if isinstance(e, TicketsOffered))
        pending = s.pending[seat]
        assert isinstance(pending, TicketChoice) and offer.tickets == pending.offered
    assert public_events(s.events) == []


def test_face_up_and_blind_draws():
    s = started("europe", 2)
    stack_deck(s, ["red", "blue"])
    apply(s, 0, DrawBlind())
    assert s.events == [CardDrawn(0), BlindCardSeen(0, card("red"))]
    apply(s, 0, DrawBlind())
    assert public_events(s.events) == [CardDrawn(0), TurnStarted(1)]
    assert private_events(s.events, 0) == [BlindCardSeen(0, card("blue"))]
    slot = next(i for i, c in enumerate(s.face_up) if c != LOCOMOTIVE)
    taken = s.face_up[slot]
    apply(s, 1, DrawFaceUp(slot))
    assert s.events == [CardDrawn(1, taken, slot)]


def test_a_claim_says_what_was_paid_and_scored():
    s = started("europe", 3)
    give(s, 0, white=2, locomotive=1)
    rid = route_id(s, "Paris", "Frankfurt", "white")
    apply(s, 0, ClaimRoute(rid, card("white"), locomotives=1))
    assert s.events == [RouteClaimed(0, rid, (card("white"), 2, 1, 0, 0), 4), TurnStarted(1)]


def test_tickets_drawn_and_kept_are_counts_in_public_ids_in_private():
    s = started("usa", 2)
    apply(s, 0, DrawTickets())
    pending = s.pending[0]
    assert isinstance(pending, TicketChoice)
    assert public_events(s.events) == [TicketsDrawn(0, 3)]
    assert private_events(s.events, 0) == [TicketsOffered(0, pending.offered, 1, 3)]
    keep = tuple(sorted(pending.offered)[:2])
    apply(s, 0, KeepTickets(keep))
    assert public_events(s.events) == [TicketsKept(0, 2), TurnStarted(1)]
    assert private_events(s.events, 0) == [TicketsChosen(0, keep)]
    assert private_events(s.events, 1) == []


def test_station_last_round_and_end():
    s = started("europe", 2)
    give(s, 0, red=1)
    city = s.board.city("Paris").id
    apply(s, 0, BuildStation(city, card("red")))
    assert s.events == [StationBuilt(0, city), TurnStarted(1)]
    s.players[1].trains = 3
    one = next(r for r in s.board.routes if r.length == 1 and s.route_owner[r.id] < 0 and not r.tunnel)
    give(s, 1, **{s.board.routes[one.id].color_name if one.color >= 0 else "red": 1})
    apply(s, 1, ClaimRoute(one.id, one.color if one.color >= 0 else card("red")))
    assert LastRoundStarted(1, 2) in s.events
    apply(s, 0, DrawBlind())
    apply(s, 0, DrawBlind())
    apply(s, 1, DrawBlind())
    apply(s, 1, DrawBlind())
    assert GameEnded(1) in s.events and not any(isinstance(e, TurnStarted) for e in s.events)


def test_a_refused_action_leaves_the_events_as_they_were():
    s = started("europe", 2)
    apply(s, 0, DrawBlind())
    before = list(s.events)
    with pytest.raises(IllegalAction):
        apply(s, 1, DrawBlind())
    assert s.events == before


def test_events_are_saved_with_the_state_and_an_old_snapshot_still_loads():
    s = started("europe", 2)
    apply(s, 0, DrawBlind())
    again = GameState.from_json(s.to_json())
    assert again.events == s.events
    old = s.to_dict()
    del old["events"]
    old["last_event"] = {
        "seat": 0,
        "action": "draw_blind",
        "public": {"blind": 1},
        "private": {"drew": "red"},
    }
    loaded = GameState.from_dict(old)
    assert loaded.events == [] and loaded.players[0].hand == s.players[0].hand


def test_outcome_is_none_until_the_end_then_says_why_and_who_won():
    s = started("europe", 2)
    assert outcome(s) is None
    result = play_game("usa", 3, seed=8)
    end = outcome(result.state)
    assert end is not None and end.reason == ENDED_LAST_ROUND
    assert [sh.total for sh in end.sheets] == [sh.total for sh in final_scores(result.state)]
    assert end.winners == tuple(sh.seat for sh in end.sheets if sh.rank == 1) and end.winners
    stuck = started("europe", 2)
    finish(stuck, stuck=True)
    assert outcome(stuck) is not None and outcome(stuck).reason == ENDED_STUCK  # type: ignore[union-attr]

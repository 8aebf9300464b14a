"""The engine's fast paths against plain recomputations: claimable routes (open-route index, payment caches) and
the station choice at the end (component graph instead of whole networks)."""

from __future__ import annotations

import random
from itertools import product

import pytest
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import ClaimRoute
from engine.claims import affordability_error, claim_block, payment_of, payment_options, payment_shapes
from engine.errors import IllegalAction
from engine.features.stations import best_station_routes
from engine.playout import random_legal_action
from engine.rules import (
    apply,
    claimable_routes,
    gray_payment_count,
    legal_actions,
    new_game,
    payment_count,
    to_act,
)
from engine.scoring import network, ticket_points
from engine.state import NOBODY, GameState
from engine.turn import features_for
from maps import CARD_TYPES, GRAY, LOCOMOTIVE, LOCOMOTIVE_PLUS4

BOARDS = [
    ("europe", ()),
    ("europe", ("warehouses",)),
    ("usa", ()),
    ("germany", ()),
    ("marklin", ()),
    ("japan", ()),
    ("italy", ()),
]


def claimable_oracle(state: GameState, seat: int) -> list[tuple[int, list[tuple[int, int, int, int]]]]:
    """Route by route, with the message-building checks and the uncached payments."""
    out = []
    player = state.players[seat]
    features = features_for(state)
    for route in state.board.routes:
        if claim_block(state, seat, route.id) is not None:
            continue
        if any(f.claim_error(state, seat, route.id) for f in features):
            continue
        if route.length > player.trains and all(f.uses_own_trains(state, seat, route.id) for f in features):
            continue
        shapes = [
            (a.color, a.locomotives, a.plus4, a.ferry_cards) for a in payment_options(state, seat, route.id)
        ]
        if shapes:
            out.append((route.id, shapes))
    return out


def as_lists(claims):  # type: ignore[no-untyped-def]
    return [(rid, list(shapes)) for rid, shapes in claims]


@pytest.mark.parametrize(("board", "options"), BOARDS, ids=[b + "".join(o) for b, o in BOARDS])
def test_claimable_routes_match_a_route_by_route_recount(board, options):  # type: ignore[no-untyped-def]
    rng = random.Random(board)
    for game in range(3):
        players = 2 + game  # 2 and 3 players close doubles, 4 opens them
        state = new_game(board, players, seed=game, options=options)
        while not state.finished:
            seat = rng.choice(to_act(state))
            if not state.pending and state.phase in ("main", "last_round"):
                assert as_lists(claimable_routes(state, seat)) == claimable_oracle(state, seat)
                if rng.random() < 0.05:  # a copy and a saved game rebuild their index
                    copied = state.copy()
                    assert as_lists(claimable_routes(copied, seat)) == claimable_oracle(copied, seat)
                    loaded = GameState.from_json(state.to_json())
                    assert as_lists(claimable_routes(loaded, seat)) == claimable_oracle(loaded, seat)
            apply(state, seat, random_legal_action(state, seat, rng))


def test_claimable_routes_follow_owners_written_directly():
    """Tests and the score calculator set owners by hand, even taking a route back: the index follows."""
    state = new_game("europe", 3, seed=4)
    rng = random.Random(4)
    for seat in range(3):
        state.players[seat].hand = [6] * len(state.players[seat].hand)
        state.players[seat].trains = 45
    for _ in range(60):
        rid = rng.randrange(len(state.route_owner))
        state.route_owner[rid] = rng.choice([NOBODY, 0, 1, 2])
        for seat in range(3):
            assert as_lists(claimable_routes(state, seat)) == claimable_oracle(state, seat)


@pytest.mark.parametrize(("board", "options"), BOARDS[3:], ids=[b for b, _ in BOARDS[3:]])
def test_fast_sampler_is_legal_actions_by_index_on_every_board(board, options):  # type: ignore[no-untyped-def]
    """The same check as test_simulation's on the other boards' special actions and payments."""

    class FixedDraw:
        def __init__(self, k: int):
            self.k, self.n = k, 0

        def randrange(self, n: int) -> int:
            self.n = n
            return self.k

    rng = random.Random(11)
    state = new_game(board, 4, seed=3, options=options)
    for _ in range(400):
        if state.finished:
            break
        seat = rng.choice(to_act(state))
        legal = legal_actions(state, seat)
        probe = FixedDraw(0)
        random_legal_action(state, seat, probe)  # type: ignore[arg-type]
        assert probe.n == len(legal)
        for k in rng.sample(range(len(legal)), min(len(legal), 12)):
            assert random_legal_action(state, seat, FixedDraw(k)) == legal[k]  # type: ignore[arg-type]
        apply(state, seat, rng.choice(legal))


def brute_force_station_points(state: GameState, seat: int) -> int:
    """Every station tries every route of another player at its city (or none): the best ticket points."""
    player = state.players[seat]
    base_routes = list(player.routes)
    cities = [c for c, o in state.station_owner.items() if o == seat]
    options = [
        [None] + [r for r in state.board.routes_at[c] if state.route_owner[r] not in (NOBODY, seat)]
        for c in cities
    ]
    best = None
    for combo in product(*options):
        uf = network(state, base_routes + [r for r in combo if r is not None])
        points = ticket_points(state, uf, player.tickets)
        best = points if best is None else max(best, points)
    assert best is not None
    return best


def test_station_choice_scores_as_well_as_trying_everything():
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game("europe", 4, seed=seed)
        while not state.finished:
            seat = rng.choice(to_act(state))
            apply(state, seat, random_legal_action(state, seat, rng))
        for seat, player in enumerate(state.players):
            if seat not in state.station_owner.values():
                continue
            base = network(state, list(player.routes))
            uf, borrowed = best_station_routes(state, seat, base)
            assert ticket_points(state, uf, player.tickets) == brute_force_station_points(state, seat)
            assert len(borrowed) <= sum(1 for o in state.station_owner.values() if o == seat)
            checked += 1
    assert checked > 40


@settings(max_examples=examples(300))
@given(
    board=st.sampled_from(["europe", "marklin", "italy"]),
    route_pick=st.integers(0, 10_000),
    hand=st.lists(st.integers(0, 5), min_size=CARD_TYPES, max_size=CARD_TYPES),
    ferry_cards=st.integers(0, 2),
)
def test_payment_shapes_are_every_payment_the_rules_accept(board, route_pick, hand, ferry_cards):  # type: ignore[no-untyped-def]
    """The payments listed for a route are exactly the distinct card sets `payment_of` and the hand accept."""
    state = new_game(board, 2, seed=0)
    route = state.board.routes[route_pick % len(state.board.routes)]
    player = state.players[0]
    player.hand = list(hand)
    player.ferry_cards = ferry_cards
    listed = {payment_of(state, a) for a in payment_options(state, 0, route.id)}
    accepted = set()
    n = route.length
    for color, locos, plus4, ferry in product(range(LOCOMOTIVE + 1), range(n + 1), range(n + 1), range(3)):
        pay = payment_of(state, ClaimRoute(route.id, color, locos, plus4, ferry))
        if not isinstance(pay, IllegalAction) and affordability_error(state, 0, route.id, pay) is None:
            accepted.add(pay)
    assert listed == accepted
    assert len(listed) == len(payment_options(state, 0, route.id))  # each once


@settings(max_examples=examples(800))
@given(
    color=st.sampled_from([GRAY, 0, 3, 7]),
    length=st.integers(1, 9),
    symbols=st.integers(0, 3),
    waves=st.integers(0, 4),
    hand=st.lists(st.integers(0, 12), min_size=CARD_TYPES, max_size=CARD_TYPES),
    ferry_cards=st.integers(0, 3),
)
def test_payments_counted_as_listed(color, length, symbols, waves, hand, ferry_cards):  # type: ignore[no-untyped-def]
    hand[LOCOMOTIVE_PLUS4] = 0  # the counted case: no Locomotive +4 to use
    waves = min(waves, length)
    listed = payment_shapes(color, length, symbols, waves, tuple(hand), ferry_cards)
    assert payment_count(color, length, symbols, waves, tuple(hand), ferry_cards) == len(listed)
    if color == GRAY and not waves:
        assert gray_payment_count(length, symbols, tuple(hand), hand[LOCOMOTIVE]) == len(listed)


def test_saved_history_is_every_action_in_order_after_saves_copies_and_loads():
    """The history's JSON is converted once per action (a game in play is saved every turn): it must still be
    the whole log after saving midway, copying, loading and playing on."""
    rng = random.Random(8)
    state = new_game("europe", 3, seed=8)
    states = [state]
    for step in range(400):
        if state.finished:
            break
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
        if step % 37 == 0:
            state.to_json()  # a save midway
        if step % 91 == 0:
            state = state.copy()
            states.append(state)
        if step % 143 == 0:
            state = GameState.from_json(state.to_json())
            states.append(state)
    for s in states:
        assert s.to_dict()["history"] == [[seat, a.to_json()] for seat, a in s.history]


def test_decoded_actions_keep_true_and_one_apart():
    from engine.actions import DrawFaceUp, action_from_json

    one = action_from_json({"type": "draw_face_up", "slot": 1, "warehouse": None})
    true = action_from_json({"type": "draw_face_up", "slot": True, "warehouse": None})
    assert one == DrawFaceUp(1) and type(true.slot) is bool  # type: ignore[attr-defined]

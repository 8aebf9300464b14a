"""A refused action changes nothing: the contract of `engine.rules.apply`, on every board and variant.

From random reachable positions (random legal moves from a seeded game), actions drawn from the legal list, from
mutations of legal actions (other seat, route, colour, counts, mix...) and from wrongly typed values: each one is
either listed by `legal_actions` and accepted, or refused with IllegalAction and the state's JSON unchanged.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace
from typing import Any
from unittest import mock

import pytest
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import rules
from engine.actions import ACTION_TYPES, Action, DrawTickets, KeepTickets, Pass
from engine.errors import IllegalAction
from engine.playout import random_legal_action
from engine.rules import action_fields_error, apply, legal_actions, new_game, to_act
from engine.state import FINISHED, GameState

CONFIGS = [
    ("europe", "classic", ()),
    ("europe", "classic", ("warehouses",)),
    ("europe", "1912", ()),
    ("europe", "1912", ("warehouses",)),
    ("europe", "big-cities", ()),
    ("europe", "big-cities", ("warehouses",)),
    ("europe", "mega", ()),
    ("europe", "mega", ("warehouses",)),
    ("usa", None, ()),
    ("germany", None, ()),
    ("marklin", None, ()),
    ("japan", None, ()),
    ("italy", None, ()),
]

WRONG_VALUES: list[Any] = ["3", None, 3.5, True, "ab", (1, "a"), [1], (None,), -1, 10**9, ()]


def _seat_to_act(state: GameState, rng: random.Random) -> int:
    seats = to_act(state)
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def reachable(board: str, variant: str | None, options: tuple[str, ...], players: int, seed: int, moves: int):
    state = new_game(board, players, variant=variant, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase == FINISHED:
            break
        seat = _seat_to_act(state, rng)
        apply(state, seat, random_legal_action(state, seat, rng))
    return state


def mutated(action: Action, rng: random.Random, state: GameState) -> Action:
    """A neighbour of a legal action: one field changed to a nearby or random value of the right type."""
    names = [f.name for f in fields(action)]
    if not names:
        return rng.choice([cls() for cls in ACTION_TYPES.values() if not fields(cls)])
    name = rng.choice(names)
    value = getattr(action, name)
    if isinstance(value, tuple):
        choices = [
            value[:-1],
            (*value, rng.randrange(5)),
            tuple(v + rng.choice((-1, 1)) for v in value),
            tuple(reversed(value)),
            (*value, *value[-1:]),
            tuple(rng.randrange(len(state.board.tickets) + 2) for _ in value),
        ]
        new: Any = rng.choice(choices)
    elif isinstance(value, str):
        new = rng.choice(["", "red", "blue", value + "x"])
    else:
        base = value or 0
        new = rng.choice([base + 1, base - 1, base + 2, rng.randrange(-2, len(state.board.routes) + 2), None])
    return replace(action, **{name: new})


def wrongly_typed(action: Action, rng: random.Random) -> Action | None:
    names = [f.name for f in fields(action)]
    if not names:
        return None
    candidate = replace(action, **{rng.choice(names): rng.choice(WRONG_VALUES)})
    return candidate if action_fields_error(candidate) else None


def check_one(state: GameState, seat: int, action: Any) -> bool:
    """Apply `action` for `seat`; check the contract. Returns whether it was accepted."""
    legal = legal_actions(state, seat)
    well_formed = action_fields_error(action) is None
    before = state.to_json()
    try:
        apply(state, seat, action)
    except IllegalAction:
        assert state.to_json() == before, f"refused {action!r} changed the state"
        assert not (well_formed and action in legal), f"listed action refused: {action!r}"
        return False
    assert well_formed and action in legal, f"unlisted action accepted: {action!r}"
    return True


def _no_safety_net() -> Any:
    """In the pure build, the handlers themselves must check before they change anything: the replay that
    repairs a failed apply must not be what keeps the state unchanged here."""
    if engine.COMPILED_MODULES:
        return mock.patch.object(rules, "_describe", rules._describe)  # a no-op context
    return mock.patch.object(rules, "_restore", side_effect=AssertionError("apply failed half-way"))


@pytest.mark.parametrize(("board", "variant", "options"), CONFIGS, ids=lambda v: str(v))
@settings(max_examples=examples(100))
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 600),
    tries=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10**6)), min_size=5, max_size=25),
)
def test_refused_actions_change_nothing(
    board: str,
    variant: str | None,
    options: tuple[str, ...],
    players: int,
    seed: int,
    moves: int,
    tries: list,
) -> None:
    state = reachable(board, variant, options, players, seed, moves)
    with _no_safety_net():
        for how, k in tries:
            if state.phase == FINISHED:
                break
            rng = random.Random(k)
            seat = _seat_to_act(state, rng)
            legal = legal_actions(state, seat)
            base = legal[k % len(legal)]
            if how == 0:
                action: Any = base
            elif how == 1:
                action = mutated(base, rng, state)
            elif how == 2:
                action = wrongly_typed(base, rng) or mutated(base, rng, state)
            elif how == 3:  # another seat tries a listed action
                seat = (seat + 1 + k % (players - 1)) % players
                action = base
            else:  # a ticket or pass action out of nowhere
                action = rng.choice(
                    [DrawTickets((1, 3)), DrawTickets((2, 2)), DrawTickets(), Pass(), KeepTickets()]
                )
            check_one(state, seat, action)


def test_wrongly_typed_values_are_refused_naming_the_action() -> None:
    from engine.actions import ClaimRoute, DrawFaceUp

    state = reachable("europe", None, (), 3, 4, 30)
    seat = state.current
    before = state.to_json()
    for action in (
        ClaimRoute("3"),  # type: ignore[arg-type]
        KeepTickets("ab"),  # type: ignore[arg-type]
        DrawFaceUp(None),  # type: ignore[arg-type]
        DrawFaceUp(True),
        DrawTickets(None),  # type: ignore[arg-type]
        "draw_blind",
        None,
    ):
        with pytest.raises(IllegalAction) as err:
            apply(state, seat, action)  # type: ignore[arg-type]
        assert "action" in str(err.value)
        assert state.to_json() == before


def test_a_handler_failing_half_way_leaves_the_state_as_it_was() -> None:
    """The safety net: a bug that raises after the state changed is undone (replay of the log) and the action
    refused as illegal."""
    if engine.COMPILED_MODULES:
        pytest.skip("patches a compiled module's internals")
    state = reachable("europe", None, (), 3, 5, 40)
    seat = state.current
    draw = next(a for a in legal_actions(state, seat) if a.kind == "draw_face_up")
    before = state.to_json()
    real = rules.deck_ops.refill_slot
    calls = []

    def buggy_once(state: GameState, slot: int) -> None:  # the card is in the hand already: then it fails
        calls.append(slot)
        if len(calls) == 1:
            raise KeyError("bug")
        real(state, slot)

    with (
        mock.patch.object(rules.deck_ops, "refill_slot", buggy_once),
        pytest.raises(IllegalAction, match="draw_face_up"),
    ):
        apply(state, seat, draw)
    assert state.to_json() == before
    apply(state, seat, draw)  # and the game goes on


@pytest.mark.parametrize("board", ["germany", "marklin"])
def test_a_mix_one_deck_cannot_serve_takes_no_ticket(board: str) -> None:
    """(1, 3) announced with 2 long tickets left: refused before the short ticket leaves its deck."""
    from engine.tickets import total_tickets

    state = reachable(board, None, (), 3, 1, 0)
    while state.phase != "main":
        seat = _seat_to_act(state, random.Random(0))
        apply(state, seat, legal_actions(state, seat)[0])
    decks = state.ticket_decks
    long_ = "long"
    state.box.extend(decks[long_][2:])
    del decks[long_][2:]
    count, before = total_tickets(state), state.to_json()
    mix = (1, 3)  # (short, long), as the variant lists the decks
    assert DrawTickets(mix) not in legal_actions(state, state.current)
    with pytest.raises(IllegalAction, match="only 2 tickets left"):
        apply(state, state.current, DrawTickets(mix))
    assert total_tickets(state) == count and state.to_json() == before


def test_become_takes_every_field() -> None:
    a, b = reachable("europe", "mega", ("warehouses",), 3, 1, 50), reachable("usa", None, (), 4, 2, 80)
    a.become(b)
    if not engine.COMPILED_MODULES:
        assert all(getattr(a, name) is getattr(b, name) for name in GameState.__slots__)
    assert a.to_json() == b.to_json()

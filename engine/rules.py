"""The rules' entry points: start a game, list the legal actions of a seat, apply an action.

`apply` checks the action and raises `IllegalAction` (with a message for the player) before changing anything;
it then changes the state in place. The same checks serve people and the simulator.

The parts live beside it: engine.legal lists the legal actions, engine.payable counts what a hand can pay, and
engine.handlers applies each core action. This module stays the public entry: their names that other packages
use are importable from here too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from typing import Any

from engine import cards as deck_ops
from engine import tickets as ticket_ops
from engine.actions import ACTION_TYPES, Action, Pass, PlaceDepot
from engine.errors import IllegalAction
from engine.events import CardsReceived
from engine.handlers import HANDLERS
from engine.legal import WELL_FORMED, claimable_routes, pending_actions, turn_actions
from engine.payable import gray_payment_count, payment_count
from engine.state import DEPOTS, FINISHED, SETUP, GameState
from engine.turn import features_for
from maps import Board, BoardDataError, load_board

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "action_fields_error",
    "apply",
    "claimable_routes",
    "draw_first_player",
    "gray_payment_count",
    "legal_actions",
    "new_game",
    "payment_count",
    "to_act",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def new_game(
    board: Board | str,
    players: list[str] | int,
    *,
    variant: str | None = None,
    options: tuple[str, ...] | list[str] = (),
    seed: int = 0,
    any_player_count: bool = False,
    first_player: int | None = None,
) -> GameState:
    """Set up a game: decks shuffled from `seed`, hands and face-up row dealt, every seat offered its tickets.

    The first player (who plays first once everyone has chosen their tickets) is drawn from the seed, unless
    `first_player` names it (test positions, the score calculator, undoing a failed action)."""
    if isinstance(board, str):
        board = load_board(board)
    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    lo, hi = board.rules.get("players", [MIN_PLAYERS, MAX_PLAYERS])
    if not lo <= len(names) <= hi and not (any_player_count and names):
        raise IllegalAction(
            "player_count",
            f"{board.name} is played by {lo} to {hi} players, not {len(names)}.",
            board=board.id,
            min=lo,
            max=hi,
            n=len(names),
        )
    variant_id = variant or board.default_variant
    board.variant(variant_id)  # raises on an unknown variant
    for opt in options:
        if opt not in board.options:
            known = ", ".join(board.options) or "none"
            raise BoardDataError(f"{board.name} has no option {opt!r} (options: {known})")
    state = GameState(board, variant_id, tuple(options), seed, names)
    if first_player is None:
        state.first_player = draw_first_player(seed, len(names))
    elif type(first_player) is int and 0 <= first_player < len(names):
        state.first_player = first_player
    else:
        raise IllegalAction(
            "no_first_seat", f"There is no seat {first_player!r} to play first.", seat=first_player
        )
    rules = board.rules
    for p in state.players:
        p.trains = rules["trains_per_player"]
        p.stations = rules.get("stations_per_player", 0)
    deck_ops.build_deck(state)
    for _ in range(rules.get("starting_hand", 4)):
        for p in state.players:
            card = deck_ops.draw_card(state)
            if card is not None:
                p.hand[card] += 1
    deck_ops.deal_face_up(state)
    ticket_ops.build_ticket_decks(state)
    for f in features_for(state):
        f.setup(state)
    state.phase = SETUP
    state.events = [  # the deal: each seat's own cards
        CardsReceived(seat, tuple((c, n) for c, n in enumerate(p.hand) if n))
        for seat, p in enumerate(state.players)
    ]
    for seat in range(len(names)):
        ticket_ops.start_step(state, seat, 0)
    return state


def draw_first_player(seed: int, players: int) -> int:
    """The seat that plays first, drawn at random from the game's seed (online play draws it; the rulebooks'
    "most travelled player" cannot be known). A generator of its own, seeded from the seed, so the deck and
    ticket shuffles are those every earlier game of the same seed had: replays and saved games stay exact."""
    return random.Random(f"first player {seed}").randrange(players)


def to_act(state: GameState) -> list[int]:
    """The seats that may act now (several during the simultaneous start-of-game ticket choice)."""
    if state.phase == FINISHED:
        return []
    if state.phase == SETUP:
        return sorted(state.pending)
    return [state.current]


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action `seat` may take now; empty when it is not theirs to act."""
    if state.phase == FINISHED:
        return []
    pending = state.pending.get(seat)
    if pending is not None:
        return pending_actions(state, seat, pending)
    if state.phase == SETUP or seat != state.current:
        return []
    if state.phase == DEPOTS:
        return [a for f in features_for(state) for a in f.turn_actions(state, seat)]
    return turn_actions(state, seat)


# ---- apply ---------------------------------------------------------------------------------------------------

# What `WELL_FORMED.get` answers for an action that is not one of the shared draw instances of engine.legal.
_NOT_WELL_FORMED = object()


def apply(state: GameState, seat: int, action: Action) -> GameState:
    """Apply `seat`'s action after checking it (IllegalAction, nothing changed, when it is not allowed).

    A refused action leaves the state as it was, byte for byte: values of the wrong type are refused here at the
    entry, the handlers check everything before they change anything, and should one of them still fail half-way
    (an engine bug), `_restore` rebuilds the state from its seed and log: no snapshot, so a legal action costs
    nothing extra."""
    if WELL_FORMED.get(id(action), _NOT_WELL_FORMED) is not action:
        fields_error = action_fields_error(action)
        if fields_error is not None:
            raise IllegalAction("malformed_action", fields_error)
    phase = state.phase
    if phase == FINISHED:
        raise IllegalAction("game_over", "The game is over.")
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise IllegalAction("no_such_seat", f"There is no seat {seat!r} in this game.", seat=seat)
    pending = state.pending.get(seat)
    if pending is None and (phase == SETUP or seat != state.current):
        if phase == SETUP:
            raise IllegalAction(
                "wait_for_setup", "You have chosen your tickets; the game starts when everyone has."
            )
        current = state.players[state.current].name
        raise IllegalAction(
            "not_your_turn", f"It is not your turn: it is {current}'s.", player=current, seat=state.current
        )
    if phase == DEPOTS and type(action) is not PlaceDepot:
        raise IllegalAction(
            "depots_first", "Place your starting depot first: the game starts when everyone has."
        )
    previous_events = state.events
    state.events = []
    try:
        handler = HANDLERS.get(type(action))
        if handler is not None:
            handler(state, seat, action, pending)
        else:
            for f in features_for(state):
                if isinstance(action, f.action_types):
                    f.apply(state, seat, action)
                    break
            else:
                raise IllegalAction(
                    "not_in_rules",
                    f"{action.kind.replace('_', ' ')} is not part of {state.board.name}'s rules.",
                    action=action.kind,
                    board=state.board.id,
                )
    except IllegalAction:
        state.events = previous_events  # handlers check everything before they change anything
        raise
    except Exception as exc:  # an engine bug half-way through a handler: undo it, refuse the action
        if not _restore(state):
            raise
        raise IllegalAction(
            "action_failed",
            f"{_describe(action)} could not be applied ({type(exc).__name__}).",
            action=action.kind,
        ) from exc
    state.history.append((seat, action))
    if "passes" in state.module and not action.free and type(action) is not Pass:
        del state.module["passes"]
    return state


def _restore(state: GameState) -> bool:
    """Put `state` back as it was before the failed action: the same setup replayed through its accepted
    actions (a game is its setup plus its action log). False when the log does not rebuild it (a position built
    by hand, as the score calculator's); the caller then lets the error through."""
    try:
        rebuilt = new_game(
            state.board,
            [p.name for p in state.players],
            variant=state.variant,
            options=state.options,
            seed=state.seed,
            any_player_count=True,
            first_player=state.first_player,
        )
        for seat, action in state.history:
            apply(rebuilt, seat, action)
    except Exception:
        return False
    state.become(rebuilt)
    return True


def _describe(action: object) -> str:
    to_json = getattr(action, "to_json", None)
    try:
        return str(to_json()) if to_json is not None else repr(action)
    except Exception:
        return repr(action)


# Per action class: a getter of its field values (a tuple), whether they are all ints (most actions: the fast
# check), and each field as (name, kind): 0 an int, 1 an int or None, 2 a tuple of ints, 3 a string.
FieldSpec = tuple[Callable[[Any], tuple[Any, ...]], bool, tuple[tuple[str, int], ...]]
_FIELD_SPECS: dict[type, FieldSpec] = {}
_KIND_OF_ANNOTATION = {"int": 0, "int | None": 1, "tuple[int, ...]": 2, "str": 3}


def _field_spec(cls: type) -> FieldSpec | None:
    if ACTION_TYPES.get(getattr(cls, "kind", "")) is not cls:
        return None
    kinds = tuple((f.name, _KIND_OF_ANNOTATION[str(f.type)]) for f in dataclass_fields(cls))
    names = [name for name, _ in kinds]
    getter: Callable[[Any], tuple[Any, ...]]
    if len(names) >= 2:
        getter = attrgetter(*names)
    else:
        getter = _one_field(names[0]) if names else _no_field
    spec = _FIELD_SPECS[cls] = (getter, all(kind == 0 for _, kind in kinds), kinds)
    return spec


def _one_field(name: str) -> Callable[[Any], tuple[Any, ...]]:
    get = attrgetter(name)
    return lambda action: (get(action),)


def _no_field(action: Any) -> tuple[Any, ...]:
    return ()


def action_fields_error(action: object) -> str | None:
    """Why `action` is not a well-formed action (not one of the registered types, or a field of the wrong
    type: a route given as "3", tickets as "ab", None...), or None. Exact types: True is not 1."""
    spec = _FIELD_SPECS.get(type(action))
    if spec is None:
        spec = _field_spec(type(action))
        if spec is None:
            return f"{action!r} is not an action."
    getter, ints_only, kinds = spec
    values = getter(action)
    if ints_only:
        for v in values:
            if type(v) is not int:
                break
        else:
            return None
    for (name, kind), v in zip(kinds, values, strict=True):
        t = type(v)
        if kind == 0:
            ok = t is int
        elif kind == 1:
            ok = t is int or v is None
        elif kind == 3:
            ok = t is str
        else:
            ok = t is tuple
            if ok:
                for x in v:
                    if type(x) is not int:
                        ok = False
                        break
        if not ok:
            return f"{_describe(action)} is not a valid action: {name} = {v!r}."
    return None

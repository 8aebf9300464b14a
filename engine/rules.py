"""The rules' entry points: start a game, list the legal actions of a seat, apply an action.

`apply` checks the action and raises `IllegalAction` (with a message for the player) before changing anything;
it then changes the state in place. The same checks serve people and the simulator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields as dataclass_fields
from itertools import combinations
from operator import attrgetter
from typing import Any

from engine import cards as deck_ops
from engine import tickets as ticket_ops
from engine.actions import (
    ACTION_TYPES,
    Action,
    ChooseTicketMix,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PlaceDepot,
)
from engine.cards import EMPTY
from engine.claims import (
    SHAPES_CACHE,
    PaymentShape,
    affordability_error,
    cached_payment_shapes,
    claim_block,
    payment_of,
    plus4_min_length,
)
from engine.errors import IllegalAction
from engine.events import (
    BLIND_DRAWN,
    BlindCardSeen,
    CardDrawn,
    CardsReceived,
    Passed,
    PlayStarted,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TurnStarted,
)
from engine.open_routes import open_routes, shape_table
from engine.pending import Pending, SecondDraw, TicketChoice, TicketMix
from engine.state import DEPOTS, FINISHED, LAST_ROUND, MAIN, SETUP, GameState
from engine.turn import (
    complete_claim,
    end_turn,
    features_for,
    finish,
    hooks_for,
    require_turn_start,
    share_event,
    shared_event,
)
from maps import COLORS, LOCOMOTIVE, LOCOMOTIVE_PLUS4, Board, BoardDataError, load_board

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
            board=board.name,
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


_NO_DRAW_CHOICE: list[int | None] = [None]


def draw_choices(state: GameState, seat: int) -> list[int | None]:
    """The values a first draw's `warehouse` argument may take: [None] unless a board module uses it."""
    owners = hooks_for(state).draw_choices
    return owners[0].draw_choices(state, seat) if owners else _NO_DRAW_CHOICE


def draw_actions(state: GameState, seat: int, *, second: bool) -> list[Action]:
    out: list[Action] = []
    warehouses = _NO_DRAW_CHOICE if second else draw_choices(state, seat)
    blind = deck_ops.can_draw_blind(state)
    if not second and blind:
        owners = hooks_for(state).draw_choices
        if owners:
            blind = owners[0].blind_after_choice(state)
    for w in warehouses:
        if blind:
            out.append(_draw_blind(w))
        for slot, card in enumerate(state.face_up):
            if card != EMPTY and not (second and card == LOCOMOTIVE):
                out.append(_draw_face_up(slot, w))
    return out


# Draw actions are few and immutable: one instance each (built on first use) spares the frozen-dataclass
# constructor on the hot path.
_BLIND_DRAWS: dict[int | None, DrawBlind] = {}
_FACE_UP_DRAWS: dict[tuple[int, int | None], DrawFaceUp] = {}


# The same instances by id: `apply` need not check their field types (the dict keeps them alive, so an id is
# never reused by another object).
_WELL_FORMED: dict[int, Action] = {}
_NOT_WELL_FORMED = object()


def _draw_blind(warehouse: int | None) -> DrawBlind:
    action = _BLIND_DRAWS.get(warehouse)
    if action is None:
        action = _BLIND_DRAWS[warehouse] = DrawBlind(warehouse)
        _WELL_FORMED[id(action)] = action
    return action


def _draw_face_up(slot: int, warehouse: int | None) -> DrawFaceUp:
    action = _FACE_UP_DRAWS.get((slot, warehouse))
    if action is None:
        action = _FACE_UP_DRAWS[(slot, warehouse)] = DrawFaceUp(slot, warehouse)
        _WELL_FORMED[id(action)] = action
    return action


def second_draw_possible(state: GameState) -> bool:
    """Whether `draw_actions(..., second=True)` is not empty: a blind card, or a face-up card but a Locomotive."""
    if deck_ops.can_draw_blind(state):
        return True
    return any(c != EMPTY and c != LOCOMOTIVE for c in state.face_up)


def _payable_shapes(state: GameState, seat: int) -> list[tuple[list[int], list[PaymentShape], int]]:
    """(open route ids, their payments, their length) for each payment shape of the board the seat's hand can
    pay, before the modules' per-route checks."""
    return _payable(state, seat, False)


def _payable_counts(state: GameState, seat: int) -> list[tuple[list[int], tuple[int, int, int, int], int]]:
    """(open route ids, their payment shape, how many payments each) for each shape the seat's hand can pay:
    `_payable_shapes` without listing the payments (a gray route's list is long and rarely needed)."""
    return _payable(state, seat, True)


def _payable(state: GameState, seat: int, counting: bool) -> list[tuple[list[int], Any, int]]:
    out: list[tuple[list[int], Any, int]] = []
    player = state.players[seat]
    hand = tuple(player.hand)
    ferry = player.ferry_cards
    trains = 99 if hooks_for(state).uses_own_trains else player.trains
    locos = hand[LOCOMOTIVE]
    plus4 = hand[LOCOMOTIVE_PLUS4]
    plus4_min = plus4_min_length(state.board) if plus4 else 0
    wilds = locos + plus4 + 2 * ferry  # an upper bound of the spaces wild cards cover
    best = max(hand[:LOCOMOTIVE])
    index = state.derived.get("open_routes")
    if index is None or index.owners != state.route_owner:
        index = open_routes(state)
    open_lists = index.by_seat[seat]
    cache = SHAPES_CACHE
    for color, shapes_by_length in shape_table(state.board).by_color:
        have = best if color < 0 else hand[color]
        limit = have + wilds
        if limit > trains:
            limit = trains
        if limit < shapes_by_length[0][1]:
            continue  # not even the shortest route of this colour
        for pos, length, symbols, waves, key in shapes_by_length:
            if length > limit:
                break  # longer shapes of this colour cannot be paid either
            rids = open_lists[pos]
            if not rids or symbols > locos:
                continue
            if counting and (color < 0 or waves) and (not plus4 or length < plus4_min):
                if waves:
                    n = payment_count(color, length, symbols, waves, hand, ferry)
                else:  # gray, the usual case
                    n = gray_payment_count(length, symbols, hand, locos)
                if n:
                    out.append((rids, key, n))
                continue
            if color < 0:
                ck: tuple[Any, ...] = (key, hand, ferry)
            else:
                ck = (key, have, locos, plus4, ferry)
            if plus4:
                ck = (*ck, plus4_min)
            shapes = cache.get(ck)
            if shapes is None:
                shapes = cached_payment_shapes(key, hand, ferry, plus4_min)
            if shapes:
                out.append((rids, key, len(shapes)) if counting else (rids, shapes, length))
    return out


def payment_count(
    route_color: int, length: int, symbols: int, waves: int, hand: tuple[int, ...], ferry_cards: int
) -> int:
    """len(payment_shapes(...)) when no Locomotive +4 can be used, counted: for each number of Ferry cards, the
    spaces they leave are paid like a plain route whose Locomotive minimum is its symbols plus uncovered waves."""
    locos = hand[LOCOMOTIVE]
    if not waves:
        return _plain_count(route_color, length, symbols, hand, locos)
    n = 0
    for ferry in range(min(ferry_cards, (waves + 1) // 2) + 1):
        covered = min(2 * ferry, waves)
        n += _plain_count(route_color, length - covered, symbols + waves - covered, hand, locos)
    return n


def _plain_count(route_color: int, length: int, min_locos: int, hand: tuple[int, ...], locos: int) -> int:
    if route_color < 0:
        return gray_payment_count(length, min_locos, hand, locos)
    if min_locos > locos or min_locos > length:
        return 0
    n = 1 if locos >= length else 0
    have = hand[route_color]
    if have:
        lo = length - have
        if lo < min_locos:
            lo = min_locos
        hi = locos if locos < length - 1 else length - 1
        if hi >= lo:
            n += hi - lo + 1
    return n


def gray_payment_count(length: int, symbols: int, hand: tuple[int, ...], locos: int) -> int:
    """len(payment_shapes(GRAY, length, symbols, 0, hand, ...)) when no Locomotive +4 can be used, counted."""
    if symbols > locos or symbols > length:
        return 0
    n = 1 if locos >= length else 0  # all Locomotives
    hi = locos if locos < length - 1 else length - 1
    for color in range(len(COLORS)):  # one colour and from `lo` to `hi` Locomotives
        have = hand[color]
        if have:
            lo = length - have
            if lo < symbols:
                lo = symbols
            if hi >= lo:
                n += hi - lo + 1
    return n


def _route_checks(state: GameState) -> bool:
    """Whether some module has a say on single routes (claim blocked, trains of another kind)."""
    hooks = hooks_for(state)
    return bool(hooks.claim_error or hooks.uses_own_trains)


def _route_allowed(state: GameState, seat: int, rid: int, length: int) -> bool:
    hooks = hooks_for(state)
    if hooks.claim_error and any(f.claim_error(state, seat, rid) for f in hooks.claim_error):
        return False
    trains = state.players[seat].trains
    return not (length > trains and all(f.uses_own_trains(state, seat, rid) for f in hooks.uses_own_trains))


def claimable_routes(state: GameState, seat: int) -> list[tuple[int, list[PaymentShape]]]:
    """Each route the seat may claim now with its payments, in route id order (the legal-action hot path)."""
    payable = _payable_shapes(state, seat)
    if _route_checks(state):
        out = [
            (rid, shapes)
            for rids, shapes, length in payable
            for rid in rids
            if _route_allowed(state, seat, rid, length)
        ]
    else:
        out = [(rid, shapes) for rids, shapes, _ in payable for rid in rids]
    out.sort()
    return out


def claim_actions(state: GameState, seat: int) -> list[Action]:
    return [
        ClaimRoute(rid, c, k, p4, f)
        for rid, shapes in claimable_routes(state, seat)
        for c, k, p4, f in shapes
    ]


def ticket_draw_actions(state: GameState) -> list[Action]:
    step = ticket_ops.draw_step(state)
    if isinstance(step["draw"], int):
        return [DrawTickets(mix) for mix in ticket_ops.mix_options(state, step)]
    return [DrawTickets()] if ticket_ops.available(state, step) else []


def turn_actions(state: GameState, seat: int) -> list[Action]:
    out = draw_actions(state, seat, second=False)
    out += claim_actions(state, seat)
    out += ticket_draw_actions(state)
    for f in features_for(state):
        out.extend(f.turn_actions(state, seat))
    if not out or all(a.free for a in out):
        out.append(Pass())
    return out


def pending_actions(state: GameState, seat: int, pending: Pending) -> list[Action]:
    if isinstance(pending, SecondDraw):
        return draw_actions(state, seat, second=True)
    if isinstance(pending, TicketMix):
        step = ticket_ops.ticket_rules(state)["setup"][pending.step]
        return [ChooseTicketMix(m) for m in ticket_ops.mix_options(state, step)]
    if isinstance(pending, TicketChoice):
        offered = sorted(pending.offered)
        return [
            KeepTickets(combo)
            for k in range(pending.keep_min, pending.keep_max + 1)
            for combo in combinations(offered, k)
        ]
    for f in features_for(state):
        if isinstance(pending, f.pending_types):
            return f.pending_actions(state, seat, pending)
    raise AssertionError(f"no module resolves {pending.kind}")


# ---- apply ---------------------------------------------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action) -> GameState:
    """Apply `seat`'s action after checking it (IllegalAction, nothing changed, when it is not allowed).

    A refused action leaves the state as it was, byte for byte: values of the wrong type are refused here at the
    entry, the handlers check everything before they change anything, and should one of them still fail half-way
    (an engine bug), `_restore` rebuilds the state from its seed and log: no snapshot, so a legal action costs
    nothing extra."""
    if _WELL_FORMED.get(id(action), _NOT_WELL_FORMED) is not action:
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
        raise IllegalAction("not_your_turn", f"It is not your turn: it is {current}'s.", player=current)
    if phase == DEPOTS and type(action) is not PlaceDepot:
        raise IllegalAction(
            "depots_first", "Place your starting depot first: the game starts when everyone has."
        )
    previous_events = state.events
    state.events = []
    try:
        handler = _HANDLERS.get(type(action))
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
                    board=state.board.name,
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


def _draw(state: GameState, seat: int, action: DrawBlind | DrawFaceUp, pending: Pending | None) -> None:
    second = type(pending) is SecondDraw
    if not second:
        if pending is not None or (state.phase != MAIN and state.phase != LAST_ROUND):
            require_turn_start(state, seat, pending, action, "drawing cards")
        if action.warehouse is not None and not hooks_for(state).draw_choices:
            raise IllegalAction("no_warehouses", "There are no warehouses in this game.")
        if isinstance(action, DrawFaceUp) and (
            not 0 <= action.slot < len(state.face_up) or state.face_up[action.slot] == EMPTY
        ):
            raise IllegalAction("no_face_up_card", "There is no face-up card there.", slot=action.slot)
        if isinstance(action, DrawBlind) and not deck_ops.can_draw_blind(state):
            raise IllegalAction(
                "no_card_to_draw", "The deck and the discard pile are empty: no card can be drawn blind."
            )
        for f in hooks_for(state).before_draw:
            f.before_draw(state, seat, action)
    elif action.warehouse is not None:
        raise IllegalAction(
            "warehouse_first_card_only", "The warehouse card is stored before the first card only."
        )
    player = state.players[seat]
    if isinstance(action, DrawFaceUp):
        if not 0 <= action.slot < len(state.face_up) or state.face_up[action.slot] == EMPTY:
            raise IllegalAction("no_face_up_card", "There is no face-up card there.", slot=action.slot)
        card = state.face_up[action.slot]
        if second and card == LOCOMOTIVE:
            raise IllegalAction(
                "face_up_locomotive_second", "A face-up Locomotive cannot be your second card."
            )
        player.hand[card] += 1
        deck_ops.refill_slot(state, action.slot)
        taken = ("face_up", seat, card, action.slot)
        state.events.append(shared_event(taken) or share_event(taken, CardDrawn(seat, card, action.slot)))
        ends_turn = second or card == LOCOMOTIVE
    else:
        drawn = deck_ops.draw_card(state)
        if drawn is None:
            raise IllegalAction(
                "no_card_to_draw", "The deck and the discard pile are empty: no card can be drawn blind."
            )
        player.hand[drawn] += 1
        state.events.append(BLIND_DRAWN[seat])
        seen = ("blind", seat, drawn)
        state.events.append(shared_event(seen) or share_event(seen, BlindCardSeen(seat, drawn)))
        ends_turn = second
    if not ends_turn and not second_draw_possible(state):
        ends_turn = True  # no second card can be had
    if ends_turn:
        state.pending.pop(seat, None)
        end_turn(state)
    else:
        state.pending[seat] = _SECOND_DRAW


_SECOND_DRAW = SecondDraw()  # no fields: one instance serves every game


def _claim(state: GameState, seat: int, action: ClaimRoute, pending: Pending | None) -> None:
    require_turn_start(state, seat, pending, action, "claiming a route")
    board = state.board
    if not 0 <= action.route < len(board.routes):
        raise IllegalAction("no_such_route", "There is no such route.", route=action.route)
    block = claim_block(state, seat, action.route)
    if block is not None:
        raise block
    hooks = hooks_for(state)
    for f in hooks.claim_error:
        why = f.claim_error(state, seat, action.route)
        if why is not None:
            raise why
    route = board.routes[action.route]
    player = state.players[seat]
    if route.length > player.trains and all(
        f.uses_own_trains(state, seat, action.route) for f in hooks.uses_own_trains
    ):
        label = board.route_label(action.route)
        raise IllegalAction(
            "route_needs_trains",
            f"{label} needs {route.length} trains; you have {player.trains} left.",
            route=label,
            need=route.length,
            have=player.trains,
        )
    pay = payment_of(state, action)
    if isinstance(pay, IllegalAction):
        raise pay
    if not pay.colored and action.color != LOCOMOTIVE:  # one spelling per payment, as legal_actions lists it
        raise IllegalAction(
            "wild_payment_color", "A payment of wild cards only has the Locomotive as its colour."
        )
    why = affordability_error(state, seat, action.route, pay)
    if why is not None:
        raise why
    for f in hooks.start_claim:
        if f.start_claim(state, seat, action.route, pay):
            return
    complete_claim(state, seat, action.route, pay)


def _draw_tickets(state: GameState, seat: int, action: DrawTickets, pending: Pending | None) -> None:
    require_turn_start(state, seat, pending, action, "drawing tickets")
    step = ticket_ops.draw_step(state)
    if not isinstance(step["draw"], int) and action.mix:
        raise IllegalAction("no_ticket_mix", "This board has one ticket deck: no mix to announce.")
    ticket_ops.offer(state, seat, step, -1, tuple(action.mix))
    offered = state.pending[seat]
    assert isinstance(offered, TicketChoice)
    state.events.insert(0, TicketsDrawn(seat, len(offered.offered)))  # before the private offer


def _choose_mix(state: GameState, seat: int, action: ChooseTicketMix, pending: Pending | None) -> None:
    if not isinstance(pending, TicketMix):
        raise IllegalAction("no_ticket_mix_now", "There is no ticket mix to announce now.")
    step = ticket_ops.ticket_rules(state)["setup"][pending.step]
    ticket_ops.offer(state, seat, step, pending.step, tuple(action.mix))
    offered = state.pending[seat]
    assert isinstance(offered, TicketChoice)
    state.events.insert(0, TicketsDrawn(seat, len(offered.offered)))  # before the private offer


def _keep(state: GameState, seat: int, action: KeepTickets, pending: Pending | None) -> None:
    if not isinstance(pending, TicketChoice):
        raise IllegalAction("no_ticket_choice", "You have no tickets to choose from now.")
    ticket_ops.keep(state, seat, pending, tuple(action.tickets))
    del state.pending[seat]
    state.events.append(TicketsKept(seat, len(action.tickets)))
    kept = set(action.tickets)
    state.events.append(TicketsChosen(seat, tuple(t for t in state.players[seat].tickets if t in kept)))
    if pending.step < 0:
        end_turn(state)
        return
    steps = ticket_ops.ticket_rules(state)["setup"]
    if pending.step + 1 < len(steps):
        ticket_ops.start_step(state, seat, pending.step + 1)
    elif not state.pending:
        _start_play(state)


def _start_play(state: GameState) -> None:
    ticket_ops.finish_setup(state)
    state.phase = MAIN
    state.current = state.first_player
    for f in hooks_for(state).start_play:
        f.start_play(state)
    state.events.append(TurnStarted(state.current))
    state.events.append(PlayStarted(state.current))


def _pass(state: GameState, seat: int, action: Pass, pending: Pending | None) -> None:
    if pending is not None or any(not a.free for a in turn_actions(state, seat) if not isinstance(a, Pass)):
        raise IllegalAction("cannot_pass", "You can only pass when there is nothing else you can do.")
    passes = state.module.get("passes", 0) + 1
    state.module["passes"] = passes
    state.events.append(Passed(seat))
    if passes >= state.num_players:
        finish(state, stuck=True)  # nobody can do anything: the game is stuck, so it ends
    else:
        end_turn(state)


Handler = Callable[[GameState, int, Any, Pending | None], None]
_HANDLERS: dict[type[Action], Handler] = {
    DrawBlind: _draw,
    DrawFaceUp: _draw,
    ClaimRoute: _claim,
    DrawTickets: _draw_tickets,
    ChooseTicketMix: _choose_mix,
    KeepTickets: _keep,
    Pass: _pass,
}

"""The turn's bookkeeping shared by the core and the board modules: the check that a turn action starts a turn,
completing a claim, ending a turn, the end of the game."""

from __future__ import annotations

from engine.actions import Action
from engine.cards import fill_empty_slots
from engine.claims import Payment
from engine.errors import IllegalAction
from engine.events import TURN_STARTED, Event, GameEnded, LastRoundStarted, RouteClaimed
from engine.features import Feature, active_features
from engine.open_routes import note_claim
from engine.pending import Pending
from engine.state import FINISHED, LAST_ROUND, MAIN, GameState
from maps import LOCOMOTIVE, LOCOMOTIVE_PLUS4


def require_turn_start(
    state: GameState, seat: int, pending: Pending | None, action: Action, what: str
) -> None:
    """An action that is a whole turn (drawing cards, claiming, drawing tickets, a board module's own turn such as
    moving a passenger) needs the start of one's turn: nothing of the seat pending, the game in play. `what`
    names the action in English, as a gerund ("drawing cards")."""
    if pending is not None:
        raise IllegalAction(
            "finish_first",
            f"Finish what you started first ({pending.kind.replace('_', ' ')}) before {what}.",
            pending=pending.kind,
            action=action.kind,
        )
    if state.phase not in (MAIN, LAST_ROUND):
        raise IllegalAction(
            "not_now",
            f"{what[:1].upper()}{what[1:]} is not possible now.",
            action=action.kind,
            phase=state.phase,
        )


_FEATURE_CACHE: dict[tuple[str, tuple[str, ...]], list[Feature]] = {}


def features_for(state: GameState) -> list[Feature]:
    found: list[Feature] | None = state.derived.get("features")
    if found is None:
        key = (state.board.id, state.options)
        found = _FEATURE_CACHE.get(key)
        if found is None:
            found = _FEATURE_CACHE[key] = active_features(state)
        state.derived["features"] = found
    return found


class Hooks:
    """The active modules that override each optional hook (so hot loops skip the no-op defaults)."""

    __slots__ = (
        "claim_error",
        "uses_own_trains",
        "after_claim",
        "end_triggered",
        "before_draw",
        "turn_actions",
        "start_claim",
        "start_play",
        "draw_choices",
        "ticket_links",
    )

    def __init__(self, features: list[Feature]):
        def overriding(name: str) -> list[Feature]:
            return [f for f in features if getattr(type(f), name) is not getattr(Feature, name)]

        self.claim_error = overriding("claim_error")
        self.uses_own_trains = overriding("uses_own_trains")
        self.after_claim = overriding("after_claim")
        self.end_triggered = overriding("end_triggered")
        self.before_draw = overriding("before_draw")
        self.start_claim = overriding("start_claim")
        self.start_play = overriding("start_play")
        self.draw_choices = overriding("draw_choices")
        self.ticket_links = overriding("ticket_links")
        # modules that may offer turn actions of their own (the others' count is always 0)
        with_actions = {*overriding("turn_actions"), *overriding("count_turn_actions")}
        self.turn_actions = [f for f in features if f in with_actions]


_HOOKS_CACHE: dict[tuple[str, tuple[str, ...]], Hooks] = {}


def hooks_for(state: GameState) -> Hooks:
    found: Hooks | None = state.derived.get("hooks")
    if found is None:
        key = (state.board.id, state.options)
        found = _HOOKS_CACHE.get(key)
        if found is None:
            found = _HOOKS_CACHE[key] = Hooks(features_for(state))
        state.derived["hooks"] = found
    return found


def pay_cards(state: GameState, seat: int, pay: Payment) -> None:
    """Take the payment from the hand to the discard pile (ferry cards leave the hand; the ferry card module
    puts them back on its pile once the claim is complete)."""
    player = state.players[seat]
    hand = player.hand
    discard = state.discard
    if pay.colored:
        hand[pay.color] -= pay.colored
        discard.extend([pay.color] * pay.colored)
    if pay.locomotives:
        hand[LOCOMOTIVE] -= pay.locomotives
        discard.extend([LOCOMOTIVE] * pay.locomotives)
    if pay.plus4:
        hand[LOCOMOTIVE_PLUS4] -= pay.plus4
        discard.extend([LOCOMOTIVE_PLUS4] * pay.plus4)
    if pay.ferry_cards:
        player.ferry_cards -= pay.ferry_cards


_SHARED_EVENTS: dict[tuple[object, ...], Event] = {}


def shared_event(key: tuple[object, ...]) -> Event | None:
    """The event made for `key` before (events are immutable: games share them, see engine.events)."""
    return _SHARED_EVENTS.get(key)


def share_event(key: tuple[object, ...], event: Event) -> Event:
    if len(_SHARED_EVENTS) >= 50_000:
        _SHARED_EVENTS.clear()
    _SHARED_EVENTS[key] = event
    return event


def route_claimed(seat: int, route_id: int, pay: Payment, points: int | None) -> Event:
    key = ("route", seat, route_id, pay, points)
    found = _SHARED_EVENTS.get(key)
    if found is not None:
        return found
    return share_event(key, RouteClaimed(seat, route_id, pay, points))


def complete_claim(state: GameState, seat: int, route_id: int, pay: Payment) -> None:
    """The route becomes the seat's: cards paid, trains placed, points scored, modules told; the turn ends
    unless a module left a decision pending."""
    board = state.board
    route = board.routes[route_id]
    player = state.players[seat]
    pay_cards(state, seat, pay)
    state.route_owner[route_id] = seat
    note_claim(state, route_id)
    hooks = hooks_for(state)
    if not hooks.uses_own_trains or all(
        f.uses_own_trains(state, seat, route_id) for f in hooks.uses_own_trains
    ):
        player.trains -= route.length
        points = board.route_points(route.length)
        player.score += points
        player.routes.append(route_id)
        state.events.append(route_claimed(seat, route_id, pay, points))
    else:
        state.events.append(route_claimed(seat, route_id, pay, None))
    for f in hooks.after_claim:
        f.after_claim(state, seat, route_id, pay)
    if seat not in state.pending:
        end_turn(state)


def end_turn(state: GameState) -> None:
    seat = state.current
    n = state.num_players
    if state.ended_by is None:
        decided = None
        for f in hooks_for(state).end_triggered:
            verdict = f.end_triggered(state, seat)
            if verdict is not None:
                decided = verdict
        if decided is None:
            decided = state.players[seat].trains <= state.board.rules.get("end_trigger_trains", 2)
        if decided:
            state.ended_by = seat
            state.phase = LAST_ROUND
            state.last_round_left = n
            state.events.append(LastRoundStarted(seat, state.players[seat].trains))
    elif state.last_round_left is not None:
        state.last_round_left -= 1
        if state.last_round_left <= 0:
            finish(state)
            return
    state.turn += 1
    state.current = (seat + 1) % n
    state.events.append(TURN_STARTED[state.current])
    if -1 in state.face_up:
        fill_empty_slots(state)


def next_player(state: GameState) -> int | None:
    """The seat whose turn comes after the current one; None outside the main phase and the last round, or when
    the game ends with this turn (the last round's last turn)."""
    if state.phase not in (MAIN, LAST_ROUND) or len(state.players) < 2:
        return None
    if state.last_round_left is not None and state.last_round_left <= 1:
        return None
    return (state.current + 1) % len(state.players)


def finish(state: GameState, *, stuck: bool = False) -> None:
    state.events.append(GameEnded(state.current, stuck))
    state.phase = FINISHED
    state.pending.clear()
    state.last_round_left = 0

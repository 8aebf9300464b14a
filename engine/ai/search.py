"""Hard level: determinized Monte Carlo over its base policy's best candidates.

For a decision worth searching (the start of a turn, a ticket choice), hard's base policy (the normal policy with
its own tuned knobs, engine.ai.context.HARD_PARAMS) proposes its best few actions. Several determinized worlds are
dealt (engine.ai.infoset.determinize: the seat's view kept, everything hidden re-dealt); in each world every
candidate is applied and the game is played on over a short horizon (or to the end): the seat by its base policy,
the others by the normal policy. The final position is valued for every player (points scored,
tickets done or likely, judged with hard's own time slack so the search agrees with its base policy on ticket
risk, module bonuses, what trains and cards are still worth) and the candidate with the best
mean margin over the best opponent wins, provided it beats the base policy's choice by `margin` points and by
`z` standard errors of the paired per-world differences (otherwise the base choice stands). The same worlds and
playout seeds serve every candidate (common random numbers), so the comparison is between actions, not luck.
When few rounds are left, the playouts run to the end and are scored exactly.

Worlds are searched one at a time until `max_worlds` or the time budget runs out; with a generous budget the
result depends only on the state and `rng`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.actions import Action, DrawBlind, DrawFaceUp
from engine.ai import plan as planning
from engine.ai.context import PARAMS, params_for, rounds_left
from engine.ai.infoset import determinize
from engine.ai.policy import completion_chance, ranked
from engine.pending import TicketChoice, TicketMix
from engine.rules import apply, legal_actions, to_act
from engine.scoring import ScoreSheet, final_scores, joined, network, shared_routes
from engine.state import LAST_ROUND, MAIN, GameState
from engine.turn import features_for

DEFAULT_BUDGET_MS = 700.0  # ends the search at 80% of it: about 0.6 s per decision


@dataclass
class SearchSettings:
    candidates: int = 4  # base policy's best actions considered
    max_worlds: int = 24  # determinized worlds per decision
    horizon_rounds: float = 2.0  # rounds of play after the decision (every seat once per round)
    margin: float = 2.0  # a candidate must beat the base choice by this mean margin to replace it
    z: float = 1.0  # ... and by this many standard errors of the paired per-world differences
    full_rollout_rounds: float = 4.0  # with fewer rounds left than this, playouts run to the end
    infer: float = (
        0.0  # bias of the other players' tickets towards their claimed routes (infoset.determinize)
    )
    midgame: bool = True  # search turn-start decisions before the end nears (else: ticket decisions only)
    tickets: bool = True  # search ticket choices before the end nears (else: the base policy's choice)
    # completion_chance's time slack when valuing unfinished tickets; None: hard's own for the board, so the
    # search does not undo its base policy's ticket choices (with normal's 1.45 it kept fewer tickets at the
    # start of 4 USA games in 5, and its 4-player table wins fell below its base policy's)
    eval_time_slack: float | None = None


SETTINGS = SearchSettings()


def search(
    state: GameState,
    seat: int,
    legal: list[Action],
    rng: random.Random,
    *,
    budget_ms: float | None = None,
    settings: SearchSettings = SETTINGS,
) -> Action:
    started = time.perf_counter()
    budget = (DEFAULT_BUDGET_MS if budget_ms is None else budget_ms) / 1000.0
    scored = ranked(state, seat, legal, rng, "hard")
    pending = state.pending.get(seat)
    worth = (pending is None and state.phase in (MAIN, LAST_ROUND)) or isinstance(
        pending, TicketChoice | TicketMix
    )
    if not worth or len(scored) < 2:
        return scored[0][1]
    if rounds_left(state) > settings.full_rollout_rounds and not (
        settings.midgame if pending is None else settings.tickets
    ):
        return scored[0][1]
    cands = candidates(scored, settings.candidates)
    if len(cands) < 2:
        return cands[0]
    values: list[list[float]] = [[] for _ in cands]
    worlds = 0
    horizon_turns = max(2, round(settings.horizon_rounds * state.num_players))
    if rounds_left(state) <= settings.full_rollout_rounds:
        horizon_turns = 10_000  # near the end: play it out and score it exactly
    params = (
        params_for("hard", state)
        if settings.eval_time_slack is None
        else dict(PARAMS, time_slack=settings.eval_time_slack)
    )
    for _ in range(settings.max_worlds):
        world = determinize(state, seat, rng, infer=settings.infer)
        seed = rng.getrandbits(32)
        for i, a in enumerate(cands):
            s = world.copy()
            s.rng = random.Random(seed)
            apply(s, seat, a)
            playout(s, seat, horizon_turns, random.Random(seed ^ 0x9E3779B9))
            values[i].append(margin(s, seat, params))
        worlds += 1
        if time.perf_counter() - started > budget * 0.8:
            break
    means = [sum(v) / worlds for v in values]
    best = max(range(len(cands)), key=lambda i: (means[i], -i))
    if best == 0 or means[best] < means[0] + settings.margin:
        return cands[0]
    if settings.z > 0 and worlds > 1:
        diffs = [x - y for x, y in zip(values[best], values[0], strict=True)]
        mean = sum(diffs) / worlds
        var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
        if mean < settings.z * (var / worlds) ** 0.5:
            return cands[0]
    return cands[best]


def category(action: Action) -> str:
    if isinstance(action, DrawBlind | DrawFaceUp):
        return "draw"
    return action.kind


def candidates(scored: list[tuple[float, Action]], k: int) -> list[Action]:
    """The policy's best action of each kind (claim, draw, tickets, station...), then the next best overall."""
    out: list[Action] = []
    seen: set[str] = set()
    for _, a in scored:
        c = category(a)
        if c not in seen:
            seen.add(c)
            out.append(a)
    out = out[:k]
    for _, a in scored:
        if len(out) >= k:
            break
        if a not in out:
            out.append(a)
    # keep the policy's order (its first choice first)
    order = {id(a): i for i, (_, a) in enumerate(scored)}
    out.sort(key=lambda a: order[id(a)])
    return out


def playout(state: GameState, seat: int, horizon_turns: int, rng: random.Random) -> None:
    """Play on until `horizon_turns` more turns have ended (or the end), the seat with hard's base policy and
    the others with the normal policy; the decision's own turn is finished first."""
    stop = state.turn + horizon_turns
    steps = 0
    while not state.finished and (state.turn < stop or state.pending) and steps < 400:
        acting = to_act(state)
        who = acting[0] if len(acting) == 1 else rng.choice(acting)
        legal = legal_actions(state, who)
        level = "hard" if who == seat else "normal"
        action = legal[0] if len(legal) == 1 else ranked(state, who, legal, rng, level)[0][1]
        apply(state, who, action)
        steps += 1


def margin(state: GameState, seat: int, params: dict[str, float] = PARAMS) -> float:
    values = evaluate(state, params)
    mine = values[seat]
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return mine - best_other


def evaluate(state: GameState, params: dict[str, float] = PARAMS) -> list[float]:
    """Every player's expected final score from this position (exact once the game is over). Reads everything:
    it is only ever run on determinized copies."""
    if state.finished:
        return [float(s.total) for s in final_scores(state)]
    board = state.board
    shared = shared_routes(state)
    sheets = [ScoreSheet(seat, p.name) for seat, p in enumerate(state.players)]
    for f in features_for(state):
        f.score(state, sheets)
    out: list[float] = []
    for seat, p in enumerate(state.players):
        v = float(sum(board.route_points(board.routes[r].length) for r in p.routes))
        v += sum(sheets[seat].bonuses.values())
        # tickets: done, or the chance of linking them in time
        uf = network(state, p.routes + shared)
        todo = []
        for t in p.tickets:
            tk = board.tickets[t]
            if joined(state, uf, tk.a, tk.b):
                v += tk.points
            else:
                todo.append(t)
        spare = p.trains
        if todo:
            graph = planning.seat_graph(state, seat, allow_borrow=False)
            trains, cards, lost = planning.plan_cost(state, seat, todo, graph)
            v -= sum(board.tickets[t].points for t in lost)
            reachable = [t for t in todo if t not in lost]
            if reachable:
                chance = completion_chance(state, seat, trains, cards, params=params)
                v += sum(board.tickets[t].points for t in reachable) * (2 * chance - 1)
                spare = max(0, p.trains - trains)
        # trains still to place and cards in hand turn into route points later
        v += 0.9 * min(spare, p.card_count() + 4) + 0.15 * p.card_count()
        out.append(v)
    return out

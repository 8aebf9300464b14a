"""Bullet trains (Japan): a shared supply of white bullet trains, bullet routes open to everyone's tickets, the
bullet track and its end-of-game bonus.

A bullet route (gray, `bullet: true` in the board file) is paid like a gray route. While the supply holds bullet
trains, the claim places ONE of them instead of the player's own trains, scores no route points, and moves the
player's marker on the bullet track by the number of cards played. A claimed bullet route links for every player's
tickets. Once the supply is empty, the bullet routes left are plain gray routes: own trains, route points, no track.
The game's end needs both a player ending a turn with few trains and a near-empty bullet supply.

State: `state.module["bullet_supply"]` (bullet trains left), `state.module["bullet_routes"]` ([route, seat] pairs,
in claim order), `player.extra["bullet_track"]` (public track position = cards played on bullet routes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import GameDataError
from engine.events import BulletTrainPlaced
from engine.features import Feature, register_feature
from engine.state import NOBODY, GameState
from maps import BoardDataError

if TYPE_CHECKING:
    from engine.claims import Payment
    from engine.sheets import ScoreSheet

NAME = "bullet_trains"
SUPPLY = "bullet_supply"
ROUTES = "bullet_routes"
TRACK = "bullet_track"


def _rules(state: GameState) -> dict[str, Any]:
    rules: dict[str, Any] = state.board.rules.get(NAME, {})
    return rules


def supply_total(state: GameState) -> int:
    return int(_rules(state).get("supply", 16))


def supply(state: GameState) -> int:
    """Bullet trains still in the supply."""
    return int(state.module.get(SUPPLY, supply_total(state)))


def bullet_claims(state: GameState) -> list[tuple[int, int]]:
    """(route, seat) of every route claimed with a bullet train, in claim order."""
    return [(int(r), int(s)) for r, s in state.module.get(ROUTES, ())]


def track(state: GameState, seat: int) -> int:
    """The seat's position on the bullet track (cards played on bullet routes claimed with bullet trains)."""
    return int(state.players[seat].extra.get(TRACK, 0))


def places_bullet_train(state: GameState, route_id: int) -> bool:
    """Would a claim of this (unclaimed) route place a bullet train now?"""
    return state.board.routes[route_id].bullet and supply(state) > 0


def bonus_for(state: GameState, positions: list[int]) -> list[int]:
    """Bullet track bonus per seat from the track positions. Contributors are ranked by position; tied players
    all score their shared rank and the next player scores the rank he would have had without the tie
    (1st, 2nd, 2nd, 4th). A player who never advanced scores `no_contribution` instead."""
    rules = _rules(state)
    table = rules["bonus_by_rank"][str(len(positions))]
    nothing = int(rules.get("no_contribution", -20))
    out = []
    for pos in positions:
        if pos <= 0:
            out.append(nothing)
            continue
        rank = sum(1 for other in positions if other > pos)  # 0-based competition rank among contributors
        out.append(int(table[min(rank, len(table) - 1)]))
    return out


def _record_claim(state: GameState, seat: int, route_id: int, cards: int) -> None:
    state.module[SUPPLY] = supply(state) - 1
    state.module.setdefault(ROUTES, []).append([route_id, seat])
    extra = state.players[seat].extra
    extra[TRACK] = extra.get(TRACK, 0) + cards


class BulletTrains(Feature):
    name = NAME

    def setup(self, state: GameState) -> None:
        state.module[SUPPLY] = supply_total(state)
        state.module[ROUTES] = []
        for p in state.players:
            p.extra[TRACK] = 0

    def uses_own_trains(self, state: GameState, seat: int, route: int) -> bool:
        # A route already claimed with a bullet train stays so; an unclaimed (or being-claimed) bullet route
        # takes a bullet train while the supply has one. The supply never grows, so a bullet route claimed with
        # own trains was claimed when it was empty, and it is still empty.
        if any(r == route for r, _ in bullet_claims(state)):
            return False
        return not places_bullet_train(state, route)

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        # complete_claim asked uses_own_trains just before: the supply has not changed since.
        if not places_bullet_train(state, route):
            return
        cards = pay.cards()  # the track moves by the number of cards played
        _record_claim(state, seat, route, cards)
        state.events.append(BulletTrainPlaced(seat, route, cards))

    def end_triggered(self, state: GameState, seat: int) -> bool | None:
        few_trains = state.players[seat].trains <= state.board.rules.get("end_trigger_trains", 2)
        return few_trains and supply(state) <= int(_rules(state).get("end_trigger_supply", 2))

    def shared_routes(self, state: GameState) -> list[int]:
        return [r for r, _ in bullet_claims(state)]

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        bonuses = bonus_for(state, [track(state, s) for s in range(state.num_players)])
        for sheet in sheets:
            sheet.bonuses[NAME] = bonuses[sheet.seat]

    def invariants(self, state: GameState) -> list[str]:
        errors: list[str] = []
        board = state.board
        claims = bullet_claims(state)
        left = supply(state)
        if left < 0 or left + len(claims) != supply_total(state):
            errors.append(f"bullet trains: {left} in supply + {len(claims)} placed != {supply_total(state)}")
        if len({r for r, _ in claims}) != len(claims):
            errors.append("a bullet route holds two bullet trains")
        played = [0] * state.num_players
        for r, s in claims:
            if not board.routes[r].bullet:
                errors.append(f"bullet train on {board.route_label(r)}, not a bullet route")
            if state.route_owner[r] != s:
                errors.append(
                    f"bullet route {board.route_label(r)} placed by seat {s}, owned by {state.route_owner[r]}"
                )
            if any(r in p.routes for p in state.players):
                errors.append(f"bullet route {board.route_label(r)} also counted as a player's own route")
            played[s] += board.routes[r].length
        for seat in range(state.num_players):
            if track(state, seat) != played[seat]:
                errors.append(
                    f"seat {seat}: bullet track {track(state, seat)} != cards played {played[seat]}"
                )
        if left > 0:
            for seat, p in enumerate(state.players):
                own = [r for r in p.routes if board.routes[r].bullet]
                if own:
                    errors.append(
                        f"seat {seat} claimed bullet route {board.route_label(own[0])} with own trains "
                        "while bullet trains are left"
                    )
        return errors

    def load_score_extras(self, state: GameState, seat: int, data: dict[str, Any]) -> None:
        """`"bullet_routes": [[a, b], ...]`: the bullet routes this player claimed with a bullet train (they link
        for everyone; the track position is the sum of their lengths)."""
        entries = data.get("bullet_routes", [])
        if not isinstance(entries, list):
            raise GameDataError('"bullet_routes" is a list of [a, b] pairs')
        board = state.board
        name = state.players[seat].name
        for entry in entries:
            if not isinstance(entry, list) or len(entry) != 2 or not all(isinstance(x, str) for x in entry):
                raise GameDataError(f"a bullet route is [a, b], not {entry!r}")
            try:
                a, b = board.city(entry[0]).id, board.city(entry[1]).id
            except BoardDataError as exc:
                raise GameDataError(str(exc)) from exc
            label = f"{board.cities[a].name}–{board.cities[b].name}"
            candidates = [r for r in board.routes_between(a, b) if r.bullet]
            if not candidates:
                raise GameDataError(f"{label} is not a bullet route")
            rid = candidates[0].id
            if state.route_owner[rid] != NOBODY:
                raise GameDataError(f"{label} is claimed twice")
            if supply(state) <= 0:
                raise GameDataError(
                    f"more than {supply_total(state)} bullet routes claimed with bullet trains "
                    f"({name}: {label})"
                )
            state.route_owner[rid] = seat
            _record_claim(state, seat, rid, board.routes[rid].length)

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {
            NAME: {
                "supply": supply(state),
                "track": [track(state, s) for s in range(state.num_players)],
                "routes": [[r, s] for r, s in bullet_claims(state)],
            }
        }


register_feature(BulletTrains())

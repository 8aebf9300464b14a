"""Claiming routes: who may claim what, every way to pay for it, and checking a proposed payment."""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.actions import ClaimRoute
from engine.errors import IllegalAction
from engine.state import NOBODY, GameState
from maps import CARD_NAMES, COLORS, GRAY, LOCOMOTIVE, LOCOMOTIVE_PLUS4, Board

PLUS4_MIN_LENGTH = 4  # when the board's deck does not say (`deck.plus4_min_length`)


def plus4_min_length(board: Board) -> int:
    """The shortest route a Locomotive +4 card may pay for (Märklin), from the board's deck data."""
    return int(board.rules["deck"].get("plus4_min_length", PLUS4_MIN_LENGTH))


class Payment(NamedTuple):
    """The cards a claim takes from the hand (the Italy ferry cards apart). A named tuple: made on every claim,
    and a tuple is the cheapest immutable value to make."""

    color: int
    colored: int
    locomotives: int
    plus4: int
    ferry_cards: int

    def cards(self) -> int:
        return self.colored + self.locomotives + self.plus4 + self.ferry_cards


def multi_routes_open(state: GameState) -> bool:
    return state.num_players >= state.board.rules.get("min_players_for_multi_routes", 4)


def claim_block(state: GameState, seat: int, route_id: int) -> IllegalAction | None:
    """Why `seat` may not claim `route_id` now (payment aside), or None."""
    board = state.board
    owner = state.route_owner[route_id]
    if owner != NOBODY:
        label = board.route_label(route_id)
        if owner == seat:
            return IllegalAction("route_yours", f"{label} is already claimed by you.", route=label)
        who = state.players[owner].name
        return IllegalAction(
            "route_taken", f"{label} is already claimed by {who}.", route=label, player=who, seat=owner
        )
    group = board.groups_by_route[route_id]
    if len(group) > 1:
        for other in group:
            o = state.route_owner[other]
            if o == seat:
                label = board.route_label(route_id)
                return IllegalAction(
                    "double_route_twice",
                    f"You already own a route between these cities ({label}); one player may never take two.",
                    route=label,
                )
            if o != NOBODY and not multi_routes_open(state):
                need = board.rules.get("min_players_for_multi_routes", 4)
                who = state.players[o].name
                label = board.route_label(route_id)
                return IllegalAction(
                    "double_route_closed",
                    f"With fewer than {need} players only one route of {label} can be used, and {who} has it.",
                    route=label,
                    n=need,
                    player=who,
                    seat=o,
                )
    return None


def route_open(state: GameState, seat: int, route_id: int) -> bool:
    """`claim_block(...) is None`, without building messages (the legal-action hot path)."""
    owner = state.route_owner
    if owner[route_id] != NOBODY:
        return False
    group = state.board.groups_by_route[route_id]
    if len(group) > 1:
        multi = multi_routes_open(state)
        for other in group:
            o = owner[other]
            if o == seat or (o != NOBODY and not multi):
                return False
    return True


def payment_of(state: GameState, action: ClaimRoute) -> Payment | IllegalAction:
    """The cards the action pays, or why it does not pay for the route."""
    board = state.board
    route = board.routes[action.route]
    length = route.length
    if (
        route.locomotives <= action.locomotives <= length
        and action.plus4 == 0
        and action.ferry_cards == 0
        and not route.waves
    ):  # the usual claim, colour cards and Locomotives only, when it is right (otherwise the checks below say why)
        colored = length - action.locomotives
        if colored == 0:
            return Payment(LOCOMOTIVE, 0, action.locomotives, 0, 0)
        if 0 <= action.color < len(COLORS) and route.color in (GRAY, action.color):
            return Payment(action.color, colored, action.locomotives, 0, 0)
    label = board.route_label(action.route)
    if action.locomotives < 0 or action.plus4 < 0 or action.ferry_cards < 0:
        return IllegalAction("negative_cards", "Card counts cannot be negative.")
    plus4_min = plus4_min_length(board)
    if action.plus4 and length < plus4_min:
        return IllegalAction(
            "plus4_route_too_short",
            f"Locomotive +4 cards only pay for routes of {plus4_min} or more spaces; {label} has {length}.",
            route=label,
            min=plus4_min,
            length=length,
        )
    waves = route.waves
    if action.ferry_cards and 2 * (action.ferry_cards - 1) >= waves:
        return IllegalAction(
            "too_many_ferry_cards",
            f"{label} has {waves} wave spaces: {action.ferry_cards} ferry cards is more than it can use.",
            route=label,
            waves=waves,
            n=action.ferry_cards,
        )
    covered = min(2 * action.ferry_cards, waves)
    needed_locos = route.locomotives + (waves - covered)
    if action.locomotives < needed_locos:
        if waves:
            return IllegalAction(
                "waves_need_cards",
                f"{label} has {waves} wave spaces: each needs a Locomotive or half a Ferry card; "
                f"you offered {action.locomotives} Locomotives and {action.ferry_cards} Ferry cards.",
                route=label,
                waves=waves,
                locomotives=action.locomotives,
                ferry_cards=action.ferry_cards,
            )
        return IllegalAction(
            "ferry_needs_locomotives",
            f"{label} is a ferry: it needs {route.locomotives} Locomotives.",
            route=label,
            n=route.locomotives,
        )
    colored = length - covered - action.locomotives - action.plus4
    if colored < 0:
        return IllegalAction(
            "too_many_cards",
            f"{label} has {length} spaces; that payment has too many cards.",
            route=label,
            n=length,
        )
    color = action.color
    if colored == 0:
        color = LOCOMOTIVE
    elif not 0 <= color < len(COLORS):
        return IllegalAction("choose_color", "Choose a colour for the other cards.")
    elif route.color != GRAY and color != route.color:
        name = COLORS[route.color]
        return IllegalAction(
            "wrong_color",
            f"{label} is {name}: it takes {name} cards (or Locomotives).",
            route=label,
            color=name,
        )
    return Payment(color, colored, action.locomotives, action.plus4, action.ferry_cards)


def affordability_error(state: GameState, seat: int, route_id: int, pay: Payment) -> IllegalAction | None:
    """Why the hand cannot make the payment `pay` for `route_id`, or None. The code names the first kind of card
    missing; the English message lists them all."""
    player = state.players[seat]
    hand = player.hand
    if (
        (not pay.colored or hand[pay.color] >= pay.colored)
        and hand[LOCOMOTIVE] >= pay.locomotives
        and hand[LOCOMOTIVE_PLUS4] >= pay.plus4
        and player.ferry_cards >= pay.ferry_cards
    ):
        return None
    missing: list[str] = []
    if pay.colored and hand[pay.color] < pay.colored:
        missing.append(f"{pay.colored} {CARD_NAMES[pay.color]} (you have {hand[pay.color]})")
    if hand[LOCOMOTIVE] < pay.locomotives:
        missing.append(f"{pay.locomotives} Locomotives (you have {hand[LOCOMOTIVE]})")
    if hand[LOCOMOTIVE_PLUS4] < pay.plus4:
        missing.append(f"{pay.plus4} Locomotive +4 (you have {hand[LOCOMOTIVE_PLUS4]})")
    if player.ferry_cards < pay.ferry_cards:
        missing.append(f"{pay.ferry_cards} Ferry cards (you have {player.ferry_cards})")
    label = state.board.route_label(route_id)
    message = f"{label} needs " + " and ".join(missing) + "."
    if pay.colored and hand[pay.color] < pay.colored:
        return IllegalAction(
            "route_needs_color",
            message,
            route=label,
            need=pay.colored,
            color=CARD_NAMES[pay.color],
            have=hand[pay.color],
        )
    if hand[LOCOMOTIVE] < pay.locomotives:
        return IllegalAction(
            "route_needs_locomotives", message, route=label, need=pay.locomotives, have=hand[LOCOMOTIVE]
        )
    if hand[LOCOMOTIVE_PLUS4] < pay.plus4:
        return IllegalAction(
            "route_needs_plus4", message, route=label, need=pay.plus4, have=hand[LOCOMOTIVE_PLUS4]
        )
    return IllegalAction(
        "route_needs_ferry_cards", message, route=label, need=pay.ferry_cards, have=player.ferry_cards
    )


PaymentShape = tuple[int, int, int, int]  # (colour, locomotives, plus4, ferry_cards)


def payment_shapes(
    route_color: int,
    length: int,
    symbols: int,
    waves: int,
    hand: tuple[int, ...],
    ferry_cards: int,
    plus4_min: int = PLUS4_MIN_LENGTH,
) -> list[PaymentShape]:
    """Every distinct legal payment of a route of this shape from this hand, in the order legal_actions lists
    them. Pure function of its arguments, so callers memoise it per turn."""
    locos_have = hand[LOCOMOTIVE]
    out: list[PaymentShape] = []
    if not waves and (length < plus4_min or not hand[LOCOMOTIVE_PLUS4]):
        # the usual route (no wave, no Locomotive +4 to use): the loops below with ferry = plus4 = 0, unrolled
        if symbols > locos_have or symbols > length:
            return out
        if locos_have >= length:
            out.append((LOCOMOTIVE, length, 0, 0))
        hi = min(locos_have, length - 1)
        for c in range(len(COLORS)) if route_color == GRAY else (route_color,):
            have = hand[c]
            if have:
                lo = length - have
                if lo < symbols:
                    lo = symbols
                for locos in range(lo, hi + 1):
                    out.append((c, locos, 0, 0))
        return out
    ferry_max = min(ferry_cards, (waves + 1) // 2) if waves else 0
    plus4_max = min(hand[LOCOMOTIVE_PLUS4], length) if length >= plus4_min else 0
    colors = range(len(COLORS)) if route_color == GRAY else (route_color,)
    for ferry in range(ferry_max + 1):
        covered = min(2 * ferry, waves)
        min_locos = symbols + waves - covered
        for plus4 in range(plus4_max + 1):
            rest = length - covered - plus4  # to pay with colour cards and Locomotives
            if rest < min_locos or min_locos > locos_have:
                continue
            if locos_have >= rest:  # all wild
                out.append((LOCOMOTIVE, rest, plus4, ferry))
            for c in colors:
                have = hand[c]
                if not have:
                    continue
                lo = max(min_locos, rest - have)
                hi = min(locos_have, rest - 1)
                for locos in range(lo, hi + 1):
                    out.append((c, locos, plus4, ferry))
    return out


SHAPES_CACHE: dict[tuple[Any, ...], list[PaymentShape]] = {}
SHAPES_CACHE_MAX = 200_000


def cached_payment_shapes(
    key: tuple[int, int, int, int], hand: tuple[int, ...], ferry_cards: int, plus4_min: int = PLUS4_MIN_LENGTH
) -> list[PaymentShape]:
    """payment_shapes, remembered across turns and games (hands repeat a lot). Do not mutate the result."""
    color = key[0]
    # a coloured route's payments depend only on that colour, the wild cards and the ferry cards (and, with
    # Locomotive +4 cards in hand, on the shortest route they pay for)
    ck: tuple[Any, ...] = (
        (key, hand, ferry_cards)
        if color == GRAY
        else (key, hand[color], hand[LOCOMOTIVE], hand[LOCOMOTIVE_PLUS4], ferry_cards)
    )
    if hand[LOCOMOTIVE_PLUS4]:
        ck = (*ck, plus4_min)
    found = SHAPES_CACHE.get(ck)
    if found is None:
        if len(SHAPES_CACHE) >= SHAPES_CACHE_MAX:
            SHAPES_CACHE.clear()
        found = SHAPES_CACHE[ck] = payment_shapes(*key, hand, ferry_cards, plus4_min)
    return found


def route_shape(state: GameState, route_id: int) -> tuple[int, int, int, int]:
    r = state.board.routes[route_id]
    return (r.color, r.length, r.locomotives, r.waves)


def payment_options(state: GameState, seat: int, route_id: int) -> list[ClaimRoute]:
    """Every distinct legal payment for the route from the seat's hand (the route itself being claimable)."""
    player = state.players[seat]
    shapes = payment_shapes(
        *route_shape(state, route_id), tuple(player.hand), player.ferry_cards, plus4_min_length(state.board)
    )
    return [ClaimRoute(route_id, c, k, p4, f) for c, k, p4, f in shapes]

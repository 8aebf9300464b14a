"""Payment counting: what a seat's hand can pay among the open routes, shape by shape.

For each payment shape of the board (colour, length, Locomotive symbols, ferry waves) that the hand can pay and
that has open routes for the seat: those routes with their payments listed (`payable_shapes`, for the legal
claims) or only counted (`payable_counts`, for random playouts). `payment_count` and `gray_payment_count` count
a shape's payments without listing them. The modules' per-route checks come after, in engine.legal.
"""

from __future__ import annotations

from typing import Any

from engine.claims import SHAPES_CACHE, PaymentShape, cached_payment_shapes, plus4_min_length
from engine.open_routes import open_routes, shape_table
from engine.state import GameState
from engine.turn import hooks_for
from maps import COLORS, LOCOMOTIVE, LOCOMOTIVE_PLUS4


def payable_shapes(state: GameState, seat: int) -> list[tuple[list[int], list[PaymentShape], int]]:
    """(open route ids, their payments, their length) for each payment shape of the board the seat's hand can
    pay, before the modules' per-route checks."""
    return _payable(state, seat, False)


def payable_counts(state: GameState, seat: int) -> list[tuple[list[int], tuple[int, int, int, int], int]]:
    """(open route ids, their payment shape, how many payments each) for each shape the seat's hand can pay:
    `payable_shapes` without listing the payments (a gray route's list is long and rarely needed)."""
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

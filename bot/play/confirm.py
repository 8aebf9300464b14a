"""The confirm step of a claim or a station: the cheapest payment on a Confirm button, the others in a select.

STYLE asks for a confirm step before a route is claimed; the default payment spends the fewest locomotives
(and +4s and ferry cards), then the colour the player holds most of.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from typing import Any

from bot.i18n import default_catalog
from bot.manager import GameInfo, turn_token
from bot.messages import Message, Text
from bot.play import chat, codec, labels, layout
from bot.play.press import PressCode
from bot.play.refusals import fail
from bot.play.reply import ButtonSpec, ComponentSpec, OptionSpec, Reply
from bot.presenters.words import place, sentences
from engine.actions import Action, ClaimRoute
from engine.rules import legal_actions
from engine.state import GameState
from maps import CARD_NAMES, GRAY, LOCOMOTIVE, RouteNameError, card_index
from maps.city_names import to_board_names


def group_key(action: Action) -> int:
    """The route of a claim, the city of a station: what the first select of their menu picks."""
    return int(getattr(action, "route", getattr(action, "city", -1)))


def group_label(state: GameState, menu: str, key: int) -> Message:
    if menu == "claim":
        return labels.route_message(state, key)
    return place(state.board, key)


def cheapest(actions: Sequence[Action], hand: Sequence[int]) -> Action:
    """The sensible default payment: fewest locomotives (and +4s and ferry cards), then the colour the player
    holds most of."""

    def key(a: Any) -> tuple[int, int, int, int]:
        locos = int(getattr(a, "locomotives", 0))
        plus4 = int(getattr(a, "plus4", 0))
        ferry = int(getattr(a, "ferry_cards", 0))
        color = int(getattr(a, "color", 0))
        spare = hand[color] if 0 <= color < LOCOMOTIVE else 0
        return (locos, plus4, ferry, -spare)

    return min(actions, key=key)


def confirm_claim(info: GameInfo, state: GameState, seat: int, route: str, color: str | None) -> Reply:
    """`/ttr claim route: color:`: the route named (with the colour asked), on its confirm step; a double
    route with lanes of several colours open offers every lane's payments (the cheapest on Confirm)."""
    legal = [a for a in legal_actions(state, seat) if isinstance(a, ClaimRoute)]
    lanes = route_lanes(state, route, {a.route for a in legal})
    claims = [a for a in legal if a.route in lanes]
    if not claims:
        raise fail("claim.cannot", route=labels.route_message(state, lanes[0]))
    if color:
        idx = card_index(color, color_words())
        if idx is None:
            raise fail("claim.bad_color", color=color)
        matching = [a for a in claims if a.color == idx]
        if not matching:
            raise fail("claim.not_with_color", route=labels.route_message(state, lanes[0]), color=color)
        claims = matching
    return confirm(info, state, seat, "claim", lanes[0], claims, edit=False)


def claimable(state: GameState, seat: int) -> set[int]:
    """The routes `seat` may claim now (every lane it can pay)."""
    return {a.route for a in legal_actions(state, seat) if isinstance(a, ClaimRoute)}


def route_lanes(state: GameState, text: str, claimable: Collection[int]) -> list[int]:
    """The lanes `text` names, read by the board (:meth:`maps.Board.find_routes`: either place first, accents,
    dashes and a lane colour word optional) among the `claimable` ones: the one route meant (the open lane of a
    double is found by name), or every open lane of a double whose open lanes differ in colour (the player
    picks one on the confirm step); the id the autocomplete sends is taken as it is."""
    board = state.board
    raw = to_board_names(board.id, text.strip())  # a city typed in its reader's own names (東京-大阪)
    if raw.isdigit() and int(raw) < len(board.routes):
        return [int(raw)]
    try:
        lanes = board.find_routes(raw, color_names=color_words())
    except RouteNameError as exc:
        if exc.code == "unknown_color":
            raise fail("claim.bad_color", color=exc.params["color"]) from None
        raise fail("claim.no_route", route=text) from None  # no_places, no_route, no_lane
    try:
        return [board.pick_lane(lanes, claimable, text=raw)]
    except RouteNameError as exc:
        if exc.code == "ambiguous":
            return [r for r in lanes if r in claimable]
        raise fail("claim.cannot", route=str(exc.params.get("route", text))) from None  # none_open


@cache
def color_words() -> dict[str, int]:
    """Every catalogue language's card words (``card.<name>.one`` / ``.other``, ``card.gray``) -> card type,
    so a colour is typed in any of them ("violet", "rouges") wherever the board reads one."""
    catalog = default_catalog()
    words: dict[str, int] = {}
    for locale in catalog.locales:
        for idx, name in enumerate(CARD_NAMES):
            key = "card." + name.replace("+4", "_plus4")
            for form in ("one", "other"):
                word = catalog.exact(f"{key}.{form}", locale)
                if word:
                    words[word] = idx
        gray = catalog.exact("card.gray", locale)
        if gray:
            words[gray] = GRAY
    return words


def confirm(
    info: GameInfo, state: GameState, seat: int, menu: str, key: int, acts: Sequence[Action], *, edit: bool
) -> Reply:
    """Confirm the cheapest of `acts` (the payments of one route or city), Back to the menu, or pay otherwise."""
    gid = info.game_id
    token = turn_token(state, seat)
    best = cheapest(acts, state.players[seat].hand)
    lanes = sorted({group_key(a) for a in acts}) if menu == "claim" else [key]
    key = group_key(best) if len(lanes) > 1 else key
    rows: list[tuple[ComponentSpec, ...]] = [
        (
            ButtonSpec(
                gid,
                PressCode.DO,
                Text("btn.confirm"),
                token=token,
                args=(codec.encode(best),),
                style="success",
                emoji="✅",
            ),
            ButtonSpec(gid, PressCode.MENU, Text("btn.back"), token=token, args=(menu, "0")),
        )
    ]
    others = [a for a in acts if a != best]
    if others:
        options = [
            OptionSpec(
                layout.cut(_option(state, seat, a, len(lanes) > 1), chat.MAX_OPTION_LABEL),
                token=token,
                args=(codec.encode(a),),
            )
            for a in [best, *others]
        ]
        other = Text("lanes.other" if len(lanes) > 1 else "menu.other_payment")
        rows.extend(layout.paged_selects(gid, PressCode.DO, options, placeholder=other))
    notes: list[Message] = []
    if len(lanes) > 1:  # a double named without its colour: every open lane is on offer below
        notes.append(Text("lanes.note", {"n": len(lanes)}))
    route = state.board.routes[key] if menu == "claim" else None
    if route is not None and route.tunnel:
        notes.append(Text("menu.tunnel_note"))
    if route is not None and getattr(route, "bullet", False):
        notes.append(Text("menu.bullet_note"))
    note = sentences("", *notes) if notes else ""
    payment = labels.payment_of(state, seat, best)
    what = group_label(state, menu, key)
    return Reply(
        content=Text("menu.confirm", {"what": what, "payment": payment, "note": note}),
        rows=tuple(rows),
        ephemeral=True,
        edit_source=edit,
    )


def _option(state: GameState, seat: int, action: Action, lanes: bool) -> Message:
    """A payment in the select; with several lanes on offer, the lane too: "Bologna–Ravenna (1 white): 1
    white" (a gray lane and a blue one could both be paid in blue)."""
    if not lanes:
        return labels.message(state, seat, action)
    lane = labels.route_message(state, group_key(action))
    return Text("act.claim", {"route": lane, "payment": labels.payment_of(state, seat, action)})

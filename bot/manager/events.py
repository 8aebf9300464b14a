"""What the manager tells the bot layer after each accepted action: public events, private events, outcomes.

Public events are built ONLY from public information: the engine's ``public_view`` before and after the action
(hand sizes, face-up row, the public part of ``last_event``) and the action itself for the kinds whose arguments
everyone sees (a claim lays its cards on the table; a kept-tickets action names secret tickets, so it never
appears). Private events come from the actor's ``player_view`` and go to that seat alone.

Turn tokens (``expected_turn``): a string the bot puts in the custom id of every button it shows; an action built
from it is refused when the game has moved on since.

* during play: ``"t<N>"`` with N = the number of accepted actions so far (``len(state.history)``). Every accepted
  action changes it, so a double click, a replayed interaction or a button from an older message (face-up row
  since refilled, turn since passed) is stale.
* during the start-of-game ticket choice (players choose in any order): ``"s<seat>.<n>"`` with n = the number of
  actions of that seat so far, so one player's choice does not make the others' buttons stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.messages import Join, Message, Text
from bot.storage import GameStatus, SeatResult
from engine.pending import TicketChoice
from engine.scoring import final_scores
from engine.state import FINISHED, SETUP, GameState
from maps import Board

__all__ = [
    "GameEvent",
    "and_list",
    "card",
    "cards",
    "counted",
    "Outcome",
    "PrivateEvent",
    "final_sheets",
    "private_bits",
    "private_events",
    "public_events",
    "turn_token",
]

#: Actions whose arguments are public (laid on the table or announced). Others are described by kind only.
PUBLIC_ARGUMENTS = frozenset(
    {
        "claim_route",
        "draw_face_up",
        "build_station",
        "place_depot",
        "pay_tunnel",
        "decline_tunnel",
        "pass",
        "take_warehouses",
        "draw_blind",
        "draw_tickets",
    }
)


def turn_token(state: GameState, seat: int | None = None) -> str:
    """The staleness token of `seat`'s next action (see the module docstring)."""
    if state.phase == SETUP and seat is not None:
        own = sum(1 for s, _ in state.history if s == seat)
        return f"s{seat}.{own}"
    return f"t{len(state.history)}"


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something everyone at the table may know. `kind` is the action kind, or one of ``started``,
    ``play_started``, ``last_round``, ``game_over``, ``abandoned``, ``seat_ai``, ``seat_human``, ``absent``.
    `by` says who decided: ``player``, ``ai`` (an AI seat or a seat handed to the AI), ``absent_ai`` or
    ``absent_skip`` (the absent-player policy), ``host``, ``system``.

    `message` is what to show, as data: a catalogue key and its parameters (`bot.service.Text`, see
    `bot/i18n.py`), translated by the adapter in the game's language. City and player names are parameters
    and stay as they are; colours and counted words are catalogue keys too."""

    game_id: str
    seq: int  # position of the action in the game's log (0: not an action)
    kind: str
    seat: int | None
    message: Message
    data: Mapping[str, Any] = field(default_factory=dict)
    by: str = "player"

    @property
    def text(self) -> str:
        """The message in English (logs, tests)."""
        return english(self.message)


@dataclass(frozen=True, slots=True)
class PrivateEvent:
    """Something only `seat` may see (the card drawn blind, the tickets offered). `user_id` is None for AI.
    `message` as in :class:`GameEvent`."""

    game_id: str
    seq: int
    seat: int
    user_id: int | None
    kind: str
    message: Message
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The message in English (logs, tests)."""
        return english(self.message)


def english(message: Message) -> str:
    from bot.i18n import default_catalog  # the catalogue is the adapter's; only logs and tests need this

    return default_catalog().render(message, "en") or ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of an accepted action and of the automatic moves that followed it (AI seats)."""

    game_id: str
    status: GameStatus
    events: tuple[GameEvent, ...] = ()
    private: tuple[PrivateEvent, ...] = ()
    to_act: tuple[int, ...] = ()  # seats that may act now
    tokens: Mapping[int, str] = field(default_factory=dict)  # seat -> turn token for its next action
    results: tuple[SeatResult, ...] = ()  # when the game finished
    seqs: tuple[int, ...] = ()  # log positions of every action this outcome covers

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    def private_for(self, seat: int) -> tuple[PrivateEvent, ...]:
        return tuple(e for e in self.private if e.seat == seat)


# --------------------------------------------------------------------------- builders


def _names(view: Mapping[str, Any]) -> list[str]:
    return [p["name"] for p in view["players"]]


def card(name: str, n: int | None = None) -> Text:
    """A card colour by its engine name ("red", "locomotive+4"): catalogue key ``card.<name>``."""
    key = "card." + name.replace("+4", "_plus4")
    return Text(key) if n is None else Text(key, {"n": n})


def cards(n: int, name: str) -> Text:
    """`n` cards of one colour: "3 red", "2 locomotives" / "3 rouges", "2 locomotives"."""
    return Text("count.cards", {"n": n, "card": card(name, n)})


def counted(word: str, n: int) -> Text:
    """`n` of a counted word (catalogue ``n.<word>`` with plural forms): "1 point", "3 tickets"."""
    return Text(f"n.{word}", {"n": n})


def and_list(items: list[Message]) -> Message:
    """ "a, b and c" in the reader's language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Text("list.and", {"items": Join(tuple(items[:-1]), ", "), "last": items[-1]})


def _paid(board: Board, action: Mapping[str, Any]) -> Message:
    from maps import CARD_NAMES, LOCOMOTIVE

    route = board.routes[action["route"]]
    locos = int(action.get("locomotives", 0))
    plus4 = int(action.get("plus4", 0))
    ferry = int(action.get("ferry_cards", 0))
    colored = max(0, route.length - locos - plus4 - ferry)
    parts: list[Message] = []
    if colored and action.get("color") != LOCOMOTIVE:
        parts.append(cards(colored, CARD_NAMES[action["color"]]))
    if locos:
        parts.append(cards(locos, "locomotive"))
    if plus4:
        parts.append(cards(plus4, "locomotive+4"))
    if ferry:
        parts.append(counted("ferry_cards", ferry))
    return and_list(parts)


#: Action kinds of the boards' own rules whose public line names only the player.
_PLAIN_KINDS = frozenset(
    {"choose_ticket_mix", "pass", "take_meeple", "place_passenger", "move_passenger", "take_ferry_card"}
)


def _describe(
    board: Board,
    kind: str,
    who: str,
    pub: Mapping[str, Any],
    last: Mapping[str, Any],
    action: Mapping[str, Any] | None,
    before: Mapping[str, Any],
    names: list[str],
) -> Text:
    """The public line of one action as a catalogue message (keys ``ev.<kind>...``)."""
    seat = last.get("seat")
    p: dict[str, Any] = {"player": who}
    if kind in ("draw_blind", "draw_face_up"):
        key = f"ev.{kind}"
        if kind == "draw_face_up":
            p["card"] = card(str(pub.get("face_up", "?")))
        if "warehouse" in pub:
            key += "_warehouse"
            p["owner"] = names[pub["warehouse"]]
        return Text(key, p)
    if kind == "claim_route" and action is not None:
        p["route"] = board.route_label(action["route"])
        p["paid"] = _paid(board, action)
        if "tunnel_revealed" in pub:
            shown = [card(str(c)) for c in pub["tunnel_revealed"]]
            p["revealed"] = Join(tuple(shown), ", ") if shown else Text("ev.no_card")
            extra = int(pub.get("tunnel_extra", 0))
            if extra:
                return Text("ev.tunnel_tried", {**p, "extra": counted("more_cards", extra)})
            return Text("ev.tunnel_claimed", {**p, "points": counted("points", int(last.get("points", 0)))})
        if "points" in last:
            return Text("ev.claim_route", {**p, "points": counted("points", int(last["points"]))})
        return Text("ev.claim_route_no_points", p)
    if kind in ("pay_tunnel", "decline_tunnel"):
        pending = before.get("pending", {}).get(seat) or {}
        route = pub.get("route", pending.get("route")) if kind == "pay_tunnel" else pending.get("route")
        p["route"] = board.route_label(route) if route is not None else Text("ev.the_tunnel")
        if kind == "pay_tunnel":
            p["points"] = counted("points", int(last.get("points", 0)))
        return Text(f"ev.{kind}", p)
    if kind == "draw_tickets":
        return Text(
            "ev.draw_tickets", {**p, "tickets": counted("dest_tickets", int(pub.get("tickets_drawn", 0)))}
        )
    if kind == "keep_tickets":
        return Text("ev.keep_tickets", {**p, "tickets": counted("tickets", int(pub.get("tickets_kept", 0)))})
    if kind == "build_station" and "station" in pub:
        return Text("ev.build_station", {**p, "city": board.cities[pub["station"]].name})
    if kind == "place_depot" and "depot" in pub:
        return Text("ev.place_depot", {**p, "city": board.cities[pub["depot"]].name})
    if kind == "take_warehouses":
        taken = pub.get("warehouses_taken") or {}
        owners = [names[o] for o in taken.get("owners", [])]
        if not owners:
            return Text("ev.take_warehouses_none", p)
        return Text(
            "ev.take_warehouses",
            {**p, "owners": ", ".join(owners), "cards": counted("cards", int(taken.get("cards", 0)))},
        )
    if kind in _PLAIN_KINDS:
        return Text(f"ev.{kind}", p)
    return Text("ev.other", {**p, "action": kind.replace("_", " ")})


def public_events(
    game_id: str,
    seq: int,
    board: Board,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    action: Mapping[str, Any],
    by: str,
    final: list[dict[str, Any]] | None = None,
) -> list[GameEvent]:
    """Events of one accepted action, from the public views before and after it (and nothing else)."""
    last = after["last_event"]
    kind = str(last.get("action") or action.get("type"))
    seat = last.get("seat")
    names = _names(after)
    who = names[seat] if seat is not None else "?"
    pub = dict(last.get("public", {}))
    shown_action = dict(action) if kind in PUBLIC_ARGUMENTS else None
    line = _describe(board, kind, who, pub, last, shown_action, before, names)
    data: dict[str, Any] = {"seat": seat, "player": who, "action": kind, "public": pub}
    if shown_action is not None:
        data["args"] = shown_action
    if "points" in last:
        data["points"] = last["points"]
    events: list[GameEvent] = []
    phase, current = after["phase"], after["current"]
    message: Message = line
    if phase not in (SETUP, FINISHED) and (current != before["current"] or before["phase"] != phase):
        message = Join((line, Text("ev.next_turn", {"player": names[current]})), " ")
        data["next"] = current
    events.append(GameEvent(game_id, seq, kind, seat, message, data, by))
    if before["phase"] == SETUP and phase != SETUP:
        events.append(
            GameEvent(
                game_id,
                seq,
                "play_started",
                None,
                Text("ev.play_started", {"player": names[current]}),
                {"next": current},
                "system",
            )
        )
    if last.get("last_round"):
        trains = after["players"][seat]["trains"]
        events.append(
            GameEvent(
                game_id,
                seq,
                "last_round",
                seat,
                Text("ev.last_round", {"player": who, "trains": counted("trains", trains)}),
                {"seat": seat, "trains": trains},
                "system",
            )
        )
    if phase == FINISHED:
        events.append(game_over_event(game_id, seq, final or []))
    return events


def final_sheets(state: GameState) -> list[dict[str, Any]]:
    """The final score sheets (public once the game is over: tickets are revealed at the end)."""
    return [{"seat": s.seat, **s.to_json()} for s in final_scores(state)]


def game_over_event(game_id: str, seq: int, sheets: list[dict[str, Any]]) -> GameEvent:
    ranking = sorted(sheets, key=lambda s: (s["rank"], s["seat"]))
    winners = [s["name"] for s in ranking if s["rank"] == 1]
    lines = ", ".join(f"{s['rank']}. {s['name']} {s['total']}" for s in ranking)
    if not winners:
        verdict = Text("ev.no_winner")
    else:
        verdict = Text("ev.winners", {"players": and_list(list(winners)), "n": len(winners)})
    return GameEvent(
        game_id,
        seq,
        "game_over",
        None,
        Text("ev.game_over", {"ranking": lines, "verdict": verdict}),
        {"sheets": ranking, "winners": winners},
        "system",
    )


def results_of(sheets: list[dict[str, Any]], user_ids: list[int | None]) -> tuple[SeatResult, ...]:
    return tuple(
        SeatResult(
            seat=s["seat"], user_id=user_ids[s["seat"]], score=s["total"], rank=s["rank"], won=s["rank"] == 1
        )
        for s in sorted(sheets, key=lambda s: s["seat"])
    )


def _ticket_text(t: Mapping[str, Any]) -> str:
    return f"{t['a']} – {t['b']} ({t['points']})"


def private_bits(state: GameState, seat: int) -> dict[str, Any]:
    """The part of ``player_view(state, seat)["you"]`` that private events need (cheap: no ticket progress)."""
    from maps import CARD_NAMES

    board = state.board
    player = state.players[seat]

    def ticket(t: int) -> dict[str, Any]:
        tk = board.tickets[t]
        return {"id": t, "a": board.cities[tk.a].name, "b": board.cities[tk.b].name, "points": tk.points}

    pending = state.pending.get(seat)
    own: dict[str, Any] | None = None
    if pending is not None:
        own = pending.to_json()
        if isinstance(pending, TicketChoice):
            own["offered_tickets"] = [ticket(t) for t in pending.offered]
    return {
        "hand": {CARD_NAMES[c]: n for c, n in enumerate(player.hand) if n},
        "tickets": [ticket(t) for t in player.tickets],
        "pending": own,
        "last_private": state.last_event.get("private", {}) if state.last_event.get("seat") == seat else {},
    }


def private_events(
    game_id: str,
    seq: int,
    seat: int,
    user_id: int | None,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    after_kind: str,
) -> list[PrivateEvent]:
    """What the actor alone learns: the card drawn blind, the tickets offered or kept, cards gained.
    `before` and `after` are :func:`private_bits` (or ``player_view(...)["you"]``) around the action; the
    action kind comes from `after_kind`."""
    you_before, you = before, after
    out: list[PrivateEvent] = []
    drew = you.get("last_private", {}).get("drew")
    if drew:
        out.append(
            PrivateEvent(
                game_id, seq, seat, user_id, "drew", Text("pv.drew", {"card": card(drew)}), {"card": drew}
            )
        )
    gained = {
        c: n - you_before["hand"].get(c, 0)
        for c, n in you["hand"].items()
        if n > you_before["hand"].get(c, 0)
    }
    if drew and gained.get(drew):
        gained[drew] -= 1
    gained = {c: n for c, n in gained.items() if n > 0}
    if gained and after_kind != "draw_face_up":
        listing = Join(tuple(cards(n, c) for c, n in sorted(gained.items())), ", ")
        out.append(
            PrivateEvent(
                game_id,
                seq,
                seat,
                user_id,
                "cards_gained",
                Text("pv.cards_gained", {"cards": listing}),
                {"cards": gained},
            )
        )
    pending = you.get("pending") or {}
    if pending.get("offered_tickets"):
        offered = pending["offered_tickets"]
        out.append(
            PrivateEvent(
                game_id,
                seq,
                seat,
                user_id,
                "tickets_offered",
                Text(
                    "pv.tickets_offered",
                    {
                        "min": pending.get("keep_min", 1),
                        "tickets": "; ".join(_ticket_text(t) for t in offered),
                    },
                ),
                {
                    "offered": offered,
                    "keep_min": pending.get("keep_min"),
                    "keep_max": pending.get("keep_max"),
                },
            )
        )
    old_ids = {t["id"] for t in you_before["tickets"]}
    kept = [t for t in you["tickets"] if t["id"] not in old_ids]
    if kept:
        out.append(
            PrivateEvent(
                game_id,
                seq,
                seat,
                user_id,
                "tickets_kept",
                Text("pv.tickets_kept", {"tickets": "; ".join(_ticket_text(t) for t in kept)}),
                {"tickets": kept},
            )
        )
    return out

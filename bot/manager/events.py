"""What the manager tells the bot layer after each accepted action: public events, private events, outcomes.

They translate the engine's typed events (`engine.events`, ``state.events`` after an action) into catalogue
messages. Public events are built ONLY from the public engine events (`engine.events.public_events`) and the
action itself for the kinds whose arguments everyone sees (a claim lays its cards on the table; a kept-tickets
action names secret tickets, so it never appears). Private events come from the actor's private engine events
(`engine.events.private_events`) and go to that seat alone.

Turn tokens (``expected_turn``): a string the bot puts in the custom id of every button it shows; an action built
from it is refused when the game has moved on since.

* during play: ``"t<N>"`` with N = the number of accepted actions so far (``len(state.history)``). Every accepted
  action changes it, so a double click, a replayed interaction or a button from an older message (face-up row
  since refilled, turn since passed) is stale.
* during the start-of-game ticket choice (players choose in any order): ``"s<seat>.<n>"`` with n = the number of
  actions of that seat so far, so one player's choice does not make the others' buttons stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.messages import Join, Message, Text
from bot.storage import GameStatus, SeatResult
from engine import events as engine_events
from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import (
    BlindCardSeen,
    CardDrawn,
    CardsReceived,
    DepotPlaced,
    Event,
    GameEnded,
    LastRoundStarted,
    Paid,
    PassengerMoved,
    PlayStarted,
    RouteClaimed,
    StationBuilt,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TicketsOffered,
    TunnelDeclined,
    TunnelRevealed,
    TurnStarted,
    WarehousesTaken,
    WarehouseStocked,
)
from engine.scoring import outcome
from engine.state import SETUP, GameState
from engine.views import TicketInfo, ticket_info
from maps import CARD_NAMES, LOCOMOTIVE, Board

E = TypeVar("E", bound=Event)

__all__ = [
    "GameEvent",
    "and_list",
    "card",
    "cards",
    "counted",
    "describe",
    "Outcome",
    "PrivateEvent",
    "final_sheets",
    "private_events",
    "public_events",
    "refusal_text",
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
    facts: tuple[
        Event, ...
    ] = ()  # the PUBLIC engine events this message tells (none for lobby and seat events)

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


def _paid(paid: Paid) -> Message:
    """The cards laid on the table for a claim: "3 red and 1 locomotive"."""
    color, colored, locomotives, plus4, ferry_cards = paid
    parts: list[Message] = []
    if colored and color != LOCOMOTIVE:
        parts.append(cards(colored, CARD_NAMES[color]))
    if locomotives:
        parts.append(cards(locomotives, "locomotive"))
    if plus4:
        parts.append(cards(plus4, "locomotive+4"))
    if ferry_cards:
        parts.append(counted("ferry_cards", ferry_cards))
    return and_list(parts)


#: Action kinds of the boards' own rules whose public line names only the player.
_PLAIN_KINDS = frozenset(
    {"choose_ticket_mix", "pass", "take_meeple", "place_passenger", "move_passenger", "take_ferry_card"}
)


def _first(events: Sequence[Event], kind: type[E]) -> E | None:
    for e in events:
        if isinstance(e, kind):
            return e
    return None


def describe(board: Board, names: Sequence[str], seat: int, kind: str, events: Sequence[Event]) -> Text:
    """The public line of one action of `kind` by `seat`, from its PUBLIC engine events (catalogue keys
    ``ev.<kind>...``)."""
    p: dict[str, Any] = {"player": names[seat]}
    if kind in ("draw_blind", "draw_face_up"):
        key = f"ev.{kind}"
        drawn = _first(events, CardDrawn)
        if kind == "draw_face_up":
            p["card"] = card(CARD_NAMES[drawn.card] if drawn is not None and drawn.card is not None else "?")
        stocked = _first(events, WarehouseStocked)
        if stocked is not None:
            key += "_warehouse"
            p["owner"] = names[stocked.owner]
        return Text(key, p)
    claimed = _first(events, RouteClaimed)
    if kind == "claim_route":
        tunnel = _first(events, TunnelRevealed)
        laid = tunnel or claimed
        if laid is None:
            return Text("ev.other", {**p, "action": kind.replace("_", " ")})
        p["route"] = board.route_label(laid.route)
        p["paid"] = _paid(laid.paid)
        if tunnel is not None:
            shown = [card(CARD_NAMES[c]) for c in tunnel.cards]
            p["revealed"] = Join(tuple(shown), ", ") if shown else Text("ev.no_card")
            if tunnel.extra:
                return Text("ev.tunnel_tried", {**p, "extra": counted("more_cards", tunnel.extra)})
            points = claimed.points if claimed is not None else None
            return Text("ev.tunnel_claimed", {**p, "points": counted("points", points or 0)})
        if claimed is not None and claimed.points is not None:
            return Text("ev.claim_route", {**p, "points": counted("points", claimed.points)})
        return Text("ev.claim_route_no_points", p)
    if kind in ("pay_tunnel", "decline_tunnel"):
        declined = _first(events, TunnelDeclined)
        route = claimed.route if claimed is not None else declined.route if declined is not None else None
        p["route"] = board.route_label(route) if route is not None else Text("ev.the_tunnel")
        if kind == "pay_tunnel":
            p["points"] = counted("points", (claimed.points if claimed is not None else None) or 0)
        return Text(f"ev.{kind}", p)
    if kind == "draw_tickets":
        drawn_tickets = _first(events, TicketsDrawn)
        n = drawn_tickets.count if drawn_tickets is not None else 0
        return Text("ev.draw_tickets", {**p, "tickets": counted("dest_tickets", n)})
    if kind == "keep_tickets":
        kept = _first(events, TicketsKept)
        return Text("ev.keep_tickets", {**p, "tickets": counted("tickets", kept.count if kept else 0)})
    station = _first(events, StationBuilt)
    if kind == "build_station" and station is not None:
        return Text("ev.build_station", {**p, "city": board.cities[station.city].name})
    depot = _first(events, DepotPlaced)
    if kind == "place_depot" and depot is not None:
        return Text("ev.place_depot", {**p, "city": board.cities[depot.city].name})
    if kind == "take_warehouses":
        taken = _first(events, WarehousesTaken)
        if taken is None or not taken.owners:
            return Text("ev.take_warehouses_none", p)
        owners = ", ".join(names[o] for o in taken.owners)
        return Text("ev.take_warehouses", {**p, "owners": owners, "cards": counted("cards", taken.cards)})
    if kind in _PLAIN_KINDS:
        return Text(f"ev.{kind}", p)
    return Text("ev.other", {**p, "action": kind.replace("_", " ")})


def _points(events: Sequence[Event]) -> int | None:
    """The points the action scored during play, if it scored (a claim, a passenger trip)."""
    for e in events:
        if isinstance(e, RouteClaimed | PassengerMoved) and e.points is not None:
            return e.points
    return None


def public_events(
    game_id: str,
    seq: int,
    state: GameState,
    seat: int,
    action: Action,
    by: str,
    final: list[dict[str, Any]] | None = None,
) -> list[GameEvent]:
    """The public messages of `seat`'s accepted `action`, translated from the PUBLIC engine events it produced
    (``state.events`` after it; private events are filtered out before anything is read)."""
    facts = tuple(engine_events.public_events(state.events))
    kind = action.kind
    names = [p.name for p in state.players]
    who = names[seat]
    line = describe(state.board, names, seat, kind, facts)
    data: dict[str, Any] = {"seat": seat, "player": who, "action": kind}
    if kind in PUBLIC_ARGUMENTS:
        data["args"] = action.to_json()
    points = _points(facts)
    if points is not None:
        data["points"] = points
    message: Message = line
    turn = None
    for e in facts:
        if isinstance(e, TurnStarted):
            turn = e
    if turn is not None:
        message = Join((line, Text("ev.next_turn", {"player": names[turn.seat]})), " ")
        data["next"] = turn.seat
    events = [GameEvent(game_id, seq, kind, seat, message, data, by, facts)]
    for e in facts:
        if isinstance(e, PlayStarted):
            events.append(
                GameEvent(
                    game_id,
                    seq,
                    "play_started",
                    None,
                    Text("ev.play_started", {"player": names[e.seat]}),
                    {"next": e.seat},
                    "system",
                    (e,),
                )
            )
    for e in facts:
        if isinstance(e, LastRoundStarted):
            events.append(
                GameEvent(
                    game_id,
                    seq,
                    "last_round",
                    e.seat,
                    Text("ev.last_round", {"player": names[e.seat], "trains": counted("trains", e.trains)}),
                    {"seat": e.seat, "trains": e.trains},
                    "system",
                    (e,),
                )
            )
    if any(isinstance(e, GameEnded) for e in facts):
        events.append(game_over_event(game_id, seq, final or []))
    return events


def final_sheets(state: GameState) -> list[dict[str, Any]]:
    """The final score sheets (public once the game is over: tickets are revealed at the end)."""
    end = outcome(state)
    return [{"seat": s.seat, **s.to_json()} for s in end.sheets] if end is not None else []


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


def refusal_text(exc: IllegalAction) -> Text:
    """The engine's refusal as a catalogue message, ``illegal.<code>`` with its parameters (card colours, under
    ``color``, become card words of the reader's language)."""
    params = {k: card(str(v)) if k == "color" else v for k, v in exc.params.items()}
    return Text(f"illegal.{exc.code}", params)


def _ticket_text(t: TicketInfo) -> str:
    return f"{t.a} – {t.b} ({t.points})"


def _ticket_data(t: TicketInfo) -> dict[str, Any]:
    return {"id": t.id, "a": t.a, "b": t.b, "points": t.points}


def private_events(
    game_id: str, seq: int, seat: int, user_id: int | None, state: GameState
) -> list[PrivateEvent]:
    """What `seat` alone learns from the last action (or the deal): the card drawn blind, the cards received,
    the tickets offered or kept. Only `seat`'s PRIVATE engine events are read."""
    out: list[PrivateEvent] = []
    for e in engine_events.private_events(state.events, seat):
        if isinstance(e, BlindCardSeen):
            drew = CARD_NAMES[e.card]
            out.append(
                PrivateEvent(
                    game_id, seq, seat, user_id, "drew", Text("pv.drew", {"card": card(drew)}), {"card": drew}
                )
            )
        elif isinstance(e, CardsReceived):
            gained = {CARD_NAMES[c]: n for c, n in e.cards}
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
        elif isinstance(e, TicketsOffered):
            offered = [ticket_info(state, t) for t in e.tickets]
            out.append(
                PrivateEvent(
                    game_id,
                    seq,
                    seat,
                    user_id,
                    "tickets_offered",
                    Text(
                        "pv.tickets_offered",
                        {"min": e.keep_min, "tickets": "; ".join(_ticket_text(t) for t in offered)},
                    ),
                    {
                        "offered": [_ticket_data(t) for t in offered],
                        "keep_min": e.keep_min,
                        "keep_max": e.keep_max,
                    },
                )
            )
        elif isinstance(e, TicketsChosen) and e.tickets:
            kept = [ticket_info(state, t) for t in e.tickets]
            out.append(
                PrivateEvent(
                    game_id,
                    seq,
                    seat,
                    user_id,
                    "tickets_kept",
                    Text("pv.tickets_kept", {"tickets": "; ".join(_ticket_text(t) for t in kept)}),
                    {"tickets": [_ticket_data(t) for t in kept]},
                )
            )
    return out

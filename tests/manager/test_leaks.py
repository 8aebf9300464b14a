"""Hidden information never reaches a public event: random games on every board, every public event (its data,
and its words as bot.play words it) checked against every hand, every offered and kept ticket, the blind cards and
the seed."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from helpers.manager_games import started_game, state_of

from bot.i18n import default_catalog
from bot.manager import GameEvent, GameManager, Outcome
from bot.manager.events import final_sheets, private_events, public_events
from bot.messages import Message, Text
from bot.play.event_words import line, table_of
from bot.presenters.words import card
from engine.events import BlindCardSeen, CardsReceived, Event, TicketsChosen, TicketsOffered
from engine.pending import TicketChoice
from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from engine.state import GameState
from maps import CARD_NAMES, load_board

FORBIDDEN_KEYS = {
    "hand",
    "tickets",
    "offered",
    "offered_tickets",
    "seed",
    "rng",
    "deck_order",
    "private",
    "drew",
    "sources",
}
TICKET_KINDS = {"draw_tickets", "keep_tickets", "choose_ticket_mix"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list | tuple):
        return {k for v in value for k in _keys(v)}
    return set()


def _ticket_labels(board_id: str, ticket_ids: set[int]) -> set[str]:
    board = load_board(board_id)
    out = set()
    for t in ticket_ids:
        tk = board.tickets[t]
        a, b = board.cities[tk.a].name, board.cities[tk.b].name
        out |= {f"{a} – {b} ({tk.points})", f"{a}–{b} ({tk.points})", f"{b} – {a} ({tk.points})"}
    return out


def _colour_words() -> set[str]:
    """Every way a card colour is written, in every language the bot speaks."""
    catalog = default_catalog()
    words = set(CARD_NAMES)
    for table in catalog.messages.values():
        words |= {text for key, text in table.items() if key.startswith("card.")}
    return words


def check_public(
    event: GameEvent,
    message: Message,
    *,
    board_id: str,
    seed: int,
    secret_tickets: set[int],
    hands: list[dict[str, int]],
) -> None:
    """`event` and its words `message`, in every language the bot speaks, hold nothing secret."""
    for code in ("en", "fr"):
        text = default_catalog().render(message, code) or ""
        _check_text(event, text, board_id=board_id, seed=seed, secret_tickets=secret_tickets, hands=hands)


def _check_text(
    event: GameEvent,
    text: str,
    *,
    board_id: str,
    seed: int,
    secret_tickets: set[int],
    hands: list[dict[str, int]],
) -> None:
    blob = json.dumps(event.data, ensure_ascii=False)
    where = f"{event.kind} event {text!r}"
    assert str(seed) not in text and str(seed) not in blob, where
    if event.kind == "game_over":
        return  # tickets are revealed at the end of the game, by the rules
    assert not (_keys(dict(event.data)) & FORBIDDEN_KEYS), where
    for label in _ticket_labels(board_id, secret_tickets):
        assert label not in text and label not in blob, where
    for hand in hands:
        if sum(hand.values()) > 1:
            assert json.dumps(hand) not in blob, where
    words = set(text.replace(",", " ").replace(".", " ").split())
    if event.kind == "draw_blind":
        assert not words & _colour_words(), where  # the card drawn blind stays private
    if event.kind in TICKET_KINDS:
        board = load_board(board_id)
        cities = {c.name for c in board.cities}
        assert not any(city in text for city in cities), where
        assert "args" not in event.data or event.kind == "draw_tickets", where


@pytest.mark.parametrize(
    ("board", "options", "seed", "moves"),
    [
        ("europe", (), 1, None),
        ("europe", ("warehouses",), 2, 150),
        ("usa", (), 3, None),
        ("germany", (), 4, 120),
        ("japan", (), 5, 120),
        ("italy", (), 6, 120),
        ("marklin", (), 7, 120),
    ],
)
async def test_public_events_never_carry_hidden_information(
    manager: GameManager, board: str, options: tuple[str, ...], seed: int, moves: int | None
) -> None:
    big_seed = 8_765_432_109_876 + seed  # a seed long enough not to appear by chance in a text
    gid, first = await started_game(manager, humans=2, ais=1, board=board, seed=big_seed, options=options)
    rng = random.Random(seed)
    outcomes: list[Outcome] = [first]
    offered: set[int] = set()
    state = await state_of(manager, gid)
    n = 0
    while state.phase != "finished" and (moves is None or n < moves):
        for pending in state.pending.values():
            if isinstance(pending, TicketChoice):
                offered |= set(pending.offered)
        info = await manager.status(gid)
        seat = rng.choice([s for s in info.to_act if info.seats[s].user_id is not None])
        uid = info.seats[seat].user_id
        assert uid is not None
        legal = await manager.legal_actions(gid, uid)
        outcome = await manager.act(gid, uid, rng.choice(legal), expected_turn=info.tokens[seat])
        outcomes.append(outcome)
        # private events go to the actor's seat only
        assert all(p.seat in {e.seat for e in outcome.events} for p in outcome.private)
        state = await state_of(manager, gid)
        n += 1
    kept = {t for p in state.players for t in p.tickets}
    hands = [{CARD_NAMES[c]: k for c, k in enumerate(p.hand) if k} for p in state.players]
    events = [e for o in outcomes for e in o.events]
    assert len(events) >= n
    table = table_of(await manager.status(gid))
    for event in events:
        said = line(event, table)
        check_public(event, said, board_id=board, seed=state.seed, secret_tickets=kept | offered, hands=hands)
    blind = [p for o in outcomes for p in o.private if p.kind == "drew"]
    assert blind, "the private side carries the blind cards"
    if moves is None:
        assert events[-1].kind == "game_over"


def test_the_checker_catches_leaks() -> None:
    """The check above is not vacuous: a blind card, a kept ticket or the seed in a public event fail it."""
    board = load_board("europe")
    tk = board.tickets[0]
    label = f"{board.cities[tk.a].name} – {board.cities[tk.b].name} ({tk.points})"
    leaks: list[tuple[GameEvent, Message]] = [
        (GameEvent("g", 1, "draw_blind", 0), "Ann drew a red card from the deck."),
        (GameEvent("g", 1, "keep_tickets", 0), f"Ann kept {label}."),
        (GameEvent("g", 1, "claim_route", 0, {"hand": {"red": 2}}), "Ann claimed X."),
        (GameEvent("g", 1, "draw_face_up", 0), "Ann took a red card; seed 8765432109877."),
        (GameEvent("g", 1, "draw_blind", 0), Text("pv.drew", {"card": card("pink")})),  # "violet" in French
    ]
    for event, message in leaks:
        with pytest.raises(AssertionError):
            check_public(
                event, message, board_id="europe", seed=8_765_432_109_877, secret_tickets={0}, hands=[]
            )


def _other_secrets(event: Event, state: GameState) -> Event:
    """`event` with every private value changed (another card, other tickets); public events unchanged."""
    n_cards = len(CARD_NAMES)
    n_tickets = len(state.board.tickets)
    if isinstance(event, BlindCardSeen):
        return dataclasses.replace(event, card=(event.card + 1) % n_cards)
    if isinstance(event, CardsReceived):
        return dataclasses.replace(event, cards=tuple(((c + 1) % n_cards, n + 1) for c, n in event.cards))
    if isinstance(event, TicketsOffered | TicketsChosen):
        return dataclasses.replace(event, tickets=tuple((t + 7) % n_tickets for t in event.tickets))
    assert event.public, f"a private event type without a test double: {event.kind}"
    return event


@pytest.mark.parametrize(
    ("board", "options"),
    [
        ("europe", ("warehouses",)),
        ("usa", ()),
        ("germany", ()),
        ("japan", ()),
        ("italy", ()),
        ("marklin", ()),
    ],
)
def test_no_private_engine_event_reaches_a_public_line(board: str, options: tuple[str, ...]) -> None:
    """The public lines of every action are the same whatever its private events say, and carry only public
    engine events; the private lines go to the actor alone."""
    state = new_game(board, 3, options=options, seed=11)
    rng = random.Random(11)
    table = table_of(state)
    private_kinds: set[str] = set()
    for i in range(1, 250):
        if state.finished:
            break
        seat = rng.choice(to_act(state))
        action = random_legal_action(state, seat, rng)
        apply(state, seat, action)
        sheets = final_sheets(state) if state.finished else None
        lines = public_events("g", i, state, seat, action, "player", sheets)
        assert all(f.public for e in lines for f in e.facts)
        twin = state.copy()
        twin.events = [_other_secrets(e, state) for e in state.events]
        again = public_events("g", i, twin, seat, action, "player", sheets)
        assert [(line(e, table), e.data) for e in again] == [(line(e, table), e.data) for e in lines]
        for other in range(state.num_players):
            mine = private_events("g", i, other, None, state)
            assert not mine or other == seat
            private_kinds |= {p.kind for p in mine}
    assert "drew" in private_kinds and "tickets_offered" in private_kinds

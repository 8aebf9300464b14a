"""Every message key the bot uses exists in English and French, with the same placeholders, and every game
event (public and private, on every board) reads in both languages with no key missing."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Catalog, check_placeholders
from bot.manager.events import final_sheets, private_events, public_events
from bot.messages import Join, Message, Text
from bot.play.event_words import line, private_line, table_of
from engine.rules import apply, legal_actions, new_game, to_act

BOT = Path(__file__).resolve().parents[2] / "bot"
SOURCES = [
    path
    for part in ("play", "presenters", "manager", "discord")
    for path in sorted((BOT / part).rglob("*.py"))
]
KEY = re.compile(
    r"""(?:Text|fail|(?:tr|_refuse)\(interaction,)\(?\s*"([a-z_]+\.[a-z_.]+)"|"((?:btn|act|menu|play|turn|ev|pv|hint)\.[a-z_]+)\""""
)
CARDS = (
    "red",
    "blue",
    "green",
    "yellow",
    "black",
    "white",
    "orange",
    "pink",
    "locomotive",
    "locomotive_plus4",
)


def used_keys() -> set[str]:
    used = set()
    for path in SOURCES:
        for match in KEY.finditer(path.read_text()):
            used.add(match.group(1) or match.group(2))
    used |= {f"ai.{level}" for level in ("easy", "normal", "hard")}
    used |= {f"level.{level}" for level in ("easy", "normal", "hard")}
    used |= {f"turn.absent_{p}" for p in ("ai", "skip", "wait")}
    used |= {f"card.{c}" for c in (*CARDS, "passenger", "gray")}
    used |= {
        f"n.{w}"
        for w in ("points", "more_cards", "dest_tickets", "tickets", "cards", "trains", "ferry_cards")
    }
    used |= {f"hint.{k}" for k in ("ticket_mix", "passenger_placement", "meeple_choice", "warehouse_choice")}
    bonuses = ("european_express", "longest_path", "globetrotter", "most_tickets", "stations", "depots")
    features = ("bullet_trains", "ferry_cards", "meeples", "merchandise", "passengers", "regions")
    used |= {f"bonus.{b}" for b in (*bonuses, *features)}
    used |= {
        f"ev.{k}"
        for k in (
            "draw_blind",
            "draw_face_up",
            "pay_tunnel",
            "decline_tunnel",
            "choose_ticket_mix",
            "pass",
            "take_meeple",
            "place_passenger",
            "move_passenger",
            "take_ferry_card",
        )
    }
    return used


def test_service_keys_are_in_every_catalogue() -> None:
    catalog = Catalog.load()
    used = used_keys()
    assert len(used) > 150
    for code in catalog.locales:
        missing = sorted(k for k in used if not catalog.has(k, code))
        assert not missing, (code, missing)
    assert check_placeholders(catalog) == []


def test_a_turn_message_in_french() -> None:
    catalog = Catalog.load()
    text = catalog.render(Text("turn.message", {"lines": "x", "player": "<@1>"}), "fr")
    assert text == "x\n➡️ <@1>, à vous."
    assert catalog.render(Text("act.deck"), "fr") == "Pioche (face cachée)"


def test_colours_and_payments_in_french() -> None:
    catalog = Catalog.load()
    names = {c: catalog.render(Text(f"card.{c}"), "fr") for c in CARDS}
    assert names == {
        "red": "rouge",
        "blue": "bleu",
        "green": "vert",
        "yellow": "jaune",
        "black": "noir",
        "white": "blanc",
        "orange": "orange",
        "pink": "violet",
        "locomotive": "locomotive",
        "locomotive_plus4": "locomotive +4",
    }
    from bot.presenters.words import cards

    paid = Join((cards(3, "red"), cards(1, "locomotive")), " + ")
    assert catalog.render(paid, "fr") == "3 rouges + 1 locomotive"
    assert catalog.render(paid, "en") == "3 red + 1 locomotive"
    assert catalog.render(Join((cards(2, "locomotive"),)), "en") == "2 locomotives"
    assert catalog.render(Text("n.points", {"n": 0}), "fr") == "0 point"  # French singular for 0 and 1
    assert catalog.render(Text("n.points", {"n": 0}), "en") == "0 points"


class _Strict(Catalog):
    """A catalogue that remembers the keys it could not find (the real one shows the key and logs)."""

    def __init__(self, base: Catalog, only: str) -> None:
        super().__init__({only: base.messages[only]}, default=only)
        self.missing: set[str] = set()

    def text(self, key: str, locale: Any = None, /, **params: Any) -> str:
        if self.template(key, locale, params.get("n")) is None:
            self.missing.add(key)
        return super().text(key, locale, **params)


def _events_of_random_game(board: str, options: tuple[str, ...], seed: int) -> list[tuple[str, Message]]:
    """(kind, message) of every public and private event of a random game played to its end."""
    rng = random.Random(seed)
    state = new_game(board, 3, options=options, seed=seed)
    out: list[tuple[str, Message]] = []
    for _ in range(3000):
        if state.finished:
            break
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        claims = [a for a in legal if a.kind == "claim_route"]
        action = rng.choice(claims) if claims and rng.random() < 0.5 else rng.choice(legal)
        apply(state, seat, action)
        sheets = final_sheets(state) if state.finished else None
        table = table_of(state)
        for e in public_events("g", 1, state, seat, action, "ai", sheets):
            out.append((e.kind, line(e, table)))
        for p in private_events("g", 1, seat, 1, state):
            out.append((f"private:{p.kind}", private_line(p, table)))
    assert state.finished
    return out


GAMES = [
    ("europe", ()),
    ("europe", ("warehouses",)),
    ("usa", ()),
    ("germany", ()),
    ("marklin", ()),
    ("japan", ()),
    ("italy", ()),
]


@pytest.mark.parametrize(
    ("board", "options"), GAMES, ids=[f"{b}-{'-'.join(o) or 'classic'}" for b, o in GAMES]
)
def test_every_event_reads_in_english_and_french(board: str, options: tuple[str, ...]) -> None:
    base = Catalog.load()
    events = _events_of_random_game(board, options, seed=11)
    kinds = {k for k, _ in events}
    assert {"draw_blind", "claim_route", "game_over", "private:drew", "private:tickets_kept"} <= kinds
    for code in ("en", "fr"):
        catalog = _Strict(base, code)
        for kind, message in events:
            text = catalog.render(message, code) or ""
            assert text and "{" not in text, (code, kind, text)
            assert not re.search(r"\b(?:ev|pv|card|n|act|route|list|count)\.[a-z_]+", text), (
                code,
                kind,
                text,
            )
        assert catalog.missing == set(), (code, sorted(catalog.missing))
    english = [base.render(m, "en") for _, m in events]
    french = [base.render(m, "fr") for _, m in events]
    assert sum(e != f for e, f in zip(english, french, strict=True)) > len(events) * 0.9


def test_refusals_carry_a_catalogue_message() -> None:
    from bot.manager import Refused
    from bot.play.refusals import refusal as _refusal

    catalog = Catalog.load()
    busy = _refusal(Refused("channel_busy", game="abc"))
    assert (
        catalog.render(busy.message, "fr")
        == "La partie abc est déjà ouverte ici ; terminez-la ou arrêtez-la d'abord."
    )
    full = Text("refused.lobby_full", {"game": "abc", "n": 5})
    assert catalog.render(full, "en") == "Game abc is full (5 players)."
    plain = _refusal(Refused("illegal", reason="You cannot claim that route."))  # the engine's reason inside
    assert catalog.render(plain.message, "en") == "You cannot claim that route."


def test_joined_messages_fit_their_limits() -> None:
    catalog = Catalog.load()
    lines = tuple(f"line {i}" for i in range(100))
    head = catalog.render(Join(lines, head=40), "en") or ""
    assert len(head) <= 40 and head.startswith("line 0\n") and head.endswith("\n…")
    tail = catalog.render(Join(lines, tail=40), "en") or ""
    assert len(tail) == 40 and tail.startswith("…") and tail.endswith("line 99")

"""Short rules per board for `/ttr rules`, from `bot/locales/rules.<lang>.json` plus the board's numbers.

Texts hold placeholders ({trains}, {points_table}, ...) filled from the board file, so a board with other
numbers needs no new text. A board-specific topic (Europe's stations) appears only when the board has the
feature (`when`), and a board may override a general topic by reusing its name.
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.i18n import FALLBACK, LOCALES_DIR, _SafeDict, language_of
from maps.board import Board


@dataclass(frozen=True, slots=True)
class RuleTopic:
    id: str
    title: str
    text: str


@cache
def _rules_file(lang: str) -> dict[str, Any]:
    path = LOCALES_DIR / f"rules.{lang}.json"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def _chain(locale: str | None) -> list[dict[str, Any]]:
    code = language_of(locale)
    langs = [c for c in dict.fromkeys((code, code.split("-")[0], FALLBACK)) if c]
    return [data for data in (_rules_file(lang) for lang in langs) if data]


def board_features(board: Board) -> set[str]:
    features = set()
    if board.rule("stations_per_player"):
        features.add("stations")
    if any(r.tunnel for r in board.routes):
        features.add("tunnels")
    if any(r.locomotives for r in board.routes):
        features.add("ferries")
    return features


def _word(chain: list[dict[str, Any]], key: str, **params: Any) -> str:
    for data in chain:
        text = data.get("words", {}).get(key)
        if text is not None:
            return text.format(**params)
    return key


def board_facts(board: Board, chain: list[dict[str, Any]], variant: str | None = None) -> dict[str, Any]:
    """Placeholder values for the rule texts of `board` (and variant)."""
    v = board.variant(variant)
    setup_steps = v["tickets"]["setup"]
    step = setup_steps[-1]
    drawn = step.get("draw", {})
    if "long" in drawn and len(setup_steps) == 1:
        setup_tickets = _word(
            chain, "tickets_setup_long", regular=drawn.get("regular", 0), keep=step.get("keep_min", 0)
        )
    else:
        setup_tickets = _word(
            chain, "tickets_setup_one", count=sum(drawn.values()), keep=step.get("keep_min", 0)
        )
    draw = v["tickets"]["draw"]
    longest = board.rule("longest_path_bonus") or {}
    costs = board.rule("station_costs") or []
    points = board.rule("route_points") or {}
    return {
        "trains": board.rule("trains_per_player", 45),
        "hand": board.rule("starting_hand", 4),
        "points_table": ", ".join(f"{n}→{p}" for n, p in sorted(points.items(), key=lambda kv: int(kv[0]))),
        "longest_name": str(longest.get("name", "longest path")).replace("_", " ").title(),
        "longest_points": longest.get("points", 10),
        "stations": board.rule("stations_per_player", 0),
        "station_costs": "/".join(str(c) for c in costs),
        "station_points": board.rule("station_points", 0),
        "multi_min": board.rule("min_players_for_multi_routes", 4),
        "end_trains": board.rule("end_trigger_trains", 2),
        "setup_tickets": setup_tickets,
        "draw_tickets": _word(
            chain, "tickets_draw", keep=draw.get("keep_min", 1), count=sum(draw.get("draw", {}).values())
        ),
        "tie_breaks": ", ".join(_word(chain, f"tie_{t}") for t in board.rule("tie_breaks", [])) or "-",
    }


def topics(board: Board, locale: str | None = None, variant: str | None = None) -> list[RuleTopic]:
    """The rule topics of `board` in `locale` (English where a translation is missing), in reading order."""
    chain = _chain(locale)
    facts = board_facts(board, chain, variant)
    features = board_features(board)
    english = _rules_file(FALLBACK)
    order = list(english.get("general", {})) + list(english.get("boards", {}).get(board.id, {}))
    out = []
    for topic_id in dict.fromkeys(order):
        entry = None
        for data in chain:
            entry = data.get("boards", {}).get(board.id, {}).get(topic_id) or data.get("general", {}).get(
                topic_id
            )
            if entry:
                break
        if not entry or not set(entry.get("when", ())) <= features:
            continue
        text = string.Formatter().vformat(entry["text"], (), _SafeDict(facts))
        out.append(RuleTopic(topic_id, entry["title"], text))
    return out


def topic_ids() -> list[str]:
    """Every topic id of every board (for autocomplete without a board)."""
    english = _rules_file(FALLBACK)
    ids = list(english.get("general", {}))
    for board_topics in english.get("boards", {}).values():
        ids.extend(board_topics)
    return list(dict.fromkeys(ids))

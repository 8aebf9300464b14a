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
    """Special rules of `board`: its declared `rules.features` plus what its routes show."""
    features = set(board.rule("features") or ())
    if board.rule("stations_per_player"):
        features.add("stations")
    if any(r.tunnel for r in board.routes):
        features.add("tunnels")
    if any(r.locomotives for r in board.routes):
        features.add("ferries")
    return features


def _word(chain: list[dict[str, Any]], key: str, **params: Any) -> str | None:
    for data in chain:
        text = data.get("words", {}).get(key)
        if text is not None:
            return str(text).format(**params)
    return None


def _tickets_step(chain: list[dict[str, Any]], step: dict[str, Any]) -> str:
    drawn = step.get("draw", {})
    if isinstance(drawn, int):
        what = _word(chain, "tickets_mix", count=drawn) or f"{drawn} tickets"
    elif set(drawn) <= {"regular"}:
        count = drawn.get("regular", 0)
        what = _word(chain, "tickets_plain", count=count) or f"{count} tickets"
    else:
        parts = [
            _word(chain, f"kind_{kind}", count=count) or f"{count} {kind}"
            for kind, count in drawn.items()
            if count
        ]
        joined = (_word(chain, "and") or " and ").join(parts)
        what = _word(chain, "tickets_kind", parts=joined) or f"{joined} tickets"
    if "keep_max" in step and not step.get("keep_min"):
        return _word(chain, "keep_max", what=what, keep=step["keep_max"]) or what
    return _word(chain, "keep_min", what=what, keep=step.get("keep_min", 0)) or what


def board_facts(board: Board, chain: list[dict[str, Any]], variant: str | None = None) -> dict[str, Any]:
    """Placeholder values for the rule texts of `board` (and variant)."""
    v = board.variant(variant)
    tickets = v["tickets"]
    setup = (_word(chain, "then") or ", then ").join(_tickets_step(chain, step) for step in tickets["setup"])
    if "long" in tickets.get("box_after_setup", ()):
        setup += _word(chain, "long_boxed") or ""
    draw = tickets["draw"]
    drawn = draw.get("draw", {})
    draw_count = drawn if isinstance(drawn, int) else sum(drawn.values())
    bonuses = ""
    longest = board.rule("longest_path_bonus")
    if longest:
        name = str(longest.get("name", "longest path")).replace("_", " ").title()
        bonuses += _word(chain, "bonus_longest", name=name, points=longest.get("points", 10)) or ""
    most = board.rule("most_tickets_bonus")
    if most:
        name = str(most.get("name", "most tickets")).replace("_", " ").title()
        bonuses += _word(chain, "bonus_most_tickets", name=name, points=most.get("points", 10)) or ""
    costs = board.rule("station_costs") or []
    points = board.rule("route_points") or {}
    meeples = board.rule("meeples") or {}
    majority = list(meeples.get("majority_points", [])) + [0, 0]
    return {
        "trains": board.rule("trains_per_player", 45),
        "hand": board.rule("starting_hand", 4),
        "points_table": ", ".join(f"{n}→{p}" for n, p in sorted(points.items(), key=lambda kv: int(kv[0]))),
        "bonuses": bonuses,
        "stations": board.rule("stations_per_player", 0),
        "station_costs": "/".join(str(c) for c in costs),
        "station_points": board.rule("station_points", 0),
        "multi_min": board.rule("min_players_for_multi_routes", 4),
        "end_trains": board.rule("end_trigger_trains", 2),
        "setup_tickets": setup,
        "draw_tickets": _word(chain, "tickets_draw", keep=draw.get("keep_min", 1), count=draw_count),
        "tie_breaks": ", ".join(
            _word(chain, f"tie_{t}") or t.replace("_", " ") for t in board.rule("tie_breaks", [])
        )
        or "-",
        "meeple_colors": len(meeples.get("colors", ())),
        "meeple_take": meeples.get("take_per_route_end", 1),
        "meeple_first": majority[0],
        "meeple_second": majority[1],
    }


def _entries(chain: list[dict[str, Any]], board_id: str, topic_id: str) -> dict[str, Any] | None:
    for data in chain:
        entry = data.get("boards", {}).get(board_id, {}).get(topic_id) or data.get("general", {}).get(
            topic_id
        )
        if entry:
            return dict(entry)
    return None


def topics(board: Board, locale: str | None = None, variant: str | None = None) -> list[RuleTopic]:
    """The rule topics of `board` in `locale` (English where a translation is missing), in reading order.

    A feature of the board that no topic explains is listed in a "special" topic instead of being ignored.
    """
    chain = _chain(locale)
    facts = board_facts(board, chain, variant)
    features = board_features(board)
    english = _rules_file(FALLBACK)
    order = list(english.get("general", {})) + list(english.get("boards", {}).get(board.id, {}))
    explained = {
        feature
        for topic_id in order
        for feature in (_entries(chain, board.id, topic_id) or {}).get("when", ())
        if feature in features
    }
    unwritten = sorted(features - explained)
    facts["unwritten"] = ", ".join(_word(chain, f"feature_{f}") or f.replace("_", " ") for f in unwritten)
    out = []
    for topic_id in dict.fromkeys(order):
        entry = _entries(chain, board.id, topic_id)
        if not entry:
            continue
        when = set(entry.get("when", ()))
        if "*unwritten" in when:
            if not unwritten:
                continue
        elif not when <= features:
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

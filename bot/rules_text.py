"""Short rules per board for `/ttr rules`, from `bot/locales/rules.<lang>.json` plus the board's numbers.

Texts hold placeholders ({trains}, {points_table}, ...) filled from the board file, so a board with other
numbers needs no new text. A board-specific topic (Europe's stations) appears only when the board has the
feature (`when`), and a board may override a general topic by reusing its name.
"""

from __future__ import annotations

import json
import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.i18n import FALLBACK, LOCALES_DIR, _SafeDict, default_catalog, language_of
from bot.messages import variant_name
from engine.features.tunnels import REVEALED as TUNNEL_REVEALED
from maps.board import CARD_NAMES, COLORS, LOCOMOTIVE, Board, select_tickets


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
    """Special rules of `board`: its declared `rules.features` plus what its routes, deck and options show.

    These names select the topics (`when`); `option:<id>` for each option the board offers, `variants` when it
    has more than one ticket variant.
    """
    features = set(board.rule("features") or ())
    if board.rule("stations_per_player"):
        features.add("stations")
    if any(r.tunnel for r in board.routes):
        features.add("tunnels")
    if any(r.locomotives for r in board.routes):
        features.add("ferries")
    if any(c.dead_end for c in board.cities):
        features.add("dead_ends")
    if board.rule("longest_path_bonus"):
        features.add("longest_path")
    if board.rule("most_tickets_bonus"):
        features.add("most_tickets")
    deck = board.rule("deck") or {}
    if deck.get("locomotives_plus4"):
        features.add("locomotives_plus4")
    if deck.get("passengers"):
        features.add("passenger_cards")
    if len(board.variants) > 1:
        features.add("variants")
    features.update(f"option:{option}" for option in board.options)
    return features


def _word(chain: list[dict[str, Any]], key: str, **params: Any) -> str | None:
    """The word `key` of the first language that has it; `<key>_one` instead when `count` is 1."""
    keys = (f"{key}_one", key) if params.get("count") == 1 else (key,)
    for data in chain:
        words = data.get("words", {})
        for k in keys:
            if k in words:
                return str(words[k]).format(**params)
    return None


def _words(chain: list[dict[str, Any]], key: str, **params: Any) -> str:
    """A word that must exist (in English at least)."""
    text = _word(chain, key, **params)
    if text is None:
        raise KeyError(f"rules text: no word {key!r}")
    return text


def _tickets_step(chain: list[dict[str, Any]], step: dict[str, Any], *, kinds: bool) -> str:
    """One setup step: "1 long and 3 regular destination tickets, keeping at least 2 (...)"; `kinds` names the
    kind of plain regular tickets too (when the variant also has long ones)."""
    drawn = step.get("draw", {})
    if isinstance(drawn, int):
        what = _words(chain, "tickets_mix", count=drawn)
    elif set(drawn) <= {"regular"} and not kinds:
        what = _words(chain, "tickets_plain", count=drawn.get("regular", 0))
    else:
        parts = [_words(chain, f"kind_{kind}", count=count) for kind, count in drawn.items() if count]
        what = _words(chain, "tickets_kind", parts=_words(chain, "and").join(parts))
    if "keep_max" in step and not step.get("keep_min"):
        text = _words(chain, "keep_max", what=what, keep=step["keep_max"])
    else:
        text = _words(chain, "keep_min", what=what, keep=step.get("keep_min", 0))
    if "keep_min_if_none_kept" in step:
        text += _words(chain, "keep_min_if_none_kept", keep=step["keep_min_if_none_kept"])
    rejected = step.get("rejected")
    if rejected:
        text += _words(chain, f"rejected_{rejected}")
    return text


def _variant_tickets(chain: list[dict[str, Any]], board: Board, variant: dict[str, Any]) -> str:
    """'40 regular and 6 long tickets': the variant's ticket decks, counted in the board file."""
    decks = Counter(t.deck for t in select_tickets(board.tickets, variant))
    parts = [
        _words(chain, f"kind_{deck}", count=decks[deck])
        for deck in ("regular", "short", "long")
        if decks[deck]
    ]
    return _words(chain, "tickets_kind", parts=_words(chain, "and").join(parts))


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _bullet_facts(chain: list[dict[str, Any]], board: Board, sep: str) -> dict[str, Any]:
    bullet = board.rule("bullet_trains") or {}
    table = bullet.get("bonus_by_rank", {})
    rows = [
        _words(chain, "bullet_row", players=players, points=sep.join(_signed(int(v)) for v in table[players]))
        for players in sorted(table, key=int)
    ]
    return {
        "bullet_supply": bullet.get("supply", 0),
        "bullet_end_supply": bullet.get("end_trigger_supply", 0),
        "bullet_none": _signed(int(bullet.get("no_contribution", 0))),
        "bullet_table": "\n".join(rows),
    }


def _italy_facts(board: Board, sep: str) -> dict[str, Any]:
    ferry = board.rule("ferry_cards") or {}
    regions = board.rule("regions") or {}
    bonus = {int(k): int(v) for k, v in (regions.get("bonus") or {}).items()}
    top = max(bonus, default=0)
    return {
        "ferry_pile": ferry.get("pile", 0),
        "ferry_max": ferry.get("max_in_hand", 0),
        "ferry_waves": ferry.get("waves_per_card", 0),
        "regions_count": len(regions.get("names", ())),
        "regions_min": min(bonus, default=0),
        "regions_table": sep.join(f"{n}{'+' if n == top else ''}→{p}" for n, p in sorted(bonus.items())),
        "regions_double": sep.join(regions.get("double_if_complete", ())),
    }


def _marklin_facts(chain: list[dict[str, Any]], board: Board, sep: str) -> dict[str, Any]:
    deck = board.rule("deck") or {}
    passengers = board.rule("passengers") or {}
    piles = (board.rule("merchandise") or {}).get("piles", {})
    pile_text = sep.join(
        _words(
            chain,
            f"merch_{color}",
            count=pile["count"],
            values="/".join(str(v) for v in pile["values"]),
        )
        for color, pile in piles.items()
    )
    return {
        "plus4": deck.get("locomotives_plus4", 0),
        "plus4_min": deck.get("plus4_min_length", 0),
        "passenger_cards": deck.get("passengers", 0),
        "passengers": passengers.get("per_player", 0),
        "passengers_per_city": passengers.get("max_per_city", 0),
        "passenger_fare": passengers.get("cards_per_other_route", 0),
        "merch_cities": sum(pile["count"] for pile in piles.values()),
        "merch_piles": pile_text,
    }


def board_facts(
    board: Board, chain: list[dict[str, Any]], variant: str | None = None, locale: str | None = None
) -> dict[str, Any]:
    """Placeholder values for the rule texts of `board` (and variant): every number a text shows, and the
    variants' names in `locale`."""
    vid = variant or board.default_variant
    v = board.variant(vid)
    sep = list_separator(locale)
    tickets = v["tickets"]
    kinds = any(t.deck != "regular" for t in select_tickets(board.tickets, v))
    setup = _words(chain, "then").join(_tickets_step(chain, step, kinds=kinds) for step in tickets["setup"])
    long_boxed = _words(chain, "long_boxed") if "long" in tickets.get("box_after_setup", ()) else ""
    draw = tickets["draw"]
    drawn = draw.get("draw", {})
    draw_count = drawn if isinstance(drawn, int) else sum(drawn.values())
    features = board_features(board)
    scoring = ""
    if "stations" in features:
        scoring += _words(chain, "score_stations", points=board.rule("station_points", 0))
    longest = board.rule("longest_path_bonus") or {}
    if longest:
        scoring += _words(
            chain, "bonus_longest", name=_bonus_name(chain, longest), points=longest.get("points", 0)
        )
    most = board.rule("most_tickets_bonus") or {}
    if most:
        scoring += _words(
            chain, "bonus_most_tickets", name=_bonus_name(chain, most), points=most.get("points", 0)
        )
    for feature in ("meeples", "merchandise", "bullet_trains", "regions"):
        if feature in features:
            scoring += _words(chain, f"score_{feature}")
    actions = "".join(
        _words(chain, f"action_{feature}")
        for feature in ("stations", "passengers", "ferry_cards")
        if feature in features
    )
    deck = board.rule("deck") or {}
    deck_extra = ""
    if deck.get("locomotives_plus4") or deck.get("passengers"):
        deck_extra = _words(
            chain,
            "deck_marklin",
            plus4=deck.get("locomotives_plus4", 0),
            passengers=deck.get("passengers", 0),
        )
    resets = [int(t) for t in board.rule("face_up_reset_types", [LOCOMOTIVE]) if int(t) != LOCOMOTIVE]
    reset_extra = "".join(_words(chain, f"reset_{CARD_NAMES[t].replace('+', '_plus')}") for t in resets)
    colors = len(COLORS)
    points = board.rule("route_points") or {}
    meeples = board.rule("meeples") or {}
    majority = list(meeples.get("majority_points", [])) + [0, 0]
    warehouses = board.options.get("warehouses", {})
    widest = max(len(group) for group in board.groups)
    not_double = [
        _words(chain, "not_double", route=f"{a}–{b}") for a, b in board.rule("not_double_routes", [])
    ]
    others = [_variant(board, other, locale) for other in board.variants if other != vid]
    return {
        "trains": board.rule("trains_per_player", 0),
        "hand": board.rule("starting_hand", 0),
        "actions": actions,
        "deck_total": colors * deck.get("per_color", 0)
        + sum(deck.get(k, 0) for k in ("locomotives", "locomotives_plus4", "passengers")),
        "deck_per_color": deck.get("per_color", 0),
        "deck_colors": colors,
        "deck_locomotives": deck.get("locomotives", 0),
        "deck_extra": deck_extra,
        "reset_extra": reset_extra,
        "points_table": sep.join(f"{n}→{p}" for n, p in sorted(points.items(), key=lambda kv: int(kv[0]))),
        "bonuses": scoring,
        "longest_name": _bonus_name(chain, longest) if longest else "",
        "longest_points": longest.get("points", 0),
        "most_name": _bonus_name(chain, most) if most else "",
        "most_points": most.get("points", 0),
        "stations": board.rule("stations_per_player", 0),
        "station_costs": "/".join(str(c) for c in board.rule("station_costs") or []),
        "station_points": board.rule("station_points", 0),
        "multi_min": board.rule("min_players_for_multi_routes", 0),
        "multi_below": board.rule("min_players_for_multi_routes", 0) - 1,
        "multiple": _words(chain, "multiple_3" if widest >= 3 else "multiple_2"),
        "multiple_title": _words(chain, "multiple_title_3" if widest >= 3 else "multiple_title_2"),
        "not_double": "".join(not_double),
        "end_trains": board.rule("end_trigger_trains", 0),
        "setup_tickets": setup,
        "long_boxed": long_boxed,
        "draw_tickets": _words(chain, "tickets_draw", keep=draw.get("keep_min", 1), count=draw_count),
        "variant_name": _variant(board, vid, locale),
        "variant_tickets": _variant_tickets(chain, board, v),
        "variant_note": _word(chain, f"variant_{board.id}_{vid}") or "",
        "other_variants": sep.join(others) or "-",
        "tie_breaks": sep.join(
            _word(chain, f"tie_{t}") or t.replace("_", " ") for t in board.rule("tie_breaks", [])
        )
        or "-",
        "tunnel_reveal": TUNNEL_REVEALED,
        "meeple_colors": len(meeples.get("colors", ())),
        "meeple_per_color": meeples.get("per_color", 0),
        "meeple_total": len(meeples.get("colors", ())) * meeples.get("per_color", 0),
        "meeple_take": meeples.get("take_per_route_end", 0),
        "meeple_first": majority[0],
        "meeple_second": majority[1],
        "depots": warehouses.get("depots_per_player", 0),
        "depots_initial": warehouses.get("initial_depots", 0),
        "depots_left": warehouses.get("depots_per_player", 0) - warehouses.get("initial_depots", 0),
        "depot_bonus": warehouses.get("most_depots_bonus", 0),
        **_bullet_facts(chain, board, sep),
        **_italy_facts(board, sep),
        **_marklin_facts(chain, board, sep),
    }


def list_separator(locale: str | None) -> str:
    """What the reader's language puts between the items of a list (the catalogue's ``list.sep``)."""
    return default_catalog().text("list.sep", locale or FALLBACK)


def _variant(board: Board, vid: str, locale: str | None) -> str:
    """A variant's name in `locale` (the catalogue's ``variant.<board>.<variant>``)."""
    return default_catalog().render(variant_name(board.id, vid), locale) or vid


def _bonus_name(chain: list[dict[str, Any]], bonus: dict[str, Any]) -> str:
    key = str(bonus.get("name", ""))
    return _word(chain, f"name_{key}") or key.replace("_", " ").title()


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
    facts = board_facts(board, chain, variant, locale)
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
    facts["unwritten"] = list_separator(locale).join(
        _word(chain, f"feature_{f}") or f.replace("_", " ") for f in unwritten
    )
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
        fill = string.Formatter().vformat
        out.append(
            RuleTopic(
                topic_id,
                fill(entry["title"], (), _SafeDict(facts)),
                fill(entry["text"], (), _SafeDict(facts)),
            )
        )
    return out


def topic_list(found: Sequence[RuleTopic]) -> str:
    """Topics named for a reader, by their titles in the reader's language ("Mise en place · Cartes"): the
    topic option takes a title as well as an id."""
    return " · ".join(t.title for t in found)


def topic_ids() -> list[str]:
    """Every topic id of every board (for autocomplete without a board)."""
    english = _rules_file(FALLBACK)
    ids = list(english.get("general", {}))
    for board_topics in english.get("boards", {}).values():
        ids.extend(board_topics)
    return list(dict.fromkeys(ids))

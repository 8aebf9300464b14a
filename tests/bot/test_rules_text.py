"""`/ttr rules`: every board and variant has its topics in English and French, every number in them is one the
board file holds, and every answer fits in a Discord embed."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LOCALES_DIR, default_catalog
from bot.rules_text import board_features, topics
from engine.features.tunnels import REVEALED
from maps import COLORS, load_board
from maps.board import MAPS_DIR, select_tickets

LANGUAGES = ("en", "fr")  # the tests that read English or French words
#: Every language with a rules file: the tests of form and numbers run over each (de, it, ja, es once merged).
ALL_LANGUAGES = tuple(sorted(p.stem.split(".", 1)[1] for p in LOCALES_DIR.glob("rules.*.json")))
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELD_VALUE, EMBED_TOTAL = 256, 4096, 1024, 6000

CASES = [
    (board_id, variant)
    for board_id in sorted(p.stem for p in Path(MAPS_DIR).glob("*.json"))
    for variant in load_board(board_id).variants
]


def _raw(board_id: str) -> dict[str, Any]:
    """The board file itself, read here rather than through the code under test."""
    with (Path(MAPS_DIR) / f"{board_id}.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _rules_file(lang: str) -> dict[str, Any]:
    with (LOCALES_DIR / f"rules.{lang}.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def _texts(board_id: str, variant: str, lang: str) -> dict[str, str]:
    return {t.id: t.text for t in topics(load_board(board_id), lang, variant)}


def _ints(value: Any) -> set[int]:
    """Every whole number held anywhere in `value` (the numbers of a board file's sections)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value, abs(value)}
    if isinstance(value, str):
        return {int(value)} if value.isdigit() else set()
    if isinstance(value, dict):
        return set().union(*(_ints(k) | _ints(v) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def _names_out(text: str) -> str:
    """`text` without placeholders and names that hold digits (the Locomotive +4 card, the 1912 logo)."""
    return re.sub(r"\{\w*\}", "", text).replace("+4", "").replace("1912", "")


def _has(text: str, number: int) -> bool:
    """`number` appears in `text` as a number of its own (not inside a longer one)."""
    return re.search(rf"(?<![\d]){number}(?!\d)", text) is not None


# ------------------------------------------------------------------ every topic, both languages


@pytest.mark.parametrize(("board_id", "variant"), CASES)
@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_every_board_and_variant_has_its_topics(board_id: str, variant: str, lang: str) -> None:
    board = load_board(board_id)
    found = topics(board, lang, variant)
    ids = [t.id for t in found]
    assert len(ids) == len(set(ids))
    assert {"overview", "setup", "cards", "claim", "double", "tickets", "end", "scoring"} <= set(ids)
    assert "special" not in ids, "a feature without a topic"  # every special rule has its own text now
    features = board_features(board)
    expected_board_topics = {
        "europe": {"stations", "tunnels", "ferries", "warehouses", "longest", "variant"},
        "usa": {"longest"},
        "germany": {"passengers", "most_tickets", "countries"},
        "marklin": {"passengers", "merchandise", "cards_marklin", "most_tickets", "countries"},
        "japan": {"bullet", "bullet_bonus"},
        "italy": {"ferry_cards", "regions", "countries"},
    }[board_id]
    assert expected_board_topics <= set(ids), (board_id, expected_board_topics - set(ids))
    assert ("longest" in ids) == ("longest_path" in features)
    for topic in found:
        assert topic.title.strip() and topic.text.strip()
        leftovers = [name for _, name, _, _ in string.Formatter().parse(topic.text + topic.title) if name]
        assert not leftovers, (board_id, topic.id, leftovers)


def test_both_languages_write_every_topic_and_word() -> None:
    english, french = _rules_file("en"), _rules_file("fr")
    assert set(english["general"]) == set(french["general"])
    assert set(english["boards"]) == set(french["boards"])
    for board_id, board_topics in english["boards"].items():
        assert set(board_topics) == set(french["boards"][board_id]), board_id
    assert set(english["words"]) <= set(french["words"])
    for section in ("general", *(f"boards.{b}" for b in english["boards"])):
        en_part = english[section] if section == "general" else english["boards"][section.split(".")[1]]
        fr_part = french[section] if section == "general" else french["boards"][section.split(".")[1]]
        for topic_id, entry in en_part.items():
            assert fr_part[topic_id]["text"] != entry["text"], (section, topic_id)  # translated, not copied
            assert fr_part[topic_id].get("when") == entry.get("when"), (section, topic_id)
            placeholders = {n for _, n, _, _ in string.Formatter().parse(entry["text"]) if n}
            fr_placeholders = {n for _, n, _, _ in string.Formatter().parse(fr_part[topic_id]["text"]) if n}
            assert placeholders == fr_placeholders, (section, topic_id)


@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_texts_hold_no_number_of_their_own(lang: str) -> None:
    """Every digit a player reads comes from a placeholder filled from the board file."""
    data = _rules_file(lang)
    entries = [("general", k, v) for k, v in data["general"].items()]
    entries += [(b, k, v) for b, part in data["boards"].items() for k, v in part.items()]
    for where, topic_id, entry in entries:
        assert not re.search(r"\d", _names_out(entry["title"] + entry["text"])), (where, topic_id)
    for key, word in data["words"].items():
        assert not re.search(r"\d", _names_out(word)), key


# ------------------------------------------------------------------ the numbers are the board file's


@pytest.mark.parametrize(("board_id", "variant"), CASES)
@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_numbers_in_the_texts_are_the_board_files(board_id: str, variant: str, lang: str) -> None:
    raw = _raw(board_id)
    rules, options, tickets = raw["rules"], raw.get("options", {}), raw["variants"][variant]["tickets"]
    texts = _texts(board_id, variant, lang)
    deck = rules["deck"]

    assert str(rules["trains_per_player"]) in texts["overview"]
    assert _has(texts["setup"], rules["starting_hand"])
    for length, points in rules["route_points"].items():
        assert f"{length}→{points}" in texts["claim"]
    total = len(COLORS) * deck["per_color"] + sum(
        deck.get(k, 0) for k in ("locomotives", "locomotives_plus4", "passengers")
    )
    assert _has(texts["cards"], total) and _has(texts["cards"], deck["per_color"])
    assert _has(texts["cards"], deck["locomotives"])
    assert _has(texts["end"], rules["end_trigger_trains"])
    assert _has(texts["double"], rules["min_players_for_multi_routes"])
    draw = tickets["draw"]
    drawn = draw["draw"] if isinstance(draw["draw"], int) else sum(draw["draw"].values())
    assert _has(texts["tickets"], draw["keep_min"]) and _has(texts["tickets"], drawn)
    for step in tickets["setup"]:
        counts = [step["draw"]] if isinstance(step["draw"], int) else list(step["draw"].values())
        for count in counts:
            assert _has(texts["setup"], count)
        assert str(step.get("keep_min") or step.get("keep_max")) in texts["setup"]
    if "longest_path_bonus" in rules:
        assert _has(texts["longest"], rules["longest_path_bonus"]["points"])
    if "most_tickets_bonus" in rules:
        assert _has(texts["most_tickets"], rules["most_tickets_bonus"]["points"])
    if "stations_per_player" in rules:
        stations = texts["stations"]
        assert _has(stations, rules["stations_per_player"])
        assert "/".join(map(str, rules["station_costs"])) in stations
        assert _has(stations, rules["station_points"])
        assert _has(texts["tunnels"], REVEALED)
    if "warehouses" in options:
        w = options["warehouses"]
        text = texts["warehouses"]
        assert _has(text, w["depots_per_player"]) and _has(text, w["most_depots_bonus"])
        assert _has(text, w["initial_depots"]) and _has(text, w["depots_per_player"] - w["initial_depots"])
    if "meeples" in rules:
        m = rules["meeples"]
        text = texts["passengers"]
        assert _has(text, len(m["colors"]) * m["per_color"]) and _has(text, m["per_color"])
        assert all(_has(text, p) for p in m["majority_points"])
    if "passengers" in rules:
        assert _has(texts["passengers"], rules["passengers"]["per_player"])
        assert _has(texts["passengers"], rules["passengers"]["cards_per_other_route"])
        special = texts["cards_marklin"]
        assert _has(special, deck["locomotives_plus4"]) and _has(special, deck["passengers"])
        assert _has(special, deck["plus4_min_length"])
        for pile in rules["merchandise"]["piles"].values():
            assert "/".join(map(str, pile["values"])) in texts["merchandise"]
            assert _has(texts["merchandise"], pile["count"])
    if "bullet_trains" in rules:
        bullet = rules["bullet_trains"]
        for players, row in bullet["bonus_by_rank"].items():
            shown = default_catalog().text("list.sep", lang).join(f"{v:+d}" if v else "0" for v in row)
            assert re.search(
                rf"^{players}\s?\w+\s?[:：]\s?{re.escape(shown)}$", texts["bullet_bonus"], re.M
            ), players
        assert str(bullet["no_contribution"]) in texts["bullet_bonus"]
        assert _has(texts["bullet"], bullet["supply"])
        assert _has(texts["end"], bullet["end_trigger_supply"])
        if lang in LANGUAGES:  # they count for every player
            assert "bullet" in texts["tickets"] or "rapides" in texts["tickets"]
    if "ferry_cards" in rules:
        ferry = rules["ferry_cards"]
        text = texts["ferry_cards"]
        assert all(_has(text, ferry[k]) for k in ("pile", "waves_per_card")) and _has(
            text, ferry["max_in_hand"]
        )
    if "regions" in rules:
        regions = rules["regions"]
        top = max(regions["bonus"], key=int)
        for count, points in regions["bonus"].items():
            assert f"{count}{'+' if count == top else ''}→{points}" in texts["regions"]
        assert _has(texts["regions"], len(regions["names"]))
        assert all(name in texts["regions"] for name in regions["double_if_complete"])


@pytest.mark.parametrize(("board_id", "variant"), CASES)
@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_no_number_that_the_board_file_does_not_hold(board_id: str, variant: str, lang: str) -> None:
    """Every number shown is in the board file (its rules, options, variants) or counted from it."""
    raw = _raw(board_id)
    board = load_board(board_id)
    known = _ints(raw["rules"]) | _ints(raw.get("options", {})) | _ints(raw["variants"][variant])
    deck = raw["rules"]["deck"]
    known.add(
        len(COLORS) * deck["per_color"]
        + sum(deck.get(k, 0) for k in ("locomotives", "locomotives_plus4", "passengers"))
    )
    known.add(len(COLORS))
    known.add(raw["rules"]["min_players_for_multi_routes"] - 1)
    known.add(REVEALED)
    decks: dict[str, int] = {}
    for t in select_tickets(board.tickets, board.variant(variant)):
        decks[t.deck] = decks.get(t.deck, 0) + 1
    known |= set(decks.values())
    meeples = raw["rules"].get("meeples")
    if meeples:
        known.add(len(meeples["colors"]) * meeples["per_color"])
    merchandise = raw["rules"].get("merchandise")
    if merchandise:
        known.add(sum(p["count"] for p in merchandise["piles"].values()))
    warehouses = raw.get("options", {}).get("warehouses")
    if warehouses:
        known.add(warehouses["depots_per_player"] - warehouses["initial_depots"])
    if "regions" in raw["rules"]:
        known.add(len(raw["rules"]["regions"]["names"]))
    known.add(1912)  # the name of a ticket logo and variant
    for topic_id, text in _texts(board_id, variant, lang).items():
        shown = {int(n) for n in re.findall(r"\d+", _names_out(text))}
        assert shown <= known, (topic_id, sorted(shown - known))


# ------------------------------------------------------------------ Discord limits


@pytest.mark.parametrize(("board_id", "variant"), CASES)
@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_every_answer_fits_in_a_discord_embed(board_id: str, variant: str, lang: str) -> None:
    """As `/ttr rules` builds it: the title, the topic as description; the overview adds the topic list as a
    field; a provisional board adds a footer."""
    catalog = default_catalog()
    board = load_board(board_id)
    found = topics(board, lang, variant)
    footer = catalog.text("maps.provisional_note", lang) if board.status == "provisional" else ""
    field_name = catalog.text("rules.more", lang)
    listing = ", ".join(f"`{t.id}`" for t in found[1:])
    assert len(listing) <= EMBED_FIELD_VALUE and len(field_name) <= EMBED_TITLE
    for i, topic in enumerate(found):
        title = catalog.text("rules.title", lang, board=board.name, topic=topic.title)
        assert len(title) <= EMBED_TITLE, (topic.id, title)
        assert len(topic.text) <= EMBED_DESCRIPTION, (topic.id, len(topic.text))
        total = len(title) + len(topic.text) + len(footer) + (len(field_name) + len(listing) if i == 0 else 0)
        assert total <= EMBED_TOTAL, (topic.id, total)


# ------------------------------------------------------------------ what the rules say


@pytest.mark.parametrize("lang", LANGUAGES)
def test_japan_end_and_tickets_follow_the_rulebook(lang: str) -> None:
    japan = _texts("japan", "classic", lang)
    bullet = _raw("japan")["rules"]["bullet_trains"]
    # the end needs few trains AND few bullet trains in the shared supply
    assert re.search(rf"\b2\b.*\b{bullet['end_trigger_supply']}\b", japan["end"], re.S)
    assert ("bullet" if lang == "en" else "rapide") in japan["end"]
    # claimed bullet routes count for every player's tickets
    assert ("whoever claimed them" if lang == "en" else "quel que soit celui") in japan["tickets"]
    assert "special" not in japan


def test_warehouses_say_nobody_scores_when_nobody_has_a_depot_left() -> None:
    assert (
        "if nobody has a depot left, nobody scores it" in _texts("europe", "big-cities", "en")["warehouses"]
    )
    assert "personne ne les marque" in _texts("europe", "big-cities", "fr")["warehouses"]


def test_the_variant_topic_follows_the_variant() -> None:
    mega = _texts("europe", "mega", "en")
    assert "89 regular and 12 long destination tickets" in mega["variant"]
    assert "2 long destination tickets, keeping at most 1" in mega["setup"]
    assert "or 3 if they kept no long ticket" in mega["setup"]
    big = _texts("europe", "big-cities", "fr")
    assert "45 cartes Destination" in big["variant"] and "au moins 1 sur 4" in big["tickets"]
    assert "Longue" not in big["setup"]
    assert "variant" not in _texts("usa", "classic", "en")  # one variant only: nothing to choose


def test_japanese_rules_list_with_the_japanese_comma() -> None:
    """Lists inside the rules (the points table, the bullet-train rows) are joined the reader's way."""
    japan = " ".join(_texts("japan", "classic", "ja").values())
    english = " ".join(_texts("japan", "classic", "en").values())
    assert "1→1, 2→2" in english
    assert "1→1、2→2" in japan and "1→1, 2→2" not in japan

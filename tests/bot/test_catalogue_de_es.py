"""The German and Spanish catalogues: every English key and no other (but French's command names and feminine
colours), the same placeholders, nothing left in English by mistake, Discord's limits, and `/ttr rules` with
every topic of the English file."""

from __future__ import annotations

import json
import re
import string
from collections import defaultdict
from typing import Any

import pytest

from bot.i18n import LOCALES_DIR, Catalog

LANGUAGES = ("de", "es")

#: Values written exactly as English writes them, because the word is the same in that language.
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "de": {
        "board.title",
        "status.title",
        "play.then",
        "settings.line",
        "rules.title",
        "status.seat",
        "final.seat",
        "act.claim",
        "rating.settled",
        "refused.illegal",
        "list.semicolon",
        "count.cards",
        "count.deck",
        "route.plain",
        "route.extras",
        "maps.option",
        "board.usa",
        "board.marklin",
        "board.japan",
        "variant.marklin.classic",
        "variant.japan.classic",
        "variant.usa.classic",
        "picture.part_globetrotter",
        "bonus.globetrotter",
        "level.normal",
        "picture.letter_red",
        "picture.letter_blue",
        "picture.letter_green",
        "picture.letter_white",
        "picture.letter_orange",
        "picture.letter_locomotive",
        "bonus.depots",
        "act.depot",
    },
    "es": {
        "board.title",
        "status.title",
        "play.then",
        "settings.line",
        "rules.title",
        "status.seat",
        "final.seat",
        "act.claim",
        "rating.settled",
        "refused.illegal",
        "list.semicolon",
        "count.deck",
        "route.plain",
        "route.extras",
        "board.usa",
        "board.marklin",
        "variant.marklin.classic",
        "variant.usa.classic",
        "level.normal",
        "picture.letter_red",
        "picture.letter_locomotive",
        "maps.provisional",
        "rating.provisional",
        "settings.no",
    },
}

NAME = re.compile(r"^[-_\w]{1,32}$")
#: Realistic long values for the placeholders that are not counts: the longest city pair of the boards.
SAMPLE_TEXT = "Sankt Petersburg – Konstantinopel"
#: ... and for the placeholders that name a person (a Discord display name) or a card colour.
SAMPLES = {
    **dict.fromkeys(
        ("player", "owner", "owners", "host", "current", "old", "first"), "Maximilian Mustermann"
    ),
    **dict.fromkeys(("card", "color"), "Lokomotiven+4"),
    "city": "Konstantinopel",
}
COUNTS = {
    "n",
    "need",
    "have",
    "min",
    "max",
    "page",
    "pages",
    "waves",
    "length",
    "seconds",
    "days",
    "games",
    "wins",
}
BUTTON, SELECT, FIELD_NAME, FIELD_VALUE = 80, 100, 256, 1024


def _load(name: str) -> dict[str, Any]:
    with (LOCALES_DIR / name).open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


EN, FR = _load("en.json"), _load("fr.json")


def _fields(text: str) -> set[tuple[str, str | None]]:
    return {(name, conv) for _, name, _, conv in string.Formatter().parse(text) if name is not None}


def _specs(text: str) -> dict[str, set[str]]:
    specs: dict[str, set[str]] = defaultdict(set)
    for _, name, spec, _ in string.Formatter().parse(text):
        if name:
            specs[name].add(spec or "")
    return specs


def _filled(catalog: Catalog, key: str, lang: str) -> str:
    """`key` in `lang` with realistic parameters: counts as two-digit numbers, other values a long name."""
    text = catalog.messages[lang][key]
    params: dict[str, Any] = {}
    for name, specs in _specs(text).items():
        counted = name in COUNTS or any(s.startswith("@") for s in specs)
        params[name] = 12 if counted else SAMPLES.get(name, SAMPLE_TEXT)
    return catalog.text(key, lang, **params) if params else text


@pytest.fixture(scope="module", params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def table(lang: str) -> dict[str, str]:
    data = _load(f"{lang}.json")
    assert all(isinstance(v, str) and v.strip() for v in data.values())
    return data


def test_the_keys_are_englishs_and_frenchs_command_names(lang: str, table: dict[str, str]) -> None:
    commands = {k for k in FR if k.startswith(("cmd.", "choice."))}
    feminine = {k for k in FR if ".fem." in k}
    allowed = set(EN) | commands | (feminine if lang == "es" else set())
    assert sorted(set(table) - allowed) == []
    assert sorted((set(EN) | commands) - set(table)) == []
    if lang == "es":  # colours agree with the noun: every colour has its feminine forms, as in French
        assert feminine <= set(table)


def test_the_placeholders_are_englishs(lang: str, table: dict[str, str]) -> None:
    wrong = [k for k in EN if _fields(table[k]) != _fields(EN[k])]
    assert not wrong, wrong
    for key, text in table.items():  # a count's word forms are written as one|other
        for name, specs in _specs(text).items():
            for spec in specs:
                if spec.startswith("@"):
                    assert spec.count("|") == 1, (key, name, spec)


def test_nothing_is_left_in_english_by_mistake(lang: str, table: dict[str, str]) -> None:
    same = {k for k in EN if table[k] == EN[k] and not re.fullmatch(r"[\W\d_]*(\{[^}]*\}[\W\d_]*)*", EN[k])}
    assert same == SAME_AS_ENGLISH[lang] & same, sorted(same - SAME_AS_ENGLISH[lang])
    stale = SAME_AS_ENGLISH[lang] - {k for k in EN if table[k] == EN[k]}
    assert not stale, f"listed as English but translated: {sorted(stale)}"


def test_slash_command_names_and_descriptions_fit_discord(table: dict[str, str]) -> None:
    siblings: dict[str, list[str]] = defaultdict(list)
    for key, value in table.items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert NAME.match(value) and value == value.lower() and " " not in value, (key, value)
            siblings[key.rsplit(".", 2)[0]].append(value)
        elif key.startswith("cmd.") and key.endswith(".description") or key.startswith("choice."):
            assert 1 <= len(value) <= 100, (key, len(value))
    for parent, names in siblings.items():
        assert len(names) == len(set(names)), (parent, names)
    described = [
        k[: -len(".description")] for k in table if k.startswith("cmd.ttr.") and k.endswith(".description")
    ]
    assert all(f"{k}.name" in table for k in described if k != "cmd.ttr")


def test_commands_named_in_messages_are_the_localized_ones(lang: str, table: dict[str, str]) -> None:
    """`/ttr hand` in a message is the name Discord shows this language's players, options included."""
    commands = {v: k[: -len(".name")] for k, v in table.items() if re.fullmatch(r"cmd\.ttr\.\w+\.name", k)}
    for key, text in table.items():
        for command, tail in re.findall(r"/ttr (\w+)((?: \w+:)*)", text):
            assert command in commands, (key, command)
            for option in re.findall(r"(\w+):", tail):
                params = {v for k, v in table.items() if k.startswith(commands[command] + ".param.")}
                assert option in params, (key, command, option)
    rules = json.dumps(_load(f"rules.{lang}.json"), ensure_ascii=False)
    for command, option in re.findall(r"/ttr (\w+) (\w+):", rules):
        assert command in commands, command
        assert option in {v for k, v in table.items() if k.startswith(commands[command] + ".param.")}, option


def test_labels_fit_discord_with_realistic_values(lang: str, table: dict[str, str]) -> None:
    catalog = Catalog({"en": EN, lang: table})
    for key in table:
        if key.startswith(("cmd.", "choice.")):
            continue
        shown = _filled(catalog, key, lang)
        assert "{" not in shown.replace("{!r}", ""), (key, shown)
        if key.startswith("btn.") or key in {"web.btn.map", "web.btn.browser"}:
            assert len(shown) <= BUTTON, (key, len(shown))
        if key.startswith(
            ("act.", "menu.pick", "menu.keep_placeholder", "menu.other_payment", "lanes.other")
        ):
            assert len(shown) <= SELECT, (key, len(shown))
        if key.endswith((".title", "title_plain")) or key.startswith(("hand.", "lobby.players", "final.")):
            assert len(shown) <= FIELD_NAME, (key, len(shown))
        assert len(shown) <= FIELD_VALUE, (key, len(shown))


def test_route_letters_are_short_and_never_shared(table: dict[str, str]) -> None:
    letters = {k: v for k, v in table.items() if k.startswith("picture.letter_")}
    assert set(letters) == {k for k in EN if k.startswith("picture.letter_")}
    assert all(1 <= len(v) <= 2 and v[0].isupper() for v in letters.values()), letters
    assert len(set(letters.values())) == len(letters), letters


def test_plural_forms_differ_where_the_word_does(lang: str, table: dict[str, str]) -> None:
    """A counted noun has its own plural ("1 Karte", "2 Karten"), so no "2 Karte"."""
    for key in EN:
        if key.endswith(".one") and key.startswith(("n.", "hand.")) and EN[key] != EN[key[:-4] + ".other"]:
            assert table[key] != table[key[:-4] + ".other"], key


# ------------------------------------------------------------------ /ttr rules


def _structure(value: Any, where: str = "") -> dict[str, Any]:
    """Every leaf's path -> its placeholders (strings) or the list itself (`when`)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_structure(v, f"{where}.{k}"))
        return out
    if isinstance(value, str):
        return {where: {n for _, n, _, _ in string.Formatter().parse(value) if n}}
    return {where: value}


def test_rules_have_every_topic_and_word_of_english(lang: str) -> None:
    english, ours = _load("rules.en.json"), _load(f"rules.{lang}.json")
    en_leaves, our_leaves = _structure(english), _structure(ours)
    # a counted word's singular (`<word>_one`, as French writes them) is the one addition the rules allow
    singulars = {f"{path}_one" for path in en_leaves if path.startswith(".words.")}
    assert set(en_leaves) <= set(our_leaves) <= set(en_leaves) | singulars
    for path, placeholders in our_leaves.items():
        assert placeholders == en_leaves[path.removesuffix("_one") if path in singulars else path], path
    for section in [english["general"], *english["boards"].values()]:
        for entry in section.values():
            assert entry["text"] not in json.dumps(ours, ensure_ascii=False)
    topics = [*ours["general"].values(), *(e for part in ours["boards"].values() for e in part.values())]
    texts = [e["title"] + e["text"] for e in topics] + list(ours["words"].values())
    assert not [t for t in texts if re.search(r"\d", re.sub(r"\{\w*\}|\+4|1912", "", t))]

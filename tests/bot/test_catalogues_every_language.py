"""Every catalogue present (en, fr, and de, it, ja, es as soon as theirs land) has every key of English, with the
same placeholders, and the plural forms its language's CLDR rule needs; every rules file every topic."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot.i18n import LOCALES_DIR, Catalog
from render.language import plural_forms_needed

CATALOGUE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")
LANGUAGES = sorted(p.stem for p in LOCALES_DIR.glob("*.json") if CATALOGUE.match(p.stem))
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: CLDR's plural categories: a key ending in one of them is a form of the key before it
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def _load(path: Path) -> dict[str, str]:
    return json.loads(path.read_text("utf-8"))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def plural_groups(table: dict[str, str]) -> dict[str, set[str]]:
    """{key: its plural forms} for the keys written in forms (`n.turns_left.one`, `n.turns_left.other`; a key
    that merely ends in "other", `lanes.other`, is no form)."""
    groups: dict[str, set[str]] = {}
    for key in table:
        stem, _, form = key.rpartition(".")
        if form in CATEGORIES and stem:
            groups.setdefault(stem, set()).add(form)
    return {stem: forms for stem, forms in groups.items() if forms - {"other"}}


def missing_in(table: dict[str, str], english: dict[str, str], language: str) -> list[str]:
    """English's keys `table` lacks: a plain key, or a form its language's rule needs of a key in forms."""
    needed = plural_forms_needed(language)
    groups = plural_groups(english)
    missing = [k for k in english if k.rpartition(".")[0] not in groups and k not in table]
    for stem in groups:
        missing += [f"{stem}.{form}" for form in sorted(needed) if f"{stem}.{form}" not in table]
    return sorted(missing)


def placeholder_mismatches(table: dict[str, str], english: dict[str, str]) -> list[str]:
    """Keys whose placeholders differ from English's (a form English lacks compares with English's `other`)."""
    groups = plural_groups(english)
    out = []
    for key, text in table.items():
        stem, _, form = key.rpartition(".")
        model = english.get(key)
        if model is None and stem in groups:
            model = english.get(f"{stem}.other")
        if model is not None and placeholders(text) != placeholders(model):
            out.append(key)
    return out


@pytest.mark.parametrize("language", OTHERS)
def test_every_catalogue_has_every_english_key_and_the_plural_forms_its_language_needs(language: str) -> None:
    english = _load(LOCALES_DIR / "en.json")
    table = _load(LOCALES_DIR / f"{language}.json")
    assert missing_in(table, english, language) == []
    assert placeholder_mismatches(table, english) == []


@pytest.mark.parametrize("language", OTHERS)
def test_every_rules_file_has_every_topic_and_word_with_the_same_placeholders(language: str) -> None:
    english = _load(LOCALES_DIR / "rules.en.json")
    path = LOCALES_DIR / f"rules.{language}.json"
    assert path.exists(), f"no rules.{language}.json beside {language}.json"
    other = _load(path)
    assert set(other["general"]) == set(english["general"])
    assert set(other["boards"]) == set(english["boards"])
    assert set(english["words"]) <= set(other["words"])
    sections = [("general", english["general"], other["general"])]
    sections += [(b, english["boards"][b], other["boards"][b]) for b in english["boards"]]
    for where, en_part, part in sections:
        assert set(part) == set(en_part), where
        for topic, entry in en_part.items():
            assert part[topic].get("when") == entry.get("when"), (where, topic)
            assert placeholders(part[topic]["text"]) == placeholders(entry["text"]), (where, topic)
    for key, word in english["words"].items():
        assert placeholders(other["words"][key]) == placeholders(word), key


def test_the_checks_see_a_missing_key_a_missing_form_and_a_wrong_placeholder() -> None:
    english = {"a": "A {x}", "c.one": "{n} card", "c.other": "{n} cards", "b": "B"}
    assert missing_in({"a": "x {x}", "c.other": "{n}枚", "b": "b"}, english, "ja") == []  # one form: other
    assert missing_in({"a": "x {x}", "c.other": "{n} Karten", "b": "b"}, english, "de") == ["c.one"]
    assert missing_in({"c.one": "1", "c.other": "2"}, english, "fr") == ["a", "b"]
    polish = {"a": "{x}", "b": "b", "c.one": "{n}", "c.few": "{n}", "c.other": "{n}"}
    assert missing_in(polish, english, "pl") == ["c.many"]
    assert placeholder_mismatches({"a": "A {y}", "c.few": "{count}"}, english) == ["a", "c.few"]


def test_every_catalogue_loads_and_speaks_through_the_fallback_chain() -> None:
    catalog = Catalog.load()
    assert catalog.locales == LANGUAGES
    for language in LANGUAGES:
        assert catalog.chain(language)[0] == language
        assert catalog.chain(f"{language}-XX")[0] == language

"""Counting and numbers per language (CLDR through Babel): one rule for the messages and the pictures' words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.i18n import Catalog
from render.language import decimal_mark, number_text, plural_form, plural_forms_needed
from render.words import PictureWords


def test_english_and_french_count_as_they_always_did() -> None:
    assert [plural_form(n, "en") for n in (0, 1, 2, 1.0, 1.5, 0.5, 21)] == [
        "other", "one", "other", "one", "other", "other", "other",
    ]  # fmt: skip
    assert [plural_form(n, "fr") for n in (0, 1, 1.5, 1.99, 2, 0.25)] == [
        "one",
        "one",
        "one",
        "one",
        "other",
        "one",
    ]
    assert plural_form(Decimal("1.0"), "en") == "one" and plural_form(Decimal("1.5"), "fr") == "one"


def test_every_language_counts_by_its_cldr_rule() -> None:
    assert [plural_form(n, "de") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form(n, "es") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form(n, "it") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert {plural_form(n, "ja") for n in range(0, 30)} == {"other"}  # one form for every number
    assert [plural_form(n, "pl") for n in (1, 2, 5, 22, 25)] == ["one", "few", "many", "few", "many"]
    assert plural_form(3, "xx") == "other" and plural_form(1, "pt-BR") == "one"  # unknown: English's rule


def test_the_forms_a_catalogue_needs_are_those_of_a_games_counts() -> None:
    assert plural_forms_needed("en") == {"one", "other"}
    assert plural_forms_needed("fr") == {"one", "other"}  # French "many" is for millions
    assert plural_forms_needed("ja") == {"other"}
    assert plural_forms_needed("pl") == {"one", "few", "many", "other"}


def test_numbers_take_the_languages_decimal_mark_and_no_grouping() -> None:
    assert [decimal_mark(lang) for lang in ("en", "fr", "de", "es", "it", "ja")] == [
        ".",
        ",",
        ",",
        ",",
        ",",
        ".",
    ]
    assert [number_text(v, "de") for v in (24.0, 1.5, Decimal("12.0"), 1234.5)] == [
        "24",
        "1,5",
        "12,0",
        "1234,5",
    ]
    assert [number_text(v, "en-US") for v in (24.0, 1.5, 1234.5)] == ["24", "1.5", "1234.5"]
    assert number_text(0.25, "ja") == "0.25"


def _catalog() -> Catalog:
    return Catalog(
        {
            "en": {"c.one": "{n} card", "c.other": "{n} cards", "g": "{n} {n:@game|games}"},
            "pl": {"c.one": "{n} karta", "c.few": "{n} karty", "c.other": "{n} kart", "g": "{n:@gra|gry}"},
            "ja": {"c.other": "{n}枚", "g": "{n}{n:@回|回}"},
        }
    )


def test_a_message_takes_the_form_of_its_category_else_other() -> None:
    catalog = _catalog()
    assert [catalog.text("c", "en", n=n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [catalog.text("c", "pl", n=n) for n in (1, 3, 5)] == [
        "1 karta",
        "3 karty",
        "5 kart",
    ]  # many -> other
    assert [catalog.text("c", "ja", n=n) for n in (1, 2)] == ["1枚", "2枚"]
    assert [catalog.text("g", "en", n=n) for n in (1, 2)] == ["1 game", "2 games"]
    assert [catalog.text("g", "pl", n=n) for n in (1, 2)] == ["gra", "gry"]
    assert catalog.text("c", "de", n=1.5) == "1,5 cards"  # no German catalogue: English words, German number


@pytest.mark.parametrize(
    ("language", "counts"), [("en", ["0 c", "1 c1", "2 c"]), ("fr", ["0 c1", "1 c1", "2 c"])]
)
def test_the_pictures_count_by_the_same_rule(language: str, counts: list[str]) -> None:
    words = PictureWords(language=language, hand_cards_one="{n} c1", hand_cards_other="{n} c")
    assert [words.count("hand_cards", n) for n in (0, 1, 2)] == counts
    assert words.zero_is_singular is (language == "fr")
    assert (
        PictureWords(language="ja", hand_cards_one="x", hand_cards_other="{n}枚").count("hand_cards", 1)
        == "1枚"
    )


def test_a_language_never_borrows_one_english_form_of_a_key_it_has() -> None:
    catalog = Catalog({"en": {"c.one": "green", "c.other": "greens"}, "ja": {"c.other": "緑"}})
    assert catalog.text("c", "ja") == "緑"  # a colour named alone: Japanese has one form
    assert catalog.text("c", "ja", n=1) == "緑" and catalog.text("c", "en") == "green"

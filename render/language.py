"""How each language counts and writes numbers, from CLDR through Babel: the one rule the catalogue's messages
(`bot.i18n`) and the pictures' words (`render.words`) both follow.

`plural_form` is CLDR's cardinal category of a number in a language ("one", "few", "many", "other"...): English
says "1 card" for exactly 1, French "0 carte" and "1,5 heure" (a whole part of 0 or 1), Japanese has one form for
every number, Polish three. A whole float counts as its integer (1.0 is "1 hour": the bot writes it "1").
`number_text` writes a number with the language's decimal mark and no grouping ("1.5", "1,5", "1234").
A language Babel does not know counts and writes as English.
"""

from __future__ import annotations

import math
from decimal import Decimal
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol

#: The language a code Babel does not know falls back to.
FALLBACK_LANGUAGE = "en"

#: The counts a game shows (cards, trains, points, players, turns): the plural forms a catalogue must hold are
#: the categories of these in its language (French "many" is for millions: the game never says it).
GAME_COUNTS = range(0, 1001)


@cache
def _locale(language: str) -> Locale:
    code = language.replace("-", "_")
    for candidate in (code, code.split("_")[0], FALLBACK_LANGUAGE):
        try:
            return Locale.parse(candidate)
        except (UnknownLocaleError, ValueError):
            continue
    raise AssertionError("Babel knows English")  # pragma: no cover


def plural_form(n: float | Decimal, language: str) -> str:
    """CLDR's cardinal plural category of `n` in `language` ("fr", "pt-BR"): "one", "other", "few"..."""
    count: float | Decimal = int(n) if math.isfinite(n) and n == int(n) else n
    return str(_locale(language).plural_form(abs(count)))  # type: ignore[arg-type]  # Babel types it loosely


@cache
def plural_forms_needed(language: str) -> frozenset[str]:
    """The plural forms a catalogue in `language` must hold: the categories of the counts a game shows
    (`GAME_COUNTS`), and "other", the one every missing form falls back to (Polish counts never reach it)."""
    return frozenset(plural_form(n, language) for n in GAME_COUNTS) | {"other"}


@cache
def decimal_mark(language: str) -> str:
    """The language's decimal separator: "." in English and Japanese, "," in French, German, Spanish, Italian."""
    return str(get_decimal_symbol(_locale(language)))


def number_text(value: float | Decimal, language: str) -> str:
    """`value` as `language` writes it: a float is "24" when whole, else at most 6 significant digits; a
    `Decimal` has the digits it holds ("12.0"); both with the language's decimal mark ("1.5" in English, "1,5"
    in French), without grouping."""
    if isinstance(value, Decimal):
        text = f"{value:f}"
    elif math.isfinite(value) and value == int(value):
        return str(int(value))
    else:
        text = f"{value:g}"
    return text.replace(".", decimal_mark(language))

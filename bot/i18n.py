"""Message catalogues (`bot/locales/<lang>.json`): a message (`bot.messages`) in a language.

A catalogue is a flat JSON object of key -> text with `{name}` placeholders. `Catalog.text(key, locale)` tries
the exact Discord locale ("pt-BR"), then its language ("pt"), then English, then the key itself, so a missing
translation shows English and a missing key shows the key instead of failing.

A parameter may itself be a message (`Text`, `Join`, `SeatRef`: a seat's name from the seat table the
catalogue was given with `seated`): it is translated in the same language first, so a game
event is data (`Text("ev.claim", {"route": ..., "paid": Join(...)})`) until the adapter shows it. Plurals: when
the parameters hold a number `n` (an int or a float) and the catalogue has `<key>.<category>` forms, the form is
the one of `n`'s CLDR plural category in the language (`render.language.plural_form`, Babel: "one", "few",
"many", "other"...; French: a whole part of 0 or 1 is "one"), else `<key>.other`; a key with only forms is
shown in its `one` form without `n` (a colour name alone). A float parameter is written as the language writes
numbers (`number_text`: "1.5" in English, "1,5" in French, "24" when whole); a `Decimal` keeps the digits it
holds (`Decimal("12.0")`: "12.0", "12,0": a rating shown to one decimal); an int as it is.
A placeholder may ask for a form of a message parameter (``{card:fem}``, ``{color:fem.other}``): the key
``<key>.fem`` (and its plural forms) where the catalogue has it, else the message as usual, so French adjectives
agree ("une carte verte visible") while English templates need no form. ``{owner:de}`` writes the preposition
"de" before the value, elided before a vowel ("l'entrepôt d'alice", "de bob"). A number placeholder may ask for
the word it counts (``{games:@game|games}``, ``{need:@carte|cartes}``; a message parameter's form in that
number: ``{color:fem@need}``): the first word when that number's CLDR category is "one", the second otherwise, so a count other than `n` agrees too ("{games} {games:@game|games}": "1
game", "2 games"; French "0 partie").

No discord import here: the manager's logs and the tests read the catalogue too. What is Discord's (the
slash-command translator, the language of an interaction) is in `bot/discord/language.py`.
"""

from __future__ import annotations

import copy
import json
import logging
import math
import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from decimal import Decimal
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from bot.messages import Join, Message, Place, SeatRef, Text
from maps.city_names import city_name
from render.language import number_text, plural_form, plural_forms_needed

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
FALLBACK = "en"
_CATALOG_FILE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


Locale = str | Enum  # a locale code ("fr", "en-US") or an enum whose value is one (discord.Locale.french)


def language_of(locale: Locale | None) -> str:
    """`discord.Locale.french` -> "fr", "en-US" -> "en-US"; None -> ""."""
    if locale is None:
        return ""
    return str(getattr(locale, "value", locale)).replace("_", "-")


class Catalog:
    """All message catalogues, keyed by locale code."""

    def __init__(self, messages: Mapping[str, Mapping[str, str]], *, default: str = FALLBACK) -> None:
        self.messages = {code: dict(table) for code, table in messages.items()}
        self.default = default if default in self.messages else FALLBACK
        self.seats: tuple[Message, ...] = ()  # the seat table `SeatRef`s are named from (`seated`)

    def seated(self, seats: Sequence[Message]) -> Catalog:
        """This catalogue naming seat n `seats[n]` (a reply's seat table): shares the catalogues."""
        if tuple(seats) == self.seats:
            return self
        other = copy.copy(self)
        other.seats = tuple(seats)
        return other

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR, *, default: str = FALLBACK) -> Catalog:
        messages: dict[str, dict[str, str]] = {}
        for path in sorted(directory.glob("*.json")):
            if not _CATALOG_FILE.match(path.stem):
                continue
            with path.open(encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise ValueError(f"{path}: a catalogue must be a flat object of strings")
            messages[path.stem] = data
        if FALLBACK not in messages:
            raise ValueError(f"{directory}: no {FALLBACK}.json catalogue")
        return cls(messages, default=default)

    @property
    def locales(self) -> list[str]:
        return sorted(self.messages)

    def chain(self, locale: Locale | None) -> list[str]:
        """Catalogues to try for `locale`, best first."""
        code = language_of(locale)
        out: list[str] = []
        for candidate in (code, code.split("-")[0], self.default, FALLBACK):
            if candidate and candidate in self.messages and candidate not in out:
                out.append(candidate)
        return out

    def lookup(self, key: str, locale: Locale | None) -> str | None:
        for code in self.chain(locale):
            text = self.messages[code].get(key)
            if text is not None:
                return text
        return None

    def exact(self, key: str, locale: Locale | None) -> str | None:
        """The translation in exactly this locale or its language, without falling back to English."""
        code = language_of(locale)
        for candidate in (code, code.split("-")[0]):
            table = self.messages.get(candidate)
            if table is not None and key in table:
                return table[key]
        return None

    def template(self, key: str, locale: Locale | None, n: Any = None) -> str | None:
        """The text of `key` (its plural form for the number `n` when the catalogue has forms: the form of `n`'s
        CLDR category, else `other`; without `n`, a key with only forms gives its `one`), from the first catalogue
        of the chain that has it in any form, so a language never borrows one English form of a key it has."""
        forms: tuple[str, ...] = ()
        if isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n):
            forms = tuple(dict.fromkeys((plural_form(n, language_of(locale) or self.default), "other")))
        candidates = (*(f"{key}.{form}" for form in forms), key, f"{key}.one", f"{key}.other")
        for code in self.chain(locale):
            table = self.messages[code]
            for candidate in candidates:
                found = table.get(candidate)
                if found is not None:
                    return found
        return None

    def text(self, key: str, locale: Locale | None = None, /, **params: Any) -> str:
        template = self.template(key, locale, params.get("n"))
        if template is None:
            log.warning("missing message key %r", key)
            return key
        if not params:
            return template
        return _Formatter(self, locale).vformat(template, (), _SafeDict(params))

    def value_text(self, value: Any, locale: Locale | None, form: str = "") -> Any:
        """A parameter as `locale` writes it: a message translated (``form``, the placeholder's format spec,
        picks the message's form ``<key>.<form>`` when the catalogue has it), a float or Decimal as the language
        writes numbers, anything else as it is."""
        if isinstance(value, Text) and form:
            found = self.template(f"{value.key}.{form}", locale, value.params.get("n"))
            if found is not None:
                return self.render(Text(f"{value.key}.{form}", value.params), locale)
        if isinstance(value, Text | Join | SeatRef | Place):
            return self.render(value, locale)
        if isinstance(value, float | Decimal):
            return number_text(value, language_of(locale) or self.default)
        return value

    def render(self, message: Message | None, locale: Locale | None) -> str | None:
        """A reply's text in `locale`: plain strings pass through, `Text` is looked up, `Join` joins its parts."""
        if message is None or isinstance(message, str):
            return message
        if isinstance(message, Place):
            return city_name(message.board, message.name, language_of(locale) or self.default)
        if isinstance(message, SeatRef):
            if 0 <= message.seat < len(self.seats):
                return self.render(self.seats[message.seat], locale)
            return message.stored
        if isinstance(message, Join):
            text = message.sep.join(self.render(part, locale) or "" for part in message.parts)
            if message.tail is not None and len(text) > message.tail:
                text = "…" + text[len(text) - message.tail + 1 :]
            if message.head is not None and len(text) > message.head:
                text = text[: message.head - 2].rsplit("\n", 1)[0] + "\n…"
            return text
        return self.text(message.key, locale, **dict(message.params))

    def has(self, key: str, locale: str) -> bool:
        """Whether `locale`'s own catalogue has `key` (or its plural forms)."""
        table = self.messages.get(locale, {})
        return key in table or f"{key}.one" in table

    def missing_keys(self, locale: str) -> set[str]:
        return set(self.messages[FALLBACK]) - set(self.messages.get(locale, {}))


class _Formatter(string.Formatter):
    """Fills a template's placeholders in the catalogue's language; a placeholder's format spec names a form of
    a message parameter (``{card:fem}``: ``card.green.fem`` where the catalogue has it, for a French adjective
    that agrees with a feminine noun, "une carte verte"), and ``{card:fem@need}`` that form in the number of the
    count `need` ("1 carte noire", "4 cartes noires")."""

    def __init__(self, catalog: Catalog, locale: Locale | None) -> None:
        self.catalog = catalog
        self.locale = locale
        self.params: Mapping[str, Any] = {}

    def vformat(self, format_string: str, args: Any, kwargs: Mapping[str, Any]) -> str:
        self.params = kwargs  # a form may follow another parameter's count (``{color:fem@need}``)
        return super().vformat(format_string, args, kwargs)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is None:
            return value
        return super().convert_field(self.catalog.value_text(value, self.locale), conversion)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if (
            format_spec.startswith("@")
            and isinstance(value, int | float | Decimal)
            and not isinstance(value, bool)
        ):
            one, _, other = format_spec[1:].partition("|")
            language = language_of(self.locale) or self.catalog.default
            return one if plural_form(value, language) == "one" else (other or one)
        if isinstance(value, Text) and "@" in format_spec:
            form, _, count = format_spec.partition("@")
            value = Text(value.key, {**value.params, "n": self.params.get(count)})
            return self.catalog.value_text(value, self.locale, form)
        if format_spec in ELIDING:
            return elided(format_spec, str(self.catalog.value_text(value, self.locale)))
        if isinstance(value, Text | Join | SeatRef | Place):
            return self.catalog.value_text(value, self.locale, format_spec)
        shown = self.catalog.value_text(value, self.locale)
        try:
            return format(shown, format_spec)
        except (TypeError, ValueError):  # a form asked of a plain value: the value as it is
            return str(shown)


#: Prepositions a placeholder may ask for (``{owner:de}``): French elides them before a vowel.
ELIDING = frozenset({"de"})


def elided(preposition: str, text: str) -> str:
    """`preposition` before `text`, elided before a vowel as French writes it: "d'alice", "d'Essen", "de bob"
    (a mute or aspirated h cannot be told apart by spelling: "de" stays before an h)."""
    first = next((c for c in unicodedata.normalize("NFD", text) if c.isalnum()), "")
    if first.lower() in "aeiouy" and first:
        return f"{preposition[:-1]}'{text}"
    return f"{preposition} {text}"


@cache
def default_catalog() -> Catalog:
    return Catalog.load()


def english(message: Message) -> str:
    """`message` in English, each seat by its stored name (logs, autocomplete values, tests)."""
    return default_catalog().render(message, FALLBACK) or ""


def check_placeholders(catalog: Catalog) -> list[str]:
    """Problems where a translation's placeholders differ from English (used by tests)."""
    fmt = string.Formatter()

    def names(text: str) -> set[str]:
        return {name for _, name, _, _ in fmt.parse(text) if name}

    problems = []
    english = catalog.messages[FALLBACK]
    for code, table in catalog.messages.items():
        for key, text in table.items():
            if key in english and names(text) != names(english[key]):
                problems.append(f"{code}:{key}")
    return problems


__all__ = [
    "Catalog",
    "check_placeholders",
    "default_catalog",
    "elided",
    "language_of",
    "number_text",
    "plural_form",
    "plural_forms_needed",
]

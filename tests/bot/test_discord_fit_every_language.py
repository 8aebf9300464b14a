"""Every label that goes into a Discord component fits Discord's limits in every catalogue present (de, it, ja,
es as soon as theirs land; German's long words included), with the longest realistic parameters: 32-character
names (Discord's longest display name), three-digit counts, the longest city and colour of the language.

Discord's limits: a button's label 80 characters, a select option's label and description 100, a select's
placeholder 150, an embed field's name 256 and value 1024; a command's or option's name 1-32 characters,
lowercase letters (any script), digits, - and _, unique among its siblings; a description 1-100.
"""

from __future__ import annotations

import ast
import json
import random
import re
import string
import unicodedata
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot import presenters
from bot.i18n import LOCALES_DIR, Catalog, default_catalog
from bot.messages import Text
from bot.play import labels
from bot.play.chat import (
    MAX_BUTTON_LABEL,
    MAX_FIELD,
    MAX_FIELD_NAME,
    MAX_OPTION_DESCRIPTION,
    MAX_OPTION_LABEL,
    MAX_PLACEHOLDER,
)
from engine.actions import KeepTickets
from engine.rules import apply, legal_actions, new_game, to_act
from maps.board import board_ids, load_board
from maps.city_names import city_names

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = default_catalog().locales
NAME = "W" * 32  # Discord's longest display name
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


@cache
def component_keys() -> dict[str, set[str]]:
    """The catalogue keys the bot's code puts in each kind of component (`Text("key")` inside a ButtonSpec,
    OptionSpec, SelectSpec or FieldSpec), and the menus' button and placeholder keys."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kind = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if kind not in ("ButtonSpec", "OptionSpec", "SelectSpec", "FieldSpec"):
                continue
            for arg in (*node.args, *(k.value for k in node.keywords)):
                for inner in ast.walk(arg):
                    if (
                        isinstance(inner, ast.Call)
                        and getattr(inner.func, "id", None) == "Text"
                        and inner.args
                        and isinstance(inner.args[0], ast.Constant)
                    ):
                        found[kind].add(inner.args[0].value)
    for menu in presenters.menus():
        found["ButtonSpec"].add(menu.button)
        found["SelectSpec"].add(menu.pick)
    english = default_catalog().messages["en"]
    found["ButtonSpec"] |= {k for k in english if k.startswith(("btn.", "web.btn."))}
    found["OptionSpec"] |= {k for k in english if k.startswith("ai.")}
    return dict(found)


def longest_city(language: str) -> str:
    names = [c.name for bid in board_ids() for c in load_board(bid).cities]
    names += [n for bid in board_ids() for n in city_names(bid, language).values()]
    return max(names, key=len)


def longest_colour(catalog: Catalog, language: str) -> Text:
    colours = [k.rsplit(".", 1)[0] for k in catalog.messages["en"] if re.fullmatch(r"card\.\w+\.one", k)]
    return max((Text(c) for c in colours), key=lambda t: len(catalog.render(t, language) or ""))


def long_params(template: str, catalog: Catalog, language: str) -> dict[str, Any]:
    """The longest realistic value of each placeholder of `template`."""
    city = longest_city(language)
    out: dict[str, Any] = {}
    for _, name, _, _ in string.Formatter().parse(template):
        if not name or name in out:
            continue
        if name in ("player", "players", "host", "owner", "owners", "name", "who", "user", "winner"):
            out[name] = NAME
        elif name in ("city", "a", "b", "from", "to", "place"):
            out[name] = city
        elif name in ("route", "what"):
            out[name] = f"{city}–{city}"
        elif name in ("card", "color", "colour"):
            out[name] = longest_colour(catalog, language)
        else:
            out[name] = 999
    return out


def fits(language: str, keys: set[str], limit: int) -> list[tuple[str, int, str]]:
    catalog = default_catalog()
    over = []
    for key in sorted(keys):
        template = catalog.template(key, language, 999) or ""
        text = catalog.text(key, language, **long_params(template, catalog, language))
        if len(text) > limit or not text.strip():
            over.append((key, len(text), text))
    return over


@pytest.mark.parametrize("language", LANGUAGES)
def test_button_labels_option_labels_placeholders_and_field_names_fit(language: str) -> None:
    keys = component_keys()
    assert len(keys["ButtonSpec"]) > 20 and keys["FieldSpec"] and keys["SelectSpec"]
    assert fits(language, keys["ButtonSpec"], MAX_BUTTON_LABEL) == []
    assert fits(language, keys["OptionSpec"], MAX_OPTION_LABEL) == []
    assert fits(language, keys["SelectSpec"], MAX_PLACEHOLDER) == []
    assert fits(language, keys["FieldSpec"], MAX_FIELD_NAME) == []


def _positions(board_id: str, seed: int, steps: int = 160, every: int = 8):  # type: ignore[no-untyped-def]
    """Positions of a game of random moves between five seats (the most labels: every seat's names)."""
    players = max(load_board(board_id).rules.get("players", [2, 5]))
    state = new_game(board_id, players, seed=seed)
    rng = random.Random(seed)
    for step in range(steps):
        seats = to_act(state)
        if not seats or state.finished:
            return
        seat = seats[0]
        acts = legal_actions(state, seat)
        if not acts:
            return
        if step % every == 0:
            yield state, seat, acts
        apply(state, seat, rng.choice(acts))


@cache
def action_labels() -> tuple[tuple[str, Any], ...]:
    """(board, label message) of every legal action met in a random game on every board."""
    out = {}
    for board_id in board_ids():
        for state, seat, acts in _positions(board_id, seed=7):
            for action in acts:
                if isinstance(action, KeepTickets):  # kept through a select of tickets, never as one label
                    continue
                message = labels.message(state, seat, action)
                out.setdefault((board_id, repr(message)), message)
    return tuple((board_id, message) for (board_id, _), message in out.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_action_label_fits_a_button(language: str) -> None:
    """An action's label is a button's (a menu of five or fewer) or a select option's: 80 characters."""
    catalog = default_catalog().seated((NAME,) * 6)
    found = action_labels()
    assert len(found) > 200
    over = [
        (board_id, text)
        for board_id, message in found
        if len(text := catalog.render(message, language) or "") > MAX_BUTTON_LABEL
    ]
    assert over == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_command_name_and_description_is_one_discord_takes(language: str) -> None:
    table = default_catalog().messages[language]
    siblings: dict[str, dict[str, str]] = defaultdict(dict)
    for key, text in table.items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert COMMAND_NAME.match(text) and text == text.lower(), (key, text)
            assert all(unicodedata.category(c)[0] in "LN" or c in "-_" for c in text), (key, text)
            parent = key[: -len(".name")].rsplit(".", 2 if ".param." in key else 1)[0]
            assert text not in siblings[parent], (key, siblings[parent].get(text))
            siblings[parent][text] = key
        elif key.startswith("cmd.") and key.endswith(".description"):
            assert 1 <= len(text) <= MAX_OPTION_DESCRIPTION, (key, len(text))
        elif key.startswith("choice."):
            assert 1 <= len(text) <= MAX_OPTION_LABEL, (key, len(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_text_is_longer_than_an_embed_field(language: str) -> None:
    """Any text may end up in a field's value: none is over 1024 characters, parameters filled."""
    table = json.loads((LOCALES_DIR / f"{language}.json").read_text("utf-8"))
    assert fits(language, set(table), MAX_FIELD) == []

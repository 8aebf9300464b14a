"""Every refusal the manager can raise reads from the catalogue, in English and French, with its parameters."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.i18n import Catalog
from bot.manager import Refused

MANAGER_DIR = Path(__file__).resolve().parents[2] / "bot" / "manager"


def _raised_codes() -> dict[str, set[frozenset[str]]]:
    """code -> the sets of parameter names it is raised with, read from the source of bot/manager."""
    found: dict[str, set[frozenset[str]]] = {}
    for path in sorted(MANAGER_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name != "Refused":
                continue
            where = f"{path.name}:{node.lineno}"
            assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), (
                f"{where}: code not a literal"
            )
            assert all(k.arg is not None for k in node.keywords), f"{where}: parameters must be named"
            code = node.args[0].value
            assert isinstance(code, str) and code.isidentifier(), where
            found.setdefault(code, set()).add(frozenset(str(k.arg) for k in node.keywords))
    return found


def _templates(catalog: Catalog, key: str, language: str) -> list[str]:
    table = catalog.messages[language]
    forms = [table[k] for k in (key, f"{key}.one", f"{key}.other") if k in table]
    assert forms, f"{language}.json has no {key}"
    return forms


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


CODES = _raised_codes()


def test_the_walk_finds_the_refusals() -> None:
    assert len(CODES) >= 20
    assert {"stale", "illegal", "not_seated", "lobby_full", "storage", "no_game"} <= set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_refusal_code_has_both_catalogue_entries_with_its_parameters(code: str) -> None:
    catalog = Catalog.load()
    key = f"refused.{code}"
    for language in ("en", "fr"):
        for template in _templates(catalog, key, language):
            for params in CODES[code]:
                assert _placeholders(template) == set(params), (language, key, template, sorted(params))


@pytest.mark.parametrize("code", sorted(CODES))
def test_refusals_know_no_user_interface(code: str) -> None:
    catalog = Catalog.load()
    for template in _templates(catalog, f"refused.{code}", "en"):
        lowered = template.lower()
        assert not any(word in lowered for word in ("button", "message", "click", "/ttr", "menu")), template


def test_a_refusal_is_its_catalogue_text_in_either_language() -> None:
    catalog = Catalog.load()
    full = Refused("lobby_full", game="abc", n=5)
    assert full.key == "refused.lobby_full" and full.params == {"game": "abc", "n": 5}
    assert catalog.render(full.text, "en") == "Game abc is full (5 players)."
    assert catalog.render(full.text, "fr") == "La partie abc est complète (5 joueurs)."
    stale = Refused("stale")
    assert catalog.render(stale.text, "fr") == catalog.messages["fr"]["refused.stale"]
    assert str(full) == "refused.lobby_full game='abc' n=5"  # logs: the key and parameters, no sentence

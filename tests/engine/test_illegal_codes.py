"""Every refusal of the engine carries a reason code and its parameters, and the bot's catalogue words every
code in English and in French with the same placeholders, each one a parameter given at every raise site."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from helpers.engine_states import card, give, route_id, started

from engine.actions import ClaimRoute, DrawBlind
from engine.errors import IllegalAction
from engine.rules import apply

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"[a-z][a-z0-9_]*")


def _raise_sites() -> dict[str, list[tuple[str, set[str]]]]:
    """code -> [(where, keyword parameters)] for every `IllegalAction(...)` written in engine/."""
    sites: dict[str, list[tuple[str, set[str]]]] = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction"):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            first = node.args[0] if node.args else None
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{where}: code not literal"
            )
            assert CODE.fullmatch(first.value), where
            assert len(node.args) == 2, f"{where}: IllegalAction(code, message, **params)"
            params = {k.arg for k in node.keywords}
            assert None not in params, f"{where}: parameters by name only"
            sites.setdefault(first.value, []).append((where, {p for p in params if p is not None}))
    return sites


def _placeholders(template: str) -> set[str]:
    return {name.split("!")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def _templates(catalog: dict[str, str], code: str) -> list[str]:
    key = f"illegal.{code}"
    return [t for k, t in catalog.items() if k == key or k.startswith(key + ".")]


def test_every_refusal_code_reads_in_every_language() -> None:
    sites = _raise_sites()
    assert len(sites) > 40
    catalogs = {
        path.stem: json.loads(path.read_text("utf-8"))
        for path in sorted((ROOT / "bot/locales").glob("*.json"))
        if re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", path.stem)
    }
    assert {"en", "fr"} <= set(catalogs)
    for code, where in sites.items():
        given = set.intersection(*(params for _, params in where))
        found = {}
        for lang, catalog in catalogs.items():
            templates = _templates(catalog, code)
            assert templates, f"illegal.{code} missing in {lang} ({where[0][0]})"
            found[lang] = set().union(*(_placeholders(t) for t in templates))
            assert found[lang] <= given, (code, lang, found[lang] - given)
        assert all(found[lang] == found["en"] for lang in catalogs), code
    for lang, catalog in catalogs.items():
        stale = {k.split(".")[1] for k in catalog if k.startswith("illegal.")} - set(sites)
        assert not stale, (lang, stale)


def test_a_refusal_says_its_code_and_parameters() -> None:
    s = started("europe", 3)
    with pytest.raises(IllegalAction) as not_yours:
        apply(s, 1, DrawBlind())
    assert not_yours.value.code == "not_your_turn"
    assert not_yours.value.params == {"player": s.players[0].name, "seat": 0}  # the seat, for the bot to name
    give(s, 0, red=1, locomotive=1)
    rid = route_id(s, "Paris", "Frankfurt", "white")
    with pytest.raises(IllegalAction) as short:
        apply(s, 0, ClaimRoute(rid, card("white"), locomotives=1))
    assert short.value.code == "route_needs_color"
    assert short.value.params == {"route": s.board.route_label(rid), "need": 2, "color": "white", "have": 0}
    assert str(short.value).startswith(s.board.route_label(rid) + " needs 2 white")  # English, for logs

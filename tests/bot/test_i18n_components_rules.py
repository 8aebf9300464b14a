"""Catalogues and translator, custom-id rules, per-board rules text, and the service protocol."""

from __future__ import annotations

import re
import string
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation
from helpers.bot_fakes import FakeGameService

from bot import rules_text
from bot.discord.components import BUTTON_TEMPLATE, MAX_CUSTOM_ID, button_id, is_known, is_ours, select_id
from bot.discord.language import CatalogTranslator
from bot.i18n import Catalog, check_placeholders, default_catalog
from bot.messages import Text
from bot.play.contract import GameService
from bot.rules_text import board_features, topic_ids, topics
from maps.board import board_ids, load_board

# --------------------------------------------------------------------- catalogues


def test_catalogues_agree() -> None:
    catalog = default_catalog()
    assert set(catalog.locales) >= {"en", "fr"}
    assert check_placeholders(catalog) == []
    english = set(catalog.messages["en"])
    for code, table in catalog.messages.items():
        extra = {k for k in table if k not in english and not k.startswith(("cmd.", "choice."))}
        # a language's own grammatical forms (French feminine colours: card.green.fem.one) of an English key
        forms = {k for k in extra if ".fem" in k and catalog.has(k.split(".fem")[0], "en")}
        assert not extra - forms, f"{code} has keys English lacks: {sorted(extra - forms)}"
    assert all(catalog.missing_keys(code) == set() for code in catalog.locales)


def test_fallback_chain() -> None:
    catalog = Catalog({"en": {"a": "A {x}", "b": "B"}, "fr": {"a": "FR {x}"}})
    assert catalog.text("a", "fr", x=1) == "FR 1"
    assert catalog.text("a", discord.Locale.french, x=1) == "FR 1"
    assert catalog.text("b", "fr") == "B"  # missing in French: English
    assert catalog.text("a", "pt-BR", x=2) == "A 2"  # no Portuguese: English
    assert catalog.text("nope", "fr") == "nope"  # missing key: the key, not a crash
    assert catalog.text("a", "fr") == "FR {x}"  # missing parameter: left as is
    assert catalog.render(Text("a", {"x": 3}), "en-GB") == "A 3"
    assert catalog.render("plain", "fr") == "plain"


def _context(location: TranslationContextLocation, data: object) -> TranslationContext:  # type: ignore[type-arg]
    return TranslationContext(location=location, data=data)  # type: ignore[arg-type]


async def test_translator_uses_command_keys() -> None:
    translator = CatalogTranslator()
    command = SimpleNamespace(qualified_name="ttr maps")
    ctx = _context(TranslationContextLocation.command_description, command)
    text = app_commands.locale_str("List the boards and their variants")
    assert (
        await translator.translate(text, discord.Locale.french, ctx)
        == "Lister les plateaux et leurs variantes"
    )
    assert await translator.translate(text, discord.Locale.american_english, ctx) is None
    assert (
        await translator.translate(text, discord.Locale.hungarian, ctx) is None
    )  # no catalogue: default text
    param = SimpleNamespace(name="topic", command=SimpleNamespace(qualified_name="ttr rules"))
    ctx = _context(TranslationContextLocation.parameter_description, param)
    assert (await translator.translate(text, discord.Locale.french, ctx) or "").startswith("Quelle partie")


def test_every_command_has_a_french_description() -> None:
    from bot import Settings, create_bot
    from bot.discord.cogs.ttr import TTRCog

    catalog = default_catalog()
    group = TTRCog(create_bot(Settings(), service=FakeGameService())).app_command
    assert group is not None and group.name == "ttr"

    assert catalog.exact("cmd.ttr.description", "fr")
    for command in group.commands:
        key = f"cmd.{command.qualified_name.replace(' ', '.')}"
        assert catalog.exact(f"{key}.description", "fr"), key
        for param in command.parameters:
            assert catalog.exact(f"{key}.param.{param.name}.description", "fr"), (key, param.name)


# --------------------------------------------------------------------- custom ids


def test_button_ids() -> None:
    assert button_id("g12", "join") == "ttr:g12:join"
    assert button_id("g12", "claim_ok", "r140") == "ttr:g12:claim_ok:r140"
    assert select_id("g12", "keep") == "ttr:g12:keep:*"
    longest = button_id("x" * 24, "a" * 24, "z" * 40)
    assert len(longest) <= MAX_CUSTOM_ID
    assert re.fullmatch(BUTTON_TEMPLATE, longest)


@pytest.mark.parametrize(
    ("game", "action", "arg"),
    [
        ("g:1", "join", None),
        ("g1", "Join", None),
        ("g1", "join", "a:b"),
        ("g1", "join", "*"),
        ("x" * 25, "j", None),
    ],
)
def test_bad_button_parts_are_refused(game: str, action: str, arg: str | None) -> None:
    with pytest.raises(ValueError):
        button_id(game, action, arg)


def test_namespace_checks() -> None:
    assert is_ours("ttr:whatever") and not is_ours("other:ttr")
    assert is_known("ttr:g1:join") and is_known("ttr:g1:keep:*") and not is_known("ttr:g1")


# --------------------------------------------------------------------- rules text


@pytest.mark.parametrize("board_id", board_ids())
@pytest.mark.parametrize("locale", ["en-US", "fr"])
def test_rules_are_filled_for_every_board(board_id: str, locale: str) -> None:
    board = load_board(board_id)
    found = topics(board, locale)
    assert [t.id for t in found][:2] == ["overview", "setup"]
    for topic in found:
        assert topic.title and topic.text
        leftovers = [name for _, name, _, _ in string.Formatter().parse(topic.text) if name]
        assert not leftovers, (board_id, topic.id, leftovers)
    ids = {t.id for t in found}
    for feature in ("stations", "tunnels", "ferries"):
        assert (feature in ids) == (feature in board_features(board)), (board_id, feature)
    assert "special" not in ids, "every feature of today's boards has its topic"


@pytest.mark.parametrize("locale", ["en-US", "fr"])
def test_a_feature_without_a_text_is_named_never_skipped(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    board = load_board("europe")
    written = board_features(board)
    monkeypatch.setattr(rules_text, "board_features", lambda b: written | {"hover_trains", "sky_rails"})
    found = {t.id: t.text for t in topics(board, locale)}
    assert "hover trains, sky rails" in found["special"]
    assert {"stations", "tunnels", "ferries"} <= set(found)  # the written features keep their own topics


def test_rules_numbers_come_from_the_board() -> None:
    europe = {t.id: t.text for t in topics(load_board("europe"), "en")}
    assert "45 trains" in europe["overview"]
    assert "8→21" in europe["claim"]
    assert "European Express" in europe["scoring"]
    assert "1 long and 3 regular destination tickets, keeping at least 2" in europe["setup"]
    usa = {t.id: t.text for t in topics(load_board("usa"), "en")}
    assert "stations" not in usa and "6→15" in usa["claim"]
    assert set(topic_ids()) >= {"overview", "stations"}
    germany = {t.id: t.text for t in topics(load_board("germany"), "en")}
    assert "20 points and the second most 10" in germany["passengers"]
    assert "Globetrotter bonus of 15" in germany["scoring"] and "longest" not in germany["scoring"]
    assert "4 destination tickets taken as they like" in germany["setup"]
    japan = {t.id: t.text for t in topics(load_board("japan"), "en")}
    assert "bullet trains or fewer" in japan["end"] and "special" not in japan


# --------------------------------------------------------------------- service protocol


def test_fakes_satisfy_the_protocol() -> None:
    assert isinstance(FakeGameService(), GameService)


def test_the_bot_runs_the_real_service_by_default() -> None:
    from bot import Settings, create_bot
    from bot.wiring import Wiring

    bot = create_bot(Settings())  # (the composition root's, bot.launch)
    assert isinstance(bot.parts, Wiring)  # (entered in setup_hook: the real service, manager, pictures)


def test_a_broken_service_import_fails_at_start_up(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """No placeholder service hides an import error: importing the bot's launcher fails, loudly."""
    import importlib
    import sys

    for name in [n for n in sys.modules if n in ("bot.launch", "bot.wiring") or n.startswith("bot.play")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "bot.play.service", None)  # "import bot.play.service" now raises
    with pytest.raises(ImportError):
        importlib.import_module("bot.launch")


def test_the_adapter_never_composes_its_service() -> None:
    """The bot is given its service or its parts by its caller (the composition root): none, and it refuses."""
    from bot import Settings
    from bot.discord.app import create_bot

    with pytest.raises(TypeError, match="bot.launch"):
        create_bot(Settings())


async def test_a_cog_that_does_not_load_stops_the_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from discord.ext import commands

    import bot.discord.app
    from bot import Settings, create_bot

    monkeypatch.setattr(bot.discord.app, "INITIAL_EXTENSIONS", ("bot.discord.cogs.no_such_cog",))
    service = FakeGameService()
    started = create_bot(Settings(sync_commands=False), service=service)
    with pytest.raises(commands.ExtensionNotFound):
        async with started:  # as start_bot runs it: closed on the way out
            await started.setup_hook()
    assert service.closed == 1


def test_a_placeholder_asks_for_a_form_of_its_message() -> None:
    from decimal import Decimal

    catalog = Catalog(
        {
            "en": {
                "took": "took a {c} card",
                "c.green.one": "green",
                "c.green.other": "greens",
                "x": "{v:>4}|",
            },
            "fr": {
                "took": "a pris une carte {c:fem} ({c})",
                "many": "des cartes {c:fem.other}",
                "c.green.one": "vert",
                "c.green.other": "verts",
                "c.green.fem.one": "verte",
                "c.green.fem.other": "vertes",
                "c.red.one": "rouge",
                "c.red.other": "rouges",
                "bad": "{v:fem}",
            },
        }
    )
    assert catalog.text("took", "fr", c=Text("c.green")) == "a pris une carte verte (vert)"
    assert catalog.text("many", "fr", c=Text("c.green")) == "des cartes vertes"
    assert (
        catalog.text("took", "fr", c=Text("c.red")) == "a pris une carte rouge (rouge)"
    )  # no form: as usual
    assert catalog.text("took", "en", c=Text("c.green")) == "took a green card"
    assert catalog.text("x", "en", v=1.5) == " 1.5|"  # a plain value keeps Python's format specs
    assert catalog.text("bad", "fr", v="abc") == "abc"  # a form asked of a plain value: the value
    assert catalog.text("x", "fr", v=Decimal("12.0")) == "12,0|"

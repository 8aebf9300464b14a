"""French command and option names: present for every /ttr subcommand and option, and valid Discord names."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import discord

from bot.discord.language import CatalogTranslator

FR = json.loads(
    (Path(__file__).resolve().parents[2] / "bot" / "locales" / "fr.json").read_text(encoding="utf-8")
)
NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_command_and_option_has_a_valid_french_name():
    described = [
        k[: -len(".description")] for k in FR if k.startswith("cmd.ttr.") and k.endswith(".description")
    ]
    missing = [k for k in described if k != "cmd.ttr" and f"{k}.name" not in FR]
    assert not missing, missing
    siblings: dict[str, list[str]] = defaultdict(list)
    for key, value in FR.items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert NAME.match(value) and value == value.lower(), (key, value)
            siblings[key.rsplit(".", 2)[0]].append(value)
    for parent, names in siblings.items():
        assert len(names) == len(set(names)), (parent, names)


async def test_translator_answers_french_names():
    from types import SimpleNamespace

    translator = CatalogTranslator()
    where = discord.app_commands.TranslationContextLocation
    command = SimpleNamespace(qualified_name="ttr new")
    context = discord.app_commands.TranslationContext(where.command_name, command)
    name = await translator.translate(discord.app_commands.locale_str("new"), discord.Locale.french, context)
    assert name == "nouvelle"
    english = await translator.translate(
        discord.app_commands.locale_str("new"), discord.Locale.american_english, context
    )
    assert english is None  # English keeps the default name
    option = SimpleNamespace(name="map", command=command)
    context = discord.app_commands.TranslationContext(where.parameter_name, option)
    assert (
        await translator.translate(discord.app_commands.locale_str("map"), discord.Locale.french, context)
        == "carte"
    )

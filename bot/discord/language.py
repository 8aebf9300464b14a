"""The catalogue as Discord needs it: the language of an interaction, `tr`, and the slash-command translator.

Command names and descriptions are translated at sync time by `CatalogTranslator`, whose keys come from
where the string is used:

    cmd.<qualified.name>.name / .description        (commands and the `ttr` group)
    cmd.<qualified.name>.param.<param>.name / .description
    choice.<value>                                   (choice labels)
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Loc

from bot.i18n import FALLBACK, Catalog, default_catalog, language_of


def command_key(context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key of a command string from where discord.py says it is used."""
    data: Any = context.data
    location = context.location
    if location in (Loc.command_name, Loc.command_description, Loc.group_name, Loc.group_description):
        leaf = "name" if location in (Loc.command_name, Loc.group_name) else "description"
        return f"cmd.{data.qualified_name.replace(' ', '.')}.{leaf}"
    if location in (Loc.parameter_name, Loc.parameter_description):
        leaf = "name" if location is Loc.parameter_name else "description"
        return f"cmd.{data.command.qualified_name.replace(' ', '.')}.param.{data.name}.{leaf}"
    if location is Loc.choice_name:
        return f"choice.{data.value}"
    return None


class CatalogTranslator(app_commands.Translator):
    """Translate command names, descriptions and choices from the catalogues at sync time."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or default_catalog()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key") or command_key(context)
        if key is None:
            return None
        # Only real translations: returning English for every locale would hide the default text.
        return self.catalog.exact(key, locale) if language_of(locale).split("-")[0] != FALLBACK else None


def interaction_locale(interaction: discord.Interaction, default: str | None = None) -> str:
    """The language to answer in: the user's client language, else the server's, else the default."""
    for candidate in (interaction.locale, interaction.guild_locale):
        if candidate is not None:
            return language_of(candidate)
    return default or FALLBACK


def server_locale(client: object, guild_id: int | None) -> str | None:
    """The language the bot's settings set for a server's public messages (SERVER_LOCALES), if any."""
    config = getattr(client, "config", None)
    chosen = getattr(config, "server_locale", None)
    return chosen(guild_id) if chosen is not None and guild_id is not None else None


def public_locale(interaction: discord.Interaction, default: str | None = None) -> str:
    """The language of what everyone in the place reads (turn messages, lobbies): the one the bot's settings
    give the server (SERVER_LOCALES), else the server's preferred locale, else the user's."""
    chosen = server_locale(interaction.client, interaction.guild_id)
    if chosen is not None:
        return chosen
    guild = interaction.guild
    for candidate in (
        getattr(guild, "preferred_locale", None),
        interaction.guild_locale,
        interaction.locale,
    ):
        if candidate is not None:
            return language_of(candidate)
    return default or FALLBACK


def catalog_of(interaction: discord.Interaction) -> Catalog:
    return getattr(interaction.client, "catalog", None) or default_catalog()


def default_locale_of(interaction: discord.Interaction) -> str | None:
    return getattr(getattr(interaction.client, "config", None), "default_locale", None)


def tr(interaction: discord.Interaction, key: str, /, **params: Any) -> str:
    """Shortcut used by cogs: the text of `key` in the interaction's language."""
    return catalog_of(interaction).text(
        key, interaction_locale(interaction, default_locale_of(interaction)), **params
    )

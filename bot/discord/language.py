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
    """The language chosen for a server's public messages, if any: its admins' (/ttr language), else the host's
    SERVER_LOCALES (bot.play.server_language says why in that order)."""
    if guild_id is None:
        return None
    languages = getattr(getattr(client, "service", None), "server_languages", None)
    chosen = languages.chosen(guild_id) if languages is not None else None
    return chosen or _host_locale(client, guild_id)


async def refresh_server_language(interaction: discord.Interaction) -> None:
    """Before an interaction is answered: its server's chosen language read again if the one in memory is old
    (another process of the cluster may have changed it)."""
    languages = getattr(getattr(interaction.client, "service", None), "server_languages", None)
    if languages is not None:
        await languages.refresh(interaction.guild_id)


def _host_locale(client: object, guild_id: int | None) -> str | None:
    config = getattr(client, "config", None)
    chosen = getattr(config, "server_locale", None)
    return chosen(guild_id) if chosen is not None and guild_id is not None else None


def public_locale(interaction: discord.Interaction, default: str | None = None) -> str:
    """The language of what everyone in the place reads (turn messages, lobbies): the one chosen for the server
    (`server_locale`), else the server's preferred locale, else the user's."""
    chosen = server_locale(interaction.client, interaction.guild_id)
    return chosen if chosen is not None else discord_locale(interaction, default)


def discord_locale(interaction: discord.Interaction, default: str | None = None) -> str:
    """The public language when nobody chose one for the server: Discord's preferred locale, else the user's."""
    guild = interaction.guild
    for candidate in (
        getattr(guild, "preferred_locale", None),
        interaction.guild_locale,
        interaction.locale,
    ):
        if candidate is not None:
            return language_of(candidate)
    return default or FALLBACK


def unchosen_locale(interaction: discord.Interaction) -> str:
    """The public language the server would have without its admins' choice: the host's, else Discord's."""
    host = _host_locale(interaction.client, interaction.guild_id)
    return host if host is not None else discord_locale(interaction, default_locale_of(interaction))


def catalog_of(interaction: discord.Interaction) -> Catalog:
    return getattr(interaction.client, "catalog", None) or default_catalog()


def default_locale_of(interaction: discord.Interaction) -> str | None:
    return getattr(getattr(interaction.client, "config", None), "default_locale", None)


def tr(interaction: discord.Interaction, key: str, /, **params: Any) -> str:
    """Shortcut used by cogs: the text of `key` in the interaction's language."""
    return catalog_of(interaction).text(
        key, interaction_locale(interaction, default_locale_of(interaction)), **params
    )

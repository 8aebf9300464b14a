"""SERVER_LOCALES: a server whose Discord preferred locale is not the language it wants for its public messages
(a German server left on Discord's default English) gets them in its own; its members' private replies stay in
their own language."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.config import Settings, SettingsError
from bot.discord.language import interaction_locale, public_locale
from bot.discord.messenger import DiscordMessenger

GERMAN_SERVER, OTHER_SERVER = 123456789012345678, 42


def _settings() -> Settings:
    return Settings.from_env({"SERVER_LOCALES": f" {GERMAN_SERVER}=fr , 7=en-US,"}, dotenv_path=None)


def test_the_setting_reads_server_language_pairs() -> None:
    settings = _settings()
    assert settings.server_locales == ((GERMAN_SERVER, "fr"), (7, "en-US"))
    assert settings.server_locale(GERMAN_SERVER) == "fr" and settings.server_locale(OTHER_SERVER) is None
    assert settings.server_locale(None) is None and Settings().server_locales == ()


@pytest.mark.parametrize(
    ("value", "says"),
    [("123", "server=language pairs"), ("x=fr", "pairs"), ("1=klingon", "a language the bot speaks")],
)
def test_a_pair_it_cannot_mean_is_refused(value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says) as err:
        Settings.from_env({"SERVER_LOCALES": value}, dotenv_path=None)
    assert "SERVER_LOCALES" in str(err.value)


def _interaction(guild_id: int) -> SimpleNamespace:
    return SimpleNamespace(
        client=SimpleNamespace(config=_settings()),
        guild_id=guild_id,
        guild=SimpleNamespace(id=guild_id, preferred_locale=discord.Locale.american_english),
        guild_locale=discord.Locale.american_english,
        locale=discord.Locale.japanese,
    )


def test_public_messages_take_the_servers_setting_over_discords_locale() -> None:
    assert public_locale(_interaction(GERMAN_SERVER)) == "fr"  # type: ignore[arg-type]
    assert public_locale(_interaction(OTHER_SERVER)) == "en-US"  # type: ignore[arg-type]
    assert interaction_locale(_interaction(GERMAN_SERVER)) == "ja"  # type: ignore[arg-type]  # private: theirs


def test_the_messenger_posts_in_the_servers_setting() -> None:
    client = SimpleNamespace(config=_settings())
    messenger = DiscordMessenger(client, default_locale="en")  # type: ignore[arg-type]
    channel = SimpleNamespace(
        guild=SimpleNamespace(id=GERMAN_SERVER, preferred_locale=discord.Locale.american_english)
    )
    assert messenger._locale_of(channel) == "fr"
    other = SimpleNamespace(guild=SimpleNamespace(id=OTHER_SERVER, preferred_locale=discord.Locale.german))
    assert messenger._locale_of(other) == "de"
    assert messenger._locale_of(SimpleNamespace(guild=None)) == "en"

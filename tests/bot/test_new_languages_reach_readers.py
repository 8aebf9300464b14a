"""A catalogue file is all a language needs: with stand-in de, es, it and ja catalogues (made here in a temporary
folder: the real ones are other work), Discord's locales reach them (es-ES and es-419 both read Spanish),
DEFAULT_LOCALE accepts them, the slash commands are translated into them, the pictures and the live map speak
them, and a Japanese reader's pictures name the Japan board's cities in Japanese, in the CJK font."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation

import bot.i18n
from bot.config import Settings
from bot.discord.language import CatalogTranslator, interaction_locale, public_locale
from bot.i18n import LOCALES_DIR, Catalog
from bot.play import pictures
from bot.web import view
from render.fonts import JAPANESE_FONT, LATIN_FONT

NEW = ("de", "es", "it", "ja")


def stand_in(language: str, table: dict[str, str]) -> dict[str, str]:
    """A catalogue's words marked with a language: "[es] Join"; placeholders kept."""
    return {key: f"[{language}] {text}" for key, text in table.items()}


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalog:
    for name in ("en.json", "fr.json"):
        shutil.copy(LOCALES_DIR / name, tmp_path / name)
    english = json.loads((LOCALES_DIR / "en.json").read_text("utf-8"))
    french = json.loads((LOCALES_DIR / "fr.json").read_text("utf-8"))
    commands = {
        k: v for k, v in french.items() if k.startswith(("cmd.", "choice."))
    }  # English's are the code's
    for language in NEW:
        if not (LOCALES_DIR / f"{language}.json").exists():
            table = stand_in(language, {**english, **commands})
            (tmp_path / f"{language}.json").write_text(json.dumps(table), "utf-8")
        else:  # the real catalogue has landed: the tests read it
            shutil.copy(LOCALES_DIR / f"{language}.json", tmp_path / f"{language}.json")
    loaded = Catalog.load(tmp_path)
    monkeypatch.setattr(bot.i18n, "default_catalog", lambda: loaded)
    for module in (pictures, view):
        monkeypatch.setattr(module, "default_catalog", lambda: loaded)
    pictures.picture_words.cache_clear()
    yield loaded
    pictures.picture_words.cache_clear()


def test_the_loader_takes_every_catalogue_file(catalog: Catalog) -> None:
    assert set(catalog.locales) == {"en", "fr", *NEW}


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.italian, "it"),
        (discord.Locale.japanese, "ja"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
    ],
)
async def test_discords_locales_reach_their_catalogue(
    catalog: Catalog, locale: discord.Locale, language: str
) -> None:
    assert catalog.chain(locale)[0] == language
    assert (
        catalog.text("btn.join", locale)
        == catalog.messages[language]["btn.join"]
        != catalog.text("btn.join", "en")
    )
    member = SimpleNamespace(
        locale=locale, guild_locale=discord.Locale.french, guild=None, client=None, guild_id=None
    )
    assert catalog.chain(interaction_locale(member))[0] == language  # type: ignore[arg-type]
    server = SimpleNamespace(
        locale=discord.Locale.french,
        guild_locale=None,
        guild=SimpleNamespace(preferred_locale=locale),
        client=None,
        guild_id=1,
    )
    assert catalog.chain(public_locale(server))[0] == language  # type: ignore[arg-type]
    translator = CatalogTranslator(catalog)
    context = TranslationContext(
        location=TranslationContextLocation.command_description,
        data=SimpleNamespace(qualified_name="ttr maps"),  # type: ignore[arg-type]
    )
    text = app_commands.locale_str("List the boards and their variants")
    assert (
        await translator.translate(text, locale, context)
        == catalog.messages[language]["cmd.ttr.maps.description"]
    )


@pytest.mark.parametrize("value", ["de", "it", "ja", "es", "es-ES", "es-419", "es_419", "ja-JP"])
def test_default_locale_accepts_the_new_languages(catalog: Catalog, value: str) -> None:
    assert Settings.from_env({"DEFAULT_LOCALE": value}, dotenv_path=None).default_locale == value.replace(
        "_", "-"
    )


def test_pictures_and_the_live_map_speak_every_language(catalog: Catalog) -> None:
    for language in NEW:
        words = pictures.picture_words(language)
        assert words.language == language and words.deck == catalog.messages[language]["picture.deck"]
        assert words.font == (JAPANESE_FONT if language == "ja" else LATIN_FONT)
        assert view.language_of_tag(f"{language}-XX") == language
        assert view.texts(language)["web.ui.cancel"] == catalog.messages[language]["web.ui.cancel"]
    assert view.language_of_tag("es-419") == "es"
    japanese, spanish = pictures.picture_words("ja"), pictures.picture_words("es-419")
    assert (
        japanese.city("japan", "Tokyo") == "東京" and japanese.city("japan", "Kagoshima-Chuo") == "鹿児島中央"
    )
    assert spanish.city("japan", "Tokyo") == "Tokyo" and spanish.font == LATIN_FONT

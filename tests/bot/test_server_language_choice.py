"""Which language a server's public messages take (issue 31, item 5): its admins' choice (/ttr language), over the
host's SERVER_LOCALES, over Discord's preferred locale; and the choices kept in memory, read again once old."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot import Settings
from bot.discord.language import public_locale, server_locale, unchosen_locale
from bot.discord.messenger import DiscordMessenger
from bot.manager import Refused
from bot.play.reply import GameError
from bot.play.server_language import ServerLanguages, language_choices, languages, parse_language

HOSTED = 111  # the host's SERVER_LOCALES says French for it


class FakeManager:
    def __init__(self, rows: dict[int, str]) -> None:
        self.rows = rows
        self.reads = 0
        self.down = False

    async def server_languages(self) -> dict[int, str]:
        return dict(self.rows)

    async def server_language(self, guild_id: int) -> str | None:
        self.reads += 1
        if self.down:
            raise Refused("storage_unavailable")
        return self.rows.get(guild_id)

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        if language is None:
            self.rows.pop(guild_id, None)
        else:
            self.rows[guild_id] = language


def _client(chosen: ServerLanguages) -> SimpleNamespace:
    settings = Settings.from_env({"SERVER_LOCALES": f"{HOSTED}=fr"}, dotenv_path=None)
    return SimpleNamespace(config=settings, service=SimpleNamespace(server_languages=chosen))


def _interaction(client: SimpleNamespace, guild_id: int) -> SimpleNamespace:
    return SimpleNamespace(
        client=client,
        guild_id=guild_id,
        guild=SimpleNamespace(id=guild_id, preferred_locale=discord.Locale.american_english),
        guild_locale=discord.Locale.american_english,
        locale=discord.Locale.japanese,
    )


async def test_the_admins_choice_wins_over_the_hosts_and_discords() -> None:
    chosen = ServerLanguages(lambda: FakeManager({HOSTED: "de"}))  # type: ignore[arg-type,return-value]
    client = _client(chosen)
    assert public_locale(_interaction(client, HOSTED)) == "fr"  # type: ignore[arg-type]  # nothing read yet
    await chosen.load_all()
    assert public_locale(_interaction(client, HOSTED)) == "de"  # type: ignore[arg-type]
    assert unchosen_locale(_interaction(client, HOSTED)) == "fr"  # type: ignore[arg-type]  # without it
    assert public_locale(_interaction(client, 5)) == "en-US"  # type: ignore[arg-type]  # Discord's
    messenger = DiscordMessenger(client, default_locale="en")  # type: ignore[arg-type]
    channel = SimpleNamespace(guild=SimpleNamespace(id=HOSTED, preferred_locale=discord.Locale.italian))
    assert messenger._locale_of(channel) == "de"
    await chosen.choose(HOSTED, None)  # "auto"
    assert server_locale(client, HOSTED) == "fr" and messenger._locale_of(channel) == "fr"


async def test_a_choice_is_read_again_once_old_and_kept_when_the_database_is_down() -> None:
    now = [0.0]
    manager = FakeManager({})
    chosen = ServerLanguages(lambda: manager, fresh=60, clock=lambda: now[0])  # type: ignore[arg-type,return-value]
    await chosen.refresh(7)
    assert manager.reads == 1 and chosen.chosen(7) is None
    manager.rows[7] = "ja"  # another process of the cluster chose
    now[0] = 30
    await chosen.refresh(7)
    assert manager.reads == 1 and chosen.chosen(7) is None  # still fresh: not read again
    now[0] = 61
    await chosen.refresh(7)
    assert manager.reads == 2 and chosen.chosen(7) == "ja"
    manager.down = True
    now[0] = 200
    await chosen.refresh(7)
    assert chosen.chosen(7) == "ja"  # kept
    now[0] = 230
    await chosen.refresh(7)  # nor asked again at once: each interaction would wait out the retries
    await chosen.refresh(None)  # outside a server: nothing to read
    assert manager.reads == 3
    manager.down, manager.rows[7] = False, "it"
    now[0] = 261
    await chosen.refresh(7)
    assert manager.reads == 4 and chosen.chosen(7) == "it"


def test_languages_are_the_catalogues_each_named_in_itself() -> None:
    assert languages() == {
        "de": "Deutsch",
        "en": "English",
        "es": "Español",
        "fr": "Français",
        "it": "Italiano",
        "ja": "日本語",
    }
    assert [v for v, _ in language_choices("")][-1] == "auto"
    assert language_choices("fran") == [("fr", "Français")] and language_choices("ja") == [("ja", "日本語")]
    assert language_choices("日本") == [("ja", "日本語")]


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("de", "de"),
        ("Deutsch", "de"),
        ("deutsch", "de"),
        ("es-ES", "es"),
        ("ESPAÑOL", "es"),
        ("日本語", "ja"),
    ],
)
def test_an_admin_may_type_a_code_or_a_name(typed: str, code: str) -> None:
    assert parse_language(typed) == code


def test_auto_forgets_and_anything_else_is_refused() -> None:
    assert parse_language("auto") is None
    with pytest.raises(GameError) as refused:
        parse_language("klingon")
    assert str(refused.value) == "server_language.unknown"

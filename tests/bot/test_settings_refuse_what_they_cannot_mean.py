"""Settings refuse what they cannot mean, with one line naming the variable: a server id written in other
digits than 0-9 (Python would read "１２３" as 123), a language the bot does not speak."""

from __future__ import annotations

import pytest

from bot.config import Settings, SettingsError
from bot.i18n import default_catalog


@pytest.mark.parametrize(
    ("env", "value", "says"),
    [
        ("TEST_GUILD_ID", "１２３", "digits 0-9"),
        ("TEST_GUILD_ID", "١٢٣", "digits 0-9"),
        ("SHARD_COUNT", "２", "whole number"),
        ("DEFAULT_LOCALE", "xx_YY", f"a language the bot speaks ({', '.join(default_catalog().locales)})"),
        ("DEFAULT_LOCALE", "klingon", "a language the bot speaks"),
    ],
)
def test_a_setting_it_cannot_mean_is_refused_in_one_line(env: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env({env: value}, dotenv_path=None)
    text = str(err.value)
    assert env in text and says in text and "\n" not in text


@pytest.mark.parametrize(("value", "kept"), [("fr", "fr"), ("fr_FR", "fr-FR"), ("en-US", "en-US")])
def test_a_language_it_speaks_is_kept(value: str, kept: str) -> None:
    assert Settings.from_env({"DEFAULT_LOCALE": value}, dotenv_path=None).default_locale == kept


def test_a_guild_id_of_digits_is_kept() -> None:
    assert Settings.from_env({"TEST_GUILD_ID": "123"}, dotenv_path=None).test_guild_id == 123

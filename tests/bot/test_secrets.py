"""No secret the process holds reaches a log line, a repr or an error message (issue 15, "Secrets")."""

from __future__ import annotations

import io
import logging

import pytest

from bot import Settings, SettingsError, launch
from bot.config import max_render_workers
from bot.database_url import url_secrets
from bot.discord.startup import SecretsFilter
from bot.launch import run_bot
from bot.storage import parse_database_url, redact_url

URLS = [
    # (url, the secrets in it)
    ("postgresql://ttr:hunter2@db:5432/ttr", ["hunter2"]),
    ("postgresql://ttr@db/ttr?password=s3cr3t-query", ["s3cr3t-query"]),
    (
        "postgresql://ttr@db/ttr?schema=x&sslpassword=k%20eyphrase&passfile=/home/ttr/.pgpass",
        ["k%20eyphrase"],
    ),
    (
        "postgres://ttr:p%40ss%2Fw0rd@db/ttr?PASSWORD=other-one#frag",
        ["p%40ss%2Fw0rd", "p@ss/w0rd", "other-one"],
    ),
    ("postgresql+asyncpg://ttr:hunter2@db/ttr?Password=again+and", ["hunter2", "again+and"]),
]


@pytest.mark.parametrize(("url", "secrets"), URLS)
def test_every_secret_of_a_url_is_masked(url: str, secrets: list[str]) -> None:
    shown = redact_url(url)
    assert "***" in shown
    for secret in secrets:
        assert secret not in shown
    assert set(secrets) <= set(url_secrets(url))
    assert redact_url(shown) == shown  # masking twice changes nothing


def test_urls_without_secrets_are_unchanged() -> None:
    for url in ("sqlite:///ttr.db", "postgresql://ttr@db/ttr?schema=a&max_size=4", "sqlite:///:memory:"):
        assert redact_url(url) == url and url_secrets(url) == ()


def test_a_query_password_stays_out_of_reprs_errors_and_start_up_lines(caplog) -> None:  # type: ignore[no-untyped-def]
    url = "postgresql://ttr:hunter2@127.0.0.1:1/ttr?password=s3cr3t-query&sslpassword=keyphrase"
    settings = Settings(discord_token="tok3n-value", database_url=url)
    parsed = parse_database_url(url)
    for text in (
        repr(settings),
        str(settings),
        repr(parsed),
        parsed.redacted,
        settings.redacted_database_url(),
    ):
        assert "hunter2" not in text and "s3cr3t-query" not in text and "keyphrase" not in text, text
    assert "tok3n-value" not in repr(settings) and "127.0.0.1" in repr(settings)
    with pytest.raises(ValueError) as bad:
        parse_database_url(url + "&max_size=lots")
    assert "s3cr3t-query" not in str(bad.value) and "hunter2" not in str(bad.value)
    caplog.set_level(logging.INFO)
    assert run_bot(settings) == 2  # nothing listens on port 1
    assert "DATABASE_URL" in caplog.text
    for secret in ("hunter2", "s3cr3t-query", "keyphrase", "tok3n-value"):
        assert secret not in caplog.text


def test_the_log_masks_secrets_even_in_a_library_s_traceback() -> None:
    url = "postgresql://ttr:hunter2@db/ttr?password=s3cr3t-query"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(SecretsFilter(Settings(discord_token="tok3n-value", database_url=url).secrets()))
    logger = logging.getLogger("test_secrets")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise ConnectionError(f"cannot connect with {url}")  # as a driver echoing its DSN would
        except ConnectionError:
            logger.exception("storage failed for %s (token %s)", url, "tok3n-value")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    written = stream.getvalue()
    assert "ConnectionError: cannot connect with" in written and "***" in written
    for secret in ("hunter2", "s3cr3t-query", "tok3n-value"):
        assert secret not in written


def test_an_unexpected_start_up_error_is_logged_masked(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    url = "postgresql://ttr:hunter2@db/ttr"
    settings = Settings(discord_token="tok3n-value", database_url=url)

    async def boom(settings: Settings, **kw: object) -> None:
        raise RuntimeError(f"driver said: bad DSN {url}")

    monkeypatch.setattr(launch, "check_database", lambda settings: None)
    monkeypatch.setattr(launch, "open_database", lambda settings: None)
    monkeypatch.setattr(launch, "start_bot", boom)
    caplog.set_level(logging.INFO)
    assert run_bot(settings) == launch.EXIT_BUG
    assert "bad DSN" in caplog.text and "hunter2" not in caplog.text


def test_render_workers_has_an_upper_bound() -> None:
    most = max_render_workers()
    assert Settings.from_env({"RENDER_WORKERS": str(most)}, dotenv_path=None).render_workers == most
    with pytest.raises(SettingsError, match=rf"RENDER_WORKERS must be between 1 and {most}"):
        Settings.from_env({"RENDER_WORKERS": str(most + 1)}, dotenv_path=None)
    with pytest.raises(SettingsError, match="RENDER_WORKERS"):
        Settings.from_env({"RENDER_WORKERS": "100000"}, dotenv_path=None)

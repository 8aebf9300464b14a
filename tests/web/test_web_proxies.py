"""Client addresses behind a reverse proxy: X-Forwarded-For is believed only from the configured proxies, read
from the right; the sign-in limit then counts each real client, and a made-up header buys nothing."""

from __future__ import annotations

import pytest
from helpers.web_site import site

from bot.config import Settings, SettingsError
from bot.web.addresses import ClientAddresses


def test_the_header_is_ignored_unless_the_peer_is_a_trusted_proxy() -> None:
    none = ClientAddresses()
    assert none.client("127.0.0.1", "203.0.113.7") == "127.0.0.1"
    proxies = ClientAddresses(["127.0.0.1", "10.0.0.0/8"])
    assert proxies.client("198.51.100.9", "203.0.113.7") == "198.51.100.9"  # not a proxy of ours
    assert proxies.client("127.0.0.1", "203.0.113.7") == "203.0.113.7"
    # the client wrote a made-up address; nginx appended the real one: the right-most untrusted hop wins
    assert proxies.client("127.0.0.1", "1.2.3.4, 203.0.113.7") == "203.0.113.7"
    assert proxies.client("127.0.0.1", "1.2.3.4, 203.0.113.7, 10.1.2.3") == "203.0.113.7"  # two proxies
    assert proxies.client("::ffff:127.0.0.1", "203.0.113.7") == "203.0.113.7"
    assert proxies.client("127.0.0.1", "203.0.113.7, not-an-address") == "127.0.0.1"
    assert proxies.client("127.0.0.1", "") == "127.0.0.1"
    assert ClientAddresses(["::1"]).client("::1", "2001:db8::5") == "2001:db8::5"


def test_trusted_proxies_setting() -> None:
    env = {"TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8 ::1"}
    assert Settings.from_env(env, dotenv_path=None).trusted_proxies == ("127.0.0.1", "10.0.0.0/8", "::1")
    assert Settings.from_env({}, dotenv_path=None).trusted_proxies == ()
    with pytest.raises(SettingsError, match="TRUSTED_PROXIES"):
        Settings.from_env({"TRUSTED_PROXIES": "127.0.0.1, localhost"}, dotenv_path=None)


async def _statuses(s, headers: list[dict[str, str]]) -> list[int]:  # type: ignore[no-untyped-def]
    return [
        (await s.client.post("/api/session", json={"code": "code-ann"}, headers=h)).status for h in headers
    ]


async def test_without_trusted_proxies_a_made_up_header_does_not_bypass_the_sign_in_limit(
    db_url: str,
) -> None:
    async with site(db_url, signin_rate=0.001, signin_burst=2) as s:
        forged = [{"X-Forwarded-For": f"203.0.113.{i}"} for i in range(5)]
        assert await _statuses(s, forged) == [200, 200, 429, 429, 429]
        assert len(s.discord.posted) == 2


async def test_behind_a_trusted_proxy_each_real_client_has_its_own_sign_in_limit(db_url: str) -> None:
    async with site(db_url, signin_rate=0.001, signin_burst=2, trusted_proxies=("127.0.0.1",)) as s:
        # as nginx forwards them ($proxy_add_x_forwarded_for): whatever the client sent, then its real address
        flooder = [{"X-Forwarded-For": f"1.2.3.{i}, 203.0.113.7"} for i in range(4)]
        assert await _statuses(s, flooder) == [200, 200, 429, 429]
        assert await _statuses(s, [{"X-Forwarded-For": "198.51.100.2"}]) == [200]  # someone else signs in
        assert len(s.discord.posted) == 3

"""The Activity instance check (bot/web/activity_instances.py) against the tests' fake Discord: the instance's
channel and users as Discord says, with the bot's token; a forged id, another application's instance or a user
not connected refused; one call per instance however many pages ask (a fake clock for the cache); a user who just
joined seen after a recheck; Discord down is "unavailable" and the token is in no error."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from helpers.fake_discord import BOT_TOKEN, FakeDiscord

from bot.web.activity_instances import ActivityInstances, InstanceRefused

IID = "i-1394884350503551098-gc-1-10"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Served:
    """The fake Discord while it serves; `close` stops it (then Discord is unreachable)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    async def close(self) -> None:
        await self.fake.__aexit__(None, None, None)


async def _instances(token: str = BOT_TOKEN, **kwargs):  # type: ignore[no-untyped-def]
    fake = FakeDiscord()
    server = _Served(fake)
    await fake.__aenter__()
    http = aiohttp.ClientSession()
    clock = Clock()
    checker = ActivityInstances(
        lambda: http,
        api=fake.api_url,
        client_id="4242",
        bot_token=token,
        clock=clock,
        **kwargs,
    )
    return fake, server, http, clock, checker


async def test_an_instance_gives_its_channel_to_its_users_only() -> None:
    fake, server, http, clock, checker = await _instances()
    try:
        fake.add_instance(IID, 10, 1, [101, 102])
        found = await checker.check(IID, 101)
        assert (found.channel_id, found.guild_id, found.users) == (10, 1, frozenset({101, 102}))
        with pytest.raises(InstanceRefused) as refused:
            await checker.check(IID, 103)
        assert refused.value.reason == "not_in_instance"
        for bad in ("", "../../users/@me", "i-1 2", "x" * 121):
            with pytest.raises(InstanceRefused) as refused:
                await checker.check(bad, 101)
            assert refused.value.reason == "bad_id"
        with pytest.raises(InstanceRefused) as refused:
            await checker.check("i-999-gc-1-10", 101)  # forged: Discord knows no such instance
        assert refused.value.reason == "unknown"
    finally:
        await http.close()
        await server.close()


async def test_one_call_per_instance_kept_for_a_while() -> None:
    fake, server, http, clock, checker = await _instances(ttl=60.0, recheck=5.0)
    try:
        fake.add_instance(IID, 10, 1, [101, 102])
        await asyncio.gather(*(checker.check(IID, 101 + i % 2) for i in range(20)))
        assert fake.instance_calls == [IID] and checker.calls == 1  # twenty pages, one call
        # a forged id is remembered too: asking again does not reach Discord
        for _ in range(3):
            with pytest.raises(InstanceRefused):
                await checker.check("i-999-gc-1-10", 101)
        assert fake.instance_calls == [IID, "i-999-gc-1-10"]
        # Carol joins: not in the kept answer; asked again only once the answer is 5 s old
        fake.add_instance(IID, 10, 1, [101, 102, 103])
        with pytest.raises(InstanceRefused):
            await checker.check(IID, 103)
        clock.now = 5.0
        assert 103 in (await checker.check(IID, 103)).users
        assert fake.instance_calls.count(IID) == 2
        # past the ttl, asked afresh
        clock.now = 70.0
        await checker.check(IID, 101)
        assert fake.instance_calls.count(IID) == 3
    finally:
        await http.close()
        await server.close()


async def test_a_wrong_token_or_discord_down_is_unavailable_and_tells_no_token() -> None:
    fake, server, http, clock, checker = await _instances(token="not-the-bot-token")
    try:
        fake.add_instance(IID, 10, 1, [101])
        with pytest.raises(InstanceRefused) as refused:
            await checker.check(IID, 101)
        assert refused.value.reason == "unavailable" and "not-the-bot-token" not in str(refused.value)
    finally:
        await http.close()
        await server.close()
    _, server, http, clock, checker = await _instances()
    await server.close()  # Discord unreachable
    try:
        with pytest.raises(InstanceRefused) as refused:
            await checker.check(IID, 101)
        assert refused.value.reason == "unavailable" and BOT_TOKEN not in repr(refused.value)
    finally:
        await http.close()

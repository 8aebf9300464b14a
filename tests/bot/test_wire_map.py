"""The live map's way in from the chat, on the wire: ``/ttr map`` answered with LAUNCH_ACTIVITY (interaction
callback type 12, discord.py 2.7's ``launch_activity``) when the service says the Activity is set up."""

from __future__ import annotations

import asyncio
import contextlib

from bot_fakes import FakeGameService
from fake_discord import FakeDiscord

from bot import create_bot

TOKEN = "wire.token.secret"


async def test_ttr_map_launches_the_activity(bot_settings) -> None:  # type: ignore[no-untyped-def]
    async with FakeDiscord(token=TOKEN) as fake:
        service = FakeGameService()
        bot = create_bot(bot_settings, service=service, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start(TOKEN))
        try:
            await fake.wait_ready(bot)
            [ttr] = fake.commands[None]
            assert "map" in {o["name"] for o in ttr["options"]}
            token = await fake.slash("ttr", "map", user=fake.alice, locale="fr")
            request = await fake.wait_for(fake.callback_for(token))
            assert request.json["type"] == 12  # LAUNCH_ACTIVITY, no message
            assert fake.interactions[token].get("activity") is True
            assert [c.method for c in service.calls if c.method == "map"] == ["map"]
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 5)

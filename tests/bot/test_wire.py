"""The bot against a wire-level fake Discord (tests/helpers/fake_discord.py): real HTTP, real websocket."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
import pytest
from helpers.bot_fakes import PNG, FakeGameService
from helpers.fake_discord import EPHEMERAL, JSON, LOADING, FakeDiscord

from bot import Settings, create_bot
from bot.launch import explain_startup_error, start_bot
from bot.play.reply import EmbedSpec, FileSpec, Reply

TOKEN = "wire.token.secret"


@pytest.fixture
async def fake_discord():  # type: ignore[no-untyped-def]
    async with FakeDiscord(token=TOKEN) as fake:
        yield fake


@pytest.fixture
async def running(fake_discord, bot_settings):  # type: ignore[no-untyped-def]
    """A production bot logged in to the fake Discord and READY; closed afterwards."""
    service = FakeGameService()
    bot = create_bot(bot_settings, service=service, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await fake_discord.wait_ready(bot)
        yield fake_discord, bot, service
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


async def test_login_identify_ready_and_sync(running):  # type: ignore[no-untyped-def]
    fake, bot, service = running
    assert fake.identify is not None
    assert fake.identify["token"] == TOKEN
    assert fake.identify["intents"] == bot.intents.value
    assert not bot.intents.message_content and not bot.intents.members  # no privileged intents
    assert bot.user is not None and bot.user.id == fake.application_id
    assert bot.get_guild(fake.guild_id) is not None
    assert service.started == 1
    [ttr] = fake.commands[None]  # one global command group
    subcommands = {o["name"] for o in ttr["options"]}
    assert {"maps", "rules", "new", "claim", "hand", "board", "status", "log", "settings"} <= subcommands
    assert {"games", "stats", "leave", "kick", "end", "replace"} <= subcommands
    assert ttr["description_localizations"]["fr"] == "Jouer aux Aventuriers du Rail"
    maps = next(o for o in ttr["options"] if o["name"] == "maps")
    assert maps["description_localizations"]["fr"].startswith("Lister")
    games = next(o for o in ttr["options"] if o["name"] == "games")
    [scope] = games["options"]
    assert scope["description_localizations"]["fr"] == "Quelles parties"
    assert {c["value"]: c["name_localizations"]["fr"] for c in scope["choices"]}["mine"] == "les miennes"
    assert ttr.get("contexts") == [0, 1]  # servers, and the bot's DMs (`/ttr games`, `stats`, `prefs`...)


async def test_slash_round_trip_in_french(running):  # type: ignore[no-untyped-def]
    fake, _bot, _service = running
    token = await fake.slash("ttr", "maps", user=fake.alice, locale="fr")
    request = await fake.wait_for(fake.callback_for(token))
    assert request.json["type"] == 4
    data = request.json["data"]
    assert data["flags"] & EPHEMERAL
    assert data["embeds"][0]["title"] == "Plateaux"
    assert any("Europe" in f["name"] for f in data["embeds"][0]["fields"])


async def test_stub_command_and_button_click(running):  # type: ignore[no-untyped-def]
    fake, _bot, service = running
    token = await fake.slash("ttr", "new", user=fake.alice, map="usa")
    await fake.wait_for(fake.callback_for(token))
    lobby_id = fake.interactions[token]["message_id"]
    lobby = fake.messages[lobby_id]
    ids = [c["custom_id"] for row in lobby["components"] for c in row["components"]]
    assert ids == ["ttr:g1:join", "ttr:g1:start", "ttr:g1:hand"]
    assert service.last("new_game").kwargs["board_id"] == "usa"

    click = await fake.click(lobby_id, "ttr:g1:join", user=fake.bob)
    request = await fake.wait_for(fake.callback_for(click))
    assert request.json["type"] == 7  # UPDATE_MESSAGE: the lobby is edited in place
    assert f"<@{fake.bob['id']}>" in fake.messages[lobby_id]["content"]

    hand = await fake.click(lobby_id, "ttr:g1:hand", user=fake.bob)
    request = await fake.wait_for(fake.callback_for(hand))
    assert request.json["type"] == 4 and request.json["data"]["flags"] & EPHEMERAL


async def test_png_uploaded_as_multipart(running):  # type: ignore[no-untyped-def]
    fake, _bot, service = running
    token = await fake.slash("ttr", "board", user=fake.alice)
    callback = await fake.wait_for(fake.callback_for(token))
    assert callback.json["type"] == 5  # board images are slow: "thinking" first
    followup = await fake.wait_for(
        lambda r: r.method == "POST" and r.path.endswith(f"/webhooks/{fake.application_id}/{token}")
    )
    assert followup.files["files[0]"][0] == "board.png"
    assert followup.files["files[0]"][2] == PNG
    assert followup.json["embeds"][0]["image"]["url"] == "attachment://board.png"
    # the first followup replaced the thinking message instead of adding a second one
    message = fake.messages[fake.interactions[token]["message_id"]]
    assert not message["flags"] & LOADING and not message["flags"] & EPHEMERAL
    assert fake.interactions[token].get("followups") is None
    [attachment] = message["attachments"]
    assert fake.uploads[attachment["id"]] == PNG

    # Messages outside interactions (turn notices) go through the messenger and the channel-message route.
    notice = Reply(
        content="your turn",
        embeds=(EmbedSpec(image="board.png"),),
        files=(FileSpec("board.png", PNG),),
        rows=(FakeGameService.lobby_rows("g1")[0][2:],),
    )
    message_id = await service.messenger.post(fake.channel_id, notice)
    upload = await fake.wait_for(lambda r: r.path == f"/channels/{fake.channel_id}/messages")
    assert upload.files["files[0]"][2] == PNG and upload.json["content"] == "your turn"
    assert upload.json["components"][0]["components"][0]["custom_id"] == "ttr:g1:hand"
    assert message_id == int(list(fake.messages)[-1])
    assert await service.messenger.post(123, notice) is None  # unknown channel: None, not an exception


async def test_close_closes_the_service(fake_discord, bot_settings):  # type: ignore[no-untyped-def]
    service = FakeGameService()
    bot = create_bot(bot_settings, service=service, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(TOKEN))
    await fake_discord.wait_ready(bot)
    await bot.close()
    await asyncio.wait_for(task, 5)
    assert service.closed == 1


async def test_bad_token_is_explained_without_leaking_it(bot_settings, caplog):  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    async with FakeDiscord(login_status=401):
        settings = bot_settings.with_overrides(discord_token=TOKEN)
        with pytest.raises(discord.LoginFailure) as info:
            await start_bot(settings, service=FakeGameService())
    message = explain_startup_error(info.value)
    assert message is not None and "DISCORD_TOKEN" in message and ".env" in message
    assert TOKEN not in caplog.text
    assert TOKEN not in repr(settings)


async def test_disallowed_intents_are_explained(bot_settings):  # type: ignore[no-untyped-def]
    async with FakeDiscord(close_code=4014):
        settings = bot_settings.with_overrides(discord_token=TOKEN)
        with pytest.raises(discord.PrivilegedIntentsRequired) as info:
            await asyncio.wait_for(start_bot(settings, service=FakeGameService()), 10)
    assert "Privileged Gateway Intents" in (explain_startup_error(info.value) or "")


async def test_test_guild_gets_a_copy_of_the_commands(fake_discord, bot_settings):  # type: ignore[no-untyped-def]
    settings = bot_settings.with_overrides(test_guild_id=fake_discord.guild_id)
    bot = create_bot(settings, service=FakeGameService(), guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await fake_discord.wait_ready(bot)
        assert None not in fake_discord.commands  # no global sync
        [ttr] = fake_discord.commands[fake_discord.guild_id]
        assert ttr["name"] == "ttr" and ttr["guild_id"] == str(fake_discord.guild_id)
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


# --------------------------------------------------------------------- shards


async def _start_sharded(fake: FakeDiscord, settings: Settings, shards: int):  # type: ignore[no-untyped-def]
    """The production bot started on the fake, once `shards` shards have dispatched their shard_ready."""
    service = FakeGameService()
    bot = create_bot(settings, service=service, guild_ready_timeout=0.05)
    bot.identify_interval = 0.0  # Discord's 5 s between two IDENTIFYs: the fake has no such limit
    ready: list[int] = []

    async def on_shard_ready(shard_id: int) -> None:
        ready.append(shard_id)

    bot.add_listener(on_shard_ready)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await fake.wait_ready(bot)
        async with asyncio.timeout(10):
            while len(ready) < shards:
                await asyncio.sleep(0.01)
    except BaseException:
        await _stop(bot, task)
        raise
    return bot, task, ready


async def _stop(bot, task) -> None:  # type: ignore[no-untyped-def]
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)


async def _answered_on(fake: FakeDiscord, guild_id: int) -> dict[str, object]:
    """Run /ttr maps in a guild (sent down the shard that serves it) and return the bot's JSON callback."""
    token = await fake.slash("ttr", "maps", user=fake.alice, guild_id=guild_id)
    request = await fake.wait_for(fake.callback_for(token))
    assert request.content_type == JSON  # exactly, as Discord reads it
    return request.json  # type: ignore[no-any-return]


async def test_the_default_bot_runs_every_shard_discord_recommends(bot_settings, caplog):  # type: ignore[no-untyped-def]
    """No SHARD_COUNT: discord.py asks GET /gateway/bot (the fake answers 2) and runs both shards here."""
    caplog.set_level(logging.INFO, logger="bot.discord.app")
    assert bot_settings.shard_count is None and bot_settings.shard_ids is None
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        bot, task, ready = await _start_sharded(fake, bot_settings, 2)
        try:
            assert any(r.path == "/gateway/bot" for r in fake.requests)
            assert sorted(i["shard"] for i in fake.identifies) == [[0, 2], [1, 2]]
            assert all(i["token"] == TOKEN for i in fake.identifies)
            assert sorted(ready) == [0, 1] and bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
            guilds = list(fake.guild_channels)
            for shard, guild_id in enumerate(guilds):
                assert (guild_id >> 22) % 2 == shard
                guild = bot.get_guild(guild_id)
                assert guild is not None and guild.shard_id == shard
            for guild_id in reversed(guilds):  # an interaction arriving on each shard is answered
                reply = await _answered_on(fake, guild_id)
                assert reply["type"] == 4 and reply["data"]["embeds"][0]["title"] == "Boards"  # type: ignore[index]
            assert "connecting to Discord: shards 0-1 of 2 (count recommended by Discord)" in caplog.text
            assert "shards 0-1 of 2 (count recommended by Discord)" in caplog.text.split("ready as", 1)[1]
            # the heartbeat row first says "all" (count unknown), then the shards Discord gave
            assert bot.service.joined == [("all", None), ("0-1", 2)]
        finally:
            await _stop(bot, task)


async def test_shard_ids_run_exactly_those_shards(tmp_path, caplog):  # type: ignore[no-untyped-def]
    """SHARD_COUNT=4 SHARD_IDS=2-3: two sessions, identified as shards 2 and 3 of 4, and only their guilds."""
    caplog.set_level(logging.INFO, logger="bot.discord.app")
    settings = Settings.from_env(
        {"SHARD_COUNT": "4", "SHARD_IDS": "2-3", "DATABASE_URL": f"sqlite:///{tmp_path / 'ttr.db'}"},
        dotenv_path=None,
    )
    async with FakeDiscord(token=TOKEN, shards=4) as fake:  # Discord would recommend 4: one guild per shard
        bot, task, ready = await _start_sharded(fake, settings, 2)
        try:
            assert sorted(i["shard"] for i in fake.identifies) == [[2, 4], [3, 4]]
            assert sorted(ready) == [2, 3] and sorted(bot.shards) == [2, 3]
            # the count is ours: Discord's recommendation is not asked
            assert not any(r.path == "/gateway/bot" for r in fake.requests)
            guilds = list(fake.guild_channels)
            assert [bot.get_guild(g) is not None for g in guilds] == [False, False, True, True]
            for guild_id in guilds[2:]:
                assert (await _answered_on(fake, guild_id))["type"] == 4
            assert "connecting to Discord: shards 2-3 of 4" in caplog.text
            assert bot.service.joined == [("2-3", 4)]  # the settings' shards, written once
        finally:
            await _stop(bot, task)

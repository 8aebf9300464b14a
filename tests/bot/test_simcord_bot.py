"""The production bot (`create_bot`) driven through SimCord's in-memory Discord."""

from __future__ import annotations

import discord
import pytest
from helpers.bot_fakes import PNG, handled_errors

from bot.discord import replies
from bot.discord.components import button_id
from bot.play.reply import GameError


def _button_ids(message) -> list[str]:  # type: ignore[no-untyped-def]
    ids = []
    for row in message.components:
        for component in row.get("components", [row]):
            if component.get("custom_id"):
                ids.append(component["custom_id"])
    return ids


# --------------------------------------------------------------------- board data commands


async def test_maps_lists_boards_and_variants(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr maps")
    assert result.acknowledged
    assert result.ephemeral
    embed = result.response.embeds[0]
    text = " ".join(f.name + f.value for f in embed.fields)
    assert "Europe" in text and "USA" in text
    assert "`1912`" in text and "`big-cities`" in text
    assert "Warehouses" in text  # Europe's option
    assert "Märklin" in text and "provisional" in text  # provisional data is flagged
    assert embed.footer.text.startswith("⚠")


async def test_maps_share_is_public(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr maps", share=True)
    assert not result.ephemeral
    assert channel.last_message.embeds


async def test_rules_overview_and_topic(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    overview = await alice.slash(channel, "ttr rules", map="europe")
    embed = overview.response.embeds[0]
    assert "Europe" in embed.title and "45 trains" in embed.description
    assert "Train stations" in embed.fields[0].value and "`" not in embed.fields[0].value

    mega = await alice.slash(channel, "ttr rules", topic="setup", map="europe", variant="mega")
    assert "2 long destination tickets, keeping at most 1" in mega.response.embeds[0].description

    stations = await alice.slash(channel, "ttr rules", topic="stations", map="europe")
    text = stations.response.embeds[0].description
    assert "3 stations" in text and "4 points" in text


async def test_rules_unknown_topic_answers_ephemerally(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr rules", topic="stations", map="usa")  # USA has no stations
    assert result.ephemeral
    assert "no rules topic" in result.response.content
    assert [type(e) for e in handled_errors(simcord_env)] == [GameError]


async def test_unknown_map_is_a_clear_error(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr rules", map="atlantis")
    assert result.ephemeral
    assert "no board 'atlantis'" in result.response.content
    assert [type(e) for e in handled_errors(simcord_env)] == [GameError]  # via the tree error handler


async def test_map_autocomplete(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    choices = await alice.autocomplete(channel, "ttr new", "map", "eur")
    assert [c["value"] for c in choices] == ["europe"]
    every = await alice.autocomplete(channel, "ttr rules", "map", "")
    assert {c["value"] for c in every} >= {"europe", "usa"}


async def test_variant_autocomplete_follows_the_chosen_map(simcord_env, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    choices = await alice.autocomplete(channel, "ttr new", "variant", "", map="europe")
    assert {c["value"] for c in choices} == {"classic", "1912", "big-cities", "mega"}
    narrowed = await alice.autocomplete(channel, "ttr new", "variant", "big", map="europe")
    assert [c["value"] for c in narrowed] == ["big-cities"]


# --------------------------------------------------------------------- game stubs -> GameService


async def test_new_reaches_the_service_with_validated_arguments(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr new", map="Europe", variant="Europe 1912", players=3)
    call = fake_service.last("new_game")
    assert (call.guild_id, call.channel_id, call.user_id) == (guild.id, channel.id, alice.id)
    assert call.kwargs == {
        "board_id": "europe",
        "variant": "1912",
        "options": (),
        "max_players": 3,
        "user_name": "alice",
    }
    assert not result.ephemeral
    assert "opened by" in result.response.content
    assert _button_ids(result.response) == ["ttr:g1:join", "ttr:g1:start", "ttr:g1:hand"]


async def test_new_rejects_unknown_variant_before_the_service(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr new", map="usa", variant="mega")
    assert result.ephemeral and "no variant 'mega'" in result.response.content
    assert "new_game" not in fake_service.methods_called()
    assert [type(e) for e in handled_errors(simcord_env)] == [GameError]


async def test_hand_is_ephemeral_and_translated(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr hand")
    assert fake_service.methods_called() == ["hand"]
    assert result.ephemeral
    assert result.response.ephemeral
    assert result.response.content == "fake.hand"  # unknown key: shown as the key, never a crash


async def test_claim_autocomplete_and_confirmation(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    fake_service.add_game(guild.id)
    routes = await alice.autocomplete(channel, "ttr claim", "route", "paris")
    assert [c["value"] for c in routes] == ["Paris – Wien", "Paris – Frankfurt"]
    result = await alice.slash(channel, "ttr claim", route="Paris – Wien", color="red")
    assert result.ephemeral
    assert fake_service.last("claim").kwargs == {"route": "Paris – Wien", "color": "red", "game_id": None}
    confirm = await alice.click(result.response, label="Confirm")
    assert confirm.ephemeral and confirm.response.content == "do r12"


async def test_board_uploads_png(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr board")
    assert not result.ephemeral
    attachment = result.response.attachments[0]
    assert attachment.filename == "board.png"
    assert await attachment.read() == PNG
    assert result.response.embeds[0].image.url == "attachment://board.png"


@pytest.fixture
def quick_defer(monkeypatch: pytest.MonkeyPatch) -> float:
    """The bot defers after 0.05 s instead of DEFER_AFTER (1.5 s): what is checked is what a deferred answer
    becomes, not how long the bot waits first. The test below keeps the real value."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    return 0.05


@pytest.mark.slow  # the one test that waits out the real 1.5 s DEFER_AFTER (the others shorten it)
async def test_slow_service_defers_and_followup_replaces_thinking(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    fake_service.delay = 5.0
    result = await alice.slash(channel, "ttr status")
    await simcord_env.advance_time(5)  # SimCord's clock is virtual: let the slow service finish
    callbacks = [r.json for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks == [{"type": 5}]  # deferred with a public "thinking" message
    assert not result.ephemeral
    assert result.response.content == "Status: nobody's turn"  # the thinking message became the answer
    assert result.followups == []


async def test_slow_private_answer_after_public_thinking(simcord_env, world, fake_service, quick_defer):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    fake_service.delay = 5.0
    before = channel.last_message
    result = await alice.slash(channel, "ttr leave")  # guessed public, answers with a private GameError
    await simcord_env.advance_time(5)
    private = [m for m in result.followups if m.ephemeral]
    assert private and "not in a game" in private[-1].content
    assert channel.last_message == before  # the public "thinking" placeholder is gone
    assert [type(e) for e in handled_errors(simcord_env)] == [GameError]


async def test_game_error_is_ephemeral(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr leave")
    assert result.ephemeral
    assert result.response.content == "You are not in a game here."
    assert [type(e) for e in handled_errors(simcord_env)] == [GameError]


async def test_unexpected_error_is_logged_and_answered(simcord_env, world, fake_service, caplog):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    result = await alice.slash(channel, "ttr end")
    assert result.ephemeral
    assert "something went wrong" in result.response.content
    assert [str(e) for e in handled_errors(simcord_env)] == ["fake bug in end"]
    record = next(r for r in caplog.records if r.name == "bot.discord.replies")
    assert "/ttr end" in record.getMessage() and str(alice.id) in record.getMessage()
    assert record.exc_info is not None


async def test_also_messages_follow(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    result = await alice.slash(channel, "ttr replace", player=bob, new_player=alice)
    assert result.response.content == "replaced" and not result.ephemeral
    assert [m.content for m in result.followups] == ["(private note)"]
    assert result.followups[0].ephemeral


async def test_every_stub_reaches_the_service(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, _carol = world
    fake_service.add_game(guild.id)
    await alice.slash(channel, "ttr log", count=5)
    await alice.slash(channel, "ttr settings", setting="deadline", value="24h")
    await alice.slash(channel, "ttr games", scope="server")
    await alice.slash(channel, "ttr stats", player=bob)
    await alice.slash(channel, "ttr kick", player=bob)
    assert fake_service.methods_called() == ["log", "settings", "games", "stats", "kick"]
    assert fake_service.last("log").kwargs["limit"] == 5
    assert fake_service.last("games").kwargs == {"scope": "server"}
    assert fake_service.last("stats").kwargs == {"target_user_id": bob.id}
    assert fake_service.last("kick").kwargs == {"target_user_id": bob.id, "game_id": None, "moderator": False}


async def test_moderators_act_as_hosts(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, _alice, bob, _carol = world
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await mod.slash(channel, "ttr kick", player=bob)
    assert fake_service.last("kick").kwargs["moderator"] is True


# --------------------------------------------------------------------- persistent buttons


async def test_join_button_edits_the_lobby(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    clicked = await bob.click(lobby.response, label="Join")
    assert clicked.acknowledged
    press = fake_service.last("press").kwargs
    assert press["action"] == "join" and press["user_name"] == "bob" and press["moderator"] is False
    assert f"<@{bob.id}>" in channel.last_message.content  # the lobby message itself changed
    assert channel.last_message.id == lobby.response.id


async def test_slow_join_button_still_edits_the_lobby(simcord_env, world, fake_service, quick_defer):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    fake_service.delay = 5.0
    clicked = await bob.click(lobby.response, label="Join")
    await simcord_env.advance_time(5)
    assert clicked.acknowledged
    assert channel.last_message.id == lobby.response.id  # the thinking note is gone again
    assert f"<@{bob.id}>" in channel.last_message.content


async def test_button_works_after_restart(simcord_env, world, fake_service, make_bot):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="europe")
    await simcord_env.restart_bot(make_bot())  # a new process: nothing but the message survives
    clicked = await bob.click(lobby.response, label="My hand")
    assert clicked.ephemeral
    assert clicked.response.content == f"Hand of <@{bob.id}> in `g1`"
    assert fake_service.started == 2


async def test_select_after_hand_button(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="europe")
    hand = await alice.click(lobby.response, label="My hand")
    kept = await alice.select(hand.response, ["k~t1", "k~t2"], custom_id="ttr:g1:keep:*")
    assert kept.acknowledged and kept.response.id == hand.response.id  # the private hand was updated
    assert kept.response.content == "Kept t1, t2" and kept.response.ephemeral


async def test_slow_select_on_private_message_answers_afresh(simcord_env, world, fake_service, quick_defer):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="europe")
    hand = await alice.click(lobby.response, label="My hand")
    fake_service.delay = 5.0
    kept = await alice.select(hand.response, ["k~t2"], custom_id="ttr:g1:keep:*")
    await simcord_env.advance_time(5)
    assert (
        kept.ephemeral and kept.response.content == "Kept t2"
    )  # the private thinking note became the answer


async def test_slow_public_answer_after_private_thinking(simcord_env, world, fake_service, quick_defer):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    fake_service.delay = 5.0
    result = await alice.slash(channel, "ttr games", scope="server")  # guessed private, answers publicly
    await simcord_env.advance_time(5)
    assert result.ephemeral and result.response.content == "Posted in the channel."
    assert [m.content for m in result.followups] == ["games in server"]
    assert not result.followups[0].ephemeral
    assert channel.last_message.content == "games in server"


async def test_button_of_another_server_is_refused(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    fake_service.guilds["g1"] = 999  # the game now belongs elsewhere
    clicked = await bob.click(lobby.response, label="Join")
    assert clicked.ephemeral
    assert "another server" in clicked.response.content
    assert "press" not in fake_service.methods_called()


async def test_button_of_deleted_game(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    del fake_service.guilds["g1"]
    clicked = await bob.click(lobby.response, label="Join")
    assert clicked.ephemeral and "no longer exists" in clicked.response.content


async def test_failing_button_answers(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    game_id = fake_service.add_game(guild.id)
    message = await _bot_message_with_ids(simcord_env, channel, [button_id(game_id, "do", "boom")])
    clicked = await alice.click(message, custom_id=f"ttr:{game_id}:do:boom")
    assert clicked.ephemeral and "something went wrong" in clicked.response.content


async def _bot_message_with_ids(env, channel, custom_ids):  # type: ignore[no-untyped-def]
    """A message the bot posts with plain buttons carrying arbitrary custom ids."""
    view = discord.ui.View(timeout=None)
    for i, custom_id in enumerate(custom_ids):
        view.add_item(discord.ui.Button(label=f"b{i}", custom_id=custom_id))
    bot_channel = env.bot.get_channel(channel.id)
    return await bot_channel.send("buttons", view=view)


@pytest.mark.parametrize("custom_id", ["random-7f3a9c", "ttr:", "ttr:g1", "ttr:!!:x", "ttr:g1:Join:a:b"])
async def test_random_custom_ids_do_not_crash(simcord_env, world, fake_service, custom_id):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    fake_service.add_game(guild.id)
    message = await _bot_message_with_ids(simcord_env, channel, [custom_id])
    clicked = await alice.click(message, custom_id=custom_id)
    if custom_id.startswith("ttr:"):
        assert clicked.ephemeral and "older version" in clicked.response.content
    else:
        assert not clicked.acknowledged  # not ours: ignored, as discord.py does
    assert fake_service.methods_called() == []

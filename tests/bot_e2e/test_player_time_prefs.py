"""A player's time through SimCord and the production bot (issue 33): `/ttr prefs` sets and shows the time zone,
quiet hours, ping delay, heads-up and away mode; a player with a ping delay is named in the turn message without a
ping and pinged once the delay is over; the heads-up is a direct message; away mode is told in the thread once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from helpers.simcord_driver import Seen, follow_menu, last_public, message_text, open_game, public_messages

from bot import create_bot
from bot.manager import ManualClock
from bot.wiring import Wiring


async def _bot_on_a_clock(simcord_env: Any, settings: Any) -> tuple[Any, ManualClock]:
    from helpers.fast_pictures import FastPictures

    clock = ManualClock()
    bot = create_bot(settings, parts=Wiring(settings, clock=clock, pictures=FastPictures()))
    await simcord_env.restart_bot(bot)
    return bot, clock


async def _fire(simcord_env: Any, bot: Any, clock: ManualClock, **delta: float) -> None:
    clock.advance(timedelta(**delta))
    await bot.service.manager.run_due_timers()
    await simcord_env.settle()


def _people(simcord_env: Any) -> tuple[Any, Any, Any, dict[int, Any]]:
    """A channel, Alice and Bob (members), and each one's user (their direct messages) by id."""
    guild = simcord_env.create_guild("Rail Club")
    channel = guild.create_text_channel("games")
    users = [simcord_env.create_user(n) for n in ("alice", "bob")]
    alice, bob = (guild.add_member(u) for u in users)
    return channel, alice, bob, {alice.id: users[0], bob.id: users[1]}


def _dms(user: Any) -> list[Any]:
    return [m for m in user.dm_channel.history() if m.author.bot]


async def test_prefs_set_and_shown(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    _guild, channel, _alice, bob, _carol = world
    assert simcord_env.errors == []
    shown = await bob.slash(channel, "ttr prefs")
    text = message_text(shown.response)
    assert shown.ephemeral and "Time zone: UTC" in text and "Quiet hours: none" in text
    assert "Pings: at once" in text and "Heads-up: off" in text
    saved = await bob.slash(
        channel,
        "ttr prefs",
        time_zone="Europe/Paris",
        quiet_hours="22:00-07:30",
        ping_delay=15,
        heads_up=True,
    )
    text = message_text(saved.response)
    assert saved.ephemeral and "Preferences saved" in text
    assert "Time zone: Europe/Paris" in text and "Quiet hours: 22:00–07:30" in text
    assert "within 15 minutes" in text and "a private note when the player before you starts" in text
    again = message_text((await bob.slash(channel, "ttr prefs")).response)
    assert "Europe/Paris" in again and "22:00–07:30" in again and "15 minutes" in again
    refused = await bob.slash(channel, "ttr prefs", time_zone="Mars/Olympus")
    assert refused.ephemeral and "`time_zone` cannot be `Mars/Olympus`" in message_text(refused.response)
    off = message_text((await bob.slash(channel, "ttr prefs", quiet_hours="off", ping_delay=0)).response)
    assert "Quiet hours: none" in off and "Pings: at once" in off
    assert all("refused.bad_time_pref" in str(e) for e in simcord_env.errors)  # (the refusal, answered)


async def test_a_ping_delay_holds_the_mention_then_pings_once(simcord_env, bot_settings):  # type: ignore[no-untyped-def]
    channel, alice, bob, users = _people(simcord_env)
    bot, clock = await _bot_on_a_clock(simcord_env, bot_settings)
    for member in (alice, bob):
        await member.slash(channel, "ttr prefs", ping_delay=30, heads_up=True)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    seen = Seen()
    for member in (alice, bob):
        result = await member.click(setup, label="Choose tickets")
        await follow_menu(member, result, seen)
    await simcord_env.settle()
    info = await bot.service.manager.game_info(gid)
    (seat,) = info.to_act
    player = alice if info.seats[seat].user_id == alice.id else bob
    other = bob if player is alice else alice
    turn = last_public(channel)
    assert f"<@{player.id}>" not in turn.content  # named, not pinged: the delay holds the ping
    posted = len(public_messages(channel))
    heads_up = [m for m in _dms(users[other.id]) if "You are next" in m.content]
    assert len(heads_up) == 1 and gid in heads_up[0].content  # the next player's quiet note
    await _fire(simcord_env, bot, clock, minutes=29)
    assert len(public_messages(channel)) == posted
    await _fire(simcord_env, bot, clock, minutes=1)
    pings = [m for m in public_messages(channel)[posted:] if f"<@{player.id}>" in m.content]
    assert len(pings) == 1 and "it is your turn" in pings[0].content
    await _fire(simcord_env, bot, clock, hours=1)
    assert len([m for m in public_messages(channel)[posted:] if f"<@{player.id}>" in m.content]) == 1
    assert simcord_env.errors == []


async def test_away_is_told_in_the_thread_once(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    bot, clock = await _bot_on_a_clock(simcord_env, bot_settings)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    until = (clock.now() + timedelta(days=3)).date().isoformat()
    saved = await bob.slash(channel, "ttr prefs", away_until=until)
    assert "Away until" in message_text(saved.response)
    await _fire(simcord_env, bot, clock, seconds=1)
    told = [m for m in public_messages(channel) if "is away until" in m.content]
    assert len(told) == 1 and "**bob**" in told[0].content and "an AI plays the turn" in told[0].content
    assert f"<@{bob.id}>" not in told[0].content  # (named, not pinged: he is away)
    await _fire(simcord_env, bot, clock, hours=1)
    assert len([m for m in public_messages(channel) if "is away until" in m.content]) == 1
    assert gid
    assert simcord_env.errors == []


async def test_in_quiet_hours_the_absent_player_notice_names_without_a_ping(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    service = simcord_env.bot.service
    seat = next(
        i for i, s in enumerate((await service.games_manager.game_info(gid)).seats) if s.user_id == bob.id
    )
    await service.on_absent(gid, seat, bob.id, "ai")
    await simcord_env.settle()
    assert f"<@{bob.id}>" in last_public(channel).content  # awake: pinged
    hour = datetime.now(UTC).hour  # (this bot runs on the system clock; time zone UTC, the default)
    await bob.slash(channel, "ttr prefs", quiet_hours=f"{(hour - 1) % 24:02d}:00-{(hour + 2) % 24:02d}:00")
    await service.on_absent(gid, seat, bob.id, "ai")
    await simcord_env.settle()
    told = last_public(channel).content
    assert f"<@{bob.id}>" not in told and "**bob**" in told


async def test_time_zones_autocomplete_by_any_part_of_their_name(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    _guild, channel, _alice, bob, _carol = world
    paris = await bob.autocomplete(channel, "ttr prefs", "time_zone", "paris")
    assert paris and paris[0]["value"] == "Europe/Paris"
    york = [c["value"] for c in await bob.autocomplete(channel, "ttr prefs", "time_zone", "new york")]
    assert "America/New_York" in york
    assert len(await bob.autocomplete(channel, "ttr prefs", "time_zone", "")) == 25  # (Discord's most)

"""The daily digest by direct message through SimCord and the production bot (issue 33, item 4): `/ttr prefs
digest:` sets and shows it; at that hour the player gets, by DM, the list `/ttr games` shows (their turn first, the
thread's link), once a day."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from helpers.simcord_driver import message_text, open_game

from bot import create_bot
from bot.manager import ManualClock
from bot.wiring import Wiring


async def _bot_on_a_clock(simcord_env: Any, settings: Any) -> tuple[Any, ManualClock]:
    from helpers.fast_pictures import FastPictures

    clock = ManualClock()
    bot = create_bot(settings, parts=Wiring(settings, clock=clock, pictures=FastPictures()))
    await simcord_env.restart_bot(bot)
    return bot, clock


def _digests(user: Any) -> list[Any]:
    dm = user.dm_channel
    if dm is None:
        return []
    return [m for m in dm.history() if m.author.bot and "Your games today" in message_text(m)]


async def test_digest_pref_set_shown_and_sent_by_dm(simcord_env, bot_settings):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Rail Club")
    channel = guild.create_text_channel("games")
    users = [simcord_env.create_user(n) for n in ("alice", "bob")]
    alice, bob = (guild.add_member(u) for u in users)
    bot, clock = await _bot_on_a_clock(simcord_env, bot_settings)
    shown = message_text((await bob.slash(channel, "ttr prefs")).response)
    assert "Daily digest: off" in shown
    saved = message_text((await bob.slash(channel, "ttr prefs", digest="18:30")).response)
    assert "Preferences saved" in saved and "Daily digest: a direct message at 18:30, your time" in saved
    refused = await bob.slash(channel, "ttr prefs", digest="teatime")
    assert "`digest` cannot be `teatime`" in message_text(refused.response)
    assert all("refused.bad_time_pref" in str(e) for e in simcord_env.errors)  # (the refusal, answered)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    for _ in range(2):  # two days: one digest each
        clock.advance(timedelta(days=1))
        await bot.service.manager.run_due_timers()
        await simcord_env.settle()
        await bot.service.manager.run_due_timers()
        await simcord_env.settle()
    sent = _digests(users[1])
    assert len(sent) == 2
    text = message_text(sent[0])
    assert gid in text and "[thread](" in text and ("**your turn**" in text or "to play" in text)
    assert _digests(users[0]) == []  # Alice never asked for one
    assert len(simcord_env.errors) == 1

"""Screenshots of a game as players see it (issue 16: look at the result as a player would). Opt-in: set
TTR_SHOTS to a folder; needs SimCord's preview extra and `chromium` on the PATH."""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest
from helpers.simcord_driver import Seen, game_id_of, last_public, play_turn, turn_buttons

SHOTS = os.environ.get("TTR_SHOTS")
pytestmark = pytest.mark.skipif(not SHOTS or not shutil.which("chromium"), reason="TTR_SHOTS and chromium")


#: The language of a screenshot's server, and the board its players play (issue 31: each new language on its own
#: board; Japanese text in the pictures needs the packaged CJK font).
GAMES = [
    ("en", "italy"),
    ("fr", "italy"),
    ("de", "germany"),
    ("ja", "japan"),
    ("it", "italy"),
    ("es-ES", "europe"),
]


@pytest.mark.parametrize(("lang", "board"), GAMES)
async def test_screenshot_a_game(simcord_env, monkeypatch, lang, board):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Rail Club", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    _speak(monkeypatch, lang, alice.id)  # alice's private replies in the server's language, bob's in English
    lobby = await alice.slash(channel, "ttr new", map=board)
    gid = game_id_of(lobby.response)
    await bob.click(lobby.response, custom_id=f"ttr:{gid}:join")
    await alice.select(lobby.response, ["normal"], custom_id=f"ttr:{gid}:addai:*")
    await alice.click(lobby.response, custom_id=f"ttr:{gid}:start")
    seen = Seen()
    people = {alice.id: alice, bob.id: bob}
    for _ in range(10):
        last = last_public(channel)
        for uid, member in people.items():
            if f"<@{uid}>" in (last.content or "") and turn_buttons(last):
                await play_turn(member, last, seen)
        await simcord_env.settle()
    await _photograph(simcord_env, channel, alice, f"game-{lang}.png", height=4000)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_screenshot_an_expired_lobby(simcord_env, bot_settings, lang):  # type: ignore[no-untyped-def]
    """A lobby nobody started, after LOBBY_EXPIRE_HOURS: the notice under it and no buttons left."""
    from helpers.fast_pictures import FastPictures

    from bot import create_bot
    from bot.manager import ManualClock
    from bot.wiring import Wiring

    clock = ManualClock()
    bot = create_bot(bot_settings, parts=Wiring(bot_settings, clock=clock, pictures=FastPictures()))
    await simcord_env.restart_bot(bot)
    guild = simcord_env.create_guild("Rail Club", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    lobby = await alice.slash(channel, "ttr new", map="germany")
    await bob.click(lobby.response, custom_id=f"ttr:{game_id_of(lobby.response)}:join")
    clock.advance(hours=25)
    await bot.service.manager.run_due_timers()
    await simcord_env.settle()
    await _photograph(simcord_env, channel, alice, f"lobby-expired-{lang}.png", height=1400)


def _speak(monkeypatch: pytest.MonkeyPatch, locale: str, user_id: int) -> None:
    """The user's Discord client is in `locale` (SimCord sends "en-US" for everyone)."""
    import simcord

    made = simcord.interactions.base_payload

    def payload(*args, **kwargs):  # type: ignore[no-untyped-def]
        record, data = made(*args, **kwargs)
        if kwargs.get("user_id") == user_id:
            data["locale"] = locale
        return record, data

    monkeypatch.setattr(simcord.interactions, "base_payload", payload)


async def _photograph(simcord_env, channel, viewer, name: str, *, height: int) -> None:  # type: ignore[no-untyped-def]
    async with simcord_env.preview(
        channel, viewers=[viewer], layout="channel", width=1000, height=2000
    ) as pv:
        out = os.path.join(SHOTS or ".", name)
        proc = await asyncio.create_subprocess_exec(
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--screenshot={out}",
            f"--window-size=1000,{height}",
            "--virtual-time-budget=5000",
            pv.url,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await asyncio.wait_for(proc.wait(), 120)
    assert os.path.exists(out)

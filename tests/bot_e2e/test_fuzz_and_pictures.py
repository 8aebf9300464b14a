"""Fuzzed interactions never raise an unhandled exception; real pictures are drawn in the render pool."""

from __future__ import annotations

import random

import discord
import pytest
from helpers.simcord_driver import (
    components,
    is_ephemeral,
    last_public,
    open_game,
    turn_buttons,
)

from bot.manager.store import RESUME_GRACE
from bot.play.reply import GameError

ACTIONS = ["open", "menu", "grp", "do", "keep", "decide", "hand", "board", "status", "join", "leave", "start",
           "addai", "do3", "grp9", "zz", "x"]  # fmt: skip
ARGS = [None, "", "t0", "t9999~draw", "s0.0~kt.1+2", "t3~cr.999.0.0.0.0", "t1~db.n", "~", "t1~zz.1.2",
        "t1~claim~7", "t1~draw5", "s0.0~claim~x", "s0.0~draw~zz", "s0.0~kt.99999", "s0.0~cr.0.0.0.0.0",
        "s0.0~drawq", "s1.0~decide~-1", "s0.0~tm.3.purple", "s0.0~pp.n", "t1~claim~-4", "tX~mp.1.2+3", "t1~df.99.n", "t1~kt.", "t1~bs.abc.1.0"]  # fmt: skip


async def _message_with_ids(env, channel, ids):  # type: ignore[no-untyped-def]
    view = discord.ui.View(timeout=None)
    for i, custom_id in enumerate(ids[:25]):
        view.add_item(discord.ui.Button(label=f"b{i}", custom_id=custom_id))
    return await env.bot.get_channel(channel.id).send("fuzz", view=view)


async def _select_message(env, channel, custom_id, values):  # type: ignore[no-untyped-def]
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=custom_id,
            options=[discord.SelectOption(label=v[:100] or "-", value=v[:100] or "-") for v in values],
            max_values=len(values),
        )
    )
    return await env.bot.get_channel(channel.id).send("fuzz select", view=view)


def _unexpected(errors):  # type: ignore[no-untyped-def]
    out = []
    for e in errors:
        original = getattr(e, "original", e)
        if not isinstance(original, GameError):
            out.append(e)
    return out


async def test_fuzzed_clicks_and_selects(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _lobby = await open_game(channel, alice, board="europe", joiners=(bob,), ais=("easy",))
    rng = random.Random(7)
    members = (alice, bob, carol)
    ids = []
    for _ in range(60):
        action = rng.choice(ACTIONS)
        arg = rng.choice(ARGS)
        game = rng.choice([gid, gid, "nosuchgame", "AAAAAAAAAAAAAAAAAAAAAAAA"])
        ids.append(f"ttr:{game}:{action}" + (f":{arg}" if arg else ""))
    ids = list(dict.fromkeys(ids))
    ids += ["ttr:", "ttr:::", f"ttr:{gid}", f"ttr:{gid}:Open:x", "random", f"ttr:{gid}:do:a:b"]
    for chunk in range(0, len(ids), 20):
        message = await _message_with_ids(simcord_env, channel, ids[chunk : chunk + 20])
        for custom_id in ids[chunk : chunk + 20]:
            who = rng.choice(members)
            result = await who.click(message, custom_id=custom_id)
            if result.acknowledged and result.response is not None:
                text = result.response.content or ""
                assert "something went wrong" not in text, (custom_id, text)
    for _ in range(25):
        action = rng.choice(["keep", "do", "grp", "addai", "do1", "menu"])
        values = rng.sample(ARGS[2:] + ["easy", "hard", "t1~5", "s0.0~3", "s1.0~99999"], 3)
        message = await _select_message(simcord_env, channel, f"ttr:{gid}:{action}:*", values)
        result = await rng.choice(members).select(message, values[:2], custom_id=f"ttr:{gid}:{action}:*")
        if result.response is not None:
            assert "something went wrong" not in (result.response.content or ""), (action, values)
    # out-of-turn presses on the real setup message
    setup = last_public(channel)
    for b in turn_buttons(setup):
        result = await carol.click(setup, custom_id=b["custom_id"])
        assert is_ephemeral(result.response)
    assert _unexpected(simcord_env.errors) == []


# The first picture starts the render processes: slow on a busy machine, hence more than SimCord's 5 s. But less
# than the AI seat's resume row (RESUME_GRACE, 30 s after the start): SimCord waits, in real time, for every
# timer due before its settle deadline, and a 30 s settle_timeout waited that row out on every command (31 s).
@pytest.mark.simcord(settle_timeout=RESUME_GRACE.total_seconds() / 2)
@pytest.mark.parametrize("fast_pictures", [False])
async def test_real_pictures_from_the_render_pool(simcord_env, world, fast_pictures):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, _ = await open_game(channel, alice, board="usa", ais=("easy",))
    setup = last_public(channel)
    png = await setup.attachments[0].read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000  # a real board picture
    hand = await alice.slash(channel, "ttr hand")
    data = await hand.response.attachments[0].read()
    assert hand.ephemeral and data[:4] == b"\x89PNG"
    assert components(setup)
    assert simcord_env.errors == []


async def test_a_broken_picture_does_not_hide_the_move(simcord_env, world):  # type: ignore[no-untyped-def]
    from helpers.simcord_driver import Seen, follow_menu

    class Broken:
        async def board(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise RuntimeError("cairo exploded")

        hand = summary = gif = board

        def close(self) -> None:
            return None

    guild, channel, alice, bob, carol = world
    simcord_env.bot.service.pictures = Broken()
    await open_game(channel, alice, board="usa", ais=("easy",))
    setup = last_public(channel)
    assert not setup.attachments and "Choose your destination tickets" in setup.content
    chosen = await alice.click(setup, label="Choose tickets")
    await follow_menu(alice, chosen, Seen())
    turn = last_public(channel)
    assert "your turn" in turn.content and not turn.attachments
    hand = await alice.slash(channel, "ttr hand")
    assert hand.ephemeral and "Tickets" in hand.response.embeds[0].fields[1].name
    assert simcord_env.errors == []

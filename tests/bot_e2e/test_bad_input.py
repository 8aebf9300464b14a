"""Bad input through Discord always gets an answer, and never makes a private fact public (issue 15).

The production bot with its real service and storage, driven through SimCord, which refuses (as Discord does)
any message over Discord's limits: an answer that does not fit never reaches the person.
"""

from __future__ import annotations

import discord
import pytest
from helpers.hypothesis_profiles import examples
from helpers.simcord_driver import (
    PRIVATE_MARKERS,
    components,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
    public_messages,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.components import ACTION
from bot.play.press import PressCode
from bot.play.reply import GameError


def _unexpected(errors):  # type: ignore[no-untyped-def]
    """Errors other than refusals (a `GameError`, also as the cause of a transformer's error)."""
    refusal = (GameError,)
    return [
        e
        for e in errors
        if not isinstance(getattr(e, "original", e), refusal) and not isinstance(e.__cause__, refusal)
    ]


@pytest.mark.parametrize("name", ["moderator", "user_id", "game_id", "self", "changes", "named"])
async def test_a_setting_named_like_a_parameter_is_refused(simcord_env, world, name):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    assert not lobby.ephemeral
    result = await alice.slash(channel, "ttr settings", setting=name, value="1")
    assert result.ephemeral and f"There is no setting {name}" in result.response.content
    assert _unexpected(simcord_env.errors) == []


LONG = "é" * 2500 + "\n" + "x" * 2500  # a slash option holds up to 6,000 characters


@pytest.mark.parametrize(
    ("command", "options", "expected"),
    [
        ("ttr settings", {"setting": LONG, "value": "1"}, "There is no setting"),
        ("ttr settings", {"setting": "absent_policy", "value": LONG}, "is not a valid value"),
        ("ttr new", {"map": LONG}, "There is no board"),
        ("ttr new", {"map": "usa", "variant": LONG}, "has no variant"),
        ("ttr new", {"map": "usa", "options": LONG}, "Unknown option"),
        ("ttr rules", {"topic": LONG}, "has no rules topic"),
        ("ttr claim", {"route": LONG}, ""),
        ("ttr status", {"game": LONG}, ""),
    ],
)
async def test_a_very_long_option_gets_its_refusal(simcord_env, world, command, options, expected):  # type: ignore[no-untyped-def]
    _guild, channel, alice, _bob, _carol = world
    if command != "ttr new":
        await alice.slash(channel, "ttr new", map="usa")
    result = await alice.slash(channel, command, **options)
    assert result.acknowledged and result.ephemeral, result
    text = result.response.content
    assert expected in text and len(text) <= 2000
    assert LONG not in text and "x" * 200 not in text  # quoted, shortened
    assert _unexpected(simcord_env.errors) == []


async def _public_copy(env, channel, item):  # type: ignore[no-untyped-def]
    """A public bot message carrying `item` (a component copied from a private menu): a forged press."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return await env.bot.get_channel(channel.id).send("public message", view=view)


def _as_item(component):  # type: ignore[no-untyped-def]
    if component["type"] == 2:
        return discord.ui.Button(label=component.get("label") or "b", custom_id=component["custom_id"])
    options = [discord.SelectOption(label=o["label"], value=o["value"]) for o in component["options"]]
    return discord.ui.Select(
        custom_id=component["custom_id"],
        options=options,
        min_values=component.get("min_values", 1),
        max_values=component.get("max_values", 1),
    )


def _assert_unchanged(channel, message):  # type: ignore[no-untyped-def]
    now = next(m for m in channel.history() if m.id == message.id)
    assert now.content == "public message" and not now.embeds, message_text(now)


async def test_private_results_never_edit_a_public_message(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, _carol = world
    gid, _lobby = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    decide = next(c for c in components(setup) if c["custom_id"] == f"ttr:{gid}:decide")

    # "decide" pressed on the public message answers privately (it always did: no edit)
    menu = await alice.click(setup, custom_id=decide["custom_id"])
    assert is_ephemeral(menu.response) and "Keep at least" in menu.response.content
    keep = next(c for c in components(menu.response) if c["custom_id"] == f"ttr:{gid}:keep:*")

    # the private "keep tickets" select, forged onto a public message: the result comes privately
    forged = await _public_copy(simcord_env, channel, _as_item(keep))
    values = [o["value"] for o in keep["options"]]
    kept = await alice.select(forged, values, custom_id=keep["custom_id"])
    assert kept.acknowledged and is_ephemeral(kept.response), kept
    assert "You kept" in message_text(kept.response)
    _assert_unchanged(channel, forged)

    # bob keeps his tickets normally; then the first turn's private menu buttons, forged in public
    bob_menu = await bob.click(setup, custom_id=decide["custom_id"])
    bob_keep = next(c for c in components(bob_menu.response) if c["custom_id"] == f"ttr:{gid}:keep:*")
    await bob.select(
        bob_menu.response, [o["value"] for o in bob_keep["options"]], custom_id=bob_keep["custom_id"]
    )
    turn = last_public(channel)
    player = alice if f"<@{alice.id}>" in (turn.content or "") else bob
    # the first card of a draw is a DO button on the public turn message itself (issue 16): its result (the
    # card drawn, the second-card menu) comes privately and the turn message stays as it was
    do = next(
        c
        for c in components(turn)
        if c["custom_id"].startswith(f"ttr:{gid}:do:") and "~db." in c["custom_id"]
    )
    drawn = await player.click(turn, custom_id=do["custom_id"])
    assert drawn.acknowledged and is_ephemeral(drawn.response), drawn
    assert "You drew" in message_text(drawn.response)
    now = next(m for m in channel.history() if m.id == turn.id)
    assert now.content == turn.content and components(now) == components(turn)

    # no public message holds a private fact
    for message in public_messages(channel):
        text = message_text(message)
        assert not any(marker in text for marker in PRIVATE_MARKERS), text
    assert _unexpected(simcord_env.errors) == []


_ARG = st.from_regex(r"[^:*\s~][^:\s~]{0,12}", fullmatch=True)


@settings(max_examples=examples(40))
@given(data=st.data())
async def test_forged_presses_on_a_real_game_are_answered(simcord_env, world, data):  # type: ignore[no-untyped-def]
    """Ids the templates accept, with the game's real turn token and arguments of any shape, on a button or
    a select (either template on either kind) of a public message: each press gets an answer (a refusal at
    worst), never an error, and no private result replaces the public message."""
    guild, channel, alice, bob, _carol = world
    setups = [m for m in public_messages(channel) if "Choose your destination tickets" in (m.content or "")]
    if not setups:
        await open_game(channel, alice, board="europe", joiners=(bob,), ais=())
        setups = [
            m for m in public_messages(channel) if "Choose your destination tickets" in (m.content or "")
        ]
    setup = setups[-1]
    gid = next(c["custom_id"] for c in components(setup)).split(":")[1]
    menu = await alice.click(setup, custom_id=f"ttr:{gid}:decide")
    options = [o["value"] for c in components(menu.response or setup) for o in c.get("options", [])]
    tokens = [o.split("~")[0] for o in options] or ["t0"]
    code = data.draw(st.sampled_from([c.value for c in PressCode]) | st.from_regex(ACTION, fullmatch=True))
    token = data.draw(st.integers(0, 50).map(lambda i: tokens[i % len(tokens)]) | _ARG)
    args = data.draw(st.lists(_ARG, max_size=3))
    arg = "~".join([token, *args])[:40]
    as_select = data.draw(st.booleans())  # the kind of component, and independently the template of its id
    custom_id = f"ttr:{gid}:{code}:*" if data.draw(st.booleans()) else f"ttr:{gid}:{code}:{arg}"
    view = discord.ui.View(timeout=None)
    if as_select:
        view.add_item(
            discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x", value=arg)])
        )
    else:
        view.add_item(discord.ui.Button(label="x", custom_id=custom_id))
    message = await simcord_env.bot.get_channel(channel.id).send("public message", view=view)
    who = data.draw(st.sampled_from([alice, bob]))
    if as_select:
        result = await who.select(message, [arg], custom_id=custom_id)
    else:
        result = await who.click(message, custom_id=custom_id)
    assert result.acknowledged, custom_id
    if result.response is not None:
        assert "something went wrong" not in (result.response.content or ""), custom_id
    now = next(m for m in channel.history() if m.id == message.id)
    if now.content != "public message":  # only a public reply may replace a public message
        assert not any(marker in message_text(now) for marker in PRIVATE_MARKERS), message_text(now)
    assert _unexpected(simcord_env.errors) == []

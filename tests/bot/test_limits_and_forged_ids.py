"""Every reply fits Discord's limits, and every press on one of our ids gets an answer (issue 15).

SimCord refuses, as Discord does, a message over any of Discord's limits: a reply that reached the channel fits.
"""

from __future__ import annotations

import logging

import discord
import pytest
from helpers.bot_fakes import PNG, handled_errors
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.components import ACTION, ARG, GAME_ID
from bot.play import chat
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, EmbedSpec, FieldSpec, FileSpec, OptionSpec, Reply, SelectSpec


def _oversized(game_id: str, *, ephemeral: bool = False, edit_source: bool = False) -> Reply:
    """A reply over every limit Discord has."""
    field = FieldSpec("n" * 300, "v" * 2000, inline=False)
    embed = EmbedSpec(title="t" * 300, description="d" * 5000, fields=(field,) * 30, footer="f" * 3000)
    select = SelectSpec(
        game_id,
        PressCode.KEEP,
        options=tuple(
            OptionSpec("l" * 150, token="k", args=(str(i),), description="o" * 150) for i in range(30)
        ),
        placeholder="p" * 200,
        max_values=30,
    )
    buttons = tuple(
        ButtonSpec(game_id, PressCode.OPEN, "b" * 100, token="t", args=(str(i),)) for i in range(7)
    )
    return Reply(
        content="c" * 3000,
        embeds=(embed,) * 12,
        files=tuple(FileSpec(f"f{i}.png", PNG, description="a" * 2000) for i in range(12)),
        rows=(buttons, (select,), (select, buttons[0]), buttons, buttons, buttons, buttons),
        ephemeral=ephemeral,
        edit_source=edit_source,
    )


def _assert_within_limits(message) -> None:  # type: ignore[no-untyped-def]
    assert len(message.content) <= chat.MAX_CONTENT
    assert len(message.embeds) <= chat.MAX_EMBEDS
    assert sum(len(e) for e in message.embeds) <= chat.MAX_EMBED
    for embed in message.embeds:
        assert len(embed.title or "") <= chat.MAX_EMBED_TITLE
        assert len(embed.description or "") <= chat.MAX_EMBED_DESCRIPTION
        assert len(embed.fields) <= chat.MAX_OPTIONS
        assert all(len(f.name or "") <= chat.MAX_FIELD_NAME for f in embed.fields)
        assert all(len(f.value or "") <= chat.MAX_FIELD for f in embed.fields)
        assert len(embed.footer.text or "") <= chat.MAX_FOOTER
    assert len(message.attachments) <= chat.MAX_FILES
    assert 0 < len(message.components) <= chat.MAX_ROWS
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        inner = row["components"]
        assert len(inner) <= chat.MAX_BUTTONS
        for c in inner:
            if c["type"] == 2:
                assert len(c["label"]) <= chat.MAX_BUTTON_LABEL
            else:
                assert len(inner) == 1 and len(c["options"]) <= chat.MAX_OPTIONS
                assert len(c["placeholder"]) <= chat.MAX_PLACEHOLDER
                assert c["max_values"] <= len(c["options"])
                for o in c["options"]:
                    assert len(o["label"]) <= chat.MAX_OPTION_LABEL
                    assert len(o["description"]) <= chat.MAX_OPTION_DESCRIPTION


async def test_a_reply_over_every_limit_goes_out_within_them(simcord_env, world, fake_service, caplog):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    game_id = fake_service.add_game(guild.id)

    async def status(caller, **kw):  # type: ignore[no-untyped-def]
        return _oversized(game_id)

    fake_service.status = status
    with caplog.at_level(logging.WARNING, logger="bot.discord.limits"):
        result = await alice.slash(channel, "ttr status")
    assert result.acknowledged and not result.ephemeral and result.response is not None
    _assert_within_limits(result.response)
    assert result.response.content.endswith("…") and result.response.embeds[0].description.endswith("…")
    warning = "\n".join(r.getMessage() for r in caplog.records)
    for what in ("content 3000>2000", "embeds 12>10", "embeds[0].fields 30>25", "rows 7>5", "files 12>10"):
        assert what in warning, warning
    assert "ccc" not in warning  # names what was cut, never the text itself

    # the same through the messenger (a post outside any interaction)
    posted = await simcord_env.bot.messenger.post(channel.id, _oversized(game_id))
    assert posted is not None
    _assert_within_limits(next(m for m in channel.history() if m.id == posted))
    assert handled_errors(simcord_env) == []


async def test_an_oversized_edit_of_the_pressed_message_fits(simcord_env, world, fake_service):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, _carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    game_id = next(iter(fake_service.guilds))
    real_press = fake_service.press

    async def press(caller, p):  # type: ignore[no-untyped-def]
        await real_press(caller, p)
        return _oversized(game_id, edit_source=True)

    fake_service.press = press
    clicked = await bob.click(lobby.response, label="Join")
    assert clicked.acknowledged
    edited = next(m for m in channel.history() if m.id == lobby.response.id)
    assert edited.content.startswith("ccc")
    _assert_within_limits(edited)


# ------------------------------------------------------------------ forged ids

_BUTTON = st.builds(
    lambda game, action, arg: f"ttr:{game}:{action}" + (f":{arg}" if arg is not None else ""),
    st.from_regex(GAME_ID, fullmatch=True),
    st.one_of(st.sampled_from([c.value for c in PressCode]), st.from_regex(ACTION, fullmatch=True)),
    st.none() | st.from_regex(ARG, fullmatch=True),
)
_SELECT = st.builds(
    lambda game, action: f"ttr:{game}:{action}:*",
    st.from_regex(GAME_ID, fullmatch=True),
    st.one_of(st.sampled_from([c.value for c in PressCode]), st.from_regex(ACTION, fullmatch=True)),
)


async def _bot_message(env, channel, custom_id, *, as_select):  # type: ignore[no-untyped-def]
    view = discord.ui.View(timeout=None)
    if as_select:
        view.add_item(
            discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="a", value="a~1")])
        )
    else:
        view.add_item(discord.ui.Button(label="b", custom_id=custom_id))
    return await env.bot.get_channel(channel.id).send("forged", view=view)


@pytest.mark.parametrize(
    ("custom_id", "as_select"),
    [
        ("ttr:{game}:do:*", False),
        ("ttr:{game}:keep:*", False),
        ("ttr:{game}:join", True),
        ("ttr:{game}:do:t1~db", True),
    ],
)
async def test_an_id_on_the_wrong_kind_of_component_is_answered(
    simcord_env, world, fake_service, custom_id, as_select
):  # type: ignore[no-untyped-def]
    guild, channel, alice, _bob, _carol = world
    custom_id = custom_id.format(game=fake_service.add_game(guild.id))
    message = await _bot_message(simcord_env, channel, custom_id, as_select=as_select)
    if as_select:
        result = await alice.select(message, ["a~1"], custom_id=custom_id)
    else:
        result = await alice.click(message, custom_id=custom_id)
    assert result.acknowledged and result.ephemeral
    assert "older version" in result.response.content
    assert fake_service.methods_called() == []


@settings(max_examples=examples(60))
@given(
    data=st.data(),
    as_select=st.booleans(),
    real_game=st.booleans(),
)
async def test_every_press_on_an_id_a_template_matches_is_answered(  # type: ignore[no-untyped-def]
    simcord_env, world, fake_service, data, as_select, real_game
):
    guild, channel, alice, _bob, _carol = world
    custom_id = data.draw(st.one_of(_BUTTON, _SELECT))
    if real_game:  # a game of this server: the press may reach the service
        game_id = fake_service.add_game(guild.id)
        fake_service.players[game_id].append(alice.id)
        custom_id = ":".join(["ttr", game_id, *custom_id.split(":")[2:]])
    message = await _bot_message(simcord_env, channel, custom_id, as_select=as_select)
    if as_select:
        result = await alice.select(message, ["a~1"], custom_id=custom_id)
    else:
        result = await alice.click(message, custom_id=custom_id)
    assert result.acknowledged, custom_id
    handled_errors(simcord_env)  # service refusals and the fake's own failures: answered, read here

"""A private ticket map (issue 16): "My hand" offers "My tickets on the map", an ephemeral picture only its owner
ever receives; the public board picture stays byte-identical whatever the private map shows."""

from __future__ import annotations

import discord
import pytest
from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
    public_messages,
)

from bot.play.reply import GameError


def _unexpected(errors):  # type: ignore[no-untyped-def]
    return [e for e in errors if not isinstance(getattr(e, "original", e), GameError)]


async def _started(channel, alice, bob):  # type: ignore[no-untyped-def]
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    for m in (alice, bob):
        await follow_menu(m, await m.click(setup, label="Choose tickets"), Seen())
    return gid


def _map_button(message):  # type: ignore[no-untyped-def]
    return next(c for c in components(message) if c.get("label") == "My tickets on the map")


async def _public_copy(env, channel, component):  # type: ignore[no-untyped-def]
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=component["label"], custom_id=component["custom_id"]))
    return await env.bot.get_channel(channel.id).send("public message", view=view)


async def test_my_hand_offers_my_tickets_on_the_map_to_its_owner_only(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await _started(channel, alice, bob)
    pictures = simcord_env.bot.service.pictures
    hand = await alice.slash(channel, "ttr hand")
    button = _map_button(hand.response)
    shown = await alice.click(hand.response, custom_id=button["custom_id"])
    assert is_ephemeral(shown.response)
    assert [a.filename for a in shown.response.attachments] == ["tickets.png"]
    assert "Your tickets on the map" in message_text(shown.response)
    assert pictures.calls.count("ticket_map") == 1
    # the hand button of the turn message leads there too
    turn = last_public(channel)
    from_button = await alice.click(turn, label="My hand")
    assert _map_button(from_button.response)["custom_id"] == button["custom_id"]

    # the button forged onto a public message: its owner still gets the map privately, nothing public changes
    forged = await _public_copy(simcord_env, channel, button)
    again = await alice.click(forged, custom_id=button["custom_id"])
    assert is_ephemeral(again.response) and again.response.attachments[0].filename == "tickets.png"
    # anyone else pressing it is refused (the other player, a stranger), and gets no picture
    for other, why in ((bob, "belongs to another player"), (carol, "not in this game")):
        refused = await other.click(forged, custom_id=button["custom_id"])
        assert is_ephemeral(refused.response) and why in refused.response.content
        assert not refused.response.attachments
    now = next(m for m in channel.history() if m.id == forged.id)
    assert now.content == "public message" and not now.embeds and not now.attachments
    assert pictures.calls.count("ticket_map") == 2  # alice's two, nobody else's
    assert all(not any(a.filename == "tickets.png" for a in m.attachments) for m in public_messages(channel))
    assert _unexpected(simcord_env.errors) == []


async def test_the_map_speaks_the_players_language(simcord_env, world):  # type: ignore[no-untyped-def]
    from bot.play.pictures import picture_words

    guild, channel, alice, bob, carol = world
    await _started(channel, alice, bob)
    hand = await alice.slash(channel, "ttr hand")
    await alice.click(hand.response, custom_id=_map_button(hand.response)["custom_id"])
    words = dict(simcord_env.bot.service.pictures.words)["ticket_map"]
    assert words == picture_words("en-US")


@pytest.mark.simcord(
    settle_timeout=60
)  # the first picture starts the render processes: slow on a busy machine
# real pictures from a real render pool through the chat (tests/render/test_ticket_map.py checks the same bytes
# in the fast loop, without the bot)
@pytest.mark.cluster
@pytest.mark.parametrize("fast_pictures", [False])
async def test_the_public_board_is_byte_identical_whatever_the_private_map_shows(
    simcord_env, world, fast_pictures
):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await _started(channel, alice, bob)
    before = await (await carol.slash(channel, "ttr board")).response.attachments[0].read()
    maps = []
    for member in (alice, bob):
        hand = await member.slash(channel, "ttr hand")
        shown = await member.click(hand.response, custom_id=_map_button(hand.response)["custom_id"])
        maps.append(await shown.response.attachments[0].read())
    after = await (await carol.slash(channel, "ttr board")).response.attachments[0].read()
    assert maps[0][:8] == b"\x89PNG\r\n\x1a\n" and maps[0] != maps[1]  # each player's own tickets
    assert before not in maps and after == before
    assert _unexpected(simcord_env.errors) == []

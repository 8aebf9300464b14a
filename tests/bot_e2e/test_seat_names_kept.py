"""People keep the names they joined with, everywhere the chat shows them: a person named "🤖1" (the very token
an AI seat is stored under) and one named "Bob🤖2x" play a whole Warehouses game against an AI seat, which reads
"AI 2 (normal)". Their names are never rewritten: not in the turn messages and their fields, not on the buttons
and menus (a warehouse goes by its owner's name), not in the hands, not in the final scores, not in what the
pictures are asked to draw."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers.simcord_driver import (
    Seen,
    components,
    last_public,
    message_text,
    open_game,
    play_until_over,
    public_messages,
)


def _labels(message: Any) -> list[str]:
    out = []
    for c in components(message):
        out.append(str(c.get("label") or ""))
        out.extend(str(o.get("label", "")) for o in c.get("options", []))
        out.append(str(c.get("placeholder") or ""))
    return out


@pytest.mark.slow  # a whole game (8 s); tests/play/test_seat_refs.py checks the same naming in the fast loop
async def test_people_named_like_ai_seats_keep_their_names(simcord_env) -> None:  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Rail Club")
    channel = guild.create_text_channel("games")
    robot = guild.add_member(simcord_env.create_user("🤖1"))
    bob = guild.add_member(simcord_env.create_user("Bob🤖2x"))
    # any level would do (only its word is read); "normal" answers at once where "hard" searched ~1.5 s a game
    gid, _lobby = await open_game(
        channel, robot, board="europe", options="warehouses", joiners=(bob,), ais=("normal",)
    )
    info = await simcord_env.bot.service._info(gid)
    assert [s.name for s in info.seats] == ["🤖1", "Bob🤖2x", "🤖2"]  # stored as typed; the AI by its number
    seen = Seen()
    started = last_public(channel)
    for member in (robot, bob):  # each hand, privately: it names no other seat, and no seat is renamed in it
        hand = await member.click(started, custom_id=f"ttr:{gid}:hand")
        assert hand.ephemeral and "hand.png" in message_text(hand.response)
        seen.results.append(hand)
        seen.private_texts.append(message_text(hand.response))
    final = await play_until_over(channel, {robot.id: robot, bob.id: bob}, seen)
    await simcord_env.settle()

    public = public_messages(channel)
    texts = [message_text(m) for m in public] + [label for m in public for label in _labels(m)]
    private = seen.private_texts + [
        label for r in seen.results if r.response is not None for label in _labels(r.response)
    ]
    everything = "\n".join(texts + private)
    assert "AI 1" not in everything and "BobAI" not in everything and "(normal)x" not in everything
    assert re.search("(?<!Bob)🤖2", everything) is None  # the AI seat's stored token is never shown
    turns = [t for t in texts if "'s turn" in t or "your turn" in t]
    assert any("🤖1" in t for t in turns) and any("Bob🤖2x" in t for t in turns)
    assert any("AI 2 (normal)" in t for t in turns)
    final_text = message_text(final)
    assert "🤖1" in final_text and "Bob🤖2x" in final_text and "AI 2 (normal)" in final_text
    # a warehouse goes by its owner's name on the buttons and menus the people pressed
    owners = [t for t in private if "warehouse" in t.lower()]
    assert owners and any("Bob🤖2x" in t or "🤖1" in t for t in owners), owners[:5]
    # every picture was asked to draw the names as the chat shows them
    asked = simcord_env.bot.service.pictures.names
    assert {kind for kind, _ in asked} >= {"board", "summary", "gif"}
    assert {names for _, names in asked} == {("🤖1", "Bob🤖2x", "AI 2 (normal)")}
    assert simcord_env.errors == []

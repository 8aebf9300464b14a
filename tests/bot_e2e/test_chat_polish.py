"""Issue 23, the chat's rough edges as a player meets them, in English and in French: the game id in footers
only, "Play again" on the final scores, one button per face-up colour, one line for two identical face-up
draws, a typed double route answered with a choice of lane, ratings a newcomer can read."""

from __future__ import annotations

from typing import Any

import pytest
from driver import Seen, open_game, play_turn, play_until_over, public_messages

FRENCH = {"en": False, "fr": True}


def embeds_of(message: Any) -> list[dict[str, Any]]:
    return [e if isinstance(e, dict) else e.to_dict() for e in message.embeds or []]


def footers(message: Any) -> list[str]:
    return [str((e.get("footer") or {}).get("text", "")) for e in embeds_of(message)]


def titles(message: Any) -> list[str]:
    return [str(e.get("title", "")) for e in embeds_of(message)]


async def french_world(simcord_env: Any, french_users: set[int], locale: str) -> tuple[Any, Any, Any]:
    """A server in `locale` whose members' clients are in it too: alice and bob, in a channel."""
    kwargs = {"preferred_locale": "fr"} if FRENCH[locale] else {}
    guild = simcord_env.create_guild("Rail Club", **kwargs)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    if FRENCH[locale]:
        french_users.update({alice.id, bob.id})
    return channel, alice, bob


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_game_id_stands_in_the_footers_not_in_the_titles(
    simcord_env: Any, simcord_bot: Any, french_users: set[int], locale: str
) -> None:
    channel, alice, _bob = await french_world(simcord_env, french_users, locale)
    gid, lobby = await open_game(channel, alice, board="usa", ais=("easy",))
    shown = [lobby]
    await play_turn(alice, public_messages(channel)[-1], Seen())  # the start tickets
    turn = public_messages(channel)[-1]
    shown.append(turn)
    for command in ("ttr board", "ttr status", "ttr log", "ttr hand", "ttr settings"):
        result = await alice.slash(channel, command)
        shown.append(result.response)
    final = await play_until_over(channel, {alice.id: alice}, Seen())
    shown.append(final)
    for message in shown:
        assert embeds_of(message), message.content
        assert all(gid not in t for t in titles(message)), titles(message)
        assert any(gid in f for f in footers(message)), (titles(message), footers(message))
        assert gid not in (message.content or "")
        assert all(gid not in (getattr(a, "description", "") or "") for a in message.attachments or [])
    word = "Partie" if FRENCH[locale] else "Game"
    assert any(f.startswith(f"{word} {gid}") for f in footers(turn))
    assert titles(final)[0] == ("Scores finaux" if FRENCH[locale] else "Final scores")

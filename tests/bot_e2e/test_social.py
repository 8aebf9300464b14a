"""Ratings, player preferences and suggestions, through SimCord and the production bot."""

from __future__ import annotations

from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    game_id_of,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
    public_messages,
    turn_buttons,
)


def _people(simcord_env, *names):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Rail Club")
    channel = guild.create_text_channel("games")
    users = [simcord_env.create_user(n) for n in names]
    return guild, channel, [guild.add_member(u) for u in users], users


def _dms(user):  # type: ignore[no-untyped-def]
    return [m for m in user.dm_channel.history() if m.author.bot]


async def _choose_tickets(channel, members, seen):  # type: ignore[no-untyped-def]
    setup = last_public(channel)
    for m in members:
        result = await m.click(setup, label="Choose tickets")
        await follow_menu(m, result, seen)


def _last_turn(channel):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(public_messages(channel)) if turn_buttons(m))


async def test_a_finished_game_between_two_people_rates_them(simcord_env):  # type: ignore[no-untyped-def]
    guild, channel, (alice, bob), _ = _people(simcord_env, "alice", "bob")
    before = await alice.slash(channel, "ttr stats")
    assert "Not rated yet" in message_text(before.response)
    empty = await alice.slash(channel, "ttr leaderboard")
    assert "Nobody is rated yet" in message_text(empty.response)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    # both hand their seats to the AI, which plays the game to its end (their results count as theirs)
    await alice.slash(channel, "ttr replace", player=alice, new_player=alice)
    await bob.slash(channel, "ttr replace", player=bob, new_player=bob)
    await simcord_env.settle()
    service = simcord_env.bot.service
    info = await service.games_manager.game_info(gid)
    assert info.status == "finished"
    stats = message_text((await alice.slash(channel, "ttr stats")).response)
    assert "Rating **" in stats and "in this server (1 rated game)" in stats
    board = await bob.slash(channel, "ttr leaderboard")
    text = message_text(board.response)
    assert not board.ephemeral and "all boards" in text
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text and "1 game" in text
    on_usa = message_text((await bob.slash(channel, "ttr leaderboard", map="usa")).response)
    assert "USA" in on_usa and f"<@{alice.id}>" in on_usa
    on_europe = message_text((await bob.slash(channel, "ttr leaderboard", map="europe")).response)
    assert "Nobody is rated yet" in on_europe
    # the ranks follow the scores: the better score is first
    results = {r.user_id: r.score for r in await service.games_manager.repository.load_results(gid)}
    first = max(results, key=lambda u: results[u])
    assert text.index(f"<@{first}>") < text.index(f"<@{({alice.id, bob.id} - {first}).pop()}>")
    assert simcord_env.errors == []


async def test_preferences_and_one_notification_per_turn(simcord_env):  # type: ignore[no-untyped-def]
    guild, channel, (alice, bob), (_, bob_user) = _people(simcord_env, "alice", "bob")
    shown = await bob.slash(channel, "ttr prefs")
    assert shown.ephemeral and "a mention in the game's thread" in message_text(shown.response)
    assert "you confirm each claim" in message_text(shown.response)
    saved = await bob.slash(channel, "ttr prefs", notify="dm")
    assert saved.ephemeral and "Preferences saved" in message_text(saved.response)
    assert "a direct message" in message_text(saved.response)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    assert (
        f"<@{alice.id}>" in setup.content
        and f"<@{bob.id}>" not in setup.content
        and "**bob**" in setup.content
    )
    assert len(_dms(bob_user)) == 1 and gid in _dms(bob_user)[0].content  # told of the ticket choice by DM
    assert f"https://discord.com/channels/{guild.id}/{channel.id}" in _dms(bob_user)[0].content
    seen = Seen()
    await _choose_tickets(channel, (alice, bob), seen)
    service = simcord_env.bot.service
    for _ in range(6):  # a few turns each: a DM per turn of Bob's, never a ping
        turn = _last_turn(channel)
        info = await service.games_manager.game_info(gid)
        (seat,) = info.to_act
        player = alice if info.seats[seat].user_id == alice.id else bob
        if player is bob:
            assert f"<@{bob.id}>" not in turn.content and "**bob**" in turn.content
        else:
            assert f"<@{alice.id}>" in turn.content
        dms = len(_dms(bob_user))
        # the same turn posted again (a second message for one turn): nobody is notified twice
        again = await service.turn_message(gid)
        assert "<@" not in str(again.content)  # named, not pinged
        assert len(_dms(bob_user)) == dms
        opened = await player.click(
            turn,
            custom_id=next(
                b
                for b in turn_buttons(turn)
                if ":do:" in b["custom_id"] and "~db." in b["custom_id"]  # the deck, on the turn message
            )["custom_id"],
        )
        await follow_menu(player, opened, seen)
    bob_turns = sum(1 for m in public_messages(channel) if "**bob**, your turn" in (m.content or ""))
    assert bob_turns >= 2 and len(_dms(bob_user)) == 1 + bob_turns  # the ticket choice, then one per turn
    # reminders follow the choice: Bob by DM, nothing in the channel; with "none", nothing at all
    posted = len(public_messages(channel))
    await service.on_reminder(gid, 1, bob.id, 1)
    await simcord_env.settle()
    assert "Reminder 1" in _dms(bob_user)[-1].content and len(public_messages(channel)) == posted
    await bob.slash(channel, "ttr prefs", notify="none")
    dms = len(_dms(bob_user))
    await service.on_reminder(gid, 1, bob.id, 2)
    await simcord_env.settle()
    assert len(_dms(bob_user)) == dms and len(public_messages(channel)) == posted
    assert simcord_env.errors == []


async def test_suggest_a_move_is_private_and_only_with_hints_on(simcord_env):  # type: ignore[no-untyped-def]
    import pytest

    from bot.play.contract import Caller
    from bot.play.press import Press, PressCode
    from bot.play.reply import GameError

    guild, channel, (alice, bob), _ = _people(simcord_env, "alice", "bob")
    service = simcord_env.bot.service
    off, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    assert not any(b.get("label") == "Suggest a move" for b in turn_buttons(last_public(channel)))
    with pytest.raises(GameError) as refused_off:  # off by default: even a forged press gets nothing
        await service.press(Caller(guild.id, channel.id, alice.id), Press(off, PressCode.SUGGEST))
    assert refused_off.value.message.key == "suggest.off"  # type: ignore[union-attr]
    await alice.slash(channel, "ttr end")

    lobby = await alice.slash(channel, "ttr new", map="europe")
    await bob.click(lobby.response, label="Join")
    changed = await alice.slash(channel, "ttr settings", setting="hints", value="on")
    assert "`hints`: yes" in message_text(changed.response)
    gid = game_id_of(lobby.response)
    await alice.click(lobby.response, label="Start")
    setup = last_public(channel)
    seen = Seen()
    # the ticket choice: which tickets to keep
    asked = await bob.click(setup, label="Suggest a move")
    assert is_ephemeral(asked.response) and "The normal AI would play" in asked.response.content
    assert "Keep" in asked.response.content
    await _choose_tickets(channel, (alice, bob), seen)
    turn = _last_turn(channel)
    info = await service.games_manager.game_info(gid)
    (seat,) = info.to_act
    player, other = (alice, bob) if info.seats[seat].user_id == alice.id else (bob, alice)
    refused = await other.click(turn, label="Suggest a move")
    assert refused.ephemeral and "not your turn" in refused.response.content.lower()
    asked = await player.click(turn, label="Suggest a move")
    text = asked.response.content
    assert is_ephemeral(asked.response) and "The normal AI would play" in text and "\n" in text
    reason = text.split("\n", 1)[1]
    assert reason.strip() and "suggest." not in reason  # worded by the catalogue
    # never public: no public message holds a suggestion
    assert not any("normal AI would" in message_text(m) for m in public_messages(channel))
    # "Play it" plays the suggested move
    play = next(c for c in components(asked.response) if ":do:" in c["custom_id"])
    done = await player.click(asked.response, custom_id=play["custom_id"])
    await follow_menu(player, done, seen)
    after = await service.games_manager.game_info(gid)
    assert after.tokens.get(seat) != info.tokens[seat]  # the move was played
    assert all(isinstance(getattr(e, "original", e), GameError) for e in simcord_env.errors)


def test_every_reason_code_is_worded_in_every_language() -> None:
    import json
    import re
    from pathlib import Path

    import engine.ai.advice as advice
    from bot.i18n import default_catalog
    from bot.play.advice import REASONS

    assert set(re.findall(r"^\| `(\w+)`", advice.__doc__ or "", re.M)) == set(REASONS)
    for lang in default_catalog().locales:
        catalogue = json.loads(
            (Path(__file__).parents[2] / "bot" / "locales" / f"{lang}.json").read_text("utf-8")
        )
        for code in REASONS:
            key = f"suggest.reason.{code}"
            assert key in catalogue or f"{key}.other" in catalogue, (lang, key)


async def test_closed_direct_messages_fall_back_to_the_mention(simcord_env, monkeypatch):  # type: ignore[no-untyped-def]
    guild, channel, (alice, bob), _ = _people(simcord_env, "alice", "bob")
    await bob.slash(channel, "ttr prefs", notify="dm")
    service = simcord_env.bot.service

    async def refused(user_id, reply, *, locale=None):  # type: ignore[no-untyped-def]
        return False  # what the messenger answers when Discord refuses the DM

    monkeypatch.setattr(service.messenger, "direct", refused)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    assert f"<@{bob.id}>" in setup.content  # the DM failed: the mention tells him
    posted = len(public_messages(channel))
    await service.on_reminder(gid, 1, bob.id, 1)
    await simcord_env.settle()
    assert len(public_messages(channel)) == posted + 1 and f"<@{bob.id}>" in last_public(channel).content

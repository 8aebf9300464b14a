"""What each member sees during a game: turn messages, private hands, refusals, commands, restarts."""

from __future__ import annotations

import discord
from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
    public_messages,
    turn_buttons,
)

from bot.play.reply import GameError


def _button(message, label):  # type: ignore[no-untyped-def]
    return next(b for b in turn_buttons(message) if b.get("label") == label)


async def _turn_of(channel, members):  # type: ignore[no-untyped-def]
    """The last public message and the member it names (after the ticket choice)."""
    for last in reversed(public_messages(channel)):
        for m in members:
            if f"<@{m.id}>, your turn" in (last.content or ""):
                return last, m
    raise AssertionError("no turn message")


async def _choose_tickets(channel, members, seen):  # type: ignore[no-untyped-def]
    setup = last_public(channel)
    assert "Choose your destination tickets" in setup.content
    for m in members:
        result = await m.click(setup, label="Choose tickets")
        assert is_ephemeral(result.response) and "Keep at least" in result.response.content
        await follow_menu(m, result, seen)


def _deck(message):  # type: ignore[no-untyped-def]
    """The deck's button on a turn message: the first card of a draw."""
    return next(c for c in components(message) if ":do:" in c["custom_id"] and "~db." in c["custom_id"])


async def test_two_people_and_an_ai(simcord_env, world, make_bot):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    seen = Seen()
    gid, lobby = await open_game(channel, alice, board="europe", joiners=(bob,), ais=("easy",))
    lobby_text = message_text(lobby)
    assert "alice" in lobby_text or str(alice.id) in lobby_text
    # a second Join by the same person is refused privately
    again = await bob.click(lobby, label="Join") if components(lobby) else None
    assert again is None or is_ephemeral(again.response)

    await _choose_tickets(channel, (alice, bob), seen)
    turn, player = await _turn_of(channel, (alice, bob))
    other = bob if player is alice else alice
    assert any(a.filename == "board.png" for a in turn.attachments)
    assert turn.embeds[0].image.url == "attachment://board.png"
    labels = {b["label"] for b in turn_buttons(turn)}
    assert {"Draw tickets", "My hand", "Board"} <= labels and "Draw cards" not in labels
    face_up = (await simcord_env.bot.service._state(gid)).face_up
    # the first card: one button per face-up colour, and the deck
    assert sum(":do:" in c["custom_id"] for c in components(turn)) == len(set(face_up)) + 1

    # others pressing an action button: "not your turn" / "not in this game", nothing changes
    refused = await other.click(turn, custom_id=_deck(turn)["custom_id"])
    assert is_ephemeral(refused.response) and "not your turn" in refused.response.content
    stranger = await carol.click(turn, custom_id=_deck(turn)["custom_id"])
    assert is_ephemeral(stranger.response) and "not in this game" in stranger.response.content
    assert last_public(channel).id == turn.id

    # the hand: private, text and picture, tickets with their progress
    hand = await player.slash(channel, "ttr hand")
    assert hand.ephemeral and any(a.filename == "hand.png" for a in hand.response.attachments)
    text = message_text(hand.response)
    assert "Tickets" in text and "trains" in text and " – " in text
    outsider = await carol.slash(channel, "ttr hand")
    assert outsider.ephemeral and "not in this game" in outsider.response.content

    # /ttr claim with autocomplete of affordable routes, confirm, applied
    choices = await player.autocomplete(channel, "ttr claim", "route", "")
    if choices:
        claim = await player.slash(channel, "ttr claim", route=choices[0]["value"])
        assert claim.ephemeral and "pay" in claim.response.content
        confirm = next(c for c in components(claim.response) if c.get("label") == "Confirm")
        done = await player.click(claim.response, custom_id=confirm["custom_id"])
        await follow_menu(player, done, seen)
    else:  # nothing affordable: the deck's button on the turn message, then the private second-card menu
        opened = await player.click(turn, custom_id=_deck(turn)["custom_id"])
        assert is_ephemeral(opened.response)
        await follow_menu(player, opened, seen)
    after = last_public(channel)
    assert after.id != turn.id and any(a.filename == "board.png" for a in after.attachments)

    # the old turn message lost its move buttons: only Board stays (one live set of buttons per thread)
    old = next(m for m in public_messages(channel) if m.id == turn.id)
    assert [c["custom_id"].rsplit(":", 1)[-1] for c in components(old)] == ["board"]

    # commands any member may use
    status = await carol.slash(channel, "ttr status")
    assert not status.ephemeral and "alice" in message_text(status.response)
    log = await carol.slash(channel, "ttr log", count=5)
    assert log.ephemeral and "alice" in message_text(log.response) or "bob" in message_text(log.response)
    board = await carol.slash(channel, "ttr board")
    assert any(a.filename == "board.png" for a in board.response.attachments)
    games = await carol.slash(channel, "ttr games", scope="server")
    assert gid in message_text(games.response)
    settings = await bob.slash(channel, "ttr settings", setting="remind_after_hours", value="6")
    assert settings.ephemeral and "host" in settings.response.content  # only the host changes settings
    no_value = await alice.slash(channel, "ttr settings", setting="absent_policy")
    assert no_value.ephemeral and "Give a value" in no_value.response.content
    bad = await alice.slash(channel, "ttr settings", setting="absent_policy", value="explode")
    assert bad.ephemeral and "absent_policy" in bad.response.content
    changed = await alice.slash(channel, "ttr settings", setting="remind_after_hours", value="6")
    assert "`remind_after_hours`: 6 hours" in message_text(changed.response)

    # a restart: only the messages survive; old persistent buttons still work
    await simcord_env.restart_bot(make_bot())
    turn2, player2 = await _turn_of(channel, (alice, bob))
    old = next(m for m in public_messages(channel) if m.id == turn.id)
    shown = await player2.click(old, custom_id=_button(old, "Board")["custom_id"])  # an old message
    assert is_ephemeral(shown.response) and any(a.filename == "board.png" for a in shown.response.attachments)
    my_hand = await player2.click(turn2, custom_id=_button(turn2, "My hand")["custom_id"])
    assert is_ephemeral(my_hand.response) and any(
        a.filename == "hand.png" for a in my_hand.response.attachments
    )
    opened = await player2.click(turn2, custom_id=_deck(turn2)["custom_id"])
    assert is_ephemeral(opened.response) and "second card" in opened.response.content.lower()
    await follow_menu(player2, opened, seen)
    assert (await _turn_of(channel, (alice, bob)))[0].id != turn2.id
    # the game remembered its turn message across the restart: that one lost its moves too
    old2 = next(m for m in public_messages(channel) if m.id == turn2.id)
    assert [c["custom_id"].rsplit(":", 1)[-1] for c in components(old2)] == ["board"]

    # the end: not by a member, yes by the host
    refused_end = await bob.slash(channel, "ttr end")
    assert refused_end.ephemeral and "host" in refused_end.response.content
    ended = await alice.slash(channel, "ttr end")
    assert not ended.ephemeral and "ended" in ended.response.content
    no_game = await alice.slash(channel, "ttr status")
    assert no_game.ephemeral and "no open game" in no_game.response.content
    # hands never went public
    for m in public_messages(channel):
        assert not any(a.filename == "hand.png" for a in m.attachments)
    assert all(isinstance(getattr(e, "original", e), GameError) for e in simcord_env.errors)


async def test_moderator_may_end_and_stats_after_a_game(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", ais=("easy",))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    ended = await mod.slash(channel, "ttr end")
    assert not ended.ephemeral and "ended" in ended.response.content
    stats = await alice.slash(channel, "ttr stats")
    assert "Statistics" in message_text(stats.response)
    assert simcord_env.errors == []


async def test_unsolicited_posts_reach_the_channel(simcord_env, world):  # type: ignore[no-untyped-def]
    """The service's messenger (wired by the bot in setup_hook) posts reminders and timer moves."""
    guild, channel, alice, bob, carol = world
    gid, _ = await open_game(channel, alice, board="usa", ais=("easy",))
    service = simcord_env.bot.service
    assert service.messenger is not None
    await service.on_reminder(gid, 0, alice.id, 1)
    await simcord_env.settle()
    last = last_public(channel)
    assert f"<@{alice.id}>" in last.content and "reminder 1" in last.content


async def test_absent_player_is_played_by_the_timer_and_announced(simcord_env, world, bot_settings):  # type: ignore[no-untyped-def]
    """Moves nobody clicked (the absent-player policy, fired by the stored timers) reach the channel through
    the service's messenger, with the board picture and the next player's buttons."""
    from datetime import timedelta

    from helpers.fast_pictures import FastPictures

    from bot import create_bot
    from bot.manager import ManualClock
    from bot.wiring import Wiring

    guild, channel, alice, bob, carol = world
    clock = ManualClock()
    parts = Wiring(bot_settings, clock=clock, pictures=FastPictures(), ai_budget_ms=20)
    bot = create_bot(bot_settings, parts=parts)
    await simcord_env.restart_bot(bot)
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    seen = Seen()
    await _choose_tickets(channel, (alice, bob), seen)
    turn, player = await _turn_of(channel, (alice, bob))
    clock.advance(timedelta(hours=13))  # first reminder
    await bot.service.manager.run_due_timers()  # type: ignore[attr-defined]
    await simcord_env.settle()
    reminder = last_public(channel)
    assert f"<@{player.id}>" in reminder.content and "reminder 1" in reminder.content
    clock.advance(timedelta(hours=13))  # second reminder
    await bot.service.manager.run_due_timers()  # type: ignore[attr-defined]
    clock.advance(timedelta(hours=25))  # absent: an AI plays this turn
    await bot.service.manager.run_due_timers()  # type: ignore[attr-defined]
    # the AI decides in a worker thread: on a loaded machine the announcement can take a moment
    import asyncio

    for _ in range(100):
        await simcord_env.settle()
        texts = [m.content for m in public_messages(channel)[-3:]]
        if any("did not play in time" in t for t in texts):
            break
        await asyncio.sleep(0.05)
    assert any("did not play in time" in t for t in texts), texts
    after, next_player = await _turn_of(channel, (alice, bob))
    assert after.id != turn.id and next_player is not player
    assert any(a.filename == "board.png" for a in after.attachments)
    assert "My hand" in {b["label"] for b in turn_buttons(after)} and _deck(after)


async def test_leave_and_kick(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    await bob.click(lobby.response, label="Join")
    await carol.click(lobby.response, label="Join")
    kicked = await alice.slash(channel, "ttr kick", player=carol)
    assert not kicked.ephemeral and "removed" in kicked.response.content
    not_host = await bob.slash(channel, "ttr kick", player=alice)
    assert not_host.ephemeral
    started = await alice.click(lobby.response, label="Start")
    assert started.followups
    resigned = await bob.slash(channel, "ttr leave")
    assert not resigned.ephemeral and "AI plays" in message_text(resigned.response)
    assert all(isinstance(getattr(e, "original", e), GameError) for e in simcord_env.errors)


async def test_replace_hands_over_takes_back_and_gives_a_seat(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    handed = await bob.slash(channel, "ttr replace", player=bob, new_player=bob)
    assert "handed their seat to an AI" in message_text(handed.response)
    back = await bob.slash(channel, "ttr replace", player=bob, new_player=bob)
    assert "back at the table" in message_text(back.response)
    not_yours = await carol.slash(channel, "ttr replace", player=bob, new_player=bob)
    assert not_yours.ephemeral
    given = await alice.slash(channel, "ttr replace", player=bob, new_player=carol)
    assert "now plays" in message_text(given.response)
    hand = await carol.slash(channel, "ttr hand")
    assert hand.ephemeral and hand.response.embeds and "Tickets" in message_text(hand.response)
    gone = await bob.slash(channel, "ttr hand")
    assert gone.ephemeral and "not in this game" in gone.response.content
    assert all(isinstance(getattr(e, "original", e), GameError) for e in simcord_env.errors)

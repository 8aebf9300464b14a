"""Texts a player stumbles on (issue 16): each sentence read as a player reads it, through SimCord."""

from __future__ import annotations

import re

from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    last_public,
    message_text,
    open_game,
    play_turn,
    public_messages,
    turn_buttons,
)

from bot.i18n import default_catalog


def _embed(message):  # type: ignore[no-untyped-def]
    e = message.embeds[0]
    return e if isinstance(e, dict) else e.to_dict()


async def test_the_lobby_after_start_reads_as_a_game_under_way(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, lobby = await open_game(channel, alice, board="italy", ais=("normal",))
    await simcord_env.settle()
    lobby = next(m for m in public_messages(channel) if m.id == lobby.id)
    embed = _embed(lobby)
    assert embed["title"] == "Ticket to Ride: Italy"  # not "Italy (Italy)"; the id stands in the footer
    assert gid in embed["footer"]["text"]
    assert "Press Join" not in embed["description"] and "under way" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Options"] == "none"  # not "-", which Discord draws as a lone bullet
    seats = next(v for k, v in fields.items() if k.startswith("Players"))
    assert "AI 1 (normal) 🤖" in seats and "🤖 normal" not in seats


async def test_turn_lines_status_and_log_read_once_and_counted(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    seen = Seen()
    people = {alice.id: alice, bob.id: bob}
    # both choose their tickets: the line of the last keep does not say whose turn it is before "play begins"
    for _ in range(4):
        last = last_public(channel)
        if "play begins with" in (last.content or ""):
            break
        for uid, member in people.items():
            if f"<@{uid}>" in (last.content or "") and turn_buttons(last):
                await play_turn(member, last, seen)
    started = last_public(channel)
    found = re.search(r"Everyone has chosen their tickets: play begins with (\w+)\.", started.content)
    assert found, started.content
    first = found.group(1)  # who plays first is drawn
    other = "bob" if first == "alice" else "alice"
    player = alice if first == "alice" else bob
    assert f"{first}'s turn." not in started.content
    footer = _embed(started)["footer"]["text"]
    assert "last round" not in footer.lower()  # no "last round: -" while it does not apply
    # the first player draws two cards blind: one line for both
    shown = started
    for _ in range(2):  # the deck's button on the turn message, then in the private second-card menu
        blind = next(c for c in components(shown) if "~db." in c["custom_id"])
        menu = await player.click(shown, custom_id=blind["custom_id"])
        shown = menu.response
    await follow_menu(player, menu, seen)
    turn = last_public(channel)
    assert f"{first} drew 2 cards from the deck. {other}'s turn." in turn.content, turn.content
    assert "drew a card from the deck" not in turn.content

    status = await alice.slash(channel, "ttr status")
    text = message_text(status.response)
    assert "phase main" not in text and "main game" in text
    assert (
        re.search(r"\b1 cards\b", text) is None and "4 cards" in text
    )  # counted words (the other still holds 4)
    assert "45 trains" in text and "0 points" in text

    log = await alice.slash(channel, "ttr log")
    numbers = re.findall(r"^(\d+)\.", message_text(log.response), flags=re.M)
    assert numbers and len(numbers) == len(set(numbers)), numbers  # one number per action


def test_plural_forms_exist_in_both_languages() -> None:
    catalog = default_catalog()
    for lang, one, many in (
        ("en", "1 turn left", "2 turns left"),
        ("fr", "1 tour restant", "2 tours restants"),
    ):
        assert catalog.text("n.turns_left", lang, n=1) == one
        assert catalog.text("n.turns_left", lang, n=2) == many
    assert catalog.text("ev.draw_blind_n", "fr", player="a", n=2) == "a a pioché 2 cartes face cachée."


async def test_one_live_set_of_move_buttons(simcord_env, world):  # type: ignore[no-untyped-def]
    """Each new turn message takes the buttons off the one before: only Board stays on earlier ones."""
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", joiners=(bob,), ais=("easy",))
    seen = Seen()
    people = {alice.id: alice, bob.id: bob}
    for _ in range(8):
        last = last_public(channel)
        for uid, member in people.items():
            if f"<@{uid}>" in (last.content or "") and turn_buttons(last):
                await play_turn(member, last, seen)
        await simcord_env.settle()
    turns = [m for m in public_messages(channel) if any(":board" in c["custom_id"] for c in components(m))]
    assert len(turns) >= 4
    for earlier in turns[:-1]:
        assert [c["custom_id"].split(":")[-1] for c in components(earlier)] == ["board"], earlier.content
    assert turn_buttons(turns[-1])  # the live one still has its moves


async def test_the_turn_message_shows_the_face_up_row_and_counts_as_text(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    last = last_public(channel)
    fields = {f["name"]: f["value"] for f in _embed(last)["fields"]}
    row = next(v for k, v in fields.items() if k.startswith("Face-up cards"))
    assert len(row.split(" · ")) == 5 and all(
        part.split(" ", 1)[0] in "🟥🟦🟩🟨⬛⬜🟧🟪🌈" for part in row.split(" · ")
    )
    seats = [v for k, v in fields.items() if "alice" in k or "bob" in k]
    assert len(seats) == 2 and all("45 trains" in v and "4 cards" in v and "0 points" in v for v in seats)


async def test_a_player_back_reads_every_move_since_their_last_turn(simcord_env, world, make_bot):  # type: ignore[no-untyped-def]
    """Three people: the turn message that calls the first player lists the moves of the two others, even
    though the second one's was already told in the message that called the third, and across a restart of
    the bot in between."""
    guild, channel, alice, bob, carol = world
    await open_game(channel, alice, board="usa", joiners=(bob, carol), ais=())
    seen = Seen()
    people = {alice.id: alice, bob.id: bob, carol.id: carol}
    names = {alice.id: "alice", bob.id: "bob", carol.id: "carol"}
    for _ in range(6):  # the ticket choice, until play begins
        last = last_public(channel)
        if "play begins with" in (last.content or ""):
            break
        for uid, member in people.items():
            if f"<@{uid}>" in (last.content or "") and turn_buttons(last):
                await play_turn(member, last, seen)
    order: list[int] = []
    for step in range(6):  # two rounds; the bot restarts after the second move of the second round
        last = last_public(channel)
        uid = next(u for u in people if f"<@{u}>, your turn" in (last.content or ""))
        order.append(uid)
        await play_turn(people[uid], last, seen)
        if step == 4:
            await simcord_env.restart_bot(make_bot())
    called = last_public(channel)
    assert order[:3] == order[3:]
    first_of_round = names[order[4]]  # moved before the restart and before the previous turn message
    second_of_round = names[order[5]]
    assert called.content.count("\n") >= 2
    lines = called.content.splitlines()
    assert any(ln.startswith(first_of_round) for ln in lines), called.content
    assert any(ln.startswith(second_of_round) for ln in lines), called.content

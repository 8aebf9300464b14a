"""A server whose language is French reads its public messages (lobby, turn lines, colours) in French; each
person's private replies stay in their own language, and the card drawn blind is only ever in the drawer's."""

from __future__ import annotations

from helpers.simcord_driver import (
    Seen,
    assert_no_leak,
    components,
    follow_menu,
    game_id_of,
    is_ephemeral,
    last_public,
    message_text,
    play_turn,
    public_messages,
)

from bot.i18n import default_catalog
from bot.play.pictures import picture_words


async def test_a_french_server_reads_french_turn_lines(simcord_env):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Club du rail", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice = guild.add_member(simcord_env.create_user("alice"))
    lobby = await alice.slash(channel, "ttr new", map="europe")
    assert not lobby.ephemeral and "Aventuriers du Rail" in message_text(lobby.response)
    gid = game_id_of(lobby.response)
    await alice.select(lobby.response, ["easy"], custom_id=f"ttr:{gid}:addai:*")
    started = await alice.click(lobby.response, custom_id=f"ttr:{gid}:start")
    assert started.acknowledged
    seen = Seen()
    setup = last_public(channel)
    assert (
        "La partie sur le plateau Europe commence" in setup.content
        and "Choisissez vos billets" in setup.content
    )
    await play_turn(alice, setup, seen)  # the ticket choice

    # Alice's turn: draw two cards blind
    drawn: list[str] = []
    for _ in range(20):
        turn = last_public(channel)
        if f"<@{alice.id}>, à vous." in (turn.content or ""):
            break
        await play_turn(alice, turn, seen)
    else:
        raise AssertionError("Alice never got a turn")
    assert (
        "Tout le monde a choisi ses billets : alice commence" in message_text(turn)
        or "À alice de jouer" in turn.content
    )
    assert not any(c["custom_id"].endswith("~draw") for c in components(turn))  # the cards are on it
    shown = turn
    for _ in range(2):  # the deck's button on the turn message, then in the private second-card menu
        blind = next(c for c in components(shown) if "~db." in c["custom_id"])
        menu = await alice.click(shown, custom_id=blind["custom_id"])
        shown = menu.response
        private = message_text(menu.response)
        assert is_ephemeral(menu.response) and "You drew a card from the deck:" in private  # her own language
        drawn.append(private)
    await follow_menu(alice, menu, seen)

    catalog = default_catalog()
    colours = {t for k, t in catalog.messages["fr"].items() if k.startswith("card.")}
    colours |= {t for k, t in catalog.messages["en"].items() if k.startswith("card.")}
    public = [m for m in public_messages(channel) if m.id > turn.id]
    assert public, "a public turn message followed the draws"
    line = next(
        ln for m in public for ln in (m.content or "").splitlines() if "a pioché 2 cartes face cachée" in ln
    )
    # two blind draws read as one line (issue 16), never twice the same sentence
    assert "alice a pioché 2 cartes face cachée. À IA 1 (facile) de jouer." in public[0].content, public[
        0
    ].content
    assert not set(line.replace(".", " ").split()) & colours, line  # the colour drawn blind stays private
    texts = "\n".join(message_text(m) for m in public_messages(channel))
    assert "You drew" not in texts and "Vous avez pioché" not in texts
    assert "➡️" in texts and ", à vous." in texts
    # the AI's lines are French too, colours included ("avec 2 noirs")
    assert "a pris" in texts or "a pioché" in texts
    state = await simcord_env.bot.service._state(gid)
    assert assert_no_leak(channel, state) > 0

    # the pictures speak the server's language, the private hand the player's own
    hand = await alice.slash(channel, "ttr hand")
    assert hand.ephemeral
    asked = simcord_env.bot.service.pictures.words
    boards = [w for kind, w in asked if kind == "board"]
    assert boards and all(w == picture_words("fr") for w in boards)
    assert boards[0].deck == "Pioche {n}" and boards[0].zero_is_singular
    hands = [w for kind, w in asked if kind == "hand"]
    assert hands and hands[-1].hand_title == "Your hand"  # her own language, as her private replies
    assert simcord_env.errors == []

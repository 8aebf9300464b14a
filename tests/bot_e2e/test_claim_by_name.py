"""`/ttr claim route: color:` reads route and colour names the way people type them (the board parses them)."""

from __future__ import annotations

from helpers.simcord_driver import follow_menu, is_ephemeral, last_public, open_game, public_messages

from maps import CARD_NAMES

ORANGE, WHITE, PINK = (CARD_NAMES.index(c) for c in ("orange", "white", "pink"))


async def _choose_tickets(channel, members) -> None:  # type: ignore[no-untyped-def]
    from helpers.simcord_driver import Seen

    setup = last_public(channel)
    for m in members:
        result = await m.click(setup, label="Choose tickets")
        await follow_menu(m, result, Seen())


def _turn_of(channel, members):  # type: ignore[no-untyped-def]
    for last in reversed(public_messages(channel)):
        for m in members:
            if f"<@{m.id}>, your turn" in (last.content or ""):
                return m
    raise AssertionError("no turn message")


async def test_claim_reads_route_and_colour_names(simcord_env, simcord_bot, world):  # type: ignore[no-untyped-def]
    _guild, channel, alice, bob, _carol = world
    # four seats: both lanes of Europe's doubles are open
    gid, _ = await open_game(channel, alice, board="europe", joiners=(bob,), ais=("easy", "easy"))
    await _choose_tickets(channel, (alice, bob))
    player = _turn_of(channel, (alice, bob))
    game = await simcord_bot.service.manager._store.get(gid)  # the test sets the hand behind the API
    seat = next(i for i, s in enumerate(game.seats) if s.user_id == player.id)
    state = game.state
    hand = state.players[seat].hand
    for i in range(len(hand)):
        hand[i] = 0
    hand[ORANGE] = hand[WHITE] = hand[PINK] = 3
    board = state.board
    ends = {board.city("Paris").id, board.city("Frankfurt").id}
    orange_lane, white_lane = (
        next(r.id for r in board.routes if {r.a, r.b} == ends and r.color == c) for c in (ORANGE, WHITE)
    )

    async def claim(route: str, color: str | None = None) -> str:
        kwargs = {"route": route} if color is None else {"route": route, "color": color}
        result = await player.slash(channel, "ttr claim", **kwargs)
        assert is_ephemeral(result.response)
        return str(result.response.content)

    # a double with both lanes open and payable: the claim, with the other lane a choice away (issue 23)
    for text in ("Paris - Frankfurt", "Paris-Frankfurt", "paris frankfurt", "Frankfurt – Paris"):
        asked = await claim(text)
        assert asked.startswith("**Frankfurt–Paris") and "2 lanes are open to you" in asked, (text, asked)
    # a colour word picks one lane, in English or French, whichever place comes first
    for text in ("Paris - Frankfurt white", "frankfurt paris WHITE", "Paris Frankfurt blanc"):
        shown = await claim(text)
        assert shown.startswith("**Frankfurt–Paris") and "white" in shown and "orange" not in shown, shown
    # accents or not; "purple" and the French "violet" are pink cards
    assert "Zürich" in await claim("paris zurich")
    for word in ("purple", "violet", "pink"):
        shown = await claim("Dieppe - Paris", word)
        assert shown.startswith("**Dieppe–Paris") and "pink" in shown, (word, shown)
    assert "not a card colour" in await claim("Dieppe - Paris", "plaid")
    assert "not a card colour" in await claim("Paris Frankfurt plaid")
    assert "no route" in await claim("Paris - Wien")
    assert "no route" in await claim("nowhere at all")
    # the id the autocomplete sends
    assert await claim(str(orange_lane)) == await claim("Paris Frankfurt orange")

    # once another seat holds the orange lane, the name alone finds the white one
    other = (seat + 1) % state.num_players
    state.route_owner[orange_lane] = other
    state.players[other].routes.append(orange_lane)
    shown = await claim("Paris - Frankfurt")
    assert shown.startswith("**Frankfurt–Paris") and "white" in shown, shown
    assert "cannot claim" in await claim("Paris - Frankfurt orange")
    # a double fully taken
    state.route_owner[white_lane] = other
    state.players[other].routes.append(white_lane)
    assert "cannot claim" in await claim("Paris - Frankfurt")
    refused = {getattr(e, "original", e).args[0] for e in simcord_env.errors}  # answered refusals, read
    assert refused == {"claim.bad_color", "claim.no_route", "claim.cannot"}

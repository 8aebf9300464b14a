"""Fewer clicks (issue 16): a normal move in at most two clicks counted from the turn message (a draw's first card
is on it; a claim is "Claim a route" then the route, confirmation off),
the claim menu and `/ttr claim` ranked by use, one-click claims when confirmation is off, tickets in one click."""

from __future__ import annotations

import secrets

import pytest
from helpers.simcord_driver import (
    Seen,
    components,
    follow_menu,
    is_ephemeral,
    last_public,
    public_messages,
    turn_buttons,
)

from bot.play import menus
from engine.progress import routes_by_use
from engine.rules import legal_actions
from maps import LOCOMOTIVE

SEED = 1  # a usa game whose first player can pay some route one way only, and another several ways


class _Seeded:
    """`secrets` for the game manager, with a fixed game seed (the deal decides which routes are payable how)."""

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(secrets, name)

    def randbits(self, k):  # type: ignore[no-untyped-def]
        return SEED


@pytest.fixture(autouse=True)
def _seeded(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr("bot.manager.games.secrets", _Seeded())


class Clicks:
    """Counts the presses (buttons and selects) a member makes."""

    def __init__(self, member):  # type: ignore[no-untyped-def]
        self.member, self.n = member, 0

    async def click(self, message, **kw):  # type: ignore[no-untyped-def]
        self.n += 1
        return await self.member.click(message, **kw)

    async def select(self, message, values, **kw):  # type: ignore[no-untyped-def]
        self.n += 1
        return await self.member.select(message, values, **kw)


def _button(message, label):  # type: ignore[no-untyped-def]
    return next(b for b in turn_buttons(message) if b.get("label") == label)


async def _started(simcord_env, channel, alice, bob):  # type: ignore[no-untyped-def]
    from helpers.simcord_driver import open_game

    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    for m in (alice, bob):
        result = await m.click(setup, label="Choose tickets")
        await follow_menu(m, result, Seen())
    return gid


async def _turn(channel, members):  # type: ignore[no-untyped-def]
    for last in reversed(public_messages(channel)):
        for m in members:
            if f"<@{m.id}>, your turn" in (last.content or ""):
                return last, m
    raise AssertionError("no turn message")


async def test_draw_two_cards_and_claim_a_route_take_two_clicks_each(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid = await _started(simcord_env, channel, alice, bob)
    service = simcord_env.bot.service

    # drawing: the first card's buttons are on the turn message itself; the second card is one more click
    turn, player = await _turn(channel, (alice, bob))
    assert not any(b.get("label") == "Draw cards" for b in turn_buttons(turn))
    rows = turn.components
    buttons = [c for c in components(turn) if ":do:" in c["custom_id"]]
    state = await service._state(gid)
    assert len(buttons) == len(set(state.face_up)) + 1  # each face-up colour and the deck, one button each
    first_row = rows[0] if isinstance(rows[0], dict) else rows[0].to_dict()
    assert all(":do:" in c["custom_id"] for c in first_row["components"])  # the cards in rows of their own
    assert len(rows) <= 5 and all(
        len((r if isinstance(r, dict) else r.to_dict())["components"]) <= 5 for r in rows
    )
    other = bob if player is alice else alice
    refused = await other.click(turn, custom_id=buttons[0]["custom_id"])
    assert is_ephemeral(refused.response) and last_public(channel).id == turn.id
    counted = Clicks(player)
    deck = next(b for b in buttons if b.get("emoji"))
    first = await counted.click(turn, custom_id=deck["custom_id"])
    assert is_ephemeral(first.response)  # the second-card menu is the player's alone
    assert last_public(channel).id == turn.id  # the public turn message stays as it was
    second_deck = next(c for c in components(first.response) if c.get("type") == 2 and c.get("emoji"))
    done = await counted.click(first.response, custom_id=second_deck["custom_id"])
    assert counted.n == 2 and not components(done.response)
    assert "drew" in done.response.content
    menu = done

    # claiming: the menu ranks the routes by use, then one select and Confirm
    turn, player = await _turn(channel, (alice, bob))
    assert turn.id != menu.response.id
    state = await service._state(gid)
    seat = next(s.seat for s in (await service._info(gid)).seats if s.user_id == player.id)
    menu = await player.click(turn, custom_id=_button(turn, "Claim a route")["custom_id"])
    select = next(c for c in components(menu.response) if c.get("type") == 3)
    listed = [int(o["value"].rsplit("~", 1)[1]) for o in select["options"]]
    affordable = {a.route for a in legal_actions(state, seat) if getattr(a, "route", None) is not None}
    assert listed == routes_by_use(state, seat, affordable)[:25]
    counted = Clicks(player)
    picked = await counted.select(
        menu.response, [select["options"][0]["value"]], custom_id=select["custom_id"]
    )
    confirm = next(c for c in components(picked.response) if c.get("label") == "Confirm")
    claimed = await counted.click(picked.response, custom_id=confirm["custom_id"])
    assert counted.n == 2 and "claimed" in claimed.response.content


async def test_claim_confirmation_off_claims_a_one_payment_route_in_one_click(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid = await _started(simcord_env, channel, alice, bob)
    service = simcord_env.bot.service
    turn, player = await _turn(channel, (alice, bob))
    await player.slash(channel, "ttr prefs", confirm_claims=False)
    state = await service._state(gid)
    info = await service._info(gid)
    seat = next(s.seat for s in info.seats if s.user_id == player.id)
    menu = await player.click(turn, custom_id=_button(turn, "Claim a route")["custom_id"])
    select = next(c for c in components(menu.response) if c.get("type") == 3)
    by_route = {int(o["value"].rsplit("~", 1)[1]): o["value"] for o in select["options"]}
    quick = [r for r in by_route if menus.one_click(state, seat, "claim", r) is not None]
    asks = [r for r in by_route if menus.one_click(state, seat, "claim", r) is None]
    assert asks and quick  # the seed deals both kinds
    # several payments (or a tunnel): still the confirm step
    shown = await player.select(menu.response, [by_route[asks[0]]], custom_id=select["custom_id"])
    assert any(c.get("label") == "Confirm" for c in components(shown.response))
    menu = shown
    back = next(c for c in components(shown.response) if c.get("label") == "Back")
    menu = await player.click(shown.response, custom_id=back["custom_id"])
    assert any(c.get("type") == 3 for c in components(menu.response))
    # counted from the turn message: "Claim a route", then the route
    counted = Clicks(player)
    menu = await counted.click(turn, custom_id=_button(turn, "Claim a route")["custom_id"])
    select = next(c for c in components(menu.response) if c.get("type") == 3)
    done = await counted.select(menu.response, [by_route[quick[0]]], custom_id=select["custom_id"])
    assert counted.n == 2 and "claimed" in done.response.content and not components(done.response)
    after = await service._state(gid)
    assert after.route_owner[quick[0]] == seat


async def test_draw_tickets_is_one_click_and_claim_autocomplete_ranks_by_use(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid = await _started(simcord_env, channel, alice, bob)
    service = simcord_env.bot.service
    turn, player = await _turn(channel, (alice, bob))
    state = await service._state(gid)
    info = await service._info(gid)
    seat = next(s.seat for s in info.seats if s.user_id == player.id)

    choices = await player.autocomplete(channel, "ttr claim", "route", "")
    affordable = {a.route for a in legal_actions(state, seat) if getattr(a, "route", None) is not None}
    assert [int(c["value"]) for c in choices] == routes_by_use(state, seat, affordable)[:25]
    # any part of either city name finds the route
    route = state.board.routes[int(choices[0]["value"])]
    part = state.board.cities[route.b].name[1:4].lower()
    found = await player.autocomplete(channel, "ttr claim", "route", part)
    assert choices[0]["value"] in [c["value"] for c in found]

    drawn = await player.click(turn, custom_id=_button(turn, "Draw tickets")["custom_id"])
    assert is_ephemeral(drawn.response)
    assert "Keep at least" in drawn.response.content  # the tickets drawn, to keep: no empty "Draw ...:" menu
    assert any(c.get("custom_id", "").endswith(":keep:*") for c in components(drawn.response))


async def test_slash_claim_with_confirmation_off_claims_a_one_payment_route_at_once(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid = await _started(simcord_env, channel, alice, bob)
    service = simcord_env.bot.service
    turn, player = await _turn(channel, (alice, bob))
    state = await service._state(gid)
    seat = next(s.seat for s in (await service._info(gid)).seats if s.user_id == player.id)
    choices = await player.autocomplete(channel, "ttr claim", "route", "")
    quick = [c for c in choices if menus.one_click(state, seat, "claim", int(c["value"])) is not None]
    asks = [c for c in choices if menus.one_click(state, seat, "claim", int(c["value"])) is None]
    assert asks and quick  # the seed deals both kinds
    # confirmation is on by default: the confirm step, nothing claimed
    shown = await player.slash(channel, "ttr claim", route=asks[0]["value"])
    assert any(c.get("label") == "Confirm" for c in components(shown.response))
    assert quick
    shown = await player.slash(channel, "ttr claim", route=quick[0]["value"])
    assert any(c.get("label") == "Confirm" for c in components(shown.response))  # on by default
    await player.slash(channel, "ttr prefs", confirm_claims=False)
    done = await player.slash(channel, "ttr claim", route=quick[0]["value"])
    assert done.ephemeral and "claimed" in done.response.content
    assert (await service._state(gid)).route_owner[int(quick[0]["value"])] == seat


async def test_a_face_up_locomotive_taken_first_ends_the_turn_in_one_click(simcord_env, world, monkeypatch):  # type: ignore[no-untyped-def]
    guild, _channel, alice, bob, carol = world
    service = simcord_env.bot.service
    for seed in range(1, 60):  # a deal with a locomotive face up at the first turn
        monkeypatch.setattr(__name__ + ".SEED", seed)
        channel = guild.create_text_channel(f"games-{seed}")
        gid = await _started(simcord_env, channel, alice, bob)
        if LOCOMOTIVE in (await service._state(gid)).face_up:
            break
    else:
        raise AssertionError("no deal with a face-up locomotive")
    turn, player = await _turn(channel, (alice, bob))
    loco = next(c for c in components(turn) if c.get("label") == "Face-up locomotive")  # on the turn message
    done = await player.click(turn, custom_id=loco["custom_id"])
    assert "locomotive" in done.response.content and not components(done.response)  # no second card asked
    state = await service._state(gid)
    seat = next(s.seat for s in (await service._info(gid)).seats if s.user_id == player.id)
    assert state.current != seat and not state.pending

"""The presentation's parts without Discord or storage: paging of selects, the press table, the caller, and
menus drawn from a real engine state."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from helpers.fast_pictures import FastPictures
from helpers.quiet_messenger import QuietMessenger

from bot.config import Settings
from bot.discord.components import ARG, join_args
from bot.manager import turn_token
from bot.messages import Text
from bot.play import chat, codec
from bot.play.confirm import cheapest
from bot.play.contract import Caller
from bot.play.layout import paged_selects
from bot.play.press import Press, PressCode
from bot.play.reply import ButtonSpec, GameError, OptionSpec, SelectSpec
from bot.play.service import _PRESSES, ManagerGameService
from bot.wiring import Wiring
from engine.actions import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets
from engine.rules import legal_actions


def _options(n: int) -> list[OptionSpec]:
    return [OptionSpec(f"o{i}", token="t9", args=(str(i),)) for i in range(n)]


def test_few_options_fit_in_one_select() -> None:
    rows = paged_selects("g1", PressCode.DO, _options(7), placeholder="pick")
    assert len(rows) == 1
    (select,) = rows[0]
    assert isinstance(select, SelectSpec) and select.row == 0 and len(select.options) == 7


def test_many_options_page_with_a_more_button() -> None:
    options = _options(230)  # 100 a page: 3 pages
    first = paged_selects("g1", PressCode.GROUP, options, placeholder="pick", more=("t9", "claim"))
    selects = [r[0] for r in first if isinstance(r[0], SelectSpec)]
    assert [s.row for s in selects] == [0, 1, 2, 3] and sum(len(s.options) for s in selects) == 100
    more = first[-1][0]
    assert isinstance(more, ButtonSpec) and more.code == PressCode.MENU
    assert (more.token, more.args) == ("t9", ("claim", "1"))
    assert more.label == Text("btn.more", {"page": 2, "pages": 3})
    last = paged_selects("g1", PressCode.GROUP, options, placeholder="pick", page=2, more=("t9", "claim"))
    assert sum(len(r[0].options) for r in last if isinstance(r[0], SelectSpec)) == 30
    assert isinstance(last[-1][0], ButtonSpec) and last[-1][0].args == ("claim", "0")  # wraps to the first
    assert len(paged_selects("g1", PressCode.GROUP, options, placeholder="p", page=99)) == 2  # the last page


def test_without_more_only_the_first_page_is_shown() -> None:
    rows = paged_selects("g1", PressCode.DO, _options(150), placeholder="pay")
    assert all(isinstance(r[0], SelectSpec) for r in rows) and len(rows) == chat.MAX_ROWS - 1


def test_every_press_code_has_a_handler() -> None:
    assert set(_PRESSES) == set(PressCode)


def test_the_button_arg_limit_is_the_templates() -> None:
    limit = int(re.search(r"\{0,(\d+)\}", ARG).group(1)) + 1  # type: ignore[union-attr]
    assert limit == chat.MAX_BUTTON_ARG
    assert chat.button_arg_fits("t1", ("a" * (limit - 3),)) and not chat.button_arg_fits("t1", ("a" * limit,))
    assert join_args("t1", ("a" * (limit - 3),)) is not None


def test_caller_names_someone() -> None:
    assert Caller(1, 2, 3).display_name == "3"
    assert Caller(1, 2, 3, "ann", moderator=True).display_name == "ann"


def test_mentions_and_times_are_discord_syntax() -> None:
    from datetime import UTC, datetime

    assert chat.user(5) == "<@5>" and chat.channel(6) == "<#6>"
    assert chat.relative_time(datetime(2026, 1, 1, tzinfo=UTC)) == "<t:1767225600:R>"
    assert chat.fit_lines("a\nbb\nccc", 6) == "a\n…"


# ------------------------------------------------------------------------------------------ presses


ANN = Caller(1, 50, 101, "Ann")
BOB = Caller(1, 50, 102, "Bob")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[ManagerGameService]:
    async with Wiring(
        Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"), pictures=FastPictures()
    ) as svc:
        await svc.start(QuietMessenger())
        yield svc


async def _started(svc: ManagerGameService) -> str:
    await svc.new_game(ANN, board_id="usa")
    found = await svc.games_manager.find_open_game(channel_id=ANN.channel_id)
    assert found is not None
    gid = found.game_id
    await svc.press(BOB, Press(gid, PressCode.JOIN))
    await svc.press(ANN, Press(gid, PressCode.START))
    for who in (ANN, BOB):
        seat = await svc.games_manager.seat_of(gid, who.user_id)
        state = await svc.games_manager.state_of(gid)
        assert state is not None and seat is not None
        keep = max(
            (a for a in legal_actions(state, seat) if isinstance(a, KeepTickets)),
            key=lambda a: len(a.tickets),
        )
        await svc.games_manager.act(gid, who.user_id, keep)
    return gid


async def _turn(svc: ManagerGameService, gid: str) -> tuple[Caller, Caller, str]:
    """Who is to act, who is not, and the current turn token."""
    state = await svc.games_manager.state_of(gid)
    info = await svc.games_manager.game_info(gid)
    assert state is not None
    current = info.seats[state.current].user_id
    me, other = (ANN, BOB) if current == ANN.user_id else (BOB, ANN)
    return me, other, turn_token(state, state.current)


async def test_a_claim_goes_open_group_do(service: ManagerGameService) -> None:
    gid = await _started(service)
    me, _, token = await _turn(service, gid)
    state = await service.games_manager.state_of(gid)
    assert state is not None
    state.players[state.current].hand[:] = [9] * len(state.players[state.current].hand)  # can claim anything
    opened = await service.press(me, Press(gid, PressCode.OPEN, token, ("claim",)))
    groups = [c for row in opened.rows for c in row if isinstance(c, SelectSpec)]
    assert opened.ephemeral and groups and all(g.code == PressCode.GROUP for g in groups)
    option = groups[0].options[0]
    assert option.token == token and option.args[0] == "claim"
    confirm = await service.press(me, Press(gid, PressCode.GROUP, option.token, option.args))
    button = confirm.rows[0][0]
    assert (
        isinstance(button, ButtonSpec) and button.code == PressCode.DO and button.label == Text("btn.confirm")
    )
    assert isinstance(codec.decode(button.args[0]), ClaimRoute)
    before = len(state.history)
    done = await service.press(me, Press(gid, PressCode.DO, button.token, button.args))
    after = await service.games_manager.state_of(gid)
    assert done.ephemeral and after is not None and len(after.history) == before + 1


async def test_presses_of_another_moment_are_stale(service: ManagerGameService) -> None:
    gid = await _started(service)
    me, _, token = await _turn(service, gid)
    old = "t0"
    assert old != token
    with pytest.raises(GameError) as menu:  # checked by the presentation: no manager call for a menu
        await service.press(me, Press(gid, PressCode.OPEN, old, ("draw",)))
    assert menu.value.message == Text("play.stale")
    with pytest.raises(GameError) as move:  # checked by the manager alone
        await service.press(me, Press(gid, PressCode.DO, old, (codec.encode(DrawBlind()),)))
    assert move.value.message == Text("play.stale")


async def test_presses_out_of_turn_or_place_are_refused(service: ManagerGameService) -> None:
    gid = await _started(service)
    _, other, token = await _turn(service, gid)
    with pytest.raises(GameError) as not_yours:
        await service.press(other, Press(gid, PressCode.OPEN, token, ("draw",)))
    assert isinstance(not_yours.value.message, Text) and not_yours.value.message.key == "play.not_your_turn"
    with pytest.raises(GameError) as elsewhere:
        await service.press(Caller(2, 50, 101, "Ann"), Press(gid, PressCode.HAND))
    assert elsewhere.value.message == Text("button.other_server")
    with pytest.raises(GameError) as garbage:
        await service.press(other, Press(gid, PressCode.DO, token, ("zz.1",)))
    assert garbage.value.message == Text("play.bad_choice")


def test_the_cheapest_payment_spends_no_locomotive_when_it_can() -> None:
    hand = [0] * 9
    hand[3] = 4
    payments = [ClaimRoute(1, 3, 2), ClaimRoute(1, 3, 0), ClaimRoute(1, 8, 4)]
    assert cheapest(payments, hand) == ClaimRoute(1, 3, 0)


def _past_ticket_choice(options: tuple[str, ...]):  # type: ignore[no-untyped-def]
    from engine.pending import TicketChoice
    from engine.rules import apply, new_game
    from engine.state import MAIN

    state = new_game("europe", 2, seed=3, options=options, first_player=0)
    while state.pending or state.phase != MAIN:  # the tickets kept, then (Warehouses) the depots placed
        seat = min(state.pending) if state.pending else state.current
        pending = state.pending.get(seat)
        if isinstance(pending, TicketChoice):
            apply(state, seat, KeepTickets(tuple(sorted(pending.offered)[: pending.keep_min])))
        else:
            apply(state, seat, legal_actions(state, seat)[0])
    return state


def test_the_first_card_of_a_draw_is_on_the_turn_message_unless_a_warehouse_is_chosen_first() -> None:
    from bot.play import menus

    classic = _past_ticket_choice(())
    seat = classic.current
    cards = menus.card_buttons("g1", classic, seat)
    codes = [b.args[0] for b in cards]
    # one button per face-up colour (issue 23) and one for the deck
    assert len(cards) == len(set(classic.face_up)) + 1 and sum(c.startswith("db.") for c in codes) == 1
    assert all(b.code == PressCode.DO and b.token == turn_token(classic, seat) for b in cards)
    draws = [a for a in legal_actions(classic, seat) if a.kind in ("draw_face_up", "draw_blind")]
    assert set(map(codec.decode, codes)) <= set(draws)
    colours = [classic.face_up[a.slot] for a in map(codec.decode, codes) if isinstance(a, DrawFaceUp)]
    assert sorted(colours) == sorted(set(classic.face_up))
    openers = [b.args[0] for b in menus.menu_buttons("g1", classic, seat)]
    assert "draw" not in openers and "claim" in openers  # no opener for what is already on the message

    warehouses = _past_ticket_choice(("warehouses",))
    seat = warehouses.current
    assert menus.card_buttons("g1", warehouses, seat) == []  # the warehouse is chosen first, in the menu
    assert "draw" in [b.args[0] for b in menus.menu_buttons("g1", warehouses, seat)]

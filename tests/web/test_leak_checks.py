"""The hidden-information checks are not vacuous: what `helpers.hidden.hidden_from` hides fails them, and what a
reader may see passes."""

from __future__ import annotations

import json

import pytest
from helpers.hidden import hidden_from
from helpers.simcord_driver import secrets_of
from helpers.web_site import check_frame

from engine.pending import TicketChoice
from engine.rules import new_game
from engine.views import ticket_info
from maps import load_board

SEED = 918_273_645_501


def _offered(state, seat):  # type: ignore[no-untyped-def]
    pending = state.pending[seat]
    assert isinstance(pending, TicketChoice)
    return [ticket_info(state, t) for t in pending.offered]


def _frame(tickets, **spelling) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(
        {"tickets": [{"label": f"{t.a} – {t.b}", "points": t.points} for t in tickets]}, **spelling
    )


def test_a_seat_sees_its_own_tickets_and_none_of_the_others() -> None:
    state = new_game(load_board("europe"), ["Ann", "Bob"], seed=SEED)  # both choosing their first tickets
    ann, bob = _offered(state, 0), _offered(state, 1)
    assert set(hidden_from(state, 0).tickets) == set(bob)
    assert set(hidden_from(state, None).tickets) == set(ann + bob)
    check_frame(_frame(ann), state, 0)
    for spelling in ({}, {"ensure_ascii": False, "separators": (",", ":")}):  # a response; a pushed frame
        with pytest.raises(AssertionError, match="leaked to seat 0"):
            check_frame(_frame(bob[:1], **spelling), state, 0)
    with pytest.raises(AssertionError, match="leaked to seat None"):
        check_frame(_frame(ann[:1]), state, None)
    with pytest.raises(AssertionError):
        check_frame(json.dumps({"seed": SEED}), state, 0)


def test_a_public_message_names_no_ticket() -> None:
    state = new_game(load_board("europe"), ["Ann", "Bob"], seed=SEED)
    ann = _offered(state, 0)[0]
    assert f"{ann.a} – {ann.b}" in secrets_of(state)

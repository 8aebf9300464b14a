"""`/ttr hand` shows every ticket, whole, however many the player kept (a long game keeps 24 and more): the
tickets take as many embed fields as they need, none cut with "…", in English and in French."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.fast_pictures import FastPictures

from bot.i18n import default_catalog
from bot.play import chat
from bot.play.hand import hand_reply
from engine.rules import new_game
from engine.views import player_view
from maps import load_board


class Info:
    """The little of a GameInfo the hand reads."""

    game_id = "g1"
    to_act: tuple[int, ...] = ()
    seats: tuple[Any, ...] = ()

    class settings:  # noqa: N801 - shaped like GameSettings
        colorblind = False


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("count", [24, 40])
async def test_every_ticket_is_shown_whole(locale: str, count: int) -> None:
    board = load_board("europe")
    state = new_game(board, ["Ann", "Bob"], seed=3)
    state.players[0].tickets = list(range(count))  # a long game: many tickets kept
    reply = await hand_reply(Info(), state, 0, FastPictures())  # type: ignore[arg-type]
    catalog = default_catalog()
    (embed,) = reply.embeds
    names = [catalog.render(f.name, locale) for f in embed.fields]
    values = [catalog.render(f.value, locale) or "" for f in embed.fields]
    ticket_values = [v for n, v in zip(names, values, strict=True) if n in ("Tickets", "Billets", "")]
    assert all(len(v) <= chat.MAX_FIELD for v in values) and all(
        len(n or "") <= chat.MAX_FIELD_NAME for n in names
    )
    shown = "\n".join(ticket_values)
    assert "…" not in shown
    lines = [line for line in shown.splitlines() if line.strip()]
    assert len(lines) == count
    for t in player_view(state, 0).tickets:
        assert any(f"{t.a} – {t.b} ({t.points})" in line for line in lines)
    assert len(embed.fields) <= 25 and sum(len(v) for v in values) + sum(len(n or "") for n in names) <= 6000

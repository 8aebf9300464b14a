"""A Japanese reader reads the Japan board's cities in Japanese in every message (moves, action labels, tickets,
autocomplete), every other reader as the board spells them: a city is a `Place` until the reader's language
names it."""

from __future__ import annotations

from helpers.engine_states import started

from bot.i18n import default_catalog, english
from bot.messages import Place
from bot.play import labels
from bot.play.completion import route_choices
from bot.play.event_words import describe, table_of
from engine.actions import ClaimRoute
from engine.events import public_events
from engine.rules import apply, legal_actions


def test_a_place_is_named_in_the_readers_language() -> None:
    catalog = default_catalog()
    assert catalog.render(Place("japan", "Tokyo"), "ja") == "東京"
    assert catalog.render(Place("japan", "Tokyo"), "ja-JP") == "東京"
    assert catalog.render(Place("japan", "Tokyo"), "fr") == "Tokyo"
    assert catalog.render(Place("europe", "Wien"), "ja") == "Wien"  # no Japanese names for Europe's cities
    assert english(Place("japan", "Kagoshima-Chuo")) == "Kagoshima-Chuo"


def test_moves_labels_and_tickets_name_the_cities_as_the_reader_knows_them() -> None:
    catalog = default_catalog().seated(("alice", "bob"))
    state = started("japan", players=2, seed=3)
    seat = state.current
    claim = next(a for a in legal_actions(state, seat) if isinstance(a, ClaimRoute))
    route = state.board.routes[claim.route]
    a, b = state.board.cities[route.a].name, state.board.cities[route.b].name
    label = labels.message(state, seat, claim)
    japanese = catalog.render(label, "ja") or ""
    assert a not in japanese and b not in japanese and "–" in japanese, japanese
    assert f"{a}–{b}" in (catalog.render(label, "en") or "")
    ticket = catalog.render(labels.ticket_text(state, state.players[seat].tickets[0]), "ja") or ""
    assert not any(c.isascii() and c.isalpha() for c in ticket), ticket
    apply(state, seat, claim)
    line = describe(state.board, table_of(state).seats, seat, claim.kind, public_events(state.events))
    assert a not in (catalog.render(line, "ja") or "") and a in (catalog.render(line, "fr") or "")


def test_autocomplete_finds_a_route_by_either_name_and_shows_the_readers() -> None:
    state = started("japan", players=2, seed=3)
    seat = state.current
    catalog = default_catalog()
    in_japanese = route_choices(state, seat, "東京", "ja")
    in_english = route_choices(state, seat, "tokyo", "en")
    assert in_japanese and [c.value for c in in_japanese] == [c.value for c in in_english]
    assert all("東京" in (catalog.render(c.name, "ja") or "") for c in in_japanese)
    assert all("Tokyo" in (catalog.render(c.name, "en") or "") for c in in_english)
    assert route_choices(state, seat, "東京", "en") == []  # an English reader types the board's names


def test_the_live_map_names_the_cities_in_the_readers_language() -> None:
    from types import SimpleNamespace

    from bot.manager.game_settings import GameSettings
    from bot.web import view

    state = started("japan", players=2, seed=3)
    assert view._ticket_label(state, "Tokyo", "Osaka", "ja") == "東京 – 大阪"
    assert view._ticket_label(state, "Tokyo", "Osaka", "fr-FR") == "Tokyo – Osaka"
    info = SimpleNamespace(seats=(), settings=GameSettings())
    assert "東京" in view.board_svg(info, state, "ja") and "東京" not in view.board_svg(info, state, "en")  # type: ignore[arg-type]


def test_a_score_sheet_and_a_hand_name_the_ticket_cities_for_the_reader() -> None:
    from bot.play.final import sheet_field
    from engine.scoring import FinalSheet, TicketResult

    catalog = default_catalog()
    tickets = tuple(TicketResult(k, "Tokyo", "Kyoto", 8, k % 2 == 0) for k in range(90))
    sheet = FinalSheet(0, "alice", 20, tickets, 8, 1, 0, {}, 35, 1)
    value = catalog.render(sheet_field(sheet, 900, "japan").value, "ja") or ""
    assert "✅ 東京 – 京都 +8" in value and "❌ 東京 – 京都 −8" in value and "Tokyo" not in value
    assert len(value) <= 900 and value.endswith("\n…")  # cut at a line end, as before
    assert "✅ Tokyo – Kyoto +8" in (catalog.render(sheet_field(sheet, 900, "japan").value, "en") or "")


def test_a_route_typed_in_japanese_is_found() -> None:
    from bot.play.confirm import route_lanes
    from maps.city_names import to_board_names

    state = started("japan", players=2, seed=3)
    every = range(len(state.board.routes))
    assert route_lanes(state, "鹿児島中央–熊本", every) == route_lanes(
        state, "Kagoshima-Chuo Kumamoto", every
    )
    assert route_lanes(state, "熊本 鹿児島中央", every) == route_lanes(
        state, "Kagoshima-Chuo Kumamoto", every
    )
    assert to_board_names("japan", "東京 大阪 red") == "Tokyo Osaka red"
    assert to_board_names("europe", "Paris - Wien") == "Paris - Wien"

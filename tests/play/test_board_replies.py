"""`/ttr maps` and `/ttr rules` as replies (bot/play/board_list.py, rules_page.py) and the lookup by any
language's names (bot/play/boards.py), read through the catalogue as a reader would."""

from __future__ import annotations

import pytest

from bot.i18n import default_catalog
from bot.play.board_list import board_list
from bot.play.boards import find_board, find_variant
from bot.play.reply import GameError, Reply
from bot.play.rules_page import rules_page
from maps import board_ids, load_board


def _read(reply: Reply, locale: str) -> tuple[str, list[tuple[str, str]], str]:
    catalog = default_catalog()
    (embed,) = reply.embeds
    title = catalog.render(embed.title, locale) or ""
    fields = [
        (catalog.render(f.name, locale) or "", catalog.render(f.value, locale) or "") for f in embed.fields
    ]
    footer = catalog.render(embed.footer, locale) or ""
    return title, fields, footer


def _refusal(error: pytest.ExceptionInfo[GameError], locale: str) -> str:
    return default_catalog().render(error.value.message, locale) or ""


def test_the_board_list_names_every_board_variant_and_option_in_the_readers_language() -> None:
    reply = board_list()
    assert reply.ephemeral and not board_list(share=True).ephemeral
    title, fields, footer = _read(reply, "fr")
    assert title == "Plateaux" and len(fields) == len(board_ids())
    europe = next(value for name, value in fields if name.startswith("Europe — `europe`"))
    assert "• **Méga Europe** `mega`" in europe and "• **Classique** `classic` (par défaut)" in europe
    assert "Entrepôts et Dépôts" in europe and "`warehouses`" in europe
    marklin = next(name for name, _ in fields if "`marklin`" in name)
    assert marklin.endswith("⚠ provisoire") and footer.startswith("⚠")
    _title, english, _footer = _read(reply, "en")
    assert any(name == "Germany — `germany`" for name, _ in english)


def test_boards_and_variants_are_found_by_their_names_in_any_language() -> None:
    assert find_board("Allemagne").id == "germany" and find_board("germany").id == "germany"
    assert find_variant(load_board("europe"), "Grandes villes d'Europe") == "big-cities"
    with pytest.raises(GameError) as unknown:
        find_board("Atlantide")
    assert "Atlantide" in _refusal(unknown, "fr") and "europe, germany" in _refusal(unknown, "fr")
    with pytest.raises(GameError) as no_variant:
        find_variant(load_board("usa"), "mega")
    assert "mega" in _refusal(no_variant, "en") and "classic" in _refusal(no_variant, "en")


def test_the_rules_overview_lists_the_other_topics_in_the_locale_asked() -> None:
    europe = load_board("europe")
    english = rules_page(europe, None, None, locale="en")
    title, fields, _ = _read(english, "en")
    assert title.startswith("Europe: ") and fields[0][0].startswith("More topics")
    assert "Train stations" in fields[0][1]
    french = rules_page(europe, None, None, locale="fr", share=True)
    assert not french.ephemeral
    title, fields, _ = _read(french, "fr")
    assert title.startswith("Europe : ") and fields[0][0].startswith("Autres sujets")
    assert "Gares" in fields[0][1]


def test_a_rules_topic_is_found_by_id_or_title_and_an_unknown_one_is_refused() -> None:
    europe = load_board("europe")
    by_id = rules_page(europe, "stations", None, locale="en")
    (embed,) = by_id.embeds
    assert "3 stations" in str(embed.description) and embed.fields == ()
    by_title = rules_page(europe, "train STATIONS", None, locale="en")
    assert by_title.embeds[0].description == embed.description
    with pytest.raises(GameError) as unknown:
        rules_page(load_board("usa"), "stations", None, locale="en")
    assert "no rules topic" in _refusal(unknown, "en")


def test_the_rules_default_to_the_first_board_and_its_usual_variant() -> None:
    first = load_board(board_ids()[0])
    title, _, _ = _read(rules_page(None, None, None, locale="en"), "en")
    assert title.startswith(default_catalog().text(f"board.{first.id}", "en"))
    mega = rules_page(load_board("europe"), "setup", "Méga Europe", locale="en")
    assert "2 long destination tickets, keeping at most 1" in str(mega.embeds[0].description)

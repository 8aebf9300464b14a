"""Board names are read in the reader's language: every board has a ``board.<id>`` key in every catalogue, and
the places that name a board (lobby title, start message, the picture's title, /ttr rules) use it."""

from __future__ import annotations

import pytest

from bot.i18n import default_catalog
from bot.manager.game_settings import GameSettings
from bot.manager.read import GameInfo, SeatInfo
from bot.messages import board_name, option_name, variant_name
from bot.play.lobby import lobby_reply
from bot.play.pictures import picture_words
from bot.storage import GameStatus
from maps.board import board_ids, load_board


@pytest.mark.parametrize("language", default_catalog().locales)
def test_every_board_has_a_name_in_every_catalogue(language: str) -> None:
    catalog = default_catalog()
    missing = [bid for bid in board_ids() if catalog.exact(f"board.{bid}", language) is None]
    assert missing == []


def test_the_english_names_are_the_data_files_names() -> None:
    catalog = default_catalog()
    assert {bid: catalog.text(f"board.{bid}", "en") for bid in board_ids()} == {
        bid: load_board(bid).name for bid in board_ids()
    }


def test_a_french_lobby_names_its_board_in_french() -> None:
    info = GameInfo(
        game_id="g1",
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=3,
        board="germany",
        variant=load_board("germany").default_variant,
        options=(),
        status=GameStatus.LOBBY,
        settings=GameSettings(),
        seats=(SeatInfo(0, "Ann", 3, None),),
    )
    catalog = default_catalog()
    (embed,) = lobby_reply(info).embeds
    assert catalog.render(embed.title, "fr").startswith("Les Aventuriers du Rail : Allemagne")
    assert catalog.render(embed.title, "en").startswith("Ticket to Ride: Germany")
    assert catalog.render(board_name("japan"), "fr") == "Japon"


def test_the_pictures_title_names_the_board_in_the_pictures_language() -> None:
    assert picture_words("fr").text("title", board=picture_words("fr").board_name("italy", "Italy")) == (
        "Les Aventuriers du Rail · Italie"
    )
    assert picture_words("en").board_name("italy", "?") == "Italy"


@pytest.mark.parametrize("language", default_catalog().locales)
def test_every_variant_and_option_has_a_name_in_every_catalogue(language: str) -> None:
    catalog = default_catalog()
    keys = [f"variant.{bid}.{vid}" for bid in board_ids() for vid in load_board(bid).variants]
    keys += [f"option.{bid}.{oid}" for bid in board_ids() for oid in load_board(bid).options]
    assert [key for key in keys if catalog.exact(key, language) is None] == []


def test_the_english_variant_and_option_names_are_the_data_files_names() -> None:
    catalog = default_catalog()
    for bid in board_ids():
        board = load_board(bid)
        for vid, data in board.variants.items():
            assert catalog.render(variant_name(bid, vid), "en") == data["name"]
        for oid, data in board.options.items():
            assert catalog.render(option_name(bid, oid), "en") == data["name"]
    assert catalog.render(variant_name("europe", "mega"), "fr") == "Méga Europe"

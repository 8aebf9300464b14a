"""Pictures in every language the bot has a catalogue for (de, it, ja, es as soon as theirs land): route letters
that never collide within a language and fit a train space, and no English colour word or letter in a picture
of another language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers.render_states import midgame

from bot.play.pictures import picture_words
from maps.board import COLORS, load_board
from render.board_routes import letter_size
from render.board_svg import render_board_svg
from render.hand import HandTicket, render_hand_svg
from render.layout.geometry import MIN_SPACE, text_width
from render.words import ENGLISH

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locales"
LANGUAGES = sorted(p.stem for p in LOCALES.glob("*.json") if re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", p.stem))
#: What carries a letter: the eight route and card colours, the locomotive card, Märklin's passenger card.
LETTERED = (*(c for c in COLORS if c != "gray"), "locomotive", "passenger")


def _table(language: str) -> dict[str, str]:
    return json.loads((LOCALES / f"{language}.json").read_text("utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_route_letters_never_collide_within_a_language_and_fit_a_space(language: str) -> None:
    table = _table(language)
    letters = {name: table[f"picture.letter_{name}"] for name in LETTERED}
    assert all(letter.strip() == letter and letter for letter in letters.values()), letters
    taken: dict[str, str] = {}
    for name, letter in letters.items():
        assert letter.casefold() not in taken, (
            f"{language}: {name} and {taken[letter.casefold()]} are both {letter!r}"
        )
        taken[letter.casefold()] = name
    for name, letter in letters.items():  # drawn along a train space, MIN_SPACE long at the shortest
        assert text_width(letter, float(letter_size(letter))) <= MIN_SPACE - 6, (language, name, letter)


def _text_nodes(svg: str) -> list[str]:
    return re.findall(r">([^<>]+)</text>", svg)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_picture_holds_no_english_colour_word_or_letter(language: str) -> None:
    words = picture_words(language)
    english_colours = {ENGLISH.color(c) for c in COLORS} - {words.color(c) for c in COLORS}
    english_letters = {ENGLISH.letter(c) for c in LETTERED} - {words.letter(c) for c in LETTERED}
    for board_id in ("europe", "japan", "marklin"):
        board = load_board(board_id)
        svg = render_board_svg(board, midgame(board), words=words)
        texts = _text_nodes(svg)
        found = {w for t in texts for w in re.findall(r"[A-Za-z]+", t)} & english_colours
        assert not found, (language, board_id, found)
        letters = set(re.findall(r'class="rletter"[^>]*>([^<]+)</text>', svg))
        assert letters and not letters & english_letters, (language, board_id, letters & english_letters)
        assert letters <= {words.letter(c) for c in LETTERED}
    hand = render_hand_svg({c: 1 for c in range(9)}, [HandTicket("A", "B", 5, done=True)], words=words)
    assert not set(re.findall(r">([^<>]+)</text>", hand)) & english_letters, language


def test_a_region_shares_its_languages_words() -> None:
    """en-US and en-GB servers share one set of words: the render workers' caches and warm-up are keyed by them."""
    assert picture_words("en-US") == picture_words("en-GB") == picture_words("en") == picture_words(None)
    assert picture_words("fr-FR") == picture_words("fr") and picture_words("en-US").language == "en"

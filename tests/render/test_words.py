"""Pictures speak the reader's language: every word drawn comes from the caller's PictureWords."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from helpers.render_states import midgame

from maps.board import load_board
from render.board_svg import render_board_svg
from render.hand import HandTicket, render_hand_svg
from render.model import LastMove
from render.summary import ScoreRow, render_summary_svg
from render.words import ENGLISH, FIELDS, PictureWords

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locales"


def catalogue_words(lang: str) -> PictureWords:
    """PictureWords filled from a catalogue's `picture.*` keys, as the bot does (without importing the bot)."""
    table = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return PictureWords(language=lang, **{f: table[f"picture.{f}"] for f in FIELDS})


def _text_nodes(svg: str) -> str:
    return " ".join(re.findall(r">([^<>]+)</text>", svg))


def _english_words() -> set[str]:
    """English words of the pictures that French does not share (words such as 'Globetrotter' are the same)."""
    french = catalogue_words("fr")
    words: set[str] = set()
    for f in FIELDS:
        en_words = set(re.findall(r"[A-Za-z][a-z]{3,}", re.sub(r"\{\w+\}", "", getattr(ENGLISH, f))))
        fr_words = set(re.findall(r"[A-Za-z][a-zé]{3,}", re.sub(r"\{\w+\}", "", getattr(french, f))))
        words |= en_words - fr_words
    return words


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_both_catalogues_hold_every_picture_word_with_the_same_placeholders(lang):
    table = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for f in FIELDS:
        key = f"picture.{f}"
        assert key in table, key
        want = set(re.findall(r"\{(\w+)\}", getattr(ENGLISH, f)))
        assert set(re.findall(r"\{(\w+)\}", table[key])) == want, key


def test_a_french_board_hand_and_chart_hold_no_english_word():
    fr = catalogue_words("fr")
    board = load_board("europe")
    english = _english_words()
    assert {"Deck", "Discard", "Round", "Face", "move", "letters", "trains"} <= english
    view = midgame(board)
    # a move drawn from the panel's own words (no text from the caller), and the final board's ticket block
    views = [
        dataclasses.replace(view, last_move=LastMove(seat=1)),
        dataclasses.replace(midgame(board, final=True), last_move=LastMove(seat=1)),
    ]
    svgs = [render_board_svg(board, v, words=fr, colorblind=True) for v in views]
    tickets = [HandTicket("Paris", "Wien", 8), HandTicket("Roma", "Brest", 12, trains_needed=1)]
    tickets.append(HandTicket("Kyiv", "Cadiz", 20, done=True))
    tickets.append(HandTicket("Kyiv", "Lisboa", 20, trains_needed=None))
    svgs.append(render_hand_svg({"red": 2, "locomotive": 1}, tickets, words=fr))
    svgs.append(render_hand_svg({}, [], words=fr))
    rows = [
        ScoreRow("Ann", "red", {"routes": 40, "tickets": -5, "longest_path": 10}),
        ScoreRow("Bob", "blue", {"routes": 30, "tickets": 12, "stations": 8}),
    ]
    svgs.append(render_summary_svg(rows, words=fr))
    for svg in svgs:
        drawn = _text_nodes(svg)
        leaked = {w for w in english if re.search(rf"\b{w}\b", drawn)}
        assert not leaked, leaked
    # the round and the pink colour as the French text says them (the footer's "manche", the cards' "violet")
    assert "Pioche 60" in _text_nodes(svgs[0]) and "Manche 12" in _text_nodes(svgs[0])
    assert "Lettres des routes" in _text_nodes(svgs[0]) and "violet" in _text_nodes(svgs[0])
    assert "encore 1 wagon" in _text_nodes(svgs[2]) and "3 cartes" in _text_nodes(svgs[2])
    assert "0 carte" in _text_nodes(svgs[3])  # French: zero is singular
    assert "route la plus longue" in _text_nodes(svgs[4])


ENGLISH_ONLY_LETTERS = {"G", "Y", "K", "W", "P"}  # green, yellow, black, white, pink: not French initials


def _letters(svg: str) -> list[str]:
    """The colour letters printed on the routes."""
    return re.findall(r'<text class="rletter"[^>]*>([^<]*)</text>', svg)


def test_a_french_board_prints_the_french_catalogue_letters_on_routes_cards_and_legend():
    fr = catalogue_words("fr")
    board = load_board("usa")
    svg = render_board_svg(board, midgame(board), words=fr, colorblind=True)
    printed = set(_letters(svg))
    french = {
        getattr(fr, f"letter_{c}")
        for c in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink")
    }
    assert printed and printed <= french, printed - french
    assert not printed & ENGLISH_ONLY_LETTERS
    # the legend and the face-up cards too: no English-only letter in any text of the picture
    assert not set(_text_nodes(svg).split()) & ENGLISH_ONLY_LETTERS
    hand = render_hand_svg({"green": 1, "pink": 2, "locomotive+4": 1}, [], words=fr)
    assert {"Ve", "Vi", "L4"} <= set(_text_nodes(hand).split())
    # English pictures keep their letters
    assert set(_letters(render_board_svg(board, midgame(board)))) >= {"G", "K", "W"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_colour_has_one_name_in_the_text_and_the_pictures(lang):
    table = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    for colour in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink"):
        assert table[f"picture.color_{colour}"] == table[f"card.{colour}.one"], colour
    assert table["picture.color_gray"] == table["card.gray"]
    letters = [
        table[f"picture.letter_{c}"]
        for c in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink")
    ]
    assert len(set(letters)) == len(letters), letters  # no two colours share a letter
    # the picture's round is the footer's word for it
    footer_word = re.search(r"· (\w+) \{round\}", table["turn.footer"])
    assert footer_word and table["picture.round"].lower().startswith(footer_word.group(1).lower())


def test_english_counts_follow_english_plurals():
    assert ENGLISH.count("hand_cards", 0) == "0 cards"
    assert ENGLISH.count("hand_cards", 1) == "1 card"
    assert ENGLISH.count("needs_trains", 2) == "needs 2 trains"
    assert ENGLISH.part("longest_path") == "longest path"
    assert ENGLISH.part("some_new_bonus") == "some new bonus"


def test_one_city_name_on_two_boards_is_translated_per_board():
    """Roma is a city of Europe and of Italy: each board's translation is the one its pictures draw."""
    words = dataclasses.replace(
        ENGLISH, city_names=(("europe", "Roma", "Rome-of-Europe"), ("italy", "Roma", "Rome-of-Italy"))
    )
    assert words.city("europe", "Roma") == "Rome-of-Europe"
    assert words.city("italy", "Roma") == "Rome-of-Italy"
    assert words.city("usa", "Roma") == "Roma"  # a board without that name's translation keeps its own
    for board_id, mine, other in (
        ("europe", "Rome-of-Europe", "Rome-of-Italy"),
        ("italy", "Rome-of-Italy", "Rome-of-Europe"),
    ):
        svg = render_board_svg(load_board(board_id), words=words)
        assert mine in svg and other not in svg
        hand = render_hand_svg({}, [HandTicket("Roma", "Venezia", 5)], words=words, board_id=board_id)
        assert f"{mine} – Venezia" in hand and other not in hand

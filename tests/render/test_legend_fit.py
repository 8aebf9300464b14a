"""The board picture's colour legend and piles fit every language: no colour word runs into the next swatch or off the
panel (German, Spanish and Japanese words are longer than the English ones the columns were first made for)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from helpers.render_states import midgame

from bot.play.pictures import picture_words
from maps.board import COLORS, load_board
from render.board_panel import colour_legend, regular_width
from render.board_svg import render_board_svg
from render.layout.geometry import PANEL_W

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locales"
LANGUAGES = sorted(p.stem for p in LOCALES.glob("*.json") if re.fullmatch(r"[a-z]{2}", p.stem))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_colour_word_of_the_legend_fits_before_the_next_swatch(language: str) -> None:
    words = picture_words(language)
    out: list[str] = []
    colour_legend(out, 0.0, 400.0, PANEL_W, words)
    svg = "".join(out)
    swatches = [
        (float(y), float(x)) for x, y in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="20"', svg)
    ]
    labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" font-size="11" fill="#444">([^<]+)</text>', svg)
    assert len(swatches) == len(labels) == len(COLORS) + 1  # and grey
    rows: dict[float, list[float]] = {}
    for y, x in swatches:
        rows.setdefault(y, []).append(x)
    for x, y, text in labels:
        end = float(x) + regular_width(text, 11.0, words.font)
        row = sorted(rows[float(y) - 11])
        following = [sx for sx in row if sx > float(x)]
        limit = following[0] if following else PANEL_W
        assert end + 2 <= limit, (language, text, end, limit)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_piles_words_never_run_into_the_next_pile(language: str) -> None:
    """Deck, discard and tickets under the face-up cards, with three-digit piles, in every language."""
    board = load_board("europe")
    words = picture_words(language)
    view = dataclasses.replace(midgame(board), deck=110, discard=105, tickets_left=100)
    svg = render_board_svg(board, view, words=words)
    piles = [
        (float(x), text)
        for x, text in re.findall(r'<text class="piles" x="([\d.]+)"[^>]*>([^<]+)</text>', svg)
    ]
    assert len(piles) == 3
    for (x, text), (next_x, _) in zip(piles, piles[1:], strict=False):
        end = x + regular_width(text, 14.0, words.font)
        assert end + 12 <= next_x, (
            language,
            text,
            end,
            next_x,
        )  # the next pile's icon starts 13 px before it

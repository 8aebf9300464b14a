"""The board picture's colour legend fits every language: no colour word runs into the next swatch or off the
panel (German, Spanish and Japanese words are longer than the English ones the columns were first made for)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.play.pictures import picture_words
from maps.board import COLORS
from render.board_panel import colour_legend, regular_width
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

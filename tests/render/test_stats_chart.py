"""`/ttr stats`'s chart (render.stats_chart): the rating curve and the routes-by-length bars, in the reader's words."""

from __future__ import annotations

import re

from render.stats_chart import render_stats_png, render_stats_svg
from render.words import PictureWords


def test_the_curve_has_a_point_a_game_and_names_the_last_rating() -> None:
    svg = render_stats_svg((1000, 1140, 1090, 1230), ())
    assert len(re.findall(r"<circle ", svg)) == 4
    assert ">1230</text>" in svg and ">1000</text>" in svg  # the lowest and highest, and the last


def test_one_bar_a_route_length_as_high_as_its_count() -> None:
    svg = render_stats_svg((), ((1, 2), (2, 4), (6, 1)))
    heights = [float(h) for h in re.findall(r'<rect x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)"', svg)]
    assert len(heights) == 3 and heights[1] == max(heights) and heights[1] == 2 * heights[0] == 4 * heights[2]


def test_words_come_from_the_reader_and_it_draws() -> None:
    words = PictureWords(language="fr", stats_rating="Cote, partie après partie", stats_lengths="Routes")
    svg = render_stats_svg((1000,), ((3, 1),), words=words)
    assert "Cote, partie après partie" in svg and "Rating" not in svg
    assert render_stats_png((1000, 1010), ((3, 1),), words=words)[:4] == b"\x89PNG"

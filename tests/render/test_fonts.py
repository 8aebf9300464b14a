"""The pictures' fonts come with the package (render/fonts/), whatever the host has: Japanese is drawn with the
CJK font's own glyphs (no missing-glyph boxes), its cities in Japanese; every other language in DejaVu Sans."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from helpers.render_states import midgame

from maps.board import board_ids, load_board
from maps.city_names import board_city_names, city_names, zoom_names
from render.board_svg import render_board_svg
from render.fonts import FILES, FONT_DIR, JAPANESE_FONT, LATIN_FONT, font_file, font_for
from render.png import svg_to_image
from render.words import FIELDS, PictureWords

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "locales"
CATALOGUES = sorted(p for p in LOCALES.glob("*.json") if re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", p.stem))


@cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(str(path)).getBestCmap())


def picture_text(language: str) -> str:
    """Every character the pictures of `language` may draw: its catalogue's picture words and board names,
    and the cities' names in it."""
    table = json.loads((LOCALES / f"{language}.json").read_text("utf-8"))
    words = [v for k, v in table.items() if k.startswith(("picture.", "board."))]
    cities = [name for bid in board_ids() for name in city_names(bid, language).values()]
    return re.sub(r"\{[^}]*\}", "", "".join(words + cities))


def test_every_packaged_font_is_there_with_its_licence() -> None:
    for file in FILES.values():
        assert (FONT_DIR / file).stat().st_size > 100_000, file
    assert (FONT_DIR / "LICENSE-DejaVu.txt").exists() and (FONT_DIR / "LICENSE-NotoSansCJK.txt").exists()
    assert font_for("ja") == font_for("ja-JP") == JAPANESE_FONT and font_for("de") == LATIN_FONT
    assert TTFont(str(font_file(JAPANESE_FONT)))["name"].getDebugName(1) == "TTR Noto Sans JP"


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.stem)
def test_every_character_a_picture_draws_is_in_its_languages_font(catalogue: Path) -> None:
    language = catalogue.stem
    text = picture_text(language)
    for bold in (False, True):
        have = cmap(font_file(font_for(language), bold))
        missing = sorted({c for c in text if ord(c) not in have and not c.isspace()})
        assert not missing, (
            f"{language}: not in {font_file(font_for(language), bold).name}: {missing} (run render/tools/build_fonts.py)"
        )


def test_every_city_name_in_every_language_is_in_that_languages_font() -> None:
    for bid in board_ids():
        for language, names in board_city_names(bid).items():
            have = cmap(font_file(font_for(language)))
            assert all(ord(c) in have for name in names.values() for c in name), (bid, language)


def japanese_words() -> PictureWords:
    """Japanese pictures as the bot makes them (a stand-in for the catalogue's words where it has none yet)."""
    table = json.loads((LOCALES / "ja.json").read_text("utf-8")) if (LOCALES / "ja.json").exists() else {}
    words = {f: table[f"picture.{f}"] for f in FIELDS if f"picture.{f}" in table}
    words.setdefault("face_up", "表向き")
    words.setdefault("last_move", "直前の手")
    cities = tuple(("japan", *pair) for pair in city_names("japan", "ja").items())
    zooms = tuple(("japan", *pair) for pair in zoom_names("japan", "ja").items())
    return PictureWords(language="ja", font=font_for("ja"), city_names=cities, zoom_names=zooms, **words)


def _text_nodes(svg: str) -> list[str]:
    return re.findall(r">([^<>]+)</text>", svg)


def test_a_japanese_reader_sees_the_japan_board_in_japanese_in_the_cjk_font() -> None:
    board = load_board("japan")
    svg = render_board_svg(board, midgame(board), words=japanese_words())
    texts = " ".join(_text_nodes(svg))
    assert "東京" in texts and "大阪" in texts and "鹿児島中央" in texts and "九州" in texts
    assert not {c.name for c in board.cities} & set(re.findall(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?", texts))
    families = set(re.findall(r'font-family="([^"]+)"', svg))
    assert families == {JAPANESE_FONT}
    have = cmap(font_file(JAPANESE_FONT))
    assert not {c for c in texts if ord(c) not in have and not c.isspace()}
    english = render_board_svg(board, midgame(board))
    assert "Tokyo" in " ".join(_text_nodes(english)) and set(
        re.findall(r'font-family="([^"]+)"', english)
    ) == {LATIN_FONT}


def _drawn(text: str, family: str) -> bytes:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><rect width="400" height="60" fill="#fff"/>'
        f'<text x="4" y="42" font-size="32" font-weight="bold" font-family="{family}">{text}</text></svg>'
    )
    return svg_to_image(svg, width=400).tobytes()


def test_japanese_is_drawn_with_glyphs_not_missing_glyph_boxes() -> None:
    text = "東京 大阪 列車カード"
    drawn = _drawn(text, JAPANESE_FONT)
    boxes = _drawn("".join(" " if c == " " else "\ue000" for c in text), JAPANESE_FONT)  # glyphs removed
    assert drawn != boxes
    assert drawn != _drawn(text, LATIN_FONT)  # DejaVu has no kanji: that would be boxes
    assert _drawn("\ue000\ue000", JAPANESE_FONT) == _drawn("\ue001\ue001", JAPANESE_FONT)  # boxes look alike


def test_the_packaged_fonts_are_used_on_a_host_without_fonts(tmp_path: Path) -> None:
    """A process whose fontconfig knows no font at all still draws Japanese and Latin with the package's."""
    empty = tmp_path / "empty.conf"
    empty.write_text(
        '<?xml version="1.0"?><fontconfig><cachedir>' + str(tmp_path) + "</cachedir></fontconfig>"
    )
    script = textwrap.dedent(
        """
        import hashlib, sys
        from render.png import svg_to_image
        from render.fonts import JAPANESE_FONT, LATIN_FONT
        for family, text in ((JAPANESE_FONT, "東京 Tokyo ✔"), (LATIN_FONT, "Zürich ✔")):
            svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="50"><rect width="300" height="50" '
                   f'fill="#fff"/><text x="4" y="36" font-size="28" font-family="{family}">{text}</text></svg>')
            print(hashlib.sha1(svg_to_image(svg, width=300).tobytes()).hexdigest())
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FONTCONFIG_FILE": str(empty), "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    here = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == here.stdout and len(out.stdout.split()) == 2


def test_a_moves_caption_without_the_bots_line_names_its_cities_for_the_reader() -> None:
    """The GIF's frames and the command line's pictures word a move from the board alone (no catalogue line)."""
    from render.board_panel import last_move_text
    from render.model import LastMove
    from render.words import ENGLISH

    board = load_board("japan")
    route = next(
        r for r in board.routes if {board.cities[r.a].name, board.cities[r.b].name} == {"Hakata", "Kokura"}
    )
    view = dataclasses.replace(midgame(board), last_move=LastMove(seat=0, routes=(route.id,)))
    assert last_move_text(board, view, japanese_words()).endswith(("博多–小倉", "小倉–博多"))
    assert last_move_text(board, view, ENGLISH).endswith(board.route_label(route.id))


def test_a_japanese_readers_hand_names_the_ticket_cities_in_japanese() -> None:
    from render.hand import HandTicket, render_hand_svg

    svg = render_hand_svg({0: 2}, [HandTicket("Tokyo", "Osaka", 8)], words=japanese_words(), board_id="japan")
    assert "東京 – 大阪" in svg and "Tokyo" not in svg and f'font-family="{JAPANESE_FONT}"' in svg
    assert "Tokyo – Osaka" in render_hand_svg({0: 2}, [HandTicket("Tokyo", "Osaka", 8)])


@pytest.mark.cluster  # a real render worker process
async def test_a_render_worker_draws_japanese_with_the_packaged_font() -> None:
    from render.hand import HandTicket, render_hand_png
    from render.pool import RenderPool

    tickets = [HandTicket("Tokyo", "Osaka", 8)]
    here = render_hand_png({0: 2}, tickets, words=japanese_words(), board_id="japan")
    async with RenderPool(workers=1) as pool:
        there = await pool.run(
            "render.hand.render_hand_png", {0: 2}, tickets, words=japanese_words(), board_id="japan"
        )
    assert there == here  # the worker's fonts are the package's, as in this process
    assert there != render_hand_png(
        {0: 2}, tickets, words=dataclasses.replace(japanese_words(), font=LATIN_FONT), board_id="japan"
    )

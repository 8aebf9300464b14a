"""Cities' names in other languages (maps/names/): checked against their board, with sources."""

from __future__ import annotations

import json

import pytest

from maps.board import BoardDataError, board_ids, load_board
from maps.city_names import NAMES_DIR, board_city_names, board_zoom_names, city_name, city_names, zoom_names


def test_every_city_of_japan_has_its_japanese_name() -> None:
    names = city_names("japan", "ja")
    assert set(names) == {c.name for c in load_board("japan").cities}
    assert (names["Tokyo"], names["Osaka"], names["Kyoto"], names["Kagoshima-Chuo"]) == (
        "東京",
        "大阪",
        "京都",
        "鹿児島中央",
    )
    assert city_name("japan", "Tokyo", "ja-JP") == "東京"
    assert city_name("japan", "Tokyo", "fr") == "Tokyo" and city_names("europe", "ja") == {}


def test_the_zoom_insets_have_their_japanese_names() -> None:
    assert (
        zoom_names("japan", "ja") == {"kyushu": "九州", "tokyo": "東京"} and zoom_names("japan", "fr") == {}
    )


def test_a_zoom_the_board_does_not_have_is_refused(tmp_path, monkeypatch) -> None:
    import maps.city_names as module

    data = json.loads((NAMES_DIR / "japan.json").read_text("utf-8"))
    data["zooms"]["ja"]["hokkaido"] = "北海道"
    (tmp_path / "japan.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(module, "NAMES_DIR", tmp_path)
    board_zoom_names.cache_clear()
    try:
        with pytest.raises(BoardDataError, match="not zooms of japan: hokkaido"):
            board_zoom_names("japan")
    finally:
        board_zoom_names.cache_clear()


def test_every_names_file_fits_its_board() -> None:
    files = sorted(NAMES_DIR.glob("*.json"))
    assert files
    for path in files:
        assert path.stem in board_ids()
        assert json.loads(path.read_text("utf-8"))["sources"]
        assert board_city_names(path.stem)  # loads and validates
        board_zoom_names(path.stem)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["names"]["ja"].update({"Atlantis": "アトランティス"}), "not cities of japan: Atlantis"),
        (lambda d: d["names"]["ja"].update({"Osaka": "東京"}), "both '東京'"),
        (lambda d: d["names"]["ja"].update({"Osaka": " "}), "no name for Osaka"),
        (lambda d: d["names"].update({"japanese": {}}), "not a two-letter language code"),
        (lambda d: d.update({"sources": []}), "no sources"),
        (lambda d: d.update({"board": "italy"}), "names for board 'italy'"),
    ],
)
def test_the_loader_refuses_names_that_do_not_fit(tmp_path, monkeypatch, change, says) -> None:
    import maps.city_names as module

    data = json.loads((NAMES_DIR / "japan.json").read_text("utf-8"))
    change(data)
    (tmp_path / "japan.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(module, "NAMES_DIR", tmp_path)
    board_city_names.cache_clear()
    try:
        with pytest.raises(BoardDataError, match=says):
            board_city_names("japan")
    finally:
        board_city_names.cache_clear()

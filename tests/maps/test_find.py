"""`maps.find_board` / `maps.find_variant`: a board or variant from what a person typed."""

from __future__ import annotations

import pytest

from maps import NotFound, board_ids, find_board, find_variant, load_board


@pytest.mark.parametrize("typed", ["marklin", "Märklin", "  MÄRKLIN ", "märklin"])
def test_a_board_is_found_by_id_or_name_whatever_the_case_and_accents(typed: str) -> None:
    assert find_board(typed).id == "marklin"


def test_other_names_come_from_the_caller() -> None:
    with pytest.raises(NotFound):
        find_board("Allemagne")
    assert (
        find_board("allemagne", also_named=lambda b: ["Allemagne"] if b.id == "germany" else []).id
        == "germany"
    )


def test_an_unknown_board_names_the_known_ones() -> None:
    with pytest.raises(NotFound) as caught:
        find_board("atlantis")
    assert caught.value.value == "atlantis" and caught.value.known == tuple(board_ids())


def test_only_the_boards_given_are_searched() -> None:
    with pytest.raises(NotFound) as caught:
        find_board("usa", boards=[load_board("europe")])
    assert caught.value.known == ("europe",)


@pytest.mark.parametrize(
    ("typed", "variant"),
    [
        (None, "classic"),
        ("", "classic"),
        ("  ", "classic"),
        ("1912", "1912"),
        ("big cities of europe", "big-cities"),
        ("BIG-CITIES", "big-cities"),
        ("Mega Europe", "mega"),
    ],
)
def test_a_variant_is_found_by_id_or_name_and_empty_means_the_usual_one(
    typed: str | None, variant: str
) -> None:
    assert find_variant(load_board("europe"), typed) == variant


def test_an_unknown_variant_names_the_boards_variants() -> None:
    europe = load_board("europe")
    with pytest.raises(NotFound) as caught:
        find_variant(europe, "Grandes villes d'Europe")
    assert caught.value.known == ("classic", "1912", "big-cities", "mega")
    french = {"big-cities": ["Grandes villes d'Europe"]}
    assert (
        find_variant(europe, "grandes villes d'europe", also_named=lambda v: french.get(v, []))
        == "big-cities"
    )

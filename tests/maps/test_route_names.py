"""Route and colour names typed by people: one parser (`Board.find_routes` / `find_route`, `card_index`)."""

from __future__ import annotations

import pytest

from maps import (
    COLORS,
    GRAY,
    LOCOMOTIVE,
    LOCOMOTIVE_PLUS4,
    PASSENGER_CARD,
    RouteNameError,
    board_ids,
    card_index,
    color_index,
    load_board,
)


def _ids(board_id: str, a: str, b: str) -> list[int]:
    board = load_board(board_id)
    return [r.id for r in board.routes_between(board.city(a).id, board.city(b).id)]


@pytest.mark.parametrize(
    "text",
    [
        "Zürich - München",
        "Zürich-München",
        "Zürich–München",
        "Zürich — München",
        "zurich munchen",
        "ZURICH   MUENCHEN",
        "München - Zürich",
        "munchen zuerich",
        "Zürich – München (2 yellow, tunnel)",
    ],
)
def test_one_route_in_every_spelling(text: str) -> None:
    europe = load_board("europe")
    assert europe.find_routes(text) == _ids("europe", "Zürich", "München")
    assert europe.find_route(text) == _ids("europe", "Zürich", "München")[0]


def test_multi_word_and_hyphenated_place_names() -> None:
    usa = load_board("usa")
    slc_sf = _ids("usa", "Salt Lake City", "San Francisco")
    assert usa.find_routes("salt lake city san francisco") == slc_sf
    assert usa.find_routes("San Francisco-Salt Lake City") == slc_sf
    sault = _ids("usa", "Sault St. Marie", "Toronto")
    assert usa.find_routes("sault st marie toronto") == sault
    assert usa.find_routes("Toronto – Sault Ste. Marie") == sault
    japan = load_board("japan")
    kita = _ids("japan", "Kita-Senju", "Ueno")  # a hyphen inside a name and another between the two names
    assert japan.find_routes("Kita-Senju-Ueno") == kita
    assert japan.find_routes("ueno kita senju") == kita
    assert japan.find_routes("Kagoshima-Chuo - Kumamoto") == _ids("japan", "Kagoshima-Chuo", "Kumamoto")


def test_a_colour_word_picks_one_lane_of_a_double() -> None:
    europe = load_board("europe")
    red, yellow = _ids("europe", "Paris", "Bruxelles")
    assert {europe.routes[red].color_name, europe.routes[yellow].color_name} == {"red", "yellow"}
    assert europe.find_routes("Paris - Bruxelles") == [red, yellow]
    assert europe.find_routes("Paris - Bruxelles red") == [red]
    assert europe.find_routes("bruxelles paris YELLOW") == [yellow]
    assert europe.find_routes("Paris - Bruxelles", "yellow") == [yellow]
    assert europe.find_route("Paris-Bruxelles red") == red
    pink, yellow_w = _ids("europe", "Berlin", "Warszawa")
    assert europe.routes[pink].color_name == "pink"
    # the board's pink is the rulebook's purple: the same lane either way, here and in the loader
    assert (
        europe.find_routes("Berlin - Warszawa purple")
        == europe.find_routes("Berlin - Warszawa pink")
        == [pink]
    )
    # a gray lane can be paid in any colour: a colour word names it when no lane has that colour
    first, second = _ids("europe", "Essen", "Kobenhavn")
    assert europe.find_routes("Essen Kobenhavn pink") == [first, second]


def test_the_second_lane_of_a_double_is_found_once_the_first_is_taken() -> None:
    europe = load_board("europe")
    red, yellow = _ids("europe", "Paris", "Bruxelles")
    with pytest.raises(RouteNameError) as info:
        europe.find_route("Paris - Bruxelles")
    assert info.value.code == "ambiguous" and info.value.params["colors"] == ["red", "yellow"]
    open_routes = {r.id for r in europe.routes} - {red}
    assert europe.find_route("Paris - Bruxelles", available=open_routes) == yellow
    with pytest.raises(RouteNameError) as info:
        europe.find_route("Paris - Bruxelles red", available=open_routes)
    assert info.value.code == "none_open"
    with pytest.raises(RouteNameError) as info:
        europe.find_route("Paris - Bruxelles", available=open_routes - {yellow})
    assert info.value.code == "none_open" and info.value.params["route"] == "Bruxelles–Paris"
    # two gray lanes: either will do, the first open one is given
    first, second = _ids("europe", "Essen", "Kobenhavn")
    assert europe.find_route("Essen - Kobenhavn") == first
    assert europe.find_route("Essen - Kobenhavn", available={second}) == second


@pytest.mark.parametrize(
    ("text", "color", "code"),
    [
        ("Paris", None, "no_places"),
        ("Paris - Atlantis", None, "no_places"),
        ("Paris - Paris", None, "no_places"),
        ("Paris - Bruxelles red blue", None, "no_places"),
        ("", None, "no_places"),
        ("Paris - Roma", None, "no_route"),
        ("Paris - Bruxelles", "mauve", "unknown_color"),
        ("Paris - Bruxelles", "locomotive", "unknown_color"),
        ("Paris - Bruxelles green", None, "no_lane"),
    ],
)
def test_refusals_say_why(text: str, color: str | None, code: str) -> None:
    with pytest.raises(RouteNameError) as info:
        load_board("europe").find_routes(text, color)
    assert info.value.code == code
    assert info.value.params["text"] == text


def test_other_language_colour_words() -> None:
    europe = load_board("europe")
    french = {"rouge": COLORS.index("red"), "jaune": COLORS.index("yellow"), "violet": COLORS.index("pink")}
    red, yellow = _ids("europe", "Paris", "Bruxelles")
    assert europe.find_routes("Paris - Bruxelles jaune", color_names=french) == [yellow]
    with pytest.raises(RouteNameError):
        europe.find_routes("Paris - Bruxelles jaune")


@pytest.mark.parametrize("board_id", board_ids())
def test_every_route_is_found_by_its_own_label(board_id: str) -> None:
    board = load_board(board_id)
    for route in board.routes:
        label = board.route_label(route.id)
        lanes = board.find_routes(label)
        assert route.id in lanes
        assert board.find_routes(label, route.color_name) == [
            r for r in lanes if board.routes[r].color == route.color
        ]
        a, b = board.cities[route.a].name, board.cities[route.b].name
        assert board.find_routes(f"{b} {a}") == lanes


def test_card_and_colour_names() -> None:
    assert card_index("Red") == COLORS.index("red")
    assert card_index("purple") == card_index("PINK") == COLORS.index("pink")
    assert card_index("grey") == card_index("gray") == GRAY
    assert card_index("loco") == card_index("Locomotives") == card_index("locomotive") == LOCOMOTIVE
    assert card_index("locomotive+4") == card_index("Locomotive +4") == card_index("+4") == LOCOMOTIVE_PLUS4
    assert card_index("passenger") == PASSENGER_CARD
    assert card_index("mauve") is None and card_index("") is None
    assert color_index("purple") == COLORS.index("pink") and color_index("gray") == GRAY
    assert color_index("locomotive") is None
    assert card_index("rose", {"rose": 7}) == 7


def test_score_files_use_the_same_names() -> None:
    from engine.scoresheet import resolve_route
    from engine.state import NOBODY

    europe = load_board("europe")
    taken = [NOBODY] * len(europe.routes)
    pink, _ = _ids("europe", "Berlin", "Warszawa")
    assert resolve_route(europe, ["warszawa", "BERLIN", "purple"], taken) == pink
    red, yellow = _ids("europe", "Paris", "Bruxelles")
    taken[red] = 0
    assert resolve_route(europe, ["Paris", "Bruxelles"], taken) == yellow  # the one lane left


def test_a_score_file_names_the_lane_itself() -> None:
    from engine.errors import GameDataError
    from engine.scoresheet import resolve_route
    from engine.state import NOBODY

    europe = load_board("europe")
    taken = [NOBODY] * len(europe.routes)
    with pytest.raises(GameDataError, match="Essen–Kobenhavn has no pink route"):
        resolve_route(europe, ["Essen", "Kobenhavn", "pink"], taken)  # two gray lanes: "gray" names them
    first, _ = _ids("europe", "Essen", "Kobenhavn")
    assert resolve_route(europe, ["Essen", "Kobenhavn", "grey"], taken) == first
    with pytest.raises(GameDataError, match="'mauve' is not a route colour"):
        resolve_route(europe, ["Paris", "Bruxelles", "mauve"], taken)

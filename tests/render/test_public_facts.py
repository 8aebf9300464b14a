"""The board picture shows every public fact: Italy's regions, where Japan's zooms sit, each player's board counts."""

from __future__ import annotations

import random
import re

import pytest

from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from engine.views import public_view
from maps.board import load_board
from render.board_svg import render_board_svg
from render.from_engine import board_view
from render.layout import layout_for
from render.layout.geometry import DOT_R, text_width
from render.regions import NAME_SIZE, city_regions, region_colors


def _played(board: str, players: int = 4, turns: int = 60, **kwargs):  # type: ignore[no-untyped-def]
    state = new_game(board, players, seed=4, **kwargs)
    rng = random.Random(4)
    while not state.finished and state.turn < turns:
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    return state


def test_italy_draws_every_region_tinted_and_named_clear_of_city_names_and_dots():
    board = load_board("italy")
    lay = layout_for("italy")
    regions = set(city_regions(board).values())
    svg = render_board_svg(board)
    tints = re.search(r'<g class="regions"[^>]*>(.*?)</g>', svg).group(1)
    assert tints.count("<path") == len(regions) == 17
    names = re.findall(
        r'<text class="region-name" fill="[^"]+" x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', svg
    )
    assert {n for _x, _y, n in names} >= {r.upper() for r in regions if " " not in r and "-" not in r}
    obstacles = [lab.box for lab in lay.labels] + [
        (x - DOT_R, y - DOT_R, x + DOT_R, y + DOT_R) for (x, y) in lay.cities.values()
    ]
    for x, y, text in names:
        w = text_width(text, NAME_SIZE)
        box = (float(x) - w / 2, float(y) - NAME_SIZE * 0.8, float(x) + w / 2, float(y) + 2)
        for o in obstacles:
            assert not (box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]), text


def test_neighbouring_regions_have_different_colours_and_each_city_ring_its_regions():
    board = load_board("italy")
    colors = region_colors(board)
    regions = city_regions(board)
    for r in board.routes:
        if regions.get(r.a) and regions.get(r.b) and regions[r.a] != regions[r.b]:
            assert colors[regions[r.a]] != colors[regions[r.b]], (regions[r.a], regions[r.b])
    svg = render_board_svg(board)
    for cid, region in regions.items():
        ring = re.search(rf'<g id="city-{cid}" class="city"><circle [^>]*fill="([^"]+)"', svg).group(1)
        assert ring == colors[region]
    assert region_colors(load_board("usa")) == {} and 'class="regions"' not in render_board_svg(
        load_board("usa")
    )


def test_japan_zooms_are_framed_on_the_main_map_and_joined_to_their_inset():
    board = load_board("japan")
    lay = layout_for("japan")
    svg = render_board_svg(board)
    insets = {fr.name: fr for fr in lay.frames if fr.name != "main"}
    assert {name for name, _ in lay.zoom_areas} == set(insets) == {"tokyo", "kyushu"}
    for name, (x0, y0, x1, y1) in lay.zoom_areas:
        twin = next(
            c.id for c in board.cities if c.extra.get("zoom") == name and c.extra.get("also_on_main_map")
        )
        tx, ty = lay.cities[(twin, "main")]
        assert x0 <= tx <= x1 and y0 <= ty <= y1  # the frame holds the place shown in the inset
        assert f'class="zoom-area zoom-{name}"' in svg
        leader = re.search(
            rf'class="zoom-leader zoom-{name}"[^>]*><path d="M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)"', svg
        )
        ax, ay, bx, by = map(float, leader.groups())
        fr = insets[name]
        assert x0 - 0.1 <= ax <= x1 + 0.1 and y0 - 0.1 <= ay <= y1 + 0.1  # starts on the frame
        on_edge = min(abs(bx - fr.x), abs(bx - fr.x - fr.w), abs(by - fr.y), abs(by - fr.y - fr.h))
        assert on_edge < 0.2  # ends on the inset's border
    # a claimed route through Tokyo does not hide the frame: it is drawn again over the trains
    assert render_board_svg(board, board_view(_played("japan"))).count('class="zoom-area zoom-tokyo"') == 2
    assert 'class="zoom-area' not in render_board_svg(load_board("europe"))


def _stat(svg: str, seat: int, kind: str) -> list[str]:
    row = re.search(
        rf'<g id="player-{seat}" class="player">(.*?)</g>(?=<g id="player-|<text)', svg, re.S
    ).group(1)
    return re.findall(rf'class="stat stat-{kind}"[^>]*>([^<]+)<', row)


@pytest.mark.parametrize(
    ("board", "options", "kinds"),
    [
        (
            "germany",
            (),
            ["meeple-red", "meeple-black", "meeple-yellow", "meeple-blue", "meeple-green", "meeple-white"],
        ),
        ("marklin", (), ["passengers", "merchandise"]),
        ("italy", (), ["ferry_cards"]),
        ("japan", (), ["track"]),
        ("europe", ("warehouses",), ["stations", "depots"]),
    ],
)
def test_the_panel_shows_each_players_public_board_counts(board, options, kinds):
    state = _played(board, 4, 80, options=options)
    pv = public_view(state)
    svg = render_board_svg(state.board, board_view(state))
    for seat, p in enumerate(pv.players):
        want = {
            "passengers": p.extra.get("passengers"),
            "merchandise": p.extra.get("points_in_play"),
            "ferry_cards": p.ferry_cards,
            "track": pv.modules.get("bullet_trains", {}).get("track", [None] * 4)[seat],
            "stations": p.stations,
            "depots": p.depots,
        }
        for k, colour in enumerate(pv.modules.get("meeples", {}).get("colors", [])):
            want[f"meeple-{colour}"] = p.extra["meeples"][k]
        for kind in kinds:
            assert _stat(svg, seat, kind) == [str(want[kind])], (seat, kind)
    legend = {
        "meeple-red": "meeples taken",
        "merchandise": "merchandise points",
        "ferry_cards": "ferry cards",
    }
    for kind in kinds:
        if kind in legend:  # the pictograms' legend says what the new counts are
            assert f">{legend[kind]}</text>" in svg

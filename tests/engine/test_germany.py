"""Germany (germany-fr.txt): passenger meeples, their majorities, Globetrotter, the announced short/long ticket
mix, countries as dead ends; and random games with every invariant checked."""

from __future__ import annotations

from collections import deque

import pytest
from helpers.engine_states import card, give, route_id, started
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import ChooseTicketMix, ClaimRoute, DrawBlind, DrawTickets, KeepTickets, TakeMeeple
from engine.errors import GameDataError, IllegalAction
from engine.features import FEATURES
from engine.features.meeples import colors, holdings, majority_points, places
from engine.pending import MeepleChoice, TicketChoice, TicketMix
from engine.rules import apply, legal_actions, new_game
from engine.scoring import final_scores, joined, network
from engine.simulate import check_invariants, simulate
from engine.state import MAIN, GameState
from maps import Board, load_board

BOARD = "germany"


# ---- helpers ---------------------------------------------------------------------------------------------


def city(state: GameState, name: str) -> int:
    return state.board.city(name).id


def set_meeples(state: GameState, placed: dict[str, dict[str, int]]) -> None:
    """Empty the board into the bag, then put exactly these meeples out (every meeple stays counted)."""
    names = colors(state)
    module = state.module["meeples"]
    for counts in module["places"]:
        for ci, n in enumerate(counts):
            module["bag"][ci] += n
            counts[ci] = 0
    for place, counts in placed.items():
        for colour, n in counts.items():
            ci = names.index(colour)
            module["bag"][ci] -= n
            module["places"][city(state, place)][ci] += n
    assert not check_invariants(state)


def own(state: GameState, seat: int, rid: int) -> None:
    """Give a route to a seat as a claim would (trains and points counted)."""
    board = state.board
    state.route_owner[rid] = seat
    player = state.players[seat]
    player.routes.append(rid)
    player.trains -= board.routes[rid].length
    player.score += board.route_points(board.routes[rid].length)


def city_path(board: Board, a: str, b: str, avoid: tuple[str, ...] = ()) -> list[int]:
    """Routes of a shortest path between two cities, through cities only (never a country nor `avoid`)."""
    start, goal = board.city(a).id, board.city(b).id
    banned = {board.city(n).id for n in avoid}
    prev: dict[int, tuple[int, int]] = {}
    seen = {start}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        if c == goal:
            break
        for rid in board.routes_at[c]:
            r = board.routes[rid]
            nxt = r.b if r.a == c else r.a
            if nxt in seen or nxt in banned or board.cities[nxt].dead_end:
                continue
            seen.add(nxt)
            prev[nxt] = (c, rid)
            todo.append(nxt)
    path: list[int] = []
    c = goal
    while c != start:
        c, rid = prev[c]
        path.append(rid)
    return path[::-1]


def ticket_id(board: Board, a: str, b: str) -> int:
    ids = {board.city(a).id, board.city(b).id}
    return next(t.id for t in board.tickets if {t.a, t.b} == ids)


# ---- setup -----------------------------------------------------------------------------------------------


def test_sixty_meeples_drawn_at_random_onto_the_board():
    board = load_board(BOARD)
    layouts = []
    for seed in (1, 2):
        s = new_game(BOARD, 3, seed=seed)
        on_board = places(s)
        assert [sum(c) for c in on_board] == [c.extra["passengers"] for c in board.cities]
        assert [sum(col) for col in zip(*on_board, strict=True)] == [10] * 6
        assert s.module["meeples"]["bag"] == [0] * 6
        assert sum(on_board[city(s, "Berlin")]) == 5 and sum(on_board[city(s, "Dänemark")]) == 1
        assert all(holdings(s, seat) == [0] * 6 for seat in range(3))
        assert not check_invariants(s)
        layouts.append(on_board)
    assert layouts[0] != layouts[1]  # the bag is drawn with the game's generator
    assert places(new_game(BOARD, 3, seed=1)) == layouts[0]


# ---- taking meeples ----------------------------------------------------------------------------------------


def test_rulebook_example_berlin_magdeburg():
    """ "Le joueur violet vient de prendre la route Berlin-Magdeburg : il ramasse le meeple vert de Magdeburg et
    un des meeples rouges de Berlin.\""""
    s = started(BOARD, 2)
    set_meeples(s, {"Berlin": {"red": 2, "black": 2, "blue": 1}, "Magdeburg": {"green": 1}})
    berlin, magdeburg = city(s, "Berlin"), city(s, "Magdeburg")
    rid = route_id(s, "Berlin", "Magdeburg")
    give(s, 0, red=3)
    apply(s, 0, ClaimRoute(rid, card("red"), 0))
    # Magdeburg had only green: taken at once; Berlin offers a choice, and the turn waits for it
    assert holdings(s, 0) == [0, 0, 0, 0, 1, 0]
    assert s.pending[0] == MeepleChoice(rid, (berlin,))
    assert s.current == 0
    assert legal_actions(s, 0) == [
        TakeMeeple(berlin, "red"),
        TakeMeeple(berlin, "black"),
        TakeMeeple(berlin, "blue"),
    ]
    apply(s, 0, TakeMeeple(berlin, "red"))
    assert holdings(s, 0) == [1, 0, 0, 0, 1, 0]
    assert places(s)[berlin] == [1, 2, 0, 1, 0, 0] and places(s)[magdeburg] == [0] * 6
    assert 0 not in s.pending and s.current == 1
    assert s.players[0].score == 4  # the route's 3 spaces
    assert not check_invariants(s)


def test_both_ends_with_a_choice_any_order_and_bad_choices():
    s = started(BOARD, 2)
    set_meeples(s, {"Berlin": {"red": 1, "white": 1}, "Magdeburg": {"green": 1, "yellow": 2}})
    berlin, magdeburg = city(s, "Berlin"), city(s, "Magdeburg")
    rid = route_id(s, "Berlin", "Magdeburg")
    give(s, 0, red=3)
    with pytest.raises(IllegalAction, match="only just after claiming"):
        apply(s, 0, TakeMeeple(berlin, "red"))
    apply(s, 0, ClaimRoute(rid, card("red"), 0))
    assert s.pending[0] == MeepleChoice(rid, (berlin, magdeburg))
    assert len(legal_actions(s, 0)) == 4
    with pytest.raises(IllegalAction, match="There is no green meeple in Berlin"):
        apply(s, 0, TakeMeeple(berlin, "green"))
    with pytest.raises(IllegalAction, match="ends of the route you claimed"):
        apply(s, 0, TakeMeeple(city(s, "Hamburg"), "red"))
    with pytest.raises(IllegalAction, match="no 'purple' meeple"):
        apply(s, 0, TakeMeeple(berlin, "purple"))
    with pytest.raises(IllegalAction, match="Finish what you started"):
        apply(s, 0, DrawBlind())
    apply(s, 0, TakeMeeple(magdeburg, "yellow"))
    assert s.pending[0] == MeepleChoice(rid, (berlin,))
    assert legal_actions(s, 0) == [TakeMeeple(berlin, "red"), TakeMeeple(berlin, "white")]
    apply(s, 0, TakeMeeple(berlin, "white"))
    assert holdings(s, 0) == [0, 0, 1, 0, 0, 1] and s.current == 1
    assert not check_invariants(s)


def test_no_meeple_left_no_compensation_and_countries_hold_meeples():
    s = started(BOARD, 2)
    set_meeples(s, {"Dänemark": {"black": 1}})
    give(s, 0, locomotive=2)
    apply(s, 0, ClaimRoute(route_id(s, "Kiel", "Dänemark"), card("locomotive"), 2))
    assert holdings(s, 0) == [0, 1, 0, 0, 0, 0]  # the country's meeple; Kiel had none
    assert s.current == 1 and not s.pending
    give(s, 1, locomotive=2)
    apply(s, 1, ClaimRoute(route_id(s, "Lindau", "Österreich"), card("locomotive"), 2))
    assert holdings(s, 1) == [0] * 6 and s.current == 0
    assert not check_invariants(s)


def test_meeple_choice_survives_json():
    s = started(BOARD, 2)
    set_meeples(s, {"Berlin": {"red": 1, "black": 1}})
    give(s, 0, red=3)
    apply(s, 0, ClaimRoute(route_id(s, "Berlin", "Magdeburg"), card("red"), 0))
    copy = GameState.from_json(s.to_json())
    assert copy.pending == s.pending and legal_actions(copy, 0) == legal_actions(s, 0)
    apply(copy, 0, TakeMeeple(city(s, "Berlin"), "black"))
    assert holdings(copy, 0)[1] == 1 and not check_invariants(copy)


# ---- end scoring -------------------------------------------------------------------------------------------


def test_majority_rules_of_the_rulebook():
    assert majority_points([3, 1, 0]) == [20, 10, 0]
    # "Si plusieurs joueurs sont à égalité pour la première place ... ils marquent tous les 20 points, mais
    # personne ne marque les 10 points de la deuxième place."
    assert majority_points([3, 3, 1]) == [20, 20, 0]
    # "Si un joueur est seul en tête, mais que plusieurs finissent deuxièmes, tous ... marquent les 10 points."
    assert majority_points([4, 2, 2, 1]) == [20, 10, 10, 0]
    # a player without the colour is never ranked
    assert majority_points([2, 0]) == [20, 0]
    assert majority_points([0, 0, 0]) == [0, 0, 0]
    assert majority_points([1, 1, 1, 1, 1]) == [20] * 5


@given(st.lists(st.integers(0, 10), min_size=2, max_size=5))
def test_majority_points_properties(counts):
    pts = majority_points(counts)
    top = max(counts)
    leaders = [i for i, n in enumerate(counts) if n == top and n > 0]
    for i, n in enumerate(counts):
        if n == 0:
            assert pts[i] == 0
        elif i in leaders:
            assert pts[i] == 20
        elif len(leaders) > 1:
            assert pts[i] == 0
        else:
            assert pts[i] == (10 if n == max(c for c in counts if c < top) else 0)


def test_final_meeple_bonus_globetrotter_and_meeple_tie_break():
    s = started(BOARD, 3)
    for p in s.players:
        p.tickets = []
    # red: 3/1/1 -> 20/10/10; black: 2/2/0 -> 20/20/0; green: 0/0/4 -> 0/0/20
    s.players[0].extra["meeples"] = [3, 2, 0, 0, 0, 0]
    s.players[1].extra["meeples"] = [1, 2, 0, 0, 0, 0]
    s.players[2].extra["meeples"] = [1, 0, 0, 0, 4, 0]
    sheets = final_scores(s)
    assert [sh.bonuses["meeples"] for sh in sheets] == [40, 30, 30]
    assert [sh.bonuses["globetrotter"] for sh in sheets] == [0, 0, 0]  # nobody completed a ticket
    assert [sh.tie_values["meeples"] for sh in sheets] == [5, 3, 5]
    # seats 1 and 2 tie at 30 with no ticket: the one with more meeples wins the tie
    assert [sh.rank for sh in sheets] == [1, 3, 2]


def test_globetrotter_to_everyone_tied_for_most_completed_tickets():
    s = started(BOARD, 3)
    board = s.board
    tk = ticket_id(board, "Mannheim", "Stuttgart")
    for seat in (0, 1):
        s.players[seat].tickets = [tk]
        s.players[seat].routes = city_path(board, "Mannheim", "Stuttgart")  # scoring only reads the lists
    s.players[2].tickets = []
    sheets = final_scores(s)
    assert [sh.completed_tickets for sh in sheets] == [1, 1, 0]
    assert [sh.bonuses["globetrotter"] for sh in sheets] == [15, 15, 0]


# ---- tickets: the announced mix, countries -----------------------------------------------------------------


def test_setup_announced_mix_and_rejected_tickets_back_in_their_shuffled_decks():
    s = new_game(BOARD, 3, seed=4)
    assert all(s.pending[seat] == TicketMix(0, 4) for seat in range(3))
    assert legal_actions(s, 0) == [ChooseTicketMix((k, 4 - k)) for k in range(5)]
    with pytest.raises(IllegalAction, match="Announce how many of the 4 tickets"):
        apply(s, 0, ChooseTicketMix((1, 2)))
    kept: list[int] = []
    rejected: list[int] = []
    for seat, mix in ((0, (1, 3)), (1, (4, 0)), (2, (0, 4))):
        apply(s, seat, ChooseTicketMix(mix))
        choice = s.pending[seat]
        assert isinstance(choice, TicketChoice) and choice.keep_min == 2
        assert sorted(choice.sources) == sorted(["short"] * mix[0] + ["long"] * mix[1])
        assert all(
            s.board.tickets[t].deck == src for t, src in zip(choice.offered, choice.sources, strict=True)
        )
        with pytest.raises(IllegalAction, match="Keep at least 2"):
            apply(s, seat, KeepTickets((choice.offered[0],)))
        keep = tuple(sorted(choice.offered[:2]))
        kept += keep
        rejected += [t for t in choice.offered if t not in keep]
        apply(s, seat, KeepTickets(keep))
    assert s.phase == MAIN
    for deck, size in (("short", 55), ("long", 34)):
        in_play = [t for t in kept if s.board.tickets[t].deck == deck]
        assert len(s.ticket_decks[deck]) == size - len(in_play)
        back = [t for t in rejected if s.board.tickets[t].deck == deck]
        assert set(back) <= set(s.ticket_decks[deck])  # back in their own deck
    assert not s.box and not check_invariants(s)


def test_draw_in_play_announced_mix_rejected_under_their_own_decks():
    s = started(BOARD, 2)
    with pytest.raises(IllegalAction, match="Announce how many"):
        apply(s, 0, DrawTickets((1, 1)))
    short_top, long_top = s.ticket_decks["short"][-2:], s.ticket_decks["long"][-2:]
    apply(s, 0, DrawTickets((2, 2)))
    choice = s.pending[0]
    assert isinstance(choice, TicketChoice) and choice.keep_min == 1
    assert sorted(choice.offered) == sorted(short_top + long_top)
    keep = tuple(sorted(t for t in choice.offered if s.board.tickets[t].deck == "short")[:1])
    apply(s, 0, KeepTickets(keep))
    short_back = [t for t in short_top if t not in keep]
    assert s.ticket_decks["short"][: len(short_back)] == short_back  # under the short deck
    assert sorted(s.ticket_decks["long"][:2]) == sorted(long_top)  # under the long deck
    assert s.current == 1 and not check_invariants(s)


def test_fewer_than_four_tickets_left():
    s = started(BOARD, 2)
    s.box += s.ticket_decks["short"][:-1] + s.ticket_decks["long"][:-2]
    s.ticket_decks["short"] = s.ticket_decks["short"][-1:]
    s.ticket_decks["long"] = s.ticket_decks["long"][-2:]
    assert [a for a in legal_actions(s, 0) if isinstance(a, DrawTickets)] == [DrawTickets((1, 2))]
    with pytest.raises(IllegalAction):
        apply(s, 0, DrawTickets((2, 1)))
    apply(s, 0, DrawTickets((1, 2)))
    assert len(s.pending[0].offered) == 3


def test_country_tickets_through_any_route_and_countries_never_link():
    s = started(BOARD, 2)
    board = s.board
    freiburg, saarbrucken = city(s, "Freiburg"), city(s, "Saarbrücken")
    # "Même si Freiburg et Saarbrücken sont toutes les deux connectées à la France (Frankreich), elles ne sont pas
    # connectées entre elles."
    uf = network(s, [route_id(s, "Freiburg", "Frankreich"), route_id(s, "Saarbrücken", "Frankreich")])
    assert not joined(s, uf, freiburg, saarbrucken)
    assert joined(s, uf, freiburg, city(s, "Frankreich")) and joined(
        s, uf, saarbrucken, city(s, "Frankreich")
    )

    # Niederlande–Karlsruhe: Karlsruhe reaches France, Saarbrücken reaches France and the Netherlands: not done.
    tk = ticket_id(board, "Niederlande", "Karlsruhe")
    p = s.players[0]
    p.tickets = [tk]
    p.routes = [
        route_id(s, "Karlsruhe", "Frankreich"),
        route_id(s, "Saarbrücken", "Frankreich"),
        route_id(s, "Düsseldorf", "Niederlande"),
    ]
    p.routes += city_path(board, "Saarbrücken", "Düsseldorf", avoid=("Karlsruhe",))
    sheet = final_scores(s)[0]
    assert sheet.tickets[0].completed is False and sheet.ticket_points == -9
    # the same ticket through another route into the Netherlands, from Karlsruhe's own network
    p.routes = [route_id(s, "Emden", "Niederlande")] + city_path(board, "Karlsruhe", "Emden")
    sheet = final_scores(s)[0]
    assert sheet.tickets[0].completed is True and sheet.ticket_points == 9

    # two countries: Dänemark–Niederlande
    p.tickets = [ticket_id(board, "Dänemark", "Niederlande")]
    p.routes = [route_id(s, "Kiel", "Dänemark"), route_id(s, "Münster", "Niederlande")]
    p.routes += city_path(board, "Kiel", "Münster")
    assert final_scores(s)[0].tickets[0].completed is True


# ---- score files -------------------------------------------------------------------------------------------


def test_score_file_meeples():
    s = started(BOARD, 2)
    feature = FEATURES["meeples"]
    feature.load_score_extras(s, 0, {"meeples": {"Red": 3, "white": 1}})
    feature.load_score_extras(s, 1, {"meeples": {"red": 2}})
    feature.load_score_extras(s, 1, {"name": "no meeples given"})
    assert holdings(s, 0) == [3, 0, 0, 0, 0, 1] and holdings(s, 1) == [2, 0, 0, 0, 0, 0]
    for seat in (0, 1):
        s.players[seat].tickets = []
    sheets = final_scores(s)
    assert [sh.bonuses["meeples"] for sh in sheets] == [40, 10]
    with pytest.raises(GameDataError, match="no 'purple' meeples"):
        feature.load_score_extras(s, 0, {"meeples": {"purple": 1}})
    with pytest.raises(GameDataError, match="count from 0 to 10"):
        feature.load_score_extras(s, 0, {"meeples": {"red": -1}})
    with pytest.raises(GameDataError, match="only 10 red meeples"):
        feature.load_score_extras(s, 0, {"meeples": {"red": 9}})
    with pytest.raises(GameDataError):
        feature.load_score_extras(s, 0, {"meeples": [1, 2]})


# ---- random games ------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    report = simulate(BOARD, players, 20, seed=1000 * players)
    assert report["errors"] == 0, report["error_messages"]
    assert report["invariant_violations"] == 0, report["violation_messages"]
    first = report["_first"]
    assert first.state.finished
    assert sum(sum(holdings(first.state, seat)) for seat in range(players)) > 0


def test_saved_state_with_a_meeple_choice_loads_in_a_fresh_process(tmp_path):
    """Board modules register their actions and decisions when imported: reading a saved state or an action
    must import them (the bot loads games in processes that have not started one)."""
    import subprocess
    import sys

    s = started(BOARD, 2)
    set_meeples(s, {"Berlin": {"red": 1, "black": 1}})
    give(s, 0, red=3)
    apply(s, 0, ClaimRoute(route_id(s, "Berlin", "Magdeburg"), card("red"), 0))
    saved = tmp_path / "state.json"
    saved.write_text(s.to_json(), encoding="utf-8")
    code = (
        "import sys\n"
        "from engine.state import GameState\n"
        "from engine.actions import action_from_json\n"
        "s = GameState.from_json(open(sys.argv[1], encoding='utf-8').read())\n"
        "print(s.pending[0].kind, action_from_json({'type': 'take_meeple', 'city': 1, 'color': 'red'}).kind)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(saved)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["meeple_choice", "take_meeple"]

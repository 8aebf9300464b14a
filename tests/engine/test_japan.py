"""Japan (Map Collection 7): bullet trains, the bullet track bonus, the end trigger, and random games."""

from __future__ import annotations

import os

import pytest
from helpers.engine_states import first_choices, give_n

from engine.actions import ClaimRoute, DrawBlind
from engine.errors import GameDataError, IllegalAction
from engine.events import BulletTrainPlaced, RouteClaimed
from engine.features import FEATURES
from engine.features.bullet_trains import bonus_for, bullet_claims, supply, track
from engine.progress import ticket_progress
from engine.rules import apply, legal_actions, new_game
from engine.scoring import final_scores, joined, network, shared_routes
from engine.simulate import check_invariants, simulate
from engine.state import FINISHED, LAST_ROUND, MAIN, GameState
from maps import COLORS, LOCOMOTIVE, load_board

BOARD = load_board("japan")


# ---- helpers ------------------------------------------------------------------------------------------------


def start(players: int = 3, seed: int = 7) -> GameState:
    """A game past the ticket choice: every seat keeps its first allowed choice."""
    state: GameState = first_choices(BOARD, players, seed)
    return state


give = give_n


def route(a: str, b: str, *, bullet: bool | None = None) -> int:
    found = [
        r.id
        for r in BOARD.routes_between(BOARD.city(a).id, BOARD.city(b).id)
        if bullet is None or r.bullet == bullet
    ]
    assert len(found) == 1, (a, b, found)
    return found[0]


def claim(state: GameState, rid: int) -> ClaimRoute:
    """The current seat claims `rid` with cards of one colour taken from the deck."""
    seat = state.current
    r = BOARD.routes[rid]
    if r.color >= 0:
        color = r.color
    else:
        color = max(range(len(COLORS)), key=lambda c: state.deck.count(c) + state.discard.count(c))
    give(state, seat, color, r.length)
    action = ClaimRoute(rid, color)
    assert action in legal_actions(state, seat)
    apply(state, seat, action)
    return action


def draw_turn(state: GameState) -> None:
    seat = state.current
    apply(state, seat, DrawBlind())
    if state.pending.get(seat) is not None:
        apply(state, seat, DrawBlind())


def bullet_routes() -> list[int]:
    return [r.id for r in BOARD.routes if r.bullet]


def ticket(a: str, b: str) -> int:
    ids = {BOARD.city(a).id, BOARD.city(b).id}
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == ids)


# ---- the bullet track bonus -----------------------------------------------------------------------------------


def test_bonus_table_is_the_rulebooks():
    # "2 joueurs ... 5 joueurs" table, best rank first; X = -20 for a player who took no bullet route
    rules = BOARD.rules["bullet_trains"]
    assert rules["bonus_by_rank"] == {
        "2": [10, -10],
        "3": [15, 5, -10],
        "4": [20, 10, 0, -10],
        "5": [25, 15, 5, -5, -10],
    }
    assert rules["no_contribution"] == -20
    assert rules["supply"] == 16


@pytest.mark.parametrize(
    ("positions", "expected"),
    [
        # 2 players
        ([9, 4], [10, -10]),
        ([4, 9], [-10, 10]),
        ([5, 5], [10, 10]),
        ([5, 0], [10, -20]),
        ([0, 0], [-20, -20]),
        # 3 players
        ([9, 4, 1], [15, 5, -10]),
        ([4, 4, 1], [15, 15, -10]),  # tied first: the next one scores third, as if there were no tie
        ([6, 2, 2], [15, 5, 5]),
        ([6, 0, 2], [15, -20, 5]),
        ([3, 3, 3], [15, 15, 15]),
        # 4 players
        ([8, 6, 4, 2], [20, 10, 0, -10]),
        ([8, 8, 8, 2], [20, 20, 20, -10]),
        ([3, 5, 0, 5], [0, 20, -20, 20]),
        ([1, 0, 0, 0], [20, -20, -20, -20]),
        # 5 players: the rulebook's example (second place tied by two, one player took no bullet route)
        ([12, 7, 7, 3, 0], [25, 15, 15, -5, -20]),
        ([10, 8, 6, 4, 2], [25, 15, 5, -5, -10]),
        ([2, 2, 2, 2, 2], [25, 25, 25, 25, 25]),
        ([9, 9, 4, 4, 1], [25, 25, 5, 5, -10]),
    ],
)
def test_bonus_by_rank_ties_and_non_contributors(positions, expected):
    state = start(len(positions))
    assert bonus_for(state, positions) == expected


def test_bonus_on_the_score_sheet_from_real_claims():
    # 5 players; seats 1 and 2 tie for second, seat 4 never takes a bullet route (the rulebook's example)
    state = start(5)
    plan = {
        0: [route("Morioka", "Sendai"), route("Aomori", "Morioka"), route("Hiroshima", "Kokura")],  # 12
        1: [route("Kanazawa", "Nagano"), route("Okayama", "Osaka")],  # 7
        2: [route("Niigata", "Takasaki"), route("Hamamatsu", "Nagoya")],  # 7
        3: [route("Kyoto", "Osaka"), route("Kyoto", "Nagoya")],  # 3
    }
    for step in range(3):
        for seat in range(5):
            routes = plan.get(seat, [])
            if step < len(routes):
                claim(state, routes[step])
            else:
                draw_turn(state)
            assert check_invariants(state) == []
    assert [track(state, s) for s in range(5)] == [12, 7, 7, 3, 0]
    sheets = final_scores(state)
    assert [s.bonuses["bullet_trains"] for s in sheets] == [25, 15, 15, -5, -20]
    assert all(s.route_points == 0 for s in sheets)  # bullet claims score no route points


# ---- claiming bullet routes -------------------------------------------------------------------------------------


def test_bullet_claim_places_one_bullet_train_and_advances_the_track():
    state = start(3)
    rid = route("Aomori", "Morioka")  # gray bullet route, 4 spaces
    assert BOARD.routes[rid].bullet and BOARD.routes[rid].color == -1
    claim(state, rid)
    p = state.players[0]
    assert supply(state) == 15
    assert p.trains == 20  # no own trains placed
    assert p.score == 0  # no route points
    assert track(state, 0) == 4  # as many spaces as cards played
    assert state.route_owner[rid] == 0
    assert rid not in p.routes
    assert bullet_claims(state) == [(rid, 0)]
    assert BulletTrainPlaced(0, rid, 4) in state.events
    assert not any(isinstance(e, RouteClaimed) and e.points for e in state.events)
    assert state.current == 1  # the claim was the whole turn
    assert check_invariants(state) == []


def test_bullet_route_is_paid_like_a_gray_route():
    state = start(2)
    rid = route("Aomori", "Morioka")
    seat = 0
    give(state, seat, 2, 3)
    give(state, seat, LOCOMOTIVE, 1)
    give(state, seat, 5, 1)
    claims = {a for a in legal_actions(state, seat) if isinstance(a, ClaimRoute) and a.route == rid}
    assert ClaimRoute(rid, 2, 1) in claims  # any one colour plus Locomotives
    with pytest.raises(IllegalAction):
        apply(state, seat, ClaimRoute(rid, 5, 0))  # one white card is not four
    apply(state, seat, ClaimRoute(rid, 2, 1))
    assert track(state, 0) == 4  # 3 green + 1 Locomotive = 4 cards played


def test_bullet_route_needs_no_own_trains():
    state = start(2)
    state.players[0].trains = 1  # a position: one train left
    give(state, 0, 3, 4)
    legal = {a.route for a in legal_actions(state, 0) if isinstance(a, ClaimRoute)}
    assert route("Aomori", "Morioka") in legal  # 4 spaces, paid with cards, placed with one bullet train
    assert route("Akita", "Aomori") not in legal  # red 3: needs 3 own trains
    apply(state, 0, ClaimRoute(route("Aomori", "Morioka"), 3))
    assert state.players[0].trains == 1


def test_claimed_bullet_routes_link_for_every_players_tickets():
    # Tokyo–Sendai: Tokyo–Utsunomiya, Utsunomiya–Fukushima, Fukushima–Sendai are all bullet routes
    state = start(3)
    tokyo_sendai = ticket("Tokyo", "Sendai")
    chain = [route("Tokyo", "Utsunomiya"), route("Fukushima", "Utsunomiya"), route("Fukushima", "Sendai")]
    for rid in chain:  # seat 0, 1, 2 each place one bullet train
        claim(state, rid)
    assert sorted(shared_routes(state)) == sorted(chain)
    for p in state.players:
        p.tickets = [tokyo_sendai]
    sheets = final_scores(state)
    assert all(s.tickets[0].completed for s in sheets)  # nobody owns the whole chain; it links for everyone
    assert all(s.ticket_points == 3 for s in sheets)
    assert all(tp.done for seat in range(3) for tp in ticket_progress(state, seat))


def test_bullet_routes_link_with_own_routes():
    # Hiroshima–Osaka (3): Hiroshima–Okayama and Okayama–Osaka are bullet routes claimed by seat 1; seat 0 holds
    # no route but completes it. Hakata-Tokyo needs more: not complete.
    state = start(2)
    draw_turn(state)
    claim(state, route("Hiroshima", "Okayama"))
    draw_turn(state)
    claim(state, route("Okayama", "Osaka"))
    state.players[0].tickets = [ticket("Hiroshima", "Osaka"), ticket("Hakata", "Tokyo")]
    sheet = final_scores(state)[0]
    assert [t.completed for t in sheet.tickets] == [True, False]
    assert sheet.ticket_points == 3 - 10
    assert sheet.bonuses["bullet_trains"] == -20  # seat 0 never advanced


def test_unclaimed_bullet_routes_do_not_link():
    state = start(2)
    state.players[0].tickets = [ticket("Tokyo", "Sendai")]
    assert not final_scores(state)[0].tickets[0].completed


# ---- the supply runs out ----------------------------------------------------------------------------------------


def test_empty_supply_turns_bullet_routes_into_gray_routes():
    state = start(3)
    bullets = bullet_routes()
    for i, rid in enumerate(bullets[:16]):
        claim(state, rid)
        assert supply(state) == 15 - i
        assert check_invariants(state) == []
    assert supply(state) == 0 and state.phase == MAIN
    tracks = [track(state, s) for s in range(3)]
    assert sum(tracks) == sum(BOARD.routes[r].length for r in bullets[:16])
    # the next bullet route is a plain gray route: own trains, route points, no track progress, not shared
    rid = bullets[16]
    seat = state.current
    length = BOARD.routes[rid].length
    claim(state, rid)
    p = state.players[seat]
    assert rid in p.routes
    assert p.trains == 20 - length
    assert p.score == BOARD.route_points(length)
    assert track(state, seat) == tracks[seat]
    assert rid not in shared_routes(state)
    assert check_invariants(state) == []
    a, b = BOARD.routes[rid].a, BOARD.routes[rid].b
    for s in range(3):  # it links for its owner only
        assert joined(state, network(state, state.players[s].routes + shared_routes(state)), a, b) == (
            s == seat
        )
    # and, like any route, it now needs own trains
    state.players[state.current].trains = 0
    give(state, state.current, LOCOMOTIVE, 4)
    legal = {a.route for a in legal_actions(state, state.current) if isinstance(a, ClaimRoute)}
    assert not legal & set(bullets[17:])


# ---- end of the game ----------------------------------------------------------------------------------------------


def test_end_needs_few_trains_and_a_near_empty_supply():
    state = start(3)
    state.players[0].trains = 2  # a position: seat 0 has 2 trains left, the supply 3 bullet trains
    state.module["bullet_supply"] = 3
    draw_turn(state)
    assert state.phase == MAIN  # few trains, but 3 bullet trains left: the game goes on
    state.module["bullet_supply"] = 2
    draw_turn(state)  # seat 1 has 20 trains: no end
    draw_turn(state)
    assert state.phase == MAIN
    draw_turn(state)  # seat 0 again: 2 trains and 2 bullet trains
    assert state.phase == LAST_ROUND and state.ended_by == 0
    for _ in range(3):  # every player, seat 0 included, plays one more turn
        assert state.phase == LAST_ROUND
        draw_turn(state)
    assert state.phase == FINISHED


def test_supply_alone_does_not_end_the_game():
    state = start(2)
    state.module["bullet_supply"] = 0
    state.players[0].trains = 3
    draw_turn(state)
    assert state.phase == MAIN


def test_claiming_the_bullet_train_that_leaves_two_triggers_the_end():
    state = start(2)
    state.players[0].trains = 1
    state.module["bullet_supply"] = 3
    claim(state, route("Aomori", "Morioka"))  # placed with a bullet train: the supply now holds 2
    assert supply(state) == 2
    assert state.phase == LAST_ROUND and state.ended_by == 0


# ---- double routes ------------------------------------------------------------------------------------------------


def test_no_bullet_route_is_part_of_a_double_route():
    # Bullet routes are routes ("un nouveau type de route"): the double-route rules would apply to them, but the
    # board has none in a double; Aomori–Hakodate (gray bullet 2, white 3) is not a double route.
    assert all(len(BOARD.groups_by_route[r]) == 1 for r in bullet_routes())


def test_aomori_hakodate_both_open_with_two_players():
    state = start(2)
    bullet = route("Aomori", "Hakodate", bullet=True)
    white = route("Aomori", "Hakodate", bullet=False)
    claim(state, bullet)
    claim(state, white)  # seat 1: allowed, it is not a double route
    assert state.route_owner[bullet] == 0 and state.route_owner[white] == 1
    state2 = start(2)
    claim(state2, white)
    draw_turn(state2)
    claim(state2, bullet)  # the same player may take both
    assert state2.route_owner[bullet] == state2.route_owner[white] == 0
    assert check_invariants(state2) == []


# ---- saved games and score files ------------------------------------------------------------------------------------


def test_bullet_state_survives_json():
    state = start(3)
    for rid in bullet_routes()[:5]:
        claim(state, rid)
    again = GameState.from_json(state.to_json())
    assert bullet_claims(again) == bullet_claims(state)
    assert supply(again) == 11
    assert [track(again, s) for s in range(3)] == [track(state, s) for s in range(3)]
    assert check_invariants(again) == []
    claim(again, bullet_routes()[5])
    assert supply(again) == 10 and check_invariants(again) == []


def test_score_file_bullet_routes():
    state = new_game(BOARD, ["Ann", "Bob"], seed=1)
    state.pending.clear()
    feature = FEATURES["bullet_trains"]
    feature.load_score_extras(
        state, 0, {"bullet_routes": [["Tokyo", "Utsunomiya"], ["fukushima", "Utsunomiya"]]}
    )
    feature.load_score_extras(state, 1, {"bullet_routes": [["Sendai", "Fukushima"]]})
    feature.load_score_extras(state, 1, {})
    assert [track(state, s) for s in range(2)] == [5, 1]
    assert supply(state) == 13
    state.players[1].tickets = [ticket("Tokyo", "Sendai")]
    sheets = final_scores(state)
    assert sheets[1].tickets[0].completed
    assert [s.bonuses["bullet_trains"] for s in sheets] == [10, -10]
    with pytest.raises(GameDataError):
        feature.load_score_extras(state, 1, {"bullet_routes": [["Tokyo", "Utsunomiya"]]})  # already placed
    with pytest.raises(GameDataError):
        feature.load_score_extras(state, 1, {"bullet_routes": [["Tokyo", "Ueno"]]})  # not a bullet route
    with pytest.raises(GameDataError):
        feature.load_score_extras(state, 1, {"bullet_routes": [["Tokyo", "Atlantis"]]})
    with pytest.raises(GameDataError):
        feature.load_score_extras(state, 1, {"bullet_routes": "Tokyo-Sendai"})


def test_score_file_through_ttr_score():
    scoresheet = pytest.importorskip("engine.scoresheet")
    result = scoresheet.score_json(
        {
            "map": "japan",
            "players": [
                {
                    "name": "Ann",
                    "routes": [],
                    "tickets": [["Tokyo", "Sendai"]],
                    "bullet_routes": [["Tokyo", "Utsunomiya"], ["Utsunomiya", "Fukushima"]],
                },
                {
                    "name": "Bob",
                    "routes": [["Aomori", "Akita"]],
                    "tickets": [["Sendai", "Tokyo"]],
                    "bullet_routes": [["Fukushima", "Sendai"]],
                },
            ],
        }
    )
    ann, bob = result["players"]
    assert ann["route_points"] == 0 and ann["ticket_points"] == 3 and ann["bonuses"]["bullet_trains"] == 10
    assert bob["route_points"] == 4 and bob["ticket_points"] == 3 and bob["bonuses"]["bullet_trains"] == -10


# ---- random games -------------------------------------------------------------------------------------------------

SIM_GAMES = int(os.environ.get("TTR_SIM_GAMES", "30"))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players):
    result = simulate("japan", players, SIM_GAMES, seed=1000 * players)
    assert result["error_messages"] == []
    assert result["violation_messages"] == []
    first = result["_first"]
    assert first.state.phase == FINISHED
    assert supply(first.state) + len(bullet_claims(first.state)) == 16

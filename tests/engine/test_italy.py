"""Italy (Map Collection 7): Ferry cards and wave spaces, the regions bonus, dead-end areas, and random games."""

from __future__ import annotations

import os

import pytest
from helpers.engine_states import first_choices, give_n
from helpers.hypothesis_profiles import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import ClaimRoute, DrawBlind, TakeFerryCard
from engine.claims import Payment, affordability_error, payment_of, payment_options
from engine.errors import IllegalAction
from engine.features.ferry_cards import pile
from engine.features.regions import bonus_points, networks, regions_bonus
from engine.rules import apply, legal_actions, new_game
from engine.scoring import final_scores, joined, network
from engine.simulate import check_invariants, simulate
from engine.state import FINISHED, GameState
from maps import COLORS, LOCOMOTIVE, load_board

BOARD = load_board("italy")
RED, BLUE, GREEN, YELLOW, BLACK, WHITE, ORANGE, PINK = range(8)


# ---- helpers ------------------------------------------------------------------------------------------------


def start(players: int = 3, seed: int = 5) -> GameState:
    """A game past the ticket choice: every seat keeps its first allowed choice."""
    state: GameState = first_choices(BOARD, players, seed)
    return state


give = give_n


def empty_hand(state: GameState, seat: int) -> None:
    hand = state.players[seat].hand
    for card, n in enumerate(hand):
        state.discard.extend([card] * n)
        hand[card] = 0


def route(a: str, b: str, color: str | None = None) -> int:
    found = [
        r.id
        for r in BOARD.routes_between(BOARD.city(a).id, BOARD.city(b).id)
        if color is None or r.color_name == color
    ]
    assert found, (a, b, color)
    return found[0]


def ticket(a: str, b: str) -> int:
    ids = {BOARD.city(a).id, BOARD.city(b).id}
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == ids)


def take_ferry(state: GameState) -> None:
    apply(state, state.current, TakeFerryCard())


def draw_turn(state: GameState) -> None:
    seat = state.current
    apply(state, seat, DrawBlind())
    if state.pending.get(seat) is not None:
        apply(state, seat, DrawBlind())


def owned(state: GameState, seat: int, routes: list[int]) -> None:
    """A position: these routes are the seat's."""
    for r in routes:
        state.route_owner[r] = seat
        state.players[seat].routes.append(r)


# ---- Ferry cards: the pile and the action ---------------------------------------------------------------------


def test_ferry_pile_setup():
    state = start(2)
    assert pile(state) == 10
    assert all(p.ferry_cards == 0 for p in state.players)
    assert TakeFerryCard() in legal_actions(state, 0)


def test_taking_a_ferry_card_is_the_whole_turn():
    state = start(3)
    take_ferry(state)
    assert state.players[0].ferry_cards == 1 and pile(state) == 9
    assert state.current == 1 and not state.pending  # no second draw: the turn is over
    assert state.history[-1][0] == 0 and state.history[-1][1].to_json() == {"type": "take_ferry_card"}
    assert check_invariants(state) == []


def test_never_more_than_two_ferry_cards():
    state = start(2)
    for _ in range(2):
        take_ferry(state)  # seat 0
        draw_turn(state)  # seat 1
    assert state.players[0].ferry_cards == 2
    assert TakeFerryCard() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="2 Ferry cards"):
        take_ferry(state)
    assert state.players[0].ferry_cards == 2 and pile(state) == 8


def test_empty_pile_and_spent_cards_go_back():
    state = start(5)
    for _ in range(10):  # everyone takes 2: the 10 cards are in hands
        take_ferry(state)
    assert pile(state) == 0 and [p.ferry_cards for p in state.players] == [2] * 5
    assert check_invariants(state) == []
    # seat 0 spends one on Genova–Monaco (3 spaces, 1 wave)
    seat = state.current
    rid = route("Genova", "Monaco")
    empty_hand(state, seat)
    give(state, seat, BLACK, 2)
    action = ClaimRoute(rid, BLACK, 0, 0, 1)
    assert action in legal_actions(state, seat)
    apply(state, seat, action)
    assert state.players[seat].ferry_cards == 1 and pile(state) == 1
    assert state.players[seat].hand[BLACK] == 0
    assert check_invariants(state) == []
    # the next seat already holds 2: it cannot take the card back; seat 0 can, on its next turn
    assert TakeFerryCard() not in legal_actions(state, state.current)
    for _ in range(4):
        draw_turn(state)
    assert state.current == seat
    take_ferry(state)
    assert pile(state) == 0
    for _ in range(4):
        draw_turn(state)
    with pytest.raises(IllegalAction):
        take_ferry(state)  # 2 in hand again (and the pile is empty)
    state.players[seat].ferry_cards = 1  # a position: one in hand, none in the pile
    state.module["ferry_pile"] = 0
    with pytest.raises(IllegalAction, match="empty"):
        take_ferry(state)


def test_ferry_card_only_on_your_turn_and_not_mid_draw():
    state = start(2)
    with pytest.raises(IllegalAction):
        apply(state, 1, TakeFerryCard())
    apply(state, 0, DrawBlind())
    assert TakeFerryCard() not in legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        take_ferry(state)


# ---- wave payments --------------------------------------------------------------------------------------------


def test_ferry_lines_are_the_gray_routes():
    assert all((r.waves > 0) == (r.color == -1) for r in BOARD.routes)
    assert all(r.locomotives == 0 for r in BOARD.routes)


@pytest.mark.parametrize(
    ("ferry", "locos", "colored", "ok"),
    [
        # Bari–Croazia: 7 spaces, 4 of them waves
        (2, 0, 3, True),  # two Ferry cards cover the 4 waves
        (1, 2, 3, True),  # one Ferry card covers 2 waves, Locomotives the other 2
        (0, 4, 3, True),  # a Locomotive covers one wave
        (0, 7, 0, True),
        (1, 3, 2, True),  # the spare Locomotive pays an ordinary space
        (2, 3, 0, True),
        (1, 1, 4, False),  # one wave left unpaid
        (0, 3, 4, False),
        (3, 0, 1, False),  # a third Ferry card would cover nothing
    ],
)
def test_wave_payments(ferry, locos, colored, ok):
    state = start(2)
    rid = route("Bari", "Croazia")
    r = BOARD.routes[rid]
    assert (r.length, r.waves) == (7, 4)
    action = ClaimRoute(rid, GREEN, locos, 0, ferry)
    pay = payment_of(state, action)
    if not ok:
        assert isinstance(pay, IllegalAction)
        return
    assert pay == Payment(GREEN if colored else LOCOMOTIVE, colored, locos, 0, ferry)
    # and the claim goes through with that hand
    seat = 0
    empty_hand(state, seat)
    give(state, seat, GREEN, colored)
    give(state, seat, LOCOMOTIVE, locos)
    state.players[seat].ferry_cards = ferry
    state.module["ferry_pile"] -= ferry
    if not colored:
        action = ClaimRoute(rid, LOCOMOTIVE, locos, 0, ferry)  # how the options list an all-wild payment
    assert action in legal_actions(state, seat)
    apply(state, seat, action)
    assert state.route_owner[rid] == seat
    assert sum(state.players[seat].hand) == 0 and state.players[seat].ferry_cards == 0
    assert pile(state) == 10
    assert state.players[seat].score == BOARD.route_points(7) == 18
    assert state.players[seat].trains == 45 - 7
    assert check_invariants(state) == []


def test_one_ferry_card_covers_a_single_wave_too():
    state = start(2)
    rid = route("Cosenza", "Messina")  # 3 spaces, 1 wave
    empty_hand(state, 0)
    give(state, 0, RED, 2)
    give(state, 0, LOCOMOTIVE, 1)
    state.players[0].ferry_cards = 1
    state.module["ferry_pile"] = 9
    options = {a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == rid}
    assert options == {
        ClaimRoute(rid, RED, 1, 0, 0),  # the Locomotive on the wave
        ClaimRoute(rid, RED, 0, 0, 1),  # the Ferry card on the wave
        ClaimRoute(rid, RED, 1, 0, 1),  # Ferry card on the wave, Locomotive on an ordinary space
    }


def test_ferry_card_is_useless_elsewhere():
    state = start(2)
    seat = 0
    empty_hand(state, seat)
    give(state, seat, PINK, 1)
    give(state, seat, LOCOMOTIVE, 1)
    state.players[seat].ferry_cards = 2
    state.module["ferry_pile"] = 8
    pisa = route("Firenze", "Pisa", "pink")  # an ordinary route
    with pytest.raises(IllegalAction, match="wave"):
        apply(state, seat, ClaimRoute(pisa, PINK, 0, 0, 1))
    # not on the ordinary spaces of a ferry line either: Trieste–Venezia gray has 3 spaces, 1 wave
    trieste = route("Trieste", "Venezia", "gray")
    assert isinstance(payment_of(state, ClaimRoute(trieste, PINK, 0, 0, 2)), IllegalAction)
    # and never offered where there is no wave
    for a in legal_actions(state, seat):
        if isinstance(a, ClaimRoute) and a.ferry_cards:
            assert BOARD.routes[a.route].waves > 0
    assert ClaimRoute(pisa, PINK, 0) in legal_actions(state, seat)


@settings(max_examples=examples(150))
@given(
    rid=st.sampled_from([r.id for r in BOARD.routes if r.waves]),
    colors=st.lists(st.integers(0, 5), min_size=len(COLORS), max_size=len(COLORS)),
    locos=st.integers(0, 6),
    ferry=st.integers(0, 2),
)
def test_payment_options_are_exactly_the_valid_payments(rid, colors, locos, ferry):
    state = new_game(BOARD, 2, seed=3)
    player = state.players[0]
    player.hand = [*colors, locos, 0, 0]
    player.ferry_cards = ferry
    r = BOARD.routes[rid]
    offered = {payment_of(state, a) for a in payment_options(state, 0, rid)}
    valid = set()
    for color in [*range(len(COLORS)), LOCOMOTIVE]:
        for k in range(r.length + 1):
            for f in range(3):
                pay = payment_of(state, ClaimRoute(rid, color, k, 0, f))
                if not isinstance(pay, IllegalAction) and affordability_error(state, 0, rid, pay) is None:
                    valid.add(pay)
    assert offered == valid
    for pay in valid:
        assert isinstance(pay, Payment)
        assert pay.locomotives + min(2 * pay.ferry_cards, r.waves) >= r.waves  # every wave paid
        assert pay.colored + pay.locomotives + min(2 * pay.ferry_cards, r.waves) == r.length
        assert 2 * (pay.ferry_cards - 1) < r.waves  # no Ferry card wasted


# ---- regions bonus ------------------------------------------------------------------------------------------------

NORTH = [("Pisa", "Genova"), ("Genova", "Torino"), ("Genova", "Milano"), ("Milano", "Parma")]
SOUTH = [("Firenze", "Perugia"), ("Perugia", "Roma"), ("Roma", "Pescara"), ("Pescara", "Ancona")]


def _routes(pairs: list[tuple[str, str]]) -> list[int]:
    return [route(a, b) for a, b in pairs]


def test_region_table():
    assert [bonus_points(BOARD, n) for n in range(0, 21)] == [
        0,
        0,
        0,
        0,
        0,
        1,
        2,
        4,
        7,
        11,
        16,
        22,
        29,
        37,
        46,
        56,
        56,
        56,
        56,
        56,
        56,
    ]
    regions = {c.extra["region"] for c in BOARD.cities if not c.dead_end}
    assert len(regions) == 17 and regions == set(BOARD.rules["regions"]["names"])
    assert all(c.extra.get("region") is None for c in BOARD.cities if c.dead_end)


def test_rulebook_regions_example():
    # Blue: a northern network (Toscana via Pisa, Liguria, Piemonte, Lombardia, Emilia-Romagna) and a southern
    # one (Toscana via Firenze, Umbria, Lazio, Abruzzo, Marche): 5 + 5 regions = 1 + 1 point.
    state = start(2)
    owned(state, 0, _routes(NORTH + SOUTH))
    nets = networks(BOARD, state.players[0].routes)
    assert [n.count for n in nets] == [5, 5]
    assert final_scores(state)[0].bonuses["regions"] == 2
    # Firenze–Pisa joins them: 9 regions, not 10 (Firenze and Pisa are both in Toscana) = 11 points
    owned(state, 0, [route("Firenze", "Pisa", "red")])
    nets = networks(BOARD, state.players[0].routes)
    assert len(nets) == 1 and nets[0].count == 9
    assert final_scores(state)[0].bonuses["regions"] == 11


def test_regions_count_each_network_separately_and_only_own_routes():
    state = start(2)
    owned(state, 0, _routes(NORTH))
    owned(state, 1, _routes(SOUTH))
    sheets = final_scores(state)
    assert [s.bonuses["regions"] for s in sheets] == [1, 1]  # the other player's routes never join a network


def test_special_region_counts_twice_when_complete():
    # Sardegna (Cagliari, Olbia, Sassari) + Lazio, Umbria, Toscana
    partial = _routes([("Cagliari", "Olbia"), ("Olbia", "Roma"), ("Roma", "Perugia"), ("Perugia", "Firenze")])
    assert networks(BOARD, partial)[0].count == 4
    assert regions_bonus(BOARD, partial) == 0
    full = [*partial, route("Olbia", "Sassari")]
    net = networks(BOARD, full)[0]
    assert net.doubled == ("Sardegna",) and net.count == 5
    assert regions_bonus(BOARD, full) == 1
    # Sardegna's cities split over two networks: it counts once
    split = [*partial, route("Sassari", "Cagliari")]
    split.remove(route("Cagliari", "Olbia"))
    nets = networks(BOARD, split)
    assert [n.doubled for n in nets] == [(), ()]


def test_sicilia_and_puglia_double():
    sicilia = _routes(
        [("Palermo", "Agrigento"), ("Agrigento", "Siracusa"), ("Siracusa", "Catania"), ("Catania", "Messina")]
    )
    puglia = _routes([("Lecce", "Taranto"), ("Taranto", "Bari"), ("Bari", "Foggia")])
    link = _routes([("Messina", "Cosenza"), ("Cosenza", "Taranto")])
    nets = networks(BOARD, sicilia + puglia + link)
    assert len(nets) == 1
    assert set(nets[0].doubled) == {"Sicilia", "Puglia"}
    assert nets[0].count == 3 + 2  # Sicilia, Calabria, Puglia, two of them twice
    assert regions_bonus(BOARD, sicilia + puglia + link) == 1
    without_lecce = [r for r in sicilia + puglia + link if r != route("Lecce", "Taranto")]
    assert networks(BOARD, without_lecce)[0].doubled == ("Sicilia",)


def test_big_network_caps_at_56():
    everything = [g[0] for g in BOARD.groups]
    nets = networks(BOARD, everything)
    assert len(nets) == 1 and nets[0].count == 20  # 17 regions, 3 of them twice
    assert regions_bonus(BOARD, everything) == 56


# ---- dead-end areas -------------------------------------------------------------------------------------------


def test_routes_into_the_same_area_do_not_link():
    state = start(2)
    bolzano_croazia = ticket("Bolzano", "Croazia")
    owned(
        state,
        0,
        _routes(
            [("Bolzano", "Austria"), ("Tarvisio", "Austria"), ("Tarvisio", "Trieste"), ("Trieste", "Croazia")]
        ),
    )
    state.players[0].tickets = [bolzano_croazia]
    sheet = final_scores(state)[0]
    assert not sheet.tickets[0].completed and sheet.ticket_points == -8
    assert sheet.bonuses["regions"] == 0  # two networks: Trentino-Alto Adige / Friuli-Venezia Giulia
    assert len(networks(BOARD, state.players[0].routes)) == 2
    uf = network(state, state.players[0].routes)
    assert not joined(state, uf, BOARD.city("Bolzano").id, BOARD.city("Tarvisio").id)
    # two routes into Croazia (different drawn endpoints) do not link Ancona and Trieste either
    owned(state, 0, [route("Ancona", "Croazia")])
    uf = network(state, state.players[0].routes)
    assert not joined(state, uf, BOARD.city("Ancona").id, BOARD.city("Trieste").id)
    # a real link completes the ticket
    owned(state, 0, [route("Bolzano", "Tarvisio")])
    sheet = final_scores(state)[0]
    assert sheet.tickets[0].completed and sheet.ticket_points == 8


def test_area_ticket_with_either_route_into_the_area():
    state = start(2)
    owned(
        state,
        0,
        _routes(
            [
                ("Torino", "Francia"),
                ("Torino", "Milano"),
                ("Milano", "Bergamo"),
                ("Bergamo", "Bolzano"),
                ("Bolzano", "Austria"),
            ]
        ),
    )
    state.players[0].tickets = [ticket("Francia", "Austria")]
    assert final_scores(state)[0].tickets[0].completed


def test_no_longest_path_bonus():
    state = start(2)
    owned(state, 0, _routes(NORTH))
    assert set(final_scores(state)[0].bonuses) == {"regions"}


# ---- random games -------------------------------------------------------------------------------------------------

SIM_GAMES = int(os.environ.get("TTR_SIM_GAMES", "30"))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players):
    result = simulate("italy", players, SIM_GAMES, seed=2000 * players)
    assert result["error_messages"] == []
    assert result["violation_messages"] == []
    first = result["_first"]
    assert first.state.phase == FINISHED
    assert pile(first.state) + sum(p.ferry_cards for p in first.state.players) == 10

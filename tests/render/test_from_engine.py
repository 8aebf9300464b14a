"""The engine -> picture adapter shows only public information: changing everything hidden (hands, kept tickets,
deck order, the seed and generator) leaves the board picture byte-identical."""

from __future__ import annotations

import random
import re

import pytest
from test_words import catalogue_words

from engine.actions import DrawBlind
from engine.events import BlindCardSeen, RouteClaimed
from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
from engine.scoring import outcome
from engine.state import GameState
from render.board_svg import render_board_svg
from render.from_engine import board_view, hand_picture_data, last_move, summary_rows, ticket_map_data
from render.model import LastMove
from render.summary import render_summary_svg


def play(board: str, players: int, seed: int, turns: int) -> GameState:
    state = new_game(board, players, seed=seed)
    rng = random.Random(seed)
    while not state.finished and state.turn < turns:
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    return state


def scramble_secrets(state: GameState, rng: random.Random) -> GameState:
    """Same public position, different secrets: hands re-dealt with the same counts, tickets and deck shuffled."""
    s = state.copy()
    pool: list[int] = list(s.deck)
    for p in s.players:
        for card, n in enumerate(p.hand):
            pool += [card] * n
    rng.shuffle(pool)
    for p in s.players:
        n = sum(p.hand)
        p.hand = [0] * len(p.hand)
        for card in pool[:n]:
            p.hand[card] += 1
        pool = pool[n:]
    s.deck = pool
    unseen = [t for p in s.players for t in p.tickets] + [t for d in s.ticket_decks.values() for t in d]
    rng.shuffle(unseen)
    for p in s.players:
        p.tickets, unseen = unseen[: len(p.tickets)], unseen[len(p.tickets) :]
    s.seed = rng.randrange(10**9)
    s.rng = random.Random(s.seed)
    return s


@pytest.mark.parametrize(
    ("board", "players"),
    [("europe", 4), ("usa", 3), ("germany", 5), ("marklin", 4), ("japan", 4), ("italy", 2)],
)
def test_board_picture_depends_on_public_information_only(board, players):
    state = play(board, players, seed=7, turns=40)
    svg = render_board_svg(state.board, board_view(state))
    rng = random.Random(1)
    for _ in range(3):
        other = scramble_secrets(state, rng)
        assert render_board_svg(other.board, board_view(other)) == svg


def test_final_board_shows_tickets_and_final_scores():
    state = play("europe", 3, seed=3, turns=10_000)
    assert state.finished
    view = board_view(state)
    assert view.final and view.turn is None
    assert sum(len(v) for v in view.ticket_routes.values()) == sum(len(p.tickets) for p in state.players)
    rows = summary_rows(state)
    assert [r.total for r in rows] == [p.score for p in view.players]


def test_hand_picture_data_is_the_players_own():
    state = play("europe", 3, seed=5, turns=30)
    cards, tickets = hand_picture_data(state, 1)
    assert sum(cards.values()) == sum(state.players[1].hand)
    assert len(tickets) == len(state.players[1].tickets)


def test_final_board_draws_each_ticket_as_an_arc_solid_when_done():
    state = play("usa", 2, seed=4, turns=10_000)
    svg = render_board_svg(state.board, board_view(state))
    n_tickets = sum(len(p.tickets) for p in state.players)
    assert svg.count('class="ticket-arc ') == n_tickets
    from engine.scoring import final_scores

    failed = sum(1 for s in final_scores(state) for t in s.tickets if not t.completed)
    assert svg.count(" failed") == failed
    # during play no arc is drawn
    early = play("usa", 2, seed=4, turns=30)
    assert "ticket-arc" not in render_board_svg(early.board, board_view(early))


@pytest.mark.parametrize(("board", "players"), [("europe", 4), ("italy", 3), ("japan", 4)])
def test_ticket_map_data_holds_only_its_owners_secrets(board, players):
    """The private ticket map of seat 1 follows seat 1's tickets and nobody else's; the public picture follows
    neither."""
    state = play(board, players, seed=9, turns=50)
    mine = ticket_map_data(state, 1)
    svg = render_board_svg(state.board, board_view(state))
    rng = random.Random(2)
    for _ in range(3):
        other = scramble_secrets(state, rng)
        assert render_board_svg(other.board, board_view(other)) == svg
        theirs = other.copy()
        theirs.players[1].tickets = list(state.players[1].tickets)  # seat 1's own tickets as they were
        assert ticket_map_data(theirs, 1) == mine
    assert {(t.a, t.b) for t in mine.tickets} == {
        (state.board.tickets[t].a, state.board.tickets[t].b) for t in state.players[1].tickets
    }


def test_last_move_is_a_neutral_description_from_the_public_events():
    state = play("europe", 3, 3, 0)
    while state.pending:  # everyone keeps their first tickets
        seat = min(state.pending)
        apply(state, seat, random_legal_action(state, seat, random.Random(0)))
    seat = state.current
    apply(state, seat, DrawBlind())
    move = last_move(state)
    assert move == LastMove(seat=seat, what="card_drawn", card=None)  # which card stays private
    other = state.copy()
    other.events = [
        BlindCardSeen(e.seat, (e.card + 1) % 9) if isinstance(e, BlindCardSeen) else e for e in state.events
    ]
    assert board_view(other) == board_view(state)
    words = board_view(state, last_move_text=lambda m: f"seat {m.seat}: {m.what}").last_move
    assert words is not None and words.text == f"seat {seat}: card_drawn"
    assert words.text in render_board_svg(state.board, board_view(state, last_move_text=lambda m: words.text))


def test_last_move_outlines_a_claimed_route():
    state = play("usa", 2, 4, 0)
    rng = random.Random(4)
    while not any(isinstance(e, RouteClaimed) for e in state.events):
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    claim = next(e for e in state.events if isinstance(e, RouteClaimed))
    assert last_move(state) == LastMove(seat=claim.seat, routes=(claim.route,))
    state.events = []
    assert last_move(state) is None


def test_score_chart_rows_keep_the_raw_part_keys_so_a_french_legend_is_french():
    state = play("usa", 3, seed=4, turns=10_000)
    end = outcome(state)
    assert end is not None
    rows = summary_rows(state, end.sheets)
    assert rows == summary_rows(state)  # the same rows whether the sheets are passed or scored here
    keys = {k for r in rows for k in r.parts}
    assert {"routes", "tickets", "longest_path"} <= keys and not any(" " in k for k in keys)
    assert [r.total for r in rows] == [s.total for s in end.sheets]
    french = catalogue_words("fr")
    legend = " ".join(re.findall(r">([^<>]+)</text>", render_summary_svg(rows, words=french)))
    assert french.part("longest_path") in legend and french.part("tickets") in legend
    assert "longest path" not in legend and "tickets" not in legend

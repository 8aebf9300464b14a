"""The core rules name no board module: warehouses, tunnels and station borrowing come through `Feature` hooks
(draw_choices, start_play, start_claim, ticket_links), and the core imports no module of engine/features/."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.engine_states import card, give, route_id, stack_deck, started

from engine.actions import ClaimRoute, DrawBlind
from engine.pending import TunnelPayment
from engine.rules import apply, legal_actions, new_game
from engine.state import DEPOTS, MAIN

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CORE = (
    "rules.py",
    "legal.py",
    "payable.py",
    "handlers.py",
    "turn.py",
    "scoring.py",
    "claims.py",
    "cards.py",
    "state.py",
    "views.py",
    "tickets.py",
)
RULES = (
    "rules.py",
    "legal.py",
    "payable.py",
    "handlers.py",
    "turn.py",
    "scoring.py",
    "claims.py",
    "tickets.py",
)  # no option or module named by string
BOARD_MODULES = {p.stem for p in (ENGINE / "features").glob("*.py") if p.stem != "__init__"}


def test_the_core_imports_no_board_module_and_names_none_as_an_option():
    for name in CORE:
        tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("engine.features."), (name, node.module)
                if node.module == "engine.features":
                    assert not {a.name for a in node.names} & BOARD_MODULES, name
            if name in RULES and isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in BOARD_MODULES, (name, node.lineno, node.value)


def test_warehouse_draw_choices_and_depot_phase_come_with_the_option_only():
    plain = started("europe", 3)
    assert {a.warehouse for a in legal_actions(plain, plain.current) if isinstance(a, DrawBlind)} == {None}
    s = new_game("europe", 3, options=("warehouses",), variant="mega", seed=1)
    while s.pending:
        seat = min(s.pending)
        apply(s, seat, legal_actions(s, seat)[0])
    assert (
        s.phase == DEPOTS and s.current == (s.first_player - 1) % 3
    )  # initial depots: the seat before the first
    s = started("europe", 3, options=("warehouses",), variant="mega")
    assert s.phase == MAIN
    blind = {a.warehouse for a in legal_actions(s, s.current) if isinstance(a, DrawBlind)}
    assert blind == {0, 1, 2}


def test_a_tunnel_claim_goes_through_the_tunnel_module():
    s = started("europe", 2)
    give(s, 0, white=4)
    stack_deck(s, ["white", "blue", "green"])
    tunnel = route_id(s, "Madrid", "Pamplona", "white")
    apply(s, 0, ClaimRoute(tunnel, card("white")))
    assert isinstance(s.pending[0], TunnelPayment) and s.route_owner[tunnel] < 0

"""`ttr render`: play a seeded random game for some turns (or to the end) and draw the board."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from engine.cli import positive


def cmd_render(args: argparse.Namespace) -> int:
    from engine.playout import random_legal_action
    from engine.rules import apply, new_game, to_act
    from render.from_engine import board_view
    from render.png import render_board_png

    state = new_game(
        args.map, args.players, variant=args.variant, options=tuple(args.option or ()), seed=args.seed
    )
    rng = random.Random(args.seed)
    while not state.finished and (args.turns is None or state.turn < args.turns):
        seat = rng.choice(to_act(state))
        apply(state, seat, random_legal_action(state, seat, rng))
    png = render_board_png(
        state.board, board_view(state), width=args.width, colorblind=not args.no_colorblind
    )
    Path(args.out).write_bytes(png)
    print(
        f"{args.out}: {state.board.name}, turn {state.turn}{' (finished)' if state.finished else ''}, "
        f"{len(png) / 1024:.0f} KB",
        file=sys.stderr,
    )
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("render", help="play a seeded random game and draw its board as PNG")
    p.add_argument("--map", required=True)
    p.add_argument("--variant")
    p.add_argument("--option", action="append")
    p.add_argument("--players", type=positive, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--turns", type=int, help="stop after this many turns (default: play to the end)")
    p.add_argument("--width", type=positive, default=1600)
    p.add_argument("--no-colorblind", action="store_true", help="no letters/shapes on colours")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_render)

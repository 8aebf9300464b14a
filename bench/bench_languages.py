"""Picture time per language: a Japanese picture (the CJK font, the cities' Japanese names) against an English one.

    python bench/bench_languages.py [--board japan] [--runs N] [--languages en,fr,ja]

Per language, on one board's mid-game position (bench_render's): the first board picture (its printed map, names
included, rasterised once per language and process), then medians of N board pictures, turn pictures and hands,
and of the uncached full-SVG board (every word rasterised again: the fonts' whole cost). The languages' runs are
interleaved so that the machine's other work weighs on each alike. The words are the catalogue's
(`bot.play.pictures.picture_words`); without a ja.json the Japanese pictures have English panel words but their
own font and city names. Target: Japanese within 20% of English.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_render import midgame_view  # noqa: E402

from bot.play.pictures import picture_words  # noqa: E402
from maps.board import load_board  # noqa: E402
from render.hand import HandTicket, render_hand_png  # noqa: E402
from render.model import LastMove  # noqa: E402
from render.png import render_board_png  # noqa: E402
from render.turn_picture import render_turn_png  # noqa: E402


def _ms(f) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="japan")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--languages", default="en,fr,ja")
    args = ap.parse_args(argv)
    board = load_board(args.board)
    view = midgame_view(board)
    claimed = sorted(view.routes)
    moves = dataclasses.replace(
        view, last_move=LastMove(seat=0, routes=(claimed[0], claimed[len(claimed) // 2], claimed[-1]))
    )
    tickets = [HandTicket(t.a, t.b, t.points, done=k == 0) for k, t in enumerate(board.tickets[:5])]
    languages = args.languages.split(",")
    words = {lang: picture_words(lang) for lang in languages}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.1f} (wall times grow with other work on the machine)")
    first = {lang: _ms(lambda w=words[lang]: render_board_png(board, view, words=w)) for lang in languages}
    for lang in languages:
        _ms(lambda w=words[lang]: render_turn_png(board, moves, words=w))  # the zoomed printed map, once
    kinds = {
        "board": lambda w: render_board_png(board, view, words=w),
        "turn": lambda w: render_turn_png(board, moves, words=w),
        "hand": lambda w: render_hand_png({c: 2 for c in range(9)}, tickets, words=w),
        "uncached": lambda w: render_board_png(board, view, words=w, cache=False),
    }
    times: dict[tuple[str, str], list[float]] = {(lang, k): [] for lang in languages for k in kinds}
    for i in range(args.runs):
        for kind, draw in kinds.items():
            if kind == "uncached" and i % 3:
                continue
            for lang in languages:
                times[lang, kind].append(_ms(lambda d=draw, w=words[lang]: d(w)))
    print(
        f"{args.board}: {'language':8} {'first ms':>9} "
        + " ".join(f"{k + ' ms':>12}" for k in kinds)
        + "   vs en"
    )
    base = {k: statistics.median(times[languages[0], k]) for k in kinds}
    for lang in languages:
        med = {k: statistics.median(times[lang, k]) for k in kinds}
        ratio = " ".join(f"{med[k] / base[k]:.2f}" for k in kinds)
        print(
            f"{'':7} {lang:8} {first[lang]:9.0f} "
            + " ".join(f"{med[k]:12.1f}" for k in kinds)
            + f"   {ratio}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

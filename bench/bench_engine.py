"""Engine speed: random complete games per second per board, longest path, final scoring, JSON round trip.

    python bench/bench_engine.py [--games 200]

Prints one line per figure, after saying whether the engine runs compiled (setup.py). Single process; measured with time.perf_counter (wall) and process_time (CPU).
The random players draw through `random_legal_action`, which picks `legal_actions(...)[k]` for a uniform k
without building the list (tests check it against the list); the line "full legal_actions list" plays the
same way from the complete lists.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.record import make_record, replay
from engine.rules import new_game
from engine.scoring import final_scores, longest_path
from engine.simulate import SAMPLE_SETUPS, play_game
from engine.state import GameState


def games_per_second(
    board: str, players: int, games: int, variant: str | None = None, options: tuple[str, ...] = ()
) -> tuple[float, float, float]:
    play_game(
        board, players, games, variant=variant, options=options, check=False
    )  # warm-up: caches, imports
    wall, cpu = time.perf_counter(), time.process_time()
    turns = 0
    for g in range(games):
        turns += play_game(board, players, g, variant=variant, options=options, check=False).state.turn
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / wall, games / cpu, turns / games


def games_per_second_full_lists(board: str, players: int, games: int) -> float:
    """The same random play choosing from the complete `legal_actions` list every time (CPU games/s)."""
    cpu = time.process_time()
    for g in range(games):
        rng = random.Random(g)

        def choose(state: GameState, seat: int, legal: list, rng: random.Random = rng):  # type: ignore[type-arg]
            return legal[rng.randrange(len(legal))]

        play_game(board, players, g, check=False, choosers=[choose] * players)
    return games / (time.process_time() - cpu)


def end_game_state(trains_wanted: int = 45) -> GameState:
    """A finished 4-player Europe game; the player with most trains placed is used for the path figures."""
    for seed in range(200):
        state = play_game("europe", 4, seed, check=False).state
        used = max(45 - p.trains for p in state.players)
        if used >= trains_wanted - 2:
            return state
    return state


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    if engine.COMPILED_MODULES:
        print(
            f"engine: compiled by mypyc ({len(engine.COMPILED_MODULES)} modules); TTR_PURE_PYTHON=1 for the sources"
        )
    else:
        print("engine: pure Python (not compiled, or TTR_PURE_PYTHON=1)")
    for board, variant, options in SAMPLE_SETUPS:
        try:
            wall, cpu, turns = games_per_second(board, 4, args.games, variant, options)
        except Exception as exc:  # a board whose modules are not in yet
            print(f"{board:8} {variant or '':10} error: {exc}")
            continue
        print(
            f"{board:8} {variant or 'default':10} {'+'.join(options) or '-':10} 4 players: "
            f"{wall:6.1f} games/s wall, {cpu:6.1f} games/s CPU, {turns:.0f} turns/game"
        )
    full = games_per_second_full_lists("europe", 4, max(10, args.games // 4))
    print(f"europe   (choosing from the full legal_actions list each time): {full:6.1f} games/s CPU")

    state = end_game_state()
    seat = max(range(4), key=lambda s: len(state.players[s].routes))
    routes = state.players[seat].routes
    trains = sum(state.board.routes[r].length for r in routes)
    print(
        f"longest path, {len(routes)} routes / {trains} trains: "
        f"{timed(lambda: longest_path(state, routes), 200):.3f} ms median"
    )
    # full final scoring with 3 stations per player around the board
    rng = random.Random(1)
    free = [c.id for c in state.board.cities]
    rng.shuffle(free)
    state.station_owner = {c: i % 4 for i, c in enumerate(free[:12])}
    for p in state.players:
        p.stations = 0
    print(f"final scoring, 4 players x 3 stations: {timed(lambda: final_scores(state), 100):.3f} ms median")

    mid = replay({**make_record(state), "actions": make_record(state)["actions"][: len(state.history) // 2]})
    text = mid.to_json()
    print(
        f"mid-game state: {len(text) / 1024:.1f} KB JSON; round trip "
        f"{timed(lambda: GameState.from_json(mid.to_json()), 200):.3f} ms median"
    )
    fresh = new_game("europe", 5, seed=1)
    print(
        f"new game setup: {timed(lambda: new_game('europe', 5, seed=1), 200):.3f} ms median; "
        f"{len(fresh.to_json()) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()

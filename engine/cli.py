"""The `ttr` command line: board listing, simulator, replay and score calculator.

Other layers add their subcommands through the `ttr.commands` entry point group (render: `ttr render`,
bot: `ttr bot`), so the engine names none of them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn

from engine.errors import GameDataError, IllegalAction
from maps import BoardDataError, board_ids, load_board

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """A command line the command refuses (a count out of range, an unknown AI level): one line, status 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse refusing bad arguments in one line (its usage stays under --help), exit status 2 as usual."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1 (games, width)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def cmd_maps(args: argparse.Namespace) -> int:
    rows = []
    for bid in board_ids():
        board = load_board(bid)
        variants = ", ".join(
            f"{vid}{' (default)' if vid == board.default_variant else ''}" for vid in board.variants
        )
        options = ", ".join(board.options) or "-"
        rows.append(
            {
                "id": bid,
                "name": board.name,
                "status": board.status,
                "variants": list(board.variants),
                "options": list(board.options),
                "cities": len(board.cities),
                "routes": len(board.routes),
                "tickets": len(board.tickets),
            }
        )
        if not args.json:
            flag = "" if board.status == "verified" else f"  [{board.status.upper()} DATA]"
            print(f"{bid:9} {board.name}{flag}")
            print(
                f"          variants: {variants}; options: {options}; "
                f"{len(board.cities)} places, {len(board.routes)} routes, {len(board.tickets)} tickets"
            )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


def _progress_bar(total: int) -> Callable[[int], None] | None:
    if not sys.stderr.isatty() or total < 20:
        return None

    def show(done: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.record import make_record
    from engine.simulate import simulate

    options = tuple(args.option or ())
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",") if s.strip()]
        try:
            from engine.ai import LEVELS
            from engine.ai.tournament import tournament
        except ImportError:
            print("AI players are not available in this build", file=sys.stderr)
            return EXIT_BAD_INPUT
        unknown = [s for s in seats if s not in LEVELS]
        if unknown:
            raise UsageError(f"unknown AI level {unknown[0]!r} (levels: {', '.join(LEVELS)})")
        # a tournament: one board, several (--map europe,usa) or every board (--map all)
        boards = board_ids() if args.map == "all" else [b.strip() for b in args.map.split(",") if b.strip()]
        results: list[dict[str, Any]] = []
        for board in boards:
            results.append(
                tournament(
                    board,
                    seats,
                    args.games,
                    args.seed,
                    variant=args.variant if len(boards) == 1 else None,
                    options=options if len(boards) == 1 else (),
                    progress=_progress_bar(args.games),
                )
            )
            if not args.json:
                print(_format_tournament(results[-1]), flush=True)
        if args.json:
            print(json.dumps(results[0] if len(results) == 1 else {"tournaments": results}, indent=1))
        return 1 if any(r.get("errors") for r in results) else 0
    players = args.players or 4
    result = simulate(
        args.map,
        players,
        args.games,
        args.seed,
        variant=args.variant,
        options=options,
        progress=_progress_bar(args.games),
    )
    first = result.pop("_first")
    if args.record and first is not None:
        Path(args.record).write_text(json.dumps(make_record(first.state), indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
    else:
        print(
            f"{result['map']} ({result['variant']}{', ' + ', '.join(options) if options else ''}), "
            f"{players} players: {result['games']} games, {result['errors']} errors, "
            f"{result['invariant_violations']} invariant violations, {result['mean_turns']:.1f} turns/game, "
            f"{result['games_per_second']:.1f} games/s"
        )
        for line in result["error_messages"] + result["violation_messages"]:
            print("  " + line)
    return 1 if result["errors"] or result["invariant_violations"] else 0


def _format_tournament(result: dict[str, Any]) -> str:
    lines = [f"{result.get('map')}: {result.get('games')} games"]
    for i, seat in enumerate(result.get("seats", [])):
        lines.append(
            f"  seat {i + 1} {seat:7} wins {result['wins'][i]:4}  mean score "
            f"{result['mean_scores'][i]:6.1f}  decision {result['mean_decision_ms'][i]:7.2f} ms"
        )
    for level, info in result.get("levels", {}).items():
        lines.append(
            f"  level {level:7} win rate {100 * info['win_rate']:5.1f}%  mean score {info['mean_score']:6.1f}  "
            f"decision p50 {info['p50_decision_ms']:7.2f} ms, p95 {info['p95_decision_ms']:7.2f} ms"
        )
    for error in result.get("errors", []):
        lines.append("  error: " + error)
    return "\n".join(lines)


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as exc:
        raise GameDataError(f"cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise GameDataError(f"{path} is not valid JSON: {exc}") from exc


def _scores_output(state: Any) -> dict[str, Any]:
    from engine.scoring import final_scores, winners

    sheets = final_scores(state)
    return {"players": [s.to_json() for s in sheets], "winners": winners(sheets)}


def _print_scores(out: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    for p in sorted(out["players"], key=lambda p: p["rank"]):
        bonuses = ", ".join(f"{k} {v}" for k, v in p["bonuses"].items() if v)
        print(
            f"{p['rank']}. {p['name']}: {p['total']} (routes {p['route_points']}, tickets {p['ticket_points']}"
            f" [{p['completed_tickets']}/{len(p['tickets'])} done]{', ' + bonuses if bonuses else ''})"
        )
    print("Winner: " + " and ".join(out["winners"]))


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.record import replay

    state = replay(_read_json(args.file))
    if not state.finished:
        print(f"note: the record stops before the end of the game (turn {state.turn})", file=sys.stderr)
    _print_scores(_scores_output(state), args.json)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from engine.scoresheet import score_json

    out = score_json(_read_json(args.file))
    _print_scores(out, not args.text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="ttr", description="Ticket to Ride for Discord")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("maps", help="list boards, variants and the status of their data")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_maps)

    p = sub.add_parser("simulate", help="play random (or AI) games and check the rules' invariants")
    p.add_argument("--map", required=True, help="a board; with --seats also several (europe,usa) or all")
    p.add_argument("--variant")
    p.add_argument("--option", action="append", help="game option, e.g. warehouses (repeatable)")
    p.add_argument("--players", type=positive)
    p.add_argument(
        "--seats",
        help="seat types, e.g. normal,hard,random,random (sets the player count): a tournament, seats rotating",
    )
    p.add_argument("--games", type=positive, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--record", help="write the first game's record (JSON) here")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="replay a game record and print the final scores")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="score a finished position given as JSON")
    p.add_argument("file")
    p.add_argument("--text", action="store_true", help="a readable table instead of JSON")
    p.set_defaults(func=cmd_score)

    for ep in entry_points(group="ttr.commands"):
        try:
            register = ep.load()
        except ImportError as exc:  # a layer whose dependencies are missing: its command is left out
            if not (isinstance(exc, ModuleNotFoundError) and exc.name and ep.value.startswith(exc.name)):
                print(f"warning: ttr {ep.name} unavailable: {exc}", file=sys.stderr)
            continue
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (GameDataError, BoardDataError, IllegalAction, UsageError) as exc:
        # IllegalAction here is the game the command line asks for (6 players on a 2-5 board), never a move
        print(f"error: {exc}", file=sys.stderr)
    except OSError as exc:  # a file the command cannot read or write (--out, --record)
        print(f"error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())

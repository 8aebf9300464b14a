"""Every refusal of the `ttr` command line is one line on stderr and exit status 2, never a traceback: bad
arguments (argparse's own refusals too), a game the board cannot seat, files that cannot be read or written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    """Run `ttr argv` in this process: its exit status (argparse's SystemExit too) and its stderr."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def bad_files(tmp: Path) -> dict[str, str]:
    files = {
        "empty": "{}",
        "list": "[1, 2]",
        "not_json": "{nope",
        "one_player": json.dumps({"map": "usa", "players": [{"name": "a", "routes": [["x", "y"]]}]}),
        "actions_not_a_list": json.dumps({"map": "usa", "players": ["a", "b"], "seed": 1, "actions": 5}),
        "map_not_a_name": json.dumps({"map": 5, "players": ["a", "b"], "seed": 1, "actions": []}),
        "routes_not_a_list": json.dumps(
            {"map": "usa", "players": [{"name": "a", "routes": 5}, {"name": "b"}]}
        ),
        "stations_not_a_list": json.dumps(
            {"map": "europe", "players": [{"name": "a", "stations": 5}, {"name": "b"}]}
        ),
        "players_not_objects": json.dumps({"map": "usa", "players": [5, 6]}),
        "depots_not_a_count": json.dumps(
            {
                "map": "europe",
                "options": ["warehouses"],
                "players": [{"name": "a", "depots_in_reserve": "x"}, {"name": "b"}],
            }
        ),
        "bad_action": json.dumps(
            {
                "map": "usa",
                "players": ["a", "b"],
                "seed": 1,
                "actions": [{"seat": 0, "action": {"kind": "x"}}],
            }
        ),
    }
    paths = {}
    for name, text in files.items():
        path = tmp / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


CASES = [
    ["simulate", "--map", "japan", "--players", "6", "--games", "1"],  # the traceback
    ["simulate", "--map", "usa", "--players", "1", "--games", "1"],
    ["simulate", "--map", "usa", "--players", "0"],
    ["simulate", "--map", "usa", "--games", "-1"],
    ["simulate", "--map", "usa", "--games", "many"],
    ["simulate", "--map", "nowhere"],
    ["simulate", "--map", "usa", "--variant", "nope"],
    ["simulate", "--map", "usa", "--option", "nope"],
    ["simulate", "--map", "usa", "--seats", "normal,genius", "--games", "1"],
    ["simulate", "--map", "japan", "--seats", "random,random,random,random,random,random", "--games", "1"],
    ["simulate", "--map", "usa", "--games", "1", "--record", "/nonexistent-dir/game.json"],
    ["simulate"],
    ["render", "--map", "japan", "--players", "6", "--turns", "1", "--out", "{tmp}/b.png"],
    ["render", "--map", "nowhere", "--out", "{tmp}/b.png"],
    ["render", "--map", "usa", "--width", "0", "--out", "{tmp}/b.png"],
    ["render", "--map", "usa", "--turns", "1", "--out", "/nonexistent-dir/b.png"],
    ["render", "--map", "usa"],
    ["replay", "/nonexistent-dir/game.json"],
    ["replay", "{empty}"],
    ["replay", "{list}"],
    ["replay", "{not_json}"],
    ["replay", "{bad_action}"],
    ["replay", "{actions_not_a_list}"],
    ["replay", "{map_not_a_name}"],
    ["replay"],
    ["score", "/nonexistent-dir/position.json"],
    ["score", "{empty}"],
    ["score", "{not_json}"],
    ["score", "{one_player}"],
    ["score", "{routes_not_a_list}"],
    ["score", "{stations_not_a_list}"],
    ["score", "{players_not_objects}"],
    ["score", "{depots_not_a_count}"],
    ["nonsense"],
]


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[:60])
def test_a_refusal_is_one_line_and_status_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = bad_files(tmp_path)
    args = [a.format(tmp=tmp_path, **files) for a in argv]
    code, err = refused(capsys, args)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1, err
    assert "Traceback" not in err and "error" in lines[0]


def test_the_installed_command_refuses_six_players_on_japan_without_a_traceback() -> None:
    """The same through a real process (the entry point's `sys.exit(main())`): what a user's shell sees."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TTR_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "simulate", "--map", "japan", "--players", "6"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: Japan is played by 2 to 5 players, not 6."
    assert done.stdout == ""

"""The compiled engine and AI (mypyc, setup.py) against their sources: the same games, never a stale build.

These tests need the compiled modules (`pip install -e .` with a C compiler); without them they are skipped, as
the whole suite then runs the sources themselves.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.simulate import SAMPLE_SETUPS, play_game

ROOT = Path(engine.__file__).resolve().parent.parent

needs_compiled = pytest.mark.skipif(not engine.COMPILED_MODULES, reason="the engine is not compiled here")

PLAY = """
import json, sys
import engine
from engine.ai.tournament import play_match
from engine.simulate import play_game
out = {"compiled": sorted(engine.COMPILED_MODULES), "games": [], "ai": []}
for board, variant, options in json.loads(sys.argv[1]):
    state = play_game(board, 3, 7, variant=variant, options=tuple(options), check=True).state
    out["games"].append(state.to_json())
for board, seats in json.loads(sys.argv[2]):
    # a huge budget: hard's search then stops at its world count, whatever the speed
    match = play_match(board, None, (), seats, 5, budget_ms=1e9, keep_state=True)
    out["ai"].append(match.state.to_json())
print(json.dumps(out))
"""
AI_GAMES = [("germany", ["easy", "normal", "normal"]), ("italy", ["normal", "easy"])]


def run_python(code: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    return done.stdout + done.stderr


@needs_compiled
def test_compiled_and_pure_python_engines_and_ais_play_exactly_the_same_games() -> None:
    compiled = json.loads(run_python(PLAY, json.dumps(SAMPLE_SETUPS), json.dumps(AI_GAMES)))
    pure = json.loads(
        run_python(PLAY, json.dumps(SAMPLE_SETUPS), json.dumps(AI_GAMES), env={"TTR_PURE_PYTHON": "1"})
    )
    assert pure["compiled"] == [] and "engine.rules" in compiled["compiled"]
    assert "engine.ai.policy" in compiled["compiled"]
    assert pure["games"] == compiled["games"]
    assert pure["ai"] == compiled["ai"]
    here = [play_game(b, 3, 7, variant=v, options=o, check=True).state.to_json() for b, v, o in SAMPLE_SETUPS]
    assert here == compiled["games"]


@needs_compiled
def test_hard_searches_the_same_worlds_compiled_or_not() -> None:
    decide = """
import json, random
import engine
from engine.ai import choose_action
from engine.playout import random_legal_action
from engine.rules import apply, new_game, to_act
state = new_game("europe", 3, seed=4)
rng = random.Random(4)
for _ in range(60):
    seat = to_act(state)[0]
    apply(state, seat, random_legal_action(state, seat, rng))
seat = to_act(state)[0]
print(json.dumps([choose_action(state, seat, "hard", random.Random(k), budget_ms=1e9).to_json() for k in range(2)]))
"""
    compiled = run_python(decide)
    assert compiled == run_python(decide, env={"TTR_PURE_PYTHON": "1"})


def _copy_of_the_engine(tmp_path: Path) -> Path:
    """The engine package (compiled modules included) and mypyc's shared library, in a folder of their own."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__", "ai"))
    shutil.copytree(
        ROOT / "engine" / "ai", tmp_path / "engine" / "ai", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert any(name.endswith("__mypyc") for name in sys.modules), (
        "a compiled engine loads mypyc's shared library"
    )
    # every group's library, loaded here or not (the AI's is loaded only once a test imported engine.ai)
    for library in ROOT.glob("*__mypyc.*"):
        shutil.copy(library, tmp_path)
    return tmp_path


WHICH = """
import engine, engine.rules, engine.state, engine.features, engine.ai.policy
print(len(engine.COMPILED_MODULES), engine.rules.__file__, engine.state.__file__, engine.features.__file__)
print(engine.ai.policy.__file__)
"""


@needs_compiled
def test_an_edited_source_is_never_shadowed_by_its_stale_compiled_module(tmp_path: Path) -> None:
    copy = _copy_of_the_engine(tmp_path)
    env = {"PYTHONPATH": str(copy)}
    intact = run_python(WHICH, env=env, cwd=copy)
    assert intact.split()[0] == str(len(engine.COMPILED_MODULES))
    files = intact.split()[1:5]
    assert all(f.startswith(str(copy)) and not f.endswith(".py") for f in files)  # compiled, from the copy

    with (copy / "engine" / "scoring.py").open("a") as f:
        f.write("\n# edited after the build\n")
    edited = run_python(WHICH, env=env, cwd=copy)
    count, *files = edited.split()[:5]
    assert count == "0"  # the engine's group all from source, and the AI which calls it
    assert all(f.endswith(".py") for f in files)
    assert "engine.scoring changed since it was compiled" in edited
    assert "pip install -e ." in edited


@needs_compiled
def test_an_edited_ai_module_leaves_the_engine_compiled(tmp_path: Path) -> None:
    copy = _copy_of_the_engine(tmp_path)
    with (copy / "engine" / "ai" / "plan.py").open("a") as f:
        f.write("\n# edited after the build\n")
    out = run_python(WHICH, env={"PYTHONPATH": str(copy)}, cwd=copy)
    count, rules, state, features, policy = out.split()[:5]
    assert 0 < int(count) < len(engine.COMPILED_MODULES)
    assert not any(f.endswith(".py") for f in (rules, state, features))
    assert policy.endswith(".py")  # every module of the AI group, not only the edited one
    assert "engine.ai.plan changed since it was compiled" in out


@needs_compiled
def test_the_pure_python_switch_loads_every_source(tmp_path: Path) -> None:
    out = run_python(WHICH, env={"TTR_PURE_PYTHON": "1"})
    count, *files = out.split()[:5]
    assert count == "0" and all(f.endswith(".py") for f in files)
    assert "changed since" not in out  # asked for, not stale: no warning


@needs_compiled
def test_compiled_modules_whose_shared_library_is_missing_run_from_source(tmp_path: Path) -> None:
    copy = _copy_of_the_engine(tmp_path)
    # a group whose library cannot be found, as when an editable install's path mapping predates the build
    manifest = copy / "engine" / "compiled.json"
    data = json.loads(manifest.read_text())
    data["groups"] = {"ttr_gone" if name == "ttr_engine" else name: g for name, g in data["groups"].items()}
    manifest.write_text(json.dumps(data))
    out = run_python(WHICH, env={"PYTHONPATH": str(copy)}, cwd=copy)
    count, *files = out.split()[:5]
    assert count == "0" and all(f.endswith(".py") for f in files)
    assert "ttr_gone__mypyc is not importable" in out

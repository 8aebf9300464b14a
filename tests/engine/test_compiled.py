"""The compiled engine (mypyc, setup.py) against its sources: the same games, and never a stale build.

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
from engine.simulate import play_game
out = {"compiled": sorted(engine.COMPILED_MODULES), "games": []}
for board, variant, options in json.loads(sys.argv[1]):
    state = play_game(board, 3, 7, variant=variant, options=tuple(options), check=True).state
    out["games"].append(state.to_json())
print(json.dumps(out))
"""


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
def test_compiled_and_pure_python_engines_play_exactly_the_same_games() -> None:
    here = [play_game(b, 3, 7, variant=v, options=o, check=True).state.to_json() for b, v, o in SAMPLE_SETUPS]
    pure = json.loads(run_python(PLAY, json.dumps(SAMPLE_SETUPS), env={"TTR_PURE_PYTHON": "1"}))
    assert pure["compiled"] == []
    assert pure["games"] == here


def _copy_of_the_engine(tmp_path: Path) -> Path:
    """The engine package (compiled modules included) and mypyc's shared library, in a folder of their own."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__", "ai"))
    shutil.copytree(
        ROOT / "engine" / "ai", tmp_path / "engine" / "ai", ignore=shutil.ignore_patterns("__pycache__")
    )
    shared = [name for name in sys.modules if name.endswith("__mypyc")]
    assert shared, "a compiled engine loads mypyc's shared library"
    for name in shared:
        module_file = sys.modules[name].__file__
        assert module_file is not None
        shutil.copy(module_file, tmp_path)
    return tmp_path


WHICH = """
import engine, engine.rules, engine.state, engine.features
print(len(engine.COMPILED_MODULES), engine.rules.__file__, engine.state.__file__, engine.features.__file__)
"""


@needs_compiled
def test_an_edited_source_is_never_shadowed_by_its_stale_compiled_module(tmp_path: Path) -> None:
    copy = _copy_of_the_engine(tmp_path)
    env = {"PYTHONPATH": str(copy)}
    intact = run_python(WHICH, env=env, cwd=copy)
    assert intact.split()[0] == str(len(engine.COMPILED_MODULES))
    assert str(copy) in intact and ".py " not in intact + " "  # all three compiled, from the copy

    with (copy / "engine" / "scoring.py").open("a") as f:
        f.write("\n# edited after the build\n")
    edited = run_python(WHICH, env=env, cwd=copy)
    count, *files = edited.split()[:4]
    assert count == "0"  # all or nothing: compiled modules call each other directly
    assert all(f.endswith(".py") for f in files)
    assert "engine.scoring changed since the engine was compiled" in edited
    assert "pip install -e ." in edited


@needs_compiled
def test_the_pure_python_switch_loads_every_source(tmp_path: Path) -> None:
    out = run_python(WHICH, env={"TTR_PURE_PYTHON": "1"})
    count, *files = out.split()[:4]
    assert count == "0" and all(f.endswith(".py") for f in files)
    assert "changed since" not in out  # asked for, not stale: no warning

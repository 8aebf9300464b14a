"""Build step: compile the rules engine's modules to C with mypyc (games run about 3x faster).

Everything else is in pyproject.toml. The compiled modules sit beside their sources, with `engine/compiled.json`
(the sha256 of each source). `engine/__init__.py` uses them only when every hash matches, so an edited source is
never shadowed by a stale build: it runs as Python until the next `pip install -e .`. Without a C compiler, or
with TTR_PURE_PYTHON=1 at install time, the build is skipped and the engine is pure Python (correct, slower).

Not compiled: engine/actions.py, engine/pending.py and the board modules that define action or pending types
(mypyc turns a dataclass's ClassVar into a field: github.com/mypyc/mypyc/issues/1122), the CLI, the AI.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
COMPILED = [
    "engine/cards.py",
    "engine/claims.py",
    "engine/errors.py",
    "engine/open_routes.py",
    "engine/record.py",
    "engine/rules.py",
    "engine/scoresheet.py",
    "engine/scoring.py",
    "engine/simulate.py",
    "engine/state.py",
    "engine/tickets.py",
    "engine/turn.py",
    "engine/views.py",
    "engine/features/__init__.py",
    "engine/features/bullet_trains.py",
    "engine/features/merchandise.py",
    "engine/features/passenger_trips.py",
    "engine/features/regions.py",
    "engine/features/stations.py",
    "engine/features/tunnels.py",
    "engine/features/warehouses.py",
]
MANIFEST = "engine/compiled.json"


def module_name(path: str) -> str:
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or warns and leaves the pure-Python engine if that fails."""

    def run(self) -> None:
        target = Path(self.get_ext_fullpath("engine.rules")).parent.parent  # the folder holding `engine/`
        manifest = target / MANIFEST
        manifest.unlink(missing_ok=True)
        if self.inplace:  # an earlier build's modules would shadow sources no longer compiled: start clean
            for package in ("engine", "maps"):
                for old in (target / package).rglob("*.so"):
                    old.unlink()
            for old in target.glob("*__mypyc.*"):
                old.unlink()
        try:
            super().run()
        except Exception as exc:  # no compiler, or a mypyc failure: the sources still work
            self.warn(f"compiling the engine failed ({exc}); it will run as pure Python")
            return
        sources = {module_name(p): hashlib.sha256((HERE / p).read_bytes()).hexdigest() for p in COMPILED}
        manifest.write_text(json.dumps({"sources": sources}, indent=1) + "\n")


def extensions() -> list[Extension]:
    if os.environ.get("TTR_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not available: the engine will run as pure Python")
        return []
    try:
        return mypycify(COMPILED, opt_level="3")
    except (
        Exception,
        SystemExit,
    ) as exc:  # mypyc exits on a type error  # a module mypyc cannot compile: stay pure Python rather than fail the install
        print(f"mypyc could not compile the engine ({exc}): it will run as pure Python")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})

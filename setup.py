"""Build step: compile the rules engine and the AI to C with mypyc (games about 1.6x, AI decisions about 3x faster).

Everything else is in pyproject.toml. The compiled modules sit beside their sources, with `engine/compiled.json`
(the sha256 of each source, by group). `engine/__init__.py` uses a group only when every hash of it and of the
groups before it matches, so an edited source is never shadowed by a stale build: it runs as Python until the
next `pip install -e .`. Without a C compiler, or with TTR_PURE_PYTHON=1 at install time, the build is skipped and
everything is pure Python (correct, slower).

Groups: the AI calls the engine, so an edited engine module sends the AI back to Python too, while an edited AI
module leaves the engine compiled. Not compiled: engine/actions.py and engine/pending.py (mypyc turns a
dataclass's ClassVar into a field: github.com/mypyc/mypyc/issues/1122), the CLI, the AI's entry point and
tournament runner.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# in dependency order: a group may call the groups before it
GROUPS: dict[str, list[str]] = {
    "ttr_engine": [
        "engine/cards.py",
        "engine/claims.py",
        "engine/errors.py",
        "engine/handlers.py",
        "engine/legal.py",
        "engine/open_routes.py",
        "engine/payable.py",
        "engine/playout.py",
        "engine/record.py",
        "engine/rules.py",
        "engine/scoresheet.py",
        "engine/scoring.py",
        "engine/sheets.py",
        "engine/simulate.py",
        "engine/state.py",
        "engine/tickets.py",
        "engine/turn.py",
        "engine/union_find.py",
        "engine/views.py",
        "engine/features/__init__.py",
        "engine/features/bullet_trains.py",
        "engine/features/ferry_cards.py",
        "engine/features/meeples.py",
        "engine/features/merchandise.py",
        "engine/features/passengers.py",
        "engine/features/regions.py",
        "engine/features/stations.py",
        "engine/features/tunnels.py",
        "engine/features/warehouses.py",
    ],
    "ttr_ai": [
        "engine/ai/context.py",
        "engine/ai/infoset.py",
        "engine/ai/modules.py",
        "engine/ai/plan.py",
        "engine/ai/policy.py",
        "engine/ai/search.py",
    ],
}
MANIFEST = "engine/compiled.json"


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or warns and leaves everything pure Python if that fails."""

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
        if not self.extensions:  # mypyc unavailable or refused the sources (see `extensions`)
            return
        try:
            super().run()
        except Exception as exc:  # no compiler: the sources still work
            self.warn(f"compiling the engine failed ({exc}); it will run as pure Python")
            return
        built = {ext.name.removesuffix(".__init__") for ext in self.extensions}
        groups = {
            group: {module_name(p): hashlib.sha256((HERE / p).read_bytes()).hexdigest() for p in paths}
            for group, paths in GROUPS.items()
            if all(module_name(p) in built for p in paths)
        }
        manifest.write_text(json.dumps({"groups": groups}, indent=1) + "\n")


def extensions() -> list[Extension]:
    if os.environ.get("TTR_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not available: the engine will run as pure Python")
        return []
    names = list(GROUPS)
    while names:  # all the groups, else fewer: a group mypyc refuses must not cost the groups before it
        paths = [p for name in names for p in GROUPS[name]]
        try:
            return mypycify(paths, opt_level="3", separate=[(GROUPS[name], name) for name in names])
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error
            print(f"mypyc could not compile {', '.join(names)} ({exc})")
            names.pop()
    print("the engine will run as pure Python")
    return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})

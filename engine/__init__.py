"""The Ticket to Ride rules engine: pure, synchronous and deterministic.

Its hot modules and the AI may be compiled by mypyc (see setup.py), in groups. A group's compiled modules are used
only when `engine/compiled.json` lists the sha256 of each of their sources and every source of the group and of
the groups before it still matches; otherwise (a source edited since the build, or TTR_PURE_PYTHON=1) the
group's modules and those of the groups after it load from their .py files, so a stale build can never run in
place of the code on disk. Both forms play exactly the same games.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent
COMPILED_MODULES: frozenset[str] = frozenset()  # the engine modules running compiled in this process


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the named modules from their .py files even where a compiled module sits beside them."""

    def __init__(self, modules: set[str]):
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.modules or not path:
            return None
        sources_only = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        return importlib.machinery.FileFinder(path[0], sources_only).find_spec(fullname, target)


def _source_of(module: str) -> Path:
    """engine.rules -> engine/rules.py; engine.features -> engine/features/__init__.py."""
    path = _HERE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _modules_with_compiled_files() -> set[str]:
    """engine.rules for engine/rules.cpython-311-x86_64-linux-gnu.so, and so on."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)  # the longest that fits
    found = set()
    for path in _HERE.rglob("*.*"):
        suffix = next((s for s in suffixes if path.name.endswith(s)), None)
        if suffix is not None:
            parts = path.relative_to(_HERE.parent).with_name(path.name.removesuffix(suffix)).parts
            found.add(".".join(parts).removesuffix(".__init__"))
    return found


def _stale(modules: dict[str, str]) -> list[str]:
    """The modules whose source no longer has the hash it was compiled from."""
    stale = []
    for module, digest in modules.items():
        try:
            if hashlib.sha256(_source_of(module).read_bytes()).hexdigest() != digest:
                stale.append(module)
        except OSError:
            stale.append(module)
    return stale


def _use_compiled_modules() -> frozenset[str]:
    """Decides, group by group in dependency order, which compiled modules run; the rest load from source."""
    with_compiled_file = _modules_with_compiled_files()
    if not with_compiled_file:
        return frozenset()
    try:
        groups: dict[str, dict[str, str]] = json.loads((_HERE / "compiled.json").read_text())["groups"]
    except (OSError, ValueError, KeyError):
        # no manifest we can read: nothing compiled is known to be current
        groups = {}
        logging.getLogger(__name__).warning(
            "engine: compiled modules without a readable engine/compiled.json; running everything as pure Python "
            "(slower). Rebuild with: pip install -e ."
        )
    compiled: set[str] = set()
    from_source: set[str] = set(with_compiled_file)  # minus what the manifest vouches for, below
    pure = bool(os.environ.get("TTR_PURE_PYTHON"))
    for group, modules in groups.items():
        stale = [] if pure else _stale(modules)
        if not pure and not stale and importlib.util.find_spec(f"{group}__mypyc") is None:
            # the group's shared library is not on the path (an editable install older than the build)
            logging.getLogger(__name__).warning(
                "engine: %s__mypyc is not importable; running %s as pure Python (slower). "
                "Reinstall with: pip install -e .",
                group,
                group,
            )
            pure = True
        if stale:
            logging.getLogger(__name__).warning(
                "engine: %s changed since it was compiled; running %s as pure Python (slower). "
                "Rebuild with: pip install -e .",
                ", ".join(sorted(stale)),
                "it and what depends on it" if len(stale) == 1 else "them and what depends on them",
            )
        # a compiled group calls the compiled code of the groups before it: after one runs from source, all do
        pure = pure or bool(stale) or not modules
        (from_source if pure else compiled).update(modules)
    from_source -= compiled
    if from_source:
        sys.meta_path.insert(0, _SourcesFirst(from_source))
    return frozenset(compiled)


COMPILED_MODULES = _use_compiled_modules()

"""The Ticket to Ride rules engine: pure, synchronous and deterministic.

Its hot modules may be compiled by mypyc (see setup.py). The compiled modules are used only when
`engine/compiled.json` lists the sha256 of each of their sources and every source still matches; otherwise (a
source edited since the build, or TTR_PURE_PYTHON=1) every module listed there is loaded from its .py file, so a
stale build can never run in place of the code on disk. Both forms play exactly the same games.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
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


def _use_compiled_modules() -> frozenset[str]:
    manifest = _HERE / "compiled.json"
    if not manifest.exists():
        return frozenset()
    try:
        sources: dict[str, str] = json.loads(manifest.read_text())["sources"]
    except (OSError, ValueError, KeyError):
        sources = {}
    stale = []
    for module, digest in sources.items():
        try:
            if hashlib.sha256(_source_of(module).read_bytes()).hexdigest() != digest:
                stale.append(module)
        except OSError:
            stale.append(module)
    if sources and not stale and not os.environ.get("TTR_PURE_PYTHON"):
        return frozenset(sources)
    if stale:
        logging.getLogger(__name__).warning(
            "engine: %s changed since the engine was compiled; running it as pure Python (slower). "
            "Rebuild with: pip install -e .",
            ", ".join(sorted(stale)),
        )
    sys.meta_path.insert(0, _SourcesFirst(set(sources)))
    return frozenset()


COMPILED_MODULES = _use_compiled_modules()

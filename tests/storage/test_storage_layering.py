"""The storage layer stays below the bot: no discord, no engine, no render, no sibling bot modules."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.storage

FORBIDDEN = ("discord", "engine", "render", "maps")


def test_storage_imports_nothing_above_it() -> None:
    package = Path(bot.storage.__file__).parent
    offenders = []
    for source in sorted(package.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: only inside bot.storage
                    if node.level > 1:
                        offenders.append(f"{source.name}: from {'.' * node.level}{node.module or ''}")
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in FORBIDDEN or (name.startswith("bot.") and not name.startswith("bot.storage")):
                    offenders.append(f"{source.name}: {name}")
    assert offenders == []

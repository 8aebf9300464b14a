"""Guards that keep the layers named and pointing inward: imports between packages, import cycles between
modules, and module size. They read the source with `ast` (nothing is imported), so they also see imports
inside functions. The layer rules read the imports that run; the cycle test also reads those under
`if TYPE_CHECKING:`, since a circle of type names is still two modules that cannot be read apart.

    bot.discord  ->  bot.play  ->  bot.manager  ->  bot.storage    (bot.play never imports bot.storage)
    bot.wiring (the composition root) builds storage, manager, pictures and service for bot.discord
    bot.ops (metrics, health, logs, backups) beside the composition root: it watches the parts, none knows it
                                 bot.play  ->  bot.presenters  (each feature's words; the manager returns facts)
        (all of bot)         ->  render  ->  engine  ->  maps

Only `bot.discord` imports discord.py. `bot.messages` (the message model) is the ground floor of `bot`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "maps", "render", "bot")
MAX_LINES = 600
#: One worker reads and parses the tree once for all these tests (two parsed it twice).
pytestmark = pytest.mark.xdist_group("architecture")

#: A module may be longer when its docstring says why, in a sentence that starts with this.
LONG_REASON = "Long module:"
#: Long modules that other work of issue 14 is splitting now; each entry goes when its split lands.
BEING_SPLIT: dict[str, str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node except the bodies of `if TYPE_CHECKING:` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


@cache
def imports_of(name: str, *, types: bool = False) -> frozenset[str]:
    """Absolute names of the modules `name` imports at run time, and with `types` also under
    `if TYPE_CHECKING:`. `from package import x` counts as importing `package.x` when that is a module, else
    `package`."""
    path = modules()[name]
    return imports_in(
        path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py", types=types
    )


def imports_in(source: str, name: str, *, is_package: bool = False, types: bool = False) -> frozenset[str]:
    """The modules that the source of module `name` imports (see :func:`imports_of`)."""
    package = name if is_package else name.rpartition(".")[0]
    tree = ast.parse(source)
    out: set[str] = set()
    for node in ast.walk(tree) if types else _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                out.add(submodule if submodule in modules() else source)
    return frozenset(out)


def internal_imports(name: str, *, types: bool = False) -> set[str]:
    """The project modules `name` imports (a from-import of a submodule counts as that submodule)."""
    known = modules()
    return {target for target in imports_of(name, types=types) if target in known and target != name}


def tops(name: str) -> set[str]:
    return {target.split(".")[0] for target in imports_of(name)}


def _in(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


# ------------------------------------------------------------------------------------------------ layers

#: (who, what they must not import, why)
RULES: list[tuple[tuple[str, ...], tuple[str, ...], str]] = [
    (("maps",), ("engine", "render", "bot", "discord"), "maps is data and its loader: the bottom"),
    (("engine",), ("render", "bot", "discord"), "the engine is pure and knows no layer above it"),
    (("render",), ("bot", "discord"), "render draws engine states for anyone, not only the bot"),
    (("bot.storage", "bot.database_url"), ("engine", "render", "maps", "discord", "bot"), "storage stores opaque records: the bottom of bot, with the parser of its URL"),
    (("bot.messages",), ("bot", "engine", "render", "maps", "discord"), "the message model is the ground floor"),
    (("bot.manager",), ("discord", "bot.discord", "bot.play", "bot.config"), "the manager knows no presentation"),
    (("bot.manager",), ("bot.presenters",), "the manager returns facts; bot.play words them (bot.play.event_words)"),
    (("bot.play",), ("discord", "bot.discord"), "the presentation is plain data; the adapter shows it"),
    (("bot.play",), ("bot.storage",), "the manager is the presentation's only door: its refusals, its read types"),
    (("bot.play", "bot.manager", "bot.storage", "bot.presenters"), ("bot.wiring",), "the composition root builds them; none knows it"),
    (("bot.presenters",), ("discord", "bot.discord", "bot.play", "bot.manager", "bot.storage", "render"), "feature words, below manager and play"),
    (("bot.i18n", "bot.config", "bot.rules_text"), ("discord", "bot.discord", "bot.play"), "shared below play"),
    (("bot.web",), ("discord", "bot.discord", "bot.storage", "bot.wiring", "bot.launch"), "the live map serves pages over play and the manager; the composition root starts it"),
    (("bot.config", "bot.database_url"), ("bot.storage",), "settings are ground floor: storage uses their URL parser, not the other way"),
    (("bot.discord",), ("bot.storage", "bot.web"), "the chat adapter: storage and the live map are the composition root's to open and start (bot.wiring)"),
    (("bot.play", "bot.manager", "bot.presenters", "bot.storage"), ("bot.web",), "nothing below the live map knows it"),
    (("bot.ops",), ("discord", "bot.discord", "bot.play", "bot.web", "bot.presenters", "bot.wiring", "bot.launch"), "operations watch the parts through their hooks, duck-typed"),
    (("bot.play", "bot.manager", "bot.presenters", "bot.storage", "bot.web", "bot.config", "bot.i18n", "bot.messages"), ("bot.ops",), "the parts know nothing of who watches them"),
]  # fmt: skip


@pytest.mark.parametrize(("who", "forbidden", "why"), RULES, ids=[r[0][0] for r in RULES])
def test_layers_import_only_below_them(who: tuple[str, ...], forbidden: tuple[str, ...], why: str) -> None:
    offenders = sorted(
        f"{name} imports {target}"
        for name in modules()
        if _in(name, *who)
        for target in imports_of(name)
        if _in(target, *forbidden) and not _in(target, *who)
    )
    assert offenders == [], why


def test_the_live_map_reaches_storage_only_through_the_manager() -> None:
    """As bot.play: only Refused leaves the manager, whose read types are its own (bot.manager.door). Nor does
    it compose itself: `ttr web` is started by the composition root (bot.wiring)."""
    offenders = sorted(
        f"{name} imports {target}"
        for name in modules()
        if _in(name, "bot.web")
        for target in imports_of(name, types=True)
        if _in(target, "bot.storage", "bot.wiring")
    )
    assert offenders == []


def test_the_chat_adapter_is_given_its_service_by_the_composition_root() -> None:
    """As discord.py's advanced_startup example: the composition root (bot.wiring, and its launcher bot.launch)
    starts the process and hands the bot its service; no bot.discord module imports either, even for a type
    (the bot's parts are typed by bot.discord.app.ServiceParts)."""
    offenders = sorted(
        f"{name} imports {target}"
        for name in modules()
        if _in(name, "bot.discord")
        for target in imports_of(name, types=True)
        if _in(target, "bot.wiring", "bot.launch")
    )
    assert offenders == []


def test_the_adapter_reaches_no_storage_through_operations() -> None:
    """bot.discord uses bot.ops's logs and Discord watch (the wiring hands it the rest): none of the bot.ops modules
    it imports reaches storage, directly or through another bot.ops module."""
    reached: set[str] = set()
    todo = [t for n in modules() if _in(n, "bot.discord") for t in internal_imports(n) if _in(t, "bot.ops")]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(t for t in internal_imports(name) if _in(t, "bot.ops"))
    assert reached, "bot.discord uses bot.ops (its log format)"
    offenders = sorted(f"{n} imports {t}" for n in reached for t in imports_of(n) if _in(t, "bot.storage"))
    assert offenders == []


def test_only_bot_discord_imports_discord() -> None:
    offenders = sorted(name for name in modules() if "discord" in tops(name) and not _in(name, "bot.discord"))
    assert offenders == []


def test_nothing_below_the_adapter_imports_it() -> None:
    """`bot.discord` is reached from the process entries (`bot`, `bot.__main__`, `bot.cli`, `bot.launch`) only, and the
    cogs are loaded by name (`INITIAL_EXTENSIONS`), never imported."""
    entries = {"bot", "bot.__main__", "bot.cli", "bot.launch"}
    offenders = sorted(
        f"{name} imports {target}"
        for name in modules()
        if not _in(name, "bot.discord") and name not in entries
        for target in internal_imports(name)
        if _in(target, "bot.discord")
    )
    cogs = sorted(
        f"{n} imports {t}" for n in modules() for t in internal_imports(n) if _in(t, "bot.discord.cogs")
    )
    assert offenders == [] and cogs == []


def test_the_guards_see_the_layers() -> None:
    """The graph is not empty by mistake: known edges are found."""
    assert "bot.play.service" in internal_imports("bot.wiring")
    assert "bot.wiring" in internal_imports("bot.launch")
    assert "bot.discord.startup" in internal_imports("bot.launch")
    assert "bot.messages" in internal_imports("bot.play.reply")
    assert "discord" in tops("bot.discord.components")
    assert "engine.state" in internal_imports("render.from_engine")
    # a name imported only for its type: the cycle test sees it, the layer rules do not
    assert "engine.claims" in internal_imports("engine.features", types=True)
    assert "engine.claims" not in internal_imports("engine.features")


# ------------------------------------------------------------------------------------------------ cycles


def import_cycles() -> list[list[str]]:
    """Strongly connected groups of modules that import each other, directly or through others, at run time or
    for their types only (Tarjan)."""
    graph = {name: sorted(internal_imports(name, types=True)) for name in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so a deep import chain cannot hit the recursion limit
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for name in graph:
        if name not in index:
            visit(name)
    return sorted(groups)


#: Circles that work on another branch is breaking now; each entry goes when that work lands.
BEING_BROKEN: dict[tuple[str, ...], str] = {}


def test_no_import_cycles() -> None:
    assert [group for group in import_cycles() if tuple(group) not in BEING_BROKEN] == []


def test_circles_being_broken_are_still_circles() -> None:
    """An entry of BEING_BROKEN that is no longer a circle is stale: remove it."""
    assert sorted(set(BEING_BROKEN) - {tuple(group) for group in import_cycles()}) == []


def test_the_cycle_finder_finds_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    monkeypatch.setitem(globals(), "internal_imports", lambda name, types=False: set(fake[name]))
    monkeypatch.setitem(globals(), "modules", lambda: dict.fromkeys(fake, ROOT))
    assert import_cycles() == [["a", "b", "c"]]


def test_imports_for_types_only_count_for_the_cycles() -> None:
    source = """
from typing import TYPE_CHECKING

from engine.state import GameState

if TYPE_CHECKING:
    from engine.scoring import ScoreSheet
else:
    from engine import turn

def late() -> None:
    from . import cards
"""
    runtime = {"typing", "engine.state", "engine.turn", "engine.cards"}  # the else branch runs
    assert imports_in(source, "engine.x") == runtime
    assert imports_in(source, "engine.x", types=True) == runtime | {"engine.scoring"}


# ------------------------------------------------------------------------------------------------ size


def test_no_module_is_long_without_a_reason() -> None:
    too_long = []
    for path in modules().values():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        relative = path.relative_to(ROOT).as_posix()
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if lines > MAX_LINES and LONG_REASON not in docstring and relative not in BEING_SPLIT:
            too_long.append(f"{relative}: {lines} lines")
    assert too_long == []


def test_modules_being_split_are_still_long() -> None:
    """An entry of BEING_SPLIT whose module got short (or went) is stale: remove it."""
    stale = [
        path
        for path in BEING_SPLIT
        if not (ROOT / path).is_file()
        or len((ROOT / path).read_text(encoding="utf-8").splitlines()) <= MAX_LINES
    ]
    assert stale == []


def private_imports(name: str) -> list[str]:
    """The ``from render.x import _y`` of module `name` that reach another module's underscore name."""
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(p for p in (base, node.module or "") if p)
            found += [
                f"{source}.{a.name}" for a in node.names if a.name.startswith("_") and a.name[1:2] != "_"
            ]
    return found


def test_render_shares_its_helpers_under_public_names() -> None:
    """A helper that another module of render uses is part of the package's API: it has a public name there."""
    offenders = sorted(
        f"{name} imports {target}"
        for name in modules()
        if _in(name, "render")
        for target in private_imports(name)
        if _in(target, "render")
    )
    assert offenders == []

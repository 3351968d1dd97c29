"""The package's import graph flows one way.

Each module's imports of other modules of the package are read from its source
(nothing is imported): those at the top of a module run when it is imported,
the deferred ones (inside a function, or under ``TYPE_CHECKING``) when they are
first needed. Neither kind may close a cycle, so that any module can be read,
tested and replaced knowing only the modules below it; the command line sits on
top, and the families of their own (impartial games, large games, the page) are
reached from it alone and never reach into the search.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import optimal_mm

PACKAGE = Path(optimal_mm.__file__).parent

#: The one cycle the deferred imports may close: the impartial games' registry
#: (``impartial.game._load_games``) imports the built-in games when a game is
#: first looked up by name, and each registers itself into it on import; a sum of
#: games (``impartial.sums``) looks its parts up there. It is the registry of
#: python-chess's variants, found by name.
REGISTRY = "optimal_mm.impartial.game"
REGISTERED = {f"optimal_mm.impartial.{name}" for name in
              ("cards", "date", "nim", "subtraction", "sums")}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imported(module: str, is_package: bool, node, known) -> list[str]:
    """The package's modules that the import statement ``node`` names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")[:len(module.split(".")) - node.level + is_package]
            base = ".".join(base + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [f"{base}.{alias.name}" for alias in node.names]
    found = []
    for name in names:
        while name not in known and "." in name:  # an attribute of a module
            name = name.rsplit(".", 1)[0]
        if name in known and name != module:
            found.append(name)
    return found


def _graphs() -> tuple[nx.DiGraph, nx.DiGraph]:
    """``(module-level imports, all imports)`` between the package's modules."""
    modules = _modules()
    top, every = nx.DiGraph(), nx.DiGraph()
    top.add_nodes_from(modules)
    every.add_nodes_from(modules)
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        at_top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(module, path.name == "__init__.py", node, modules):
                    every.add_edge(module, target)
                    if id(node) in at_top:
                        top.add_edge(module, target)
    return top, every


@pytest.fixture(scope="module")
def graphs():
    return _graphs()


def test_the_graph_is_read(graphs):
    top, every = graphs
    assert top.has_edge("optimal_mm.search", "optimal_mm.search_expected")
    assert top.has_edge("optimal_mm.search_expected", "optimal_mm.search_parts")
    assert every.has_edge("optimal_mm.player", "optimal_mm.consistent")  # deferred
    assert not top.has_edge("optimal_mm.player", "optimal_mm.consistent")


def test_module_level_imports_close_no_cycle(graphs):
    top, _ = graphs
    assert list(nx.simple_cycles(top)) == []


def test_deferred_imports_close_no_cycle_but_the_registry(graphs):
    _, every = graphs
    cycles = [sorted(cycle) for cycle in nx.simple_cycles(every)]
    outside = [cycle for cycle in cycles
               if not (REGISTRY in cycle and set(cycle) - {REGISTRY} <= REGISTERED)]
    assert outside == []
    assert cycles, "the registry's cycle is gone: drop its exception above"


def test_only_the_command_line_reaches_the_families(graphs):
    _, every = graphs
    for family in ("optimal_mm.impartial", "optimal_mm.largen", "optimal_mm.web",
                   "optimal_mm.cli"):
        users = {a for a, b in every.edges
                 if b.startswith(family) and not a.startswith(family)}
        allowed = {"optimal_mm.__main__"} if family == "optimal_mm.cli" else set()
        assert {u for u in users if not u.startswith("optimal_mm.cli")} <= allowed, family


def test_the_families_never_reach_into_the_search(graphs):
    _, every = graphs
    search = ("optimal_mm.search", "optimal_mm._search", "optimal_mm.runner",
              "optimal_mm.workers", "optimal_mm.checkpoint", "optimal_mm.kernels")
    for family in ("optimal_mm.impartial", "optimal_mm.largen", "optimal_mm.web"):
        reached = {b for a, b in every.edges if a.startswith(family)
                   and not b.startswith(family) and b.startswith(search)}
        assert reached == set(), family

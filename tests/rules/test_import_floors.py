"""No import cycles inside a game package: its modules read as floors, a lower module never
importing a higher one (GUIDE, "How we write code"; issue 16, "For all").

The imports are read from the source (``ast``), so the test costs nothing at run time and
also sees imports that happen inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
PACKAGES = ("reign_absolute", "reign_and_ruin", "reigns_the_council")


def _imports(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    prefix = f"rules.{package}"
    graph: dict[str, set[str]] = {}
    for path in sorted((RULES / package).glob("*.py")):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == prefix:
                    found.update(a.name for a in node.names)
                elif node.module.startswith(prefix + "."):
                    found.add(node.module[len(prefix) + 1 :].split(".")[0])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(prefix + "."):
                        found.add(alias.name[len(prefix) + 1 :].split(".")[0])
        graph[name] = found - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_the_package(package):
    graph = _imports(package)
    assert "__init__" in graph and len(graph) > 5, "the package's modules were not found"
    cycle = _cycle(graph)
    assert cycle is None, f"rules/{package}: import cycle {' -> '.join(cycle)}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"ending": {"reign"}, "reign": {"rounds"}, "rounds": {"ending"}}) == [
        "ending",
        "reign",
        "rounds",
        "ending",
    ]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_council_seats_are_the_lowest_floor():
    """Who the Monarch and the advisors are is read everywhere; the module answering it imports
    nothing of the package, and the end of a reign no longer reaches up to the reign's setup."""
    graph = _imports("reigns_the_council")
    assert graph["seats"] == set()
    assert not graph["ending"] & {"reign", "rounds", "moves", "state"}
    assert not graph["rounds"] & {"reign", "moves", "state"}

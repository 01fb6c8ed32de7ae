"""The package reads as floors (GUIDE: no import cycles; issue 16): every module of
rules/reign_supreme imports its package siblings at the top, and those imports form no cycle, so a
lower module (state, board, hexes) never reaches a higher one (turns, cards, setup)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "rules" / "reign_supreme"
NAME = "rules.reign_supreme"


def sibling_imports(tree: ast.Module) -> list[tuple[str, int]]:
    """(sibling module, line) of every import of a module of this package, anywhere in the file."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(NAME + "."):
                out.append((node.module.split(".")[2], node.lineno))
            elif node.module == NAME:
                out.extend((alias.name, node.lineno) for alias in node.names)
    return out


def graph() -> dict[str, set[str]]:
    return {
        f.stem: {m for m, _ in sibling_imports(ast.parse(f.read_text("utf-8")))} - {f.stem}
        for f in PACKAGE.glob("*.py")
    }


def test_sibling_imports_are_at_module_top():
    late = []
    for f in PACKAGE.glob("*.py"):
        tree = ast.parse(f.read_text("utf-8"))
        top = {n.lineno for n in tree.body if isinstance(n, ast.ImportFrom)}
        late += [
            f"{f.name}:{line} imports {m}" for m, line in sibling_imports(tree) if line not in top
        ]
    assert not late, late


def test_no_import_cycles():
    deps = graph()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join(path + [module])
        if module in done:
            return
        for dep in sorted(deps.get(module, ())):
            if dep in deps:
                visit(dep, path + [module])
        done.add(module)

    for module in sorted(deps):
        visit(module, [])
    assert (
        "auras" not in deps["board"]
        and "turns" not in deps["state"]
        and "cards" not in deps["state"]
    )

"""The engine's modules import each other in one direction only: no circle, none hidden in a function."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _engine_imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """``(engine module imported, at module level)`` for every import of an engine module in ``tree``."""
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("engine")]
        for name in names:
            found.append((name.removeprefix("engine").lstrip(".") or "__init__", id(node) in top))
    return found


def test_engine_modules_import_each_other_at_the_top_and_without_a_circle() -> None:
    graph: dict[str, set[str]] = {}
    local = []
    for path in sorted(ENGINE.glob("*.py")):
        imports = _engine_imports(ast.parse(path.read_text(encoding="utf-8")))
        graph[path.stem] = {name.split(".")[0] for name, _ in imports} - {path.stem, "__init__"}
        local += [f"{path.name} imports engine.{name} inside a function" for name, at_top in imports if not at_top]
    assert local == []
    assert {"adjudicate", "makers", "replay", "verdict", "simulate"} <= graph.keys()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import circle: " + " -> ".join((*path, module))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())

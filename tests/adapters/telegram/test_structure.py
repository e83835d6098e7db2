"""The shape of the Telegram adapter's code (issue 12 item 4): no import circle between its
modules, no class or function grown past what a reader takes in at once."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "adapters.telegram"
ROOT = Path(__file__).resolve().parents[3] / "adapters" / "telegram"
MAX_CLASS = 400  # lines
MAX_FUNCTION = 80


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.glob("*.py")):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        found[name] = path
    return found


def _imports(path: Path, known: set[str]) -> set[str]:
    """The package's modules ``path`` imports: anywhere in it (a function's own import, or
    one under ``TYPE_CHECKING``, closes a circle as much as one at the top)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == PACKAGE:  # ``from adapters.telegram import views``
                for a in node.names:
                    sub = f"{PACKAGE}.{a.name}"
                    out.add(sub if sub in known else PACKAGE)
            elif node.module in known:
                out.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path.name}: a relative import (this code uses absolute ones)")
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in ``graph`` (module -> the modules it imports), else ``None``."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt)
            if found is not None:
                return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start)
        if found is not None:
            return found
    return None


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


def test_no_import_circle_inside_the_adapter() -> None:
    modules = _modules()
    known = set(modules)
    graph = {name: _imports(path, known) - {name} for name, path in modules.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def _sizes() -> list[tuple[str, str, int, int]]:
    out = []
    for path in _modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                limit = MAX_CLASS if isinstance(node, ast.ClassDef) else MAX_FUNCTION
                lines = node.end_lineno - node.lineno + 1
                out.append((path.name, node.name, lines, limit))
    return out


@pytest.mark.parametrize("kind", ["class", "function"])
def test_no_class_or_function_too_long(kind: str) -> None:
    limit = MAX_CLASS if kind == "class" else MAX_FUNCTION
    long = [f"{f}: {name} ({n} lines)" for f, name, n, lim in _sizes() if lim == limit and n > lim]
    assert not long, f"over {limit} lines: {long}"

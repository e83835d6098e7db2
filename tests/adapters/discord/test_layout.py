"""The Discord adapter's modules import each other without a circle (the adapter wires its
parts; its parts know each other through ``protocols``), and none is a god class: no class
over ~400 lines, no function over ~80 (issue 12 item 4)."""

from __future__ import annotations

import ast
from pathlib import Path

import adapters.discord

PACKAGE = "adapters.discord"
ROOT = Path(adapters.discord.__file__).parent
MODULES = {p.stem: p for p in ROOT.glob("*.py") if p.stem != "__init__"}


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports, anywhere in it (``TYPE_CHECKING``
    blocks and function bodies included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            head, _, rest = name.partition(PACKAGE + ".")
            if head == "" and rest:
                module = rest.split(".")[0]
                if module in MODULES:
                    out.add(module)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph``, if there is one."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return [*path[path.index(n) :], n]
            if n not in state and (found := visit(n)) is not None:
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)) is not None:
            return found
    return None


def test_no_import_circle_inside_the_adapter() -> None:
    graph = {m: _imports(p) - {m} for m, p in MODULES.items()}
    assert graph["adapter"], "the walk found no import at all"
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or ())


def test_the_walk_sees_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_god_class_and_no_long_function() -> None:
    too_long = []
    for m, p in MODULES.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            limit = {ast.ClassDef: 400, ast.FunctionDef: 80, ast.AsyncFunctionDef: 80}
            most = limit.get(type(node))
            if most is not None:
                assert isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > most:
                    too_long.append(f"{m}.{node.name}: {size} lines")
    assert not too_long, too_long

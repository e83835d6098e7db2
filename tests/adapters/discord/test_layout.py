"""No class of the Discord adapter is a god class: none over ~400 lines, no function over
~80 (issue 12 item 4). Its modules import each other without a circle: the import-linter
contract "No import circle between the modules of one package" (pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

import adapters.discord

ROOT = Path(adapters.discord.__file__).parent
MODULES = {str(p.relative_to(ROOT)): p for p in ROOT.rglob("*.py") if p.stem != "__init__"}


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
